// RUN: tile-opt %s --tile-specialize-interior-steps -split-input-file | FileCheck %s
// RUN: tile-opt %s --tile-specialize-interior-steps --tile-lower-to-nvgpu=chip=sm_90 -split-input-file \
// RUN:   | FileCheck %s --check-prefix=LOWER --implicit-check-not=tile.counter_bound

// K = 100 in 16-column tiles: k-tiles 0..5 end at or before column 96, the
// last one (k = 6) leaves A and B. The loop is split at 6; in the first
// loop the counter becomes min(k, 5), one bound for A's columns and B's
// rows alike (both are 100).

!A = memref<32x100xf16>
!B = memref<100x32xf16>
!C = memref<32x32xf16>
!As = memref<32x16xf16, #gpu.address_space<workgroup>>
!Bs = memref<16x32xf16, #gpu.address_space<workgroup>>
!Cl = memref<32x32xf32, #gpu.address_space<private>>

// CHECK-LABEL: func.func @ragged_k
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C7:.*]] = arith.constant 7 : index
// CHECK:         tile.kernel
// CHECK-DAG:       %[[Q:.*]] = arith.constant 5 : index
// CHECK-DAG:       %[[SPLIT:.*]] = arith.constant 6 : index
// CHECK:           scf.for %[[K:.*]] = %[[C0]] to %[[SPLIT]] step %[[C1]] {
// CHECK-NEXT:        %[[KI:.*]] = arith.minui %[[K]], %[[Q]] {tile.counter_bound} : index
// CHECK-NOT:         arith.minui
// CHECK-NEXT:        %[[KO:.*]] = arith.muli %[[KI]], %{{.*}} : index
// CHECK-NEXT:        tile.copy %{{.*}}[%{{.*}}, %[[KO]]] to
// CHECK-NEXT:        tile.copy %{{.*}}[%[[KO]], %{{.*}}] to
// CHECK-NEXT:        tile.gemm
// CHECK-NEXT:      }
// CHECK-NEXT:      scf.for %[[K2:.*]] = %[[SPLIT]] to %[[C7]] step %[[C1]] {
// CHECK-NEXT:        %[[KO2:.*]] = arith.muli %[[K2]], %{{.*}} : index
// CHECK-NEXT:        tile.copy %{{.*}}[%{{.*}}, %[[KO2]]] to
// CHECK-NEXT:        tile.copy %{{.*}}[%[[KO2]], %{{.*}}] to
// CHECK-NEXT:        tile.gemm
// CHECK-NEXT:      }

// Lowered, only the second loop compares columns and rows against 100.
// The copies have used min(k, 5): the first loop's offsets come from its
// counter again, which LLVM can strength-reduce.
// LOWER-LABEL: gpu.func @ragged_k_kernel
// LOWER:       scf.for %[[LK:[a-z0-9_]+]] =
// LOWER-NEXT:    arith.muli %[[LK]], %c16 : index
// LOWER-NOT:   arith.cmpi ult, %{{[0-9a-z_]+}}, %c100{{(_[0-9]+)?}} :
// LOWER:       scf.for
// LOWER:       arith.cmpi ult, %{{[0-9a-z_]+}}, %c100{{(_[0-9]+)?}} :
func.func @ragged_k(%A: !A, %B: !B, %C: !C) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %c16 = arith.constant 16 : index
  tile.kernel grid(%c1, %c1) threads(64) as (%bx, %by) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    tile.clear %C_l : !Cl
    scf.for %k = %c0 to %c7 step %c1 {
      %ko = arith.muli %k, %c16 : index
      tile.copy %A[%c0, %ko] to %A_s : !A to !As
      tile.copy %B[%ko, %c0] to %B_s : !B to !Bs
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    }
    tile.copy %C_l to %C[%c0, %c0] : !Cl to !C
  }
  return
}

// -----

