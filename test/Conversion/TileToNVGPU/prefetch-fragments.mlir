// RUN: tile-opt %s -split-input-file --tile-pipeline-planning --tile-software-pipeline --tile-lower-to-nvgpu \
// RUN:   --tile-prefetch-fragments=min-accumulator-registers=0 | FileCheck %s
// RUN: tile-opt %s -split-input-file --tile-pipeline-planning --tile-software-pipeline --tile-lower-to-nvgpu \
// RUN:   --tile-prefetch-fragments | FileCheck %s --check-prefix=SMALL

// The kernels below but the first keep their tiles small, and
// min-accumulator-registers=0 lets the pass work on them. By default it
// pipelines only loops whose accumulators take 128 or more registers per
// thread (SMALL): the first kernel's 128x128 f32 tile over 128 threads
// qualifies; the nested-copy kernel's 64x32 tile over 256 threads does not.

// SMALL-LABEL: gpu.func @gemm_kernel
// SMALL:       scf.for {{.*}} iter_args(
// SMALL-LABEL: gpu.func @serial_kernel
// SMALL-LABEL: gpu.func @nested_copy_kernel
// SMALL:       scf.for
// SMALL-NOT:   iter_args
// SMALL:       gpu.return

// tile-prefetch-fragments on the steady state of a 3-stage GEMM (14 k-tiles:
// 12 steady-state steps, one unrolled loop of 4 trips, no remainder). The
// prologue issues the first step's head and its first k-step's ldmatrix; the
// loop carries those fragments; each trip ends with the next trip's head
// (wait, barrier, ldmatrix, then the copies, whose srcElements drop to 0 past
// the end), then the last k-step's mma.sync; no epilogue is peeled. In every
// step the first k-step's ldmatrix comes before the step's copies.
// The copies of the unrolled steps k + 1 and k + 2 are proven in bounds (the
// counter is at most 2 + 3 * 3 = 11, so k + 2 < 14) and carry no srcElements.

// CHECK-LABEL: gpu.func @gemm_kernel
// CHECK: nvvm.cp.async.commit.group
// CHECK: nvvm.cp.async.commit.group
// CHECK: nvvm.cp.async.wait.group 1
// CHECK-NEXT: gpu.barrier
// CHECK: nvgpu.ldmatrix
// CHECK: nvgpu.device_async_copy
// CHECK: nvvm.cp.async.commit.group
// CHECK: %[[LOOP:.*]]:11 = scf.for %[[IV:.*]] = {{.*}} iter_args(
// CHECK: %[[MORE:.*]] = arith.cmpi slt, %[[IV]]
// CHECK: nvgpu.mma.sync
// CHECK: nvvm.cp.async.wait.group 1
// CHECK-NEXT: gpu.barrier
// CHECK-NOT: nvgpu.device_async_copy
// CHECK-COUNT-8: nvgpu.ldmatrix
// CHECK-NOT: arith.select
// CHECK: nvgpu.device_async_copy {{.*}}, 8 {bypassL1}
// CHECK: nvvm.cp.async.wait.group 1
// CHECK-NEXT: gpu.barrier
// CHECK-NOT: arith.select
// CHECK: nvgpu.device_async_copy {{.*}}, 8 {bypassL1}
// CHECK: nvvm.cp.async.wait.group 1
// CHECK-NEXT: gpu.barrier
// CHECK-NOT: nvgpu.device_async_copy
// CHECK-COUNT-8: nvgpu.ldmatrix
// CHECK: %[[COUNT:.*]] = arith.select %[[MORE]], %{{.*}}, %{{.*}} : index
// CHECK: nvgpu.device_async_copy {{.*}}, 8, %[[COUNT]] {bypassL1}
// CHECK: nvvm.cp.async.commit.group
// CHECK-NOT: nvgpu.ldmatrix
// CHECK: nvgpu.mma.sync
// CHECK-NOT: nvgpu.ldmatrix
// CHECK: scf.yield
// CHECK-NOT: tile.steady_state

