// The seed's matmul_plain: C = A * B at 4096x4096x4096, fp16 inputs, fp32
// accumulation, fp16 output; 128x128x32 tiles, 128 threads.
// No pipelining: a serial scf.for, the control group.
//
// TileLang original:
//   with T.Kernel(T.ceildiv(N, bn), T.ceildiv(M, bm), threads=128) as (bx, by):
//       A_s = T.alloc_shared((bm, bk), "float16")
//       B_s = T.alloc_shared((bk, bn), "float16")
//       C_l = T.alloc_fragment((bm, bn), "float32")
//       T.clear(C_l)
//       for k in T.serial(T.ceildiv(K, bk)):
//           T.copy(A[by * bm, k * bk], A_s)
//           T.copy(B[k * bk, bx * bn], B_s)
//           T.gemm(A_s, B_s, C_l)
//       T.copy(C_l, C[by * bm, bx * bn])

!A = memref<4096x4096xf16>
!B = memref<4096x4096xf16>
!C = memref<4096x4096xf16>
!As = memref<128x32xf16, #gpu.address_space<workgroup>>
!Bs = memref<32x128xf16, #gpu.address_space<workgroup>>
!Cl = memref<128x128xf32, #gpu.address_space<private>>

func.func @matmul_plain(%A: !A, %B: !B, %C: !C) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %bm = arith.constant 128 : index
  %bn = arith.constant 128 : index
  %bk = arith.constant 32 : index
  %M = arith.constant 4096 : index
  %N = arith.constant 4096 : index
  %K = arith.constant 4096 : index
  %gx = arith.ceildivui %N, %bn : index
  %gy = arith.ceildivui %M, %bm : index
  %kt = arith.ceildivui %K, %bk : index
  tile.kernel grid(%gx, %gy) threads(128) as (%bx, %by) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    tile.clear %C_l : !Cl
    %row = arith.muli %by, %bm : index
    %col = arith.muli %bx, %bn : index
    scf.for %k = %c0 to %kt step %c1 {
      %ko = arith.muli %k, %bk : index
      tile.copy %A[%row, %ko] to %A_s : !A to !As
      tile.copy %B[%ko, %col] to %B_s : !B to !Bs
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    }
    tile.copy %C_l to %C[%row, %col] : !Cl to !C
  }
  return
}
