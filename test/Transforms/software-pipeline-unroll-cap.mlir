// RUN: tile-opt --tile-software-pipeline %s | FileCheck %s

// Sixteen shared tiles with 2, 3, 5, ..., 53 versions (each read one prime
// minus one stages after its copy): the least common multiple of the version
// counts, 3.3e19, does not fit in int64_t. The unroll factor stops growing
// past the cap of 8 copies of the body instead, so the steady state is one
// rolled loop from step 52 on.
// CHECK-LABEL: func.func @many_versions
// CHECK:       scf.for %{{.*}} = %c52 to %c200 step %c1 {
// CHECK-NOT:   scf.for
func.func @many_versions(%A: memref<4096x16xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c200 = arith.constant 200 : index
  %c16 = arith.constant 16 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %t0 = tile.alloc_shared : memref<16x16xf16, #gpu.address_space<workgroup>>
    %t1 = tile.alloc_shared : memref<16x16xf16, #gpu.address_space<workgroup>>
    %t2 = tile.alloc_shared : memref<16x16xf16, #gpu.address_space<workgroup>>
    %t3 = tile.alloc_shared : memref<16x16xf16, #gpu.address_space<workgroup>>
    %t4 = tile.alloc_shared : memref<16x16xf16, #gpu.address_space<workgroup>>
    %t5 = tile.alloc_shared : memref<16x16xf16, #gpu.address_space<workgroup>>
    %t6 = tile.alloc_shared : memref<16x16xf16, #gpu.address_space<workgroup>>
    %t7 = tile.alloc_shared : memref<16x16xf16, #gpu.address_space<workgroup>>
    %t8 = tile.alloc_shared : memref<16x16xf16, #gpu.address_space<workgroup>>
    %t9 = tile.alloc_shared : memref<16x16xf16, #gpu.address_space<workgroup>>
    %t10 = tile.alloc_shared : memref<16x16xf16, #gpu.address_space<workgroup>>
    %t11 = tile.alloc_shared : memref<16x16xf16, #gpu.address_space<workgroup>>
    %t12 = tile.alloc_shared : memref<16x16xf16, #gpu.address_space<workgroup>>
    %t13 = tile.alloc_shared : memref<16x16xf16, #gpu.address_space<workgroup>>
    %t14 = tile.alloc_shared : memref<16x16xf16, #gpu.address_space<workgroup>>
    %t15 = tile.alloc_shared : memref<16x16xf16, #gpu.address_space<workgroup>>
    %c0f = tile.alloc_fragment : memref<16x16xf32, #gpu.address_space<private>>
    %c1f = tile.alloc_fragment : memref<16x16xf32, #gpu.address_space<private>>
    %c2f = tile.alloc_fragment : memref<16x16xf32, #gpu.address_space<private>>
    %c3f = tile.alloc_fragment : memref<16x16xf32, #gpu.address_space<private>>
    %c4f = tile.alloc_fragment : memref<16x16xf32, #gpu.address_space<private>>
    %c5f = tile.alloc_fragment : memref<16x16xf32, #gpu.address_space<private>>
    %c6f = tile.alloc_fragment : memref<16x16xf32, #gpu.address_space<private>>
    %c7f = tile.alloc_fragment : memref<16x16xf32, #gpu.address_space<private>>
    %c8f = tile.alloc_fragment : memref<16x16xf32, #gpu.address_space<private>>
    %c9f = tile.alloc_fragment : memref<16x16xf32, #gpu.address_space<private>>
    %c10f = tile.alloc_fragment : memref<16x16xf32, #gpu.address_space<private>>
    %c11f = tile.alloc_fragment : memref<16x16xf32, #gpu.address_space<private>>
    %c12f = tile.alloc_fragment : memref<16x16xf32, #gpu.address_space<private>>
    %c13f = tile.alloc_fragment : memref<16x16xf32, #gpu.address_space<private>>
    %c14f = tile.alloc_fragment : memref<16x16xf32, #gpu.address_space<private>>
    %c15f = tile.alloc_fragment : memref<16x16xf32, #gpu.address_space<private>>
    tile.pipelined %c0 to %c200 step %c1 num_stages = 53 stage = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 4, 6, 10, 12, 16, 18, 22, 28, 30, 36, 40, 42, 46, 52] as (%k) {
      %ko = arith.muli %k, %c16 : index
      tile.copy %A[%ko, %c0] to %t0 : memref<4096x16xf16> to memref<16x16xf16, #gpu.address_space<workgroup>>
      tile.copy %A[%ko, %c0] to %t1 : memref<4096x16xf16> to memref<16x16xf16, #gpu.address_space<workgroup>>
      tile.copy %A[%ko, %c0] to %t2 : memref<4096x16xf16> to memref<16x16xf16, #gpu.address_space<workgroup>>
      tile.copy %A[%ko, %c0] to %t3 : memref<4096x16xf16> to memref<16x16xf16, #gpu.address_space<workgroup>>
      tile.copy %A[%ko, %c0] to %t4 : memref<4096x16xf16> to memref<16x16xf16, #gpu.address_space<workgroup>>
      tile.copy %A[%ko, %c0] to %t5 : memref<4096x16xf16> to memref<16x16xf16, #gpu.address_space<workgroup>>
      tile.copy %A[%ko, %c0] to %t6 : memref<4096x16xf16> to memref<16x16xf16, #gpu.address_space<workgroup>>
      tile.copy %A[%ko, %c0] to %t7 : memref<4096x16xf16> to memref<16x16xf16, #gpu.address_space<workgroup>>
      tile.copy %A[%ko, %c0] to %t8 : memref<4096x16xf16> to memref<16x16xf16, #gpu.address_space<workgroup>>
      tile.copy %A[%ko, %c0] to %t9 : memref<4096x16xf16> to memref<16x16xf16, #gpu.address_space<workgroup>>
      tile.copy %A[%ko, %c0] to %t10 : memref<4096x16xf16> to memref<16x16xf16, #gpu.address_space<workgroup>>
      tile.copy %A[%ko, %c0] to %t11 : memref<4096x16xf16> to memref<16x16xf16, #gpu.address_space<workgroup>>
      tile.copy %A[%ko, %c0] to %t12 : memref<4096x16xf16> to memref<16x16xf16, #gpu.address_space<workgroup>>
      tile.copy %A[%ko, %c0] to %t13 : memref<4096x16xf16> to memref<16x16xf16, #gpu.address_space<workgroup>>
      tile.copy %A[%ko, %c0] to %t14 : memref<4096x16xf16> to memref<16x16xf16, #gpu.address_space<workgroup>>
      tile.copy %A[%ko, %c0] to %t15 : memref<4096x16xf16> to memref<16x16xf16, #gpu.address_space<workgroup>>
      tile.gemm %t0, %t0, %c0f : memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf32, #gpu.address_space<private>>
      tile.gemm %t1, %t1, %c1f : memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf32, #gpu.address_space<private>>
      tile.gemm %t2, %t2, %c2f : memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf32, #gpu.address_space<private>>
      tile.gemm %t3, %t3, %c3f : memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf32, #gpu.address_space<private>>
      tile.gemm %t4, %t4, %c4f : memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf32, #gpu.address_space<private>>
      tile.gemm %t5, %t5, %c5f : memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf32, #gpu.address_space<private>>
      tile.gemm %t6, %t6, %c6f : memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf32, #gpu.address_space<private>>
      tile.gemm %t7, %t7, %c7f : memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf32, #gpu.address_space<private>>
      tile.gemm %t8, %t8, %c8f : memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf32, #gpu.address_space<private>>
      tile.gemm %t9, %t9, %c9f : memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf32, #gpu.address_space<private>>
      tile.gemm %t10, %t10, %c10f : memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf32, #gpu.address_space<private>>
      tile.gemm %t11, %t11, %c11f : memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf32, #gpu.address_space<private>>
      tile.gemm %t12, %t12, %c12f : memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf32, #gpu.address_space<private>>
      tile.gemm %t13, %t13, %c13f : memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf32, #gpu.address_space<private>>
      tile.gemm %t14, %t14, %c14f : memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf32, #gpu.address_space<private>>
      tile.gemm %t15, %t15, %c15f : memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf32, #gpu.address_space<private>>
    }
  }
  return
}