!A = memref<256x448xf16>
!B = memref<448x256xf16>
!C = memref<256x256xf16>
!As = memref<128x32xf16, #gpu.address_space<workgroup>>
!Bs = memref<32x128xf16, #gpu.address_space<workgroup>>
!Cl = memref<128x128xf32, #gpu.address_space<private>>
func.func @gemm(%A: !A, %B: !B, %C: !C) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c14 = arith.constant 14 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  tile.kernel grid(%c2, %c2) threads(128) as (%bx, %by) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    tile.clear %C_l : !Cl
    %row = arith.muli %by, %c128 : index
    %col = arith.muli %bx, %c128 : index
    tile.pipelined %c0 to %c14 step %c1 num_stages = 3 as (%k) {
      %ko = arith.muli %k, %c32 : index
      tile.copy %A[%row, %ko] to %A_s : !A to !As
      tile.copy %B[%ko, %col] to %B_s : !B to !Bs
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    }
    tile.copy %C_l to %C[%row, %col] : !Cl to !C
  }
  return
}

// -----

// num_stages = 1 asks for a serial loop: no steady state to prefetch in.

// CHECK-LABEL: gpu.func @serial_kernel
// CHECK: scf.for
// CHECK-NOT: iter_args
// CHECK: gpu.return

!A = memref<256x448xf16>
!B = memref<448x256xf16>
!As = memref<128x32xf16, #gpu.address_space<workgroup>>
!Bs = memref<32x128xf16, #gpu.address_space<workgroup>>
!Cl = memref<128x128xf32, #gpu.address_space<private>>
func.func @serial(%A: !A, %B: !B) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c14 = arith.constant 14 : index
  %c32 = arith.constant 32 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    tile.pipelined %c0 to %c14 step %c1 num_stages = 1 as (%k) {
      %ko = arith.muli %k, %c32 : index
      tile.copy %A[%c0, %ko] to %A_s : !A to !As
      tile.copy %B[%ko, %c0] to %B_s : !B to !Bs
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    }
  }
  return
}

// -----

// The body stores the accumulator after the gemm: the last mma.sync ops may
// not move past the next step's barrier, so the loop stays as it is.

// CHECK-LABEL: gpu.func @store_in_loop_kernel
// CHECK: scf.for
// CHECK-NOT: iter_args
// CHECK: gpu.return

!A = memref<256x448xf16>
!B = memref<448x256xf16>
!C = memref<128x128xf16>
!As = memref<128x32xf16, #gpu.address_space<workgroup>>
!Bs = memref<32x128xf16, #gpu.address_space<workgroup>>
!Cl = memref<128x128xf32, #gpu.address_space<private>>
func.func @store_in_loop(%A: !A, %B: !B, %C: !C) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c14 = arith.constant 14 : index
  %c32 = arith.constant 32 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    tile.pipelined %c0 to %c14 step %c1 num_stages = 3 as (%k) {
      %ko = arith.muli %k, %c32 : index
      tile.copy %A[%c0, %ko] to %A_s : !A to !As
      tile.copy %B[%ko, %c0] to %B_s : !B to !Bs
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
      tile.copy %C_l to %C : !Cl to !C
    }
  }
  return
}

// -----

// Depth 2: the loop is left alone. Each step waits for the copies the step
// before it issued; waiting before that step's last k-step of mma.sync
// leaves them less time, which made most such kernels slower on an H200.

// CHECK-LABEL: gpu.func @depth2_kernel
// CHECK: scf.for
// CHECK-NOT: iter_args
// CHECK: gpu.return

!A = memref<256x448xf16>
!B = memref<448x256xf16>
!As = memref<128x32xf16, #gpu.address_space<workgroup>>
!Bs = memref<32x128xf16, #gpu.address_space<workgroup>>
!Cl = memref<128x128xf32, #gpu.address_space<private>>
func.func @depth2(%A: !A, %B: !B) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c14 = arith.constant 14 : index
  %c32 = arith.constant 32 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    tile.pipelined %c0 to %c14 step %c1 num_stages = 2 as (%k) {
      %ko = arith.muli %k, %c32 : index
      tile.copy %A[%c0, %ko] to %A_s : !A to !As
      tile.copy %B[%ko, %c0] to %B_s : !B to !Bs
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    }
  }
  return
}

// -----