// Sizes known only at run time, and unrelated: the loop runs to
// ceildiv(K, 16) for K = dim(A, 1), and B's rows are another size. With
// q_A = floor(dim(A, 1) / 16) and q_B = floor(dim(B, 0) / 16), the k-tiles
// that end inside both, the first loop ends at max(0, min(ub, q_A, q_B))
// (the upper bound where 16 divides both sizes: the second loop then runs
// no step) and restricts the counter by both last k-tiles, q - 1 (nuw: the
// first loop runs only where k <= q - 1 for some k >= 0). The loop-carried
// value goes from the first loop to the second.

!A = memref<32x?xf16>
!B = memref<?x32xf16>
!As = memref<32x16xf16, #gpu.address_space<workgroup>>
!Bs = memref<16x32xf16, #gpu.address_space<workgroup>>
!Cl = memref<32x32xf32, #gpu.address_space<private>>

// CHECK-LABEL: func.func @dynamic
// CHECK:         %[[UB:.*]] = arith.ceildivui
// CHECK:         tile.kernel
// CHECK:           %[[DA:.*]] = memref.dim %{{.*}}, %{{.*}} : memref<32x?xf16>
// CHECK:           %[[QA:.*]] = arith.divui %[[DA]], %{{.*}} : index
// CHECK:           %[[ONEA:.*]] = arith.constant 1 : index
// CHECK-NEXT:      %[[LA:.*]] = arith.subi %[[QA]], %[[ONEA]] overflow<nuw> : index
// CHECK:           %[[DB:.*]] = memref.dim %{{.*}}, %{{.*}} : memref<?x32xf16>
// CHECK:           %[[QB:.*]] = arith.divui %[[DB]], %{{.*}} : index
// CHECK:           %[[LB:.*]] = arith.subi %[[QB]], %{{.*}} overflow<nuw> : index
// CHECK-NEXT:      %[[MA:.*]] = arith.minsi %[[UB]], %[[QA]] : index
// CHECK-NEXT:      %[[MB:.*]] = arith.minsi %[[MA]], %[[QB]] : index
// CHECK-NEXT:      %[[SPLIT:.*]] = arith.maxsi %[[MB]], %{{.*}} : index
// CHECK:           %[[FIRST:.*]] = scf.for %[[K:.*]] = %{{.*}} to %[[SPLIT]] step %{{.*}} iter_args(%[[X:.*]] = %{{.*}}) -> (index) {
// CHECK-NEXT:        %[[KA:.*]] = arith.minui %[[K]], %[[LA]] {tile.counter_bound} : index
// CHECK-NEXT:        %[[KB:.*]] = arith.minui %[[KA]], %[[LB]] {tile.counter_bound} : index
// CHECK-NEXT:        %[[KO:.*]] = arith.muli %[[KB]], %{{.*}} : index
// CHECK-NEXT:        tile.copy %{{.*}}[%{{.*}}, %[[KO]]] to
// CHECK-NEXT:        tile.copy %{{.*}}[%[[KO]], %{{.*}}] to
// CHECK-NEXT:        tile.gemm
// CHECK-NEXT:        scf.yield %[[KO]] : index
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[SECOND:.*]] = scf.for %{{.*}} = %[[SPLIT]] to %[[UB]] step %{{.*}} iter_args(%{{.*}} = %[[FIRST]]) -> (index) {
// CHECK:           }
// CHECK-NEXT:      tile.copy %{{.*}} to %{{.*}}[%{{.*}}, %[[SECOND]]]

// LOWER-LABEL: gpu.func @dynamic_kernel
// LOWER:       scf.for
// LOWER-NOT:   vector.maskedload
// LOWER:       scf.for
// LOWER:       vector.maskedload
// LOWER:       vector.maskedload
func.func @dynamic(%A: !A, %B: !B, %C: memref<32x64xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %K = memref.dim %A, %c1 : !A
  %kt = arith.ceildivui %K, %c16 : index
  tile.kernel grid(%c1, %c1) threads(64) as (%bx, %by) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    tile.clear %C_l : !Cl
    %last = scf.for %k = %c0 to %kt step %c1 iter_args(%x = %c0) -> (index) {
      %ko = arith.muli %k, %c16 : index
      tile.copy %A[%c0, %ko] to %A_s : !A to !As
      tile.copy %B[%ko, %c0] to %B_s : !B to !Bs
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
      scf.yield %ko : index
    }
    tile.copy %C_l to %C[%c0, %last] : !Cl to memref<32x64xf16>
  }
  return
}

