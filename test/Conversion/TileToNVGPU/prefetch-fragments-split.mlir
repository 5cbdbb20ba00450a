// RUN: tile-opt %s --tile-pipeline-planning --tile-software-pipeline \
// RUN:   --tile-specialize-interior-steps | FileCheck %s --check-prefix=SPLIT
// RUN: tile-opt %s --tile-pipeline-planning --tile-software-pipeline \
// RUN:   --tile-specialize-interior-steps --tile-lower-to-nvgpu --tile-prefetch-fragments \
// RUN:   | FileCheck %s
// RUN: tile-opt %s --tile-pipeline-planning --tile-software-pipeline \
// RUN:   --tile-lower-to-nvgpu --tile-prefetch-fragments | FileCheck %s --check-prefix=WHOLE

// RUN: sed 's/xf16/xbf16/g' %s | tile-opt --tile-pipeline-planning --tile-software-pipeline \
// RUN:   --tile-specialize-interior-steps --tile-lower-to-nvgpu --tile-prefetch-fragments \
// RUN:   | FileCheck %s --check-prefix=BF16
// RUN: tile-opt %S/../../Runtime/Inputs/gemm_dynamic.mlir --tile-pipeline-planning \
// RUN:   --tile-software-pipeline --tile-specialize-interior-steps --tile-lower-to-nvgpu \
// RUN:   --tile-prefetch-fragments | FileCheck %s --check-prefix=DYN

// K = 440 in 32-column tiles: the last of 14 k-tiles is partial, so
// tile-specialize-interior-steps splits the steady-state loop (unrolled by
// the 3 buffer versions), and both parts carry tile.split_steps. The
// interior part (steps 2..10, three trips) is pipelined with its epilogue
// peeled: the kernel loop carries the next trip's fragments, and the last
// trip's remaining mma.sync ops follow it. The edge part (steps 11..13)
// stays as it is: the prefetch there was slower than without it on an H200.
// Without the split the steady state is prefetched with the head of the
// step past the end predicated instead.

// SPLIT:      scf.for
// SPLIT:      } {tile.split_steps, tile.steady_state = 3 : i64}
// SPLIT-NEXT: scf.for
// SPLIT:      } {tile.split_steps, tile.steady_state = 3 : i64}

// CHECK-LABEL: gpu.func @gemm_kernel
// CHECK:       nvgpu.ldmatrix
// CHECK:       scf.for %{{.*}} = %c2 to %{{.*}} step %c3 iter_args(
// CHECK:         scf.yield
// CHECK-NEXT:  }
// CHECK-NOT:   scf.for
// CHECK:       nvgpu.mma.sync
// CHECK:       scf.for %{{.*}} = %c11 to %c14 step %c3 {
// CHECK-NOT:   iter_args
// CHECK:       gpu.return

// WHOLE-LABEL: gpu.func @gemm_kernel
// WHOLE:       scf.for {{.*}} iter_args
// WHOLE:       gpu.return

// The same in bf16, whose mma is nvvm.mma.sync (nvgpu.mma.sync does not
// lower bf16): it touches registers only, though upstream declares no
// memory effects for it, so the last k-step's mma ops still trail the next
// trip's head.

// BF16-LABEL: gpu.func @gemm_kernel
// BF16:       scf.for %{{.*}} = %c2 to %{{.*}} step %c3 iter_args(
// BF16:         nvvm.mma.sync
// BF16:         scf.yield
// BF16-NEXT:  }
// BF16-NOT:   scf.for
// BF16:       nvvm.mma.sync
// BF16:       scf.for %{{.*}} = %c11 to %c14 step %c3 {
// BF16:       gpu.return

// Over dynamic sizes the interior part's trip count is not known, and
// neither part is touched (slower with the prefetch guarded against zero
// trips on an H200, docs/benchmarks.md): no loop carries fragments.

// DYN-LABEL:  gpu.func @gemm_kernel
// DYN-NOT:    iter_args
// DYN:        scf.for
// DYN-NOT:    iter_args
// DYN:        scf.for
// DYN-NOT:    iter_args
// DYN:        gpu.return

!A = memref<256x440xf16>
!B = memref<440x256xf16>
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