// Three stages whose steps wait for every copy group: the first gemm runs a
// stage after the copies, the second one two. The next step needs this
// step's copies at once, so they stay before its ldmatrix loads.

// CHECK-LABEL: gpu.func @wait_all_kernel
// CHECK: scf.for {{.*}} iter_args(
// CHECK: nvvm.cp.async.wait.group 0
// CHECK-NEXT: gpu.barrier
// CHECK-NOT: nvgpu.ldmatrix
// CHECK: nvgpu.device_async_copy
// CHECK: nvvm.cp.async.commit.group
// CHECK: nvgpu.ldmatrix
// CHECK: scf.yield

!A = memref<256x448xf16>
!B = memref<448x256xf16>
!As = memref<128x32xf16, #gpu.address_space<workgroup>>
!Bs = memref<32x128xf16, #gpu.address_space<workgroup>>
!Cl = memref<128x128xf32, #gpu.address_space<private>>
func.func @wait_all(%A: !A, %B: !B) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c14 = arith.constant 14 : index
  %c32 = arith.constant 32 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_1 = tile.alloc_fragment : !Cl
    %C_2 = tile.alloc_fragment : !Cl
    tile.pipelined %c0 to %c14 step %c1 stage = [0, 0, 1, 2] order = [0, 1, 2, 3] as (%k) {
      %ko = arith.muli %k, %c32 : index
      tile.copy %A[%c0, %ko] to %A_s : !A to !As
      tile.copy %B[%ko, %c0] to %B_s : !B to !Bs
      tile.gemm %A_s, %B_s, %C_1 : !As, !Bs, !Cl
      tile.gemm %A_s, %B_s, %C_2 : !As, !Bs, !Cl
    }
  }
  return
}

// -----

// More threads than B's tile has chunks, and B's rows run out at 255: B's
// copy sits in a thread guard and checks its row only, since its K offset is
// in bounds for every real step. The head issued past the end must still
// read nothing, so the nested copy's row-checked count is guarded too.
// (11 k-tiles at depth 3: three trips of the loop unrolled by 3.)

// CHECK-LABEL: gpu.func @nested_copy_kernel
// CHECK: scf.for %[[IV:.*]] = {{.*}} iter_args(
// CHECK: %[[MORE:.*]] = arith.cmpi slt, %[[IV]]
// CHECK: %[[A:.*]] = arith.select %[[MORE]], %{{.*}}, %{{.*}} : index
// CHECK-NEXT: nvgpu.device_async_copy {{.*}}, 8, %[[A]] {bypassL1}
// CHECK-NEXT: scf.if
// CHECK: %[[ROWS:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : index
// CHECK: %[[B:.*]] = arith.select %[[MORE]], %[[ROWS]], %{{.*}} : index
// CHECK-NEXT: nvgpu.device_async_copy {{.*}}, 8, %[[B]] {bypassL1}
// CHECK: scf.yield

!A = memref<64x352xf16>
!B = memref<255x352xf16>
!C = memref<64x255xf16>
!As = memref<64x32xf16, #gpu.address_space<workgroup>>
!Bs = memref<32x32xf16, #gpu.address_space<workgroup>>
!Cl = memref<64x32xf32, #gpu.address_space<private>>
func.func @nested_copy(%A: !A, %B: !B, %C: !C) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c11 = arith.constant 11 : index
  %c32 = arith.constant 32 : index
  tile.kernel grid(%c8) threads(256) as (%bx) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    tile.clear %C_l : !Cl
    %col = arith.muli %bx, %c32 : index
    tile.pipelined %c0 to %c11 step %c1 num_stages = 3 as (%k) {
      %ko = arith.muli %k, %c32 : index
      tile.copy %A[%c0, %ko] to %A_s : !A to !As
      tile.copy %B[%col, %ko] to %B_s : !B to !Bs
      tile.gemm %A_s, %B_s, %C_l transpose_b : !As, !Bs, !Cl
    }
    tile.copy %C_l to %C[%c0, %col] : !Cl to !C
  }
  return
}

// -----