// -----

// A step of 3 from 2 (an unrolled steady-state loop) and a copy at k + 2:
// K = 400 in 16-column tiles gives q = 25 and m = ceildiv(32 + 16 - 1, 16)
// = 3. The counter's bound is the last counter 2 + 3i at or below
// q - 1 - m = 21, which is 20, so that min(k, 20) keeps k's lattice; the
// loop is split at the first counter at or above q - m = 22, which is 23.

!A = memref<32x400xf16>
!As = memref<32x16xf16, #gpu.address_space<workgroup>>

// CHECK-LABEL: func.func @lattice
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[C3:.*]] = arith.constant 3 : index
// CHECK-DAG:     %[[C26:.*]] = arith.constant 26 : index
// CHECK:         tile.kernel
// CHECK-DAG:       %[[Q:.*]] = arith.constant 20 : index
// CHECK-DAG:       %[[SPLIT:.*]] = arith.constant 23 : index
// CHECK:           scf.for %[[K:.*]] = %[[C2]] to %[[SPLIT]] step %[[C3]] {
// CHECK-NEXT:        arith.minui %[[K]], %[[Q]] {tile.counter_bound} : index
// CHECK:           scf.for %{{.*}} = %[[SPLIT]] to %[[C26]] step %[[C3]] {
func.func @lattice(%A: !A) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c16 = arith.constant 16 : index
  %c26 = arith.constant 26 : index
  %c32 = arith.constant 32 : index
  tile.kernel grid(%c1, %c1) threads(64) as (%bx, %by) {
    %A_s = tile.alloc_shared : !As
    scf.for %k = %c2 to %c26 step %c3 {
      %kn = arith.addi %k, %c2 : index
      %ko = arith.muli %kn, %c16 : index
      tile.copy %A[%c0, %ko] to %A_s : !A to !As
    }
  }
  return
}

// -----

// A row count known only at run time, and K = 99: the column checks of the
// first loop are proven, but each element of A is copied alone (its rows
// are not 16-byte aligned), and the one check of an element covers its row
// and column together. That check stays in the first loop, and so does the
// minimum it depends on: LLVM folds the column half with min(k, 5).

!A = memref<?x99xf16>
!B = memref<99x32xf16>
!C = memref<?x32xf16>
!As = memref<32x16xf16, #gpu.address_space<workgroup>>
!Bs = memref<16x32xf16, #gpu.address_space<workgroup>>
!Cl = memref<32x32xf32, #gpu.address_space<private>>

// CHECK-LABEL: func.func @checked_rows
// CHECK:         scf.for
// CHECK-NEXT:      arith.minui %{{.*}}, %{{.*}} {tile.counter_bound} : index
// LOWER-LABEL: gpu.func @checked_rows_kernel
// LOWER:       scf.for %[[RK:[a-z0-9_]+]] = %{{.*}} to %c6
// LOWER-NEXT:    %[[RKI:.*]] = arith.minui %[[RK]], %c5 : index
// LOWER-NEXT:    %[[RKO:.*]] = arith.muli %[[RKI]], %c16 : index
// LOWER:         %[[COL:.*]] = arith.addi %[[RKO]], %{{.*}} : index
// LOWER:         arith.cmpi ult, %[[COL]], %c99 : index
func.func @checked_rows(%A: !A, %B: !B, %C: !C) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %m = memref.dim %A, %c0 : !A
  %g = arith.ceildivui %m, %c32 : index
  tile.kernel grid(%g, %c1) threads(64) as (%bx, %by) {
    %row = arith.muli %bx, %c32 : index
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    tile.clear %C_l : !Cl
    scf.for %k = %c0 to %c7 step %c1 {
      %ko = arith.muli %k, %c16 : index
      tile.copy %A[%row, %ko] to %A_s : !A to !As
      tile.copy %B[%ko, %c0] to %B_s : !B to !Bs
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    }
    tile.copy %C_l to %C[%row, %c0] : !Cl to !C
  }
  return
}

