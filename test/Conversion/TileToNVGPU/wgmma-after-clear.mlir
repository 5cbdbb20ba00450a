// A wgmma gemm that is the first op after a tile.clear of its accumulator to
// touch it ignores the accumulator: its first k-step runs with scale-d = 0
// (D[<f32>, <zero>]) on undefined registers (llvm.mlir.poison, no load of
// the cleared registers), every later k-step with scale-d = 1. Otherwise
// LLVM materializes the zeros between the first k-step's wgmmas and ptxas
// serializes them (test/Target/wgmma-after-clear-ptx.test). Anything else
// that touches the accumulator in between, a clear in another block, or a
// loop that may run more than once keeps scale-d = 1 and the loads.
//
// RUN: tile-opt %s --test-tile-lower-fragments=chip=sm_90a | FileCheck %s

!As = memref<128x32xf16, #gpu.address_space<workgroup>>
!Bs = memref<32x128xf16, #gpu.address_space<workgroup>>
!Cl = memref<128x128xf32, #gpu.address_space<private>>
!G = memref<128x128xf32>

// Two 64-row slices times two k-steps: the first k-step of the first gemm
// ignores the accumulator; the second gemm adds to the first's result.
// CHECK-LABEL: func.func @clear_then_gemms
// CHECK-NOT: memref.load
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-NOT: memref.load
// CHECK-COUNT-2: nvvm.wgmma.mma_async {{.*}} D[<f32>, <zero>]
// CHECK-NOT: memref.load
// CHECK-COUNT-2: nvvm.wgmma.mma_async {{.*}} D[<f32>, <one>]
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: memref.load
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-NOT: <zero>
// CHECK-COUNT-4: nvvm.wgmma.mma_async {{.*}} D[<f32>, <one>]
// CHECK-NOT: <zero>
// CHECK: return
func.func @clear_then_gemms(%K: index) {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    tile.clear %C_l : !Cl
    tile.barrier
    tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
  }
  return
}

// A loop of one iteration (as the software pipeline leaves before an
// unrolled steady state): its gemm is the first after the clear. Not the
// gemm of a loop after it, which may run more than once.
// CHECK-LABEL: func.func @one_trip_loop
// CHECK: scf.for
// CHECK-COUNT-2: nvvm.wgmma.mma_async {{.*}} D[<f32>, <zero>]
// CHECK-COUNT-2: nvvm.wgmma.mma_async {{.*}} D[<f32>, <one>]
// CHECK: } {tile.steady_state = 2 : i64}
// CHECK: scf.for
// CHECK-NOT: <zero>
// CHECK: return
func.func @one_trip_loop(%K: index) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    tile.clear %C_l : !Cl
    scf.for %i = %c1 to %c2 step %c1 {
      tile.barrier
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    } {tile.steady_state = 2 : i64}
    scf.for %i = %c2 to %K step %c1 {
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    }
  }
  return
}

// A serial loop whose trip count is computed from constants, ceildiv(32, 32)
// here, unfolded inside the kernel: it runs once.
// CHECK-LABEL: func.func @one_trip_computed
// CHECK: scf.for
// CHECK-COUNT-2: nvvm.wgmma.mma_async {{.*}} D[<f32>, <zero>]
// CHECK-COUNT-2: nvvm.wgmma.mma_async {{.*}} D[<f32>, <one>]
// CHECK: return
func.func @one_trip_computed() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %K = arith.constant 32 : index
  %bk = arith.constant 32 : index
  %kt = arith.ceildivui %K, %bk : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    tile.clear %C_l : !Cl
    scf.for %k = %c0 to %kt step %c1 {
      tile.barrier
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    }
  }
  return
}

// Loops that may run more than once (two iterations; an unknown count):
// their gemm adds to the previous iteration's result from the second on.
// CHECK-LABEL: func.func @loops
// CHECK-NOT: <zero>
// CHECK: return
func.func @loops(%K: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    %D_l = tile.alloc_fragment : !Cl
    tile.clear %C_l : !Cl
    scf.for %i = %c0 to %c2 step %c1 {
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    }
    tile.clear %D_l : !Cl
    scf.for %i = %c0 to %K step %c1 {
      tile.gemm %A_s, %B_s, %D_l : !As, !Bs, !Cl
    }
  }
  return
}

// A copy into the accumulator between the clear and the gemm; a clear in
// another block (the gemm may run without it).
// CHECK-LABEL: func.func @not_the_next_user
// CHECK-NOT: <zero>
// CHECK: return
func.func @not_the_next_user(%G: !G, %p: i1) {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    %D_l = tile.alloc_fragment : !Cl
    tile.clear %C_l : !Cl
    tile.copy %G to %C_l : !G to !Cl
    tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    scf.if %p {
      tile.clear %D_l : !Cl
    }
    tile.gemm %A_s, %B_s, %D_l : !As, !Bs, !Cl
  }
  return
}