// A hand schedule whose copies come last in each step (order puts B's copy
// after the gemm), at depth 3: the ldmatrix loads after a step's commit are
// the next step's, behind its wait and barrier. The commit stays before that
// wait; moved after it, the wait would count one group too few and the next
// step would read B before it lands. (20 k-tiles: 18 steady steps, three
// trips of the loop unrolled by 6 = lcm of A's 2 and B's 3 versions.) The
// loads of the next step's synchronous A copy may come between the two
// (early-loads.mlir), no other commit or wait.

// CHECK-LABEL: gpu.func @copies_last_kernel
// CHECK: scf.for
// CHECK: nvvm.cp.async.wait.group 1
// CHECK-NOT: nvvm.cp.async.wait.group
// CHECK: nvgpu.device_async_copy
// CHECK-NOT: nvvm.cp.async.wait.group
// CHECK: nvvm.cp.async.commit.group
// CHECK-NOT: nvvm.cp.async.{{commit|wait}}
// CHECK: nvvm.cp.async.wait.group 1
// CHECK-NOT: nvvm.cp.async.wait.group
// CHECK: nvvm.cp.async.commit.group
// CHECK-NOT: nvvm.cp.async.{{commit|wait}}
// CHECK: nvvm.cp.async.wait.group 1

!A = memref<32x640xf16>
!B = memref<8x640xf16>
!C = memref<32x8xf16>
!As = memref<32x32xf16, #gpu.address_space<workgroup>>
!Bs = memref<8x32xf16, #gpu.address_space<workgroup>>
!Cl = memref<32x8xf32, #gpu.address_space<private>>
func.func @copies_last(%A: !A, %B: !B, %C: !C) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c20 = arith.constant 20 : index
  %c32 = arith.constant 32 : index
  tile.kernel grid(%c1) threads(64) as (%bx) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    tile.clear %C_l : !Cl
    tile.pipelined %c0 to %c20 step %c1 stage = [1, 0, 2] order = [0, 2, 1] as (%k) {
      %ko = arith.muli %k, %c32 : index
      tile.copy %A[%c0, %ko] to %A_s : !A to !As
      tile.copy %B[%c0, %ko] to %B_s : !B to !Bs
      tile.gemm %A_s, %B_s, %C_l transpose_b : !As, !Bs, !Cl
    }
    tile.copy %C_l to %C : !Cl to !C
  }
  return
}

// -----

// A stage-0 copy fills A_s, which the same stage's gemm reads, so A_s has
// one version; and the code after the loop copies A_s out. Zero-filling the
// tiles of the step past the end would overwrite what that copy reads, so
// the software pipeline does not mark this steady state and the loop is
// left alone: no iter_args carry fragments and no copy's srcElements drops
// to 0.

// CHECK-LABEL: gpu.func @tile_read_after_loop_kernel
// CHECK: scf.for
// CHECK-NOT: iter_args
// CHECK-NOT: arith.select %{{.*}}, %c8, %c0 : index
// CHECK: gpu.return

!T = memref<32x32xf16, #gpu.address_space<workgroup>>
!F = memref<32x32xf32, #gpu.address_space<private>>
func.func @tile_read_after_loop(%A: memref<32x448xf16>, %X: memref<448x32xf16>,
                                %B: memref<32x448xf16>, %D: memref<32x32xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c14 = arith.constant 14 : index
  %c32 = arith.constant 32 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !T
    %X_s = tile.alloc_shared : !T
    %B_s = tile.alloc_shared : !T
    %C1 = tile.alloc_fragment : !F
    %C2 = tile.alloc_fragment : !F
    tile.clear %C1 : !F
    tile.clear %C2 : !F
    tile.pipelined %c0 to %c14 step %c1 stage = [0, 0, 0, 0, 2] order = [0, 1, 2, 3, 4] as (%k) {
      %ko = arith.muli %k, %c32 : index
      tile.copy %A[%c0, %ko] to %A_s : memref<32x448xf16> to !T
      tile.copy %X[%ko, %c0] to %X_s : memref<448x32xf16> to !T
      tile.copy %B[%c0, %ko] to %B_s : memref<32x448xf16> to !T
      tile.gemm %A_s, %X_s, %C1 : !T, !T, !F
      tile.gemm %B_s, %B_s, %C2 : !T, !T, !F
    }
    tile.copy %A_s to %D : !T to memref<32x32xf16>
  }
  return
}