// -----

// A rolled loop over two versions of a shared tile (as tile-software-pipeline
// leaves where the chip does not unroll its steady state): the version index
// k mod 2 depends on the counter, and so the minimum stays. Without it, LLVM
// rewrites the index as k - 2 * (k / 2) in every shared address.

!A = memref<32x100xf16>
!As2 = memref<2x32x16xf16, #gpu.address_space<workgroup>>
!Asv = memref<32x16xf16, strided<[16, 1], offset: ?>, #gpu.address_space<workgroup>>

// CHECK-LABEL: func.func @versioned
// CHECK:         scf.for
// CHECK-NEXT:      arith.minui %{{.*}}, %{{.*}} {tile.counter_bound} : index
// LOWER-LABEL: gpu.func @versioned_kernel
// LOWER:       scf.for %[[VK:[a-z0-9_]+]] = %{{.*}} to %c6
// LOWER-NEXT:    %[[VKI:.*]] = arith.minui %[[VK]], %c5 : index
// LOWER:         arith.remui %[[VKI]], %c2 : index
func.func @versioned(%A: !A) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c7 = arith.constant 7 : index
  %c16 = arith.constant 16 : index
  tile.kernel grid(%c1, %c1) threads(64) as (%bx, %by) {
    %A_s = tile.alloc_shared : !As2
    scf.for %k = %c0 to %c7 step %c1 {
      %v = arith.remui %k, %c2 : index
      %view = memref.subview %A_s[%v, 0, 0] [1, 32, 16] [1, 1, 1] : !As2 to !Asv
      %ko = arith.muli %k, %c16 : index
      tile.copy %A[%c0, %ko] to %view : !A to !Asv
    }
  }
  return
}

// -----

// A copy one column past its k-tile (columns 16k + 1 to 16k + 16) of a K
// known only at run time: the counters up to floor(K / 16) - 2 keep it
// inside, and so do those up to ceildiv(K, 16) - 2, never fewer; the bound
// is q - 2 for q = ceildiv(K, 16), and the first loop ends at q - 1.

!A = memref<32x?xf16>
!As = memref<32x16xf16, #gpu.address_space<workgroup>>

// CHECK-LABEL: func.func @past_the_tile
// CHECK:         %[[UB:.*]] = arith.ceildivui
// CHECK:         tile.kernel
// CHECK:           %[[Q:.*]] = arith.ceildivui %{{.*}}, %{{.*}} : index
// CHECK-NEXT:      %[[TWO:.*]] = arith.constant 2 : index
// CHECK-NEXT:      %[[LAST:.*]] = arith.subi %[[Q]], %[[TWO]] overflow<nuw> : index
// CHECK-NEXT:      %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT:      %[[END:.*]] = arith.subi %[[Q]], %[[ONE]] : index
// CHECK-NEXT:      %[[MIN:.*]] = arith.minsi %[[UB]], %[[END]] : index
// CHECK-NEXT:      %[[SPLIT:.*]] = arith.maxsi %[[MIN]], %{{.*}} : index
// CHECK-NEXT:      scf.for %[[K:.*]] = %{{.*}} to %[[SPLIT]] step %{{.*}} {
// CHECK-NEXT:        arith.minui %[[K]], %[[LAST]] {tile.counter_bound} : index
// CHECK:           scf.for %{{.*}} = %[[SPLIT]] to %[[UB]] step
func.func @past_the_tile(%A: !A) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %K = memref.dim %A, %c1 : !A
  %kt = arith.ceildivui %K, %c16 : index
  tile.kernel grid(%c1, %c1) threads(64) as (%bx, %by) {
    %A_s = tile.alloc_shared : !As
    scf.for %k = %c0 to %kt step %c1 {
      %ko = arith.muli %k, %c16 : index
      %col = arith.addi %ko, %c1 : index
      tile.copy %A[%c0, %col] to %A_s : !A to !As
    }
  }
  return
}

// -----

// A loop shifted to start at 1 reads k-tile k - 1: offset -16 in columns.
// The index is not below 0 at the first counter, so the loop splits; in its
// first part the subtraction cannot wrap (the counter is at least 1) and
// gets nuw, through which IndexFacts bounds the copy by 16 * floor(K / 16).
// (Without the split, every step kept its checks, and ptxas serialized the
// wgmma pipeline of such a kernel: test/Target/gemm-dynamic-ptx.test.)

!A = memref<32x?xf16>
!As = memref<32x16xf16, #gpu.address_space<workgroup>>

// CHECK-LABEL: func.func @shifted
// CHECK:         tile.kernel
// CHECK:           scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:        %[[KB:.*]] = arith.minui %[[K]], %{{.*}} {tile.counter_bound} : index
// CHECK-NEXT:        %[[KK:.*]] = arith.subi %[[KB]], %{{.*}} overflow<nuw> : index
// CHECK-NEXT:        %[[KO:.*]] = arith.muli %[[KK]], %{{.*}} : index
// CHECK-NEXT:        tile.copy %{{.*}}[%{{.*}}, %[[KO]]] to
// CHECK:           } {tile.split_steps}
// CHECK:           scf.for
// CHECK-NOT:         overflow<nuw>
// CHECK:           } {tile.split_steps}

// LOWER-LABEL: gpu.func @shifted_kernel
// LOWER:       scf.for
// LOWER-NOT:   vector.maskedload
// LOWER:       scf.for
// LOWER:       vector.maskedload
func.func @shifted(%A: !A) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %K = memref.dim %A, %c1 : !A
  %kt = arith.ceildivui %K, %c16 : index
  %ub = arith.addi %kt, %c1 : index
  tile.kernel grid(%c1) threads(64) as (%bx) {
    %A_s = tile.alloc_shared : !As
    scf.for %k = %c1 to %ub step %c1 {
      %kk = arith.subi %k, %c1 : index
      %ko = arith.muli %kk, %c16 : index
      tile.copy %A[%c0, %ko] to %A_s : !A to !As
    }
  }
  return
}

// -----

// Shifted the other way, from 0: the first step would index column -16,
// which is outside the tensor (as an index, a huge one), so no split.

!A = memref<32x?xf16>
!As = memref<32x16xf16, #gpu.address_space<workgroup>>

// CHECK-LABEL: func.func @below_the_tensor
// CHECK-NOT:     tile.split_steps
// CHECK-NOT:     overflow<nuw>
// CHECK:         return
func.func @below_the_tensor(%A: !A) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %K = memref.dim %A, %c1 : !A
  %kt = arith.ceildivui %K, %c16 : index
  tile.kernel grid(%c1) threads(64) as (%bx) {
    %A_s = tile.alloc_shared : !As
    scf.for %k = %c0 to %kt step %c1 {
      %kk = arith.subi %k, %c1 : index
      %ko = arith.muli %kk, %c16 : index
      tile.copy %A[%c0, %ko] to %A_s : !A to !As
    }
  }
  return
}

// -----

// Subtracting -1 adds 1 (k-tile k + 1). The subtraction gets no nuw: that
// would claim k - (-1) does not wrap, which holds for no k. Without it
// IndexFacts does not bound the index, so the loop stays as it is (with
// the flag it would split).

!A = memref<32x?xf16>
!As = memref<32x16xf16, #gpu.address_space<workgroup>>

// CHECK-LABEL: func.func @minus_negative
// CHECK-NOT:     overflow<nuw>
// CHECK-NOT:     tile.split_steps
// CHECK:         return
func.func @minus_negative(%A: !A) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cm1 = arith.constant -1 : index
  %c16 = arith.constant 16 : index
  %K = memref.dim %A, %c1 : !A
  %kt = arith.ceildivui %K, %c16 : index
  tile.kernel grid(%c1) threads(64) as (%bx) {
    %A_s = tile.alloc_shared : !As
    scf.for %k = %c0 to %kt step %c1 {
      %kk = arith.subi %k, %cm1 : index
      %ko = arith.muli %kk, %c16 : index
      tile.copy %A[%c0, %ko] to %A_s : !A to !As
    }
  }
  return
}
