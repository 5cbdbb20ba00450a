// The seed GEMM (128x128x32 tiles, 3 stages) over M x 256 times 256 x N
// tensors whose M and N are known only at run time, each a multiple of 8
// (tile.divisibility): K is static, so the pipeline's trip count is too,
// and with tma=true the copies are TMA boxes over tensor maps that the
// launch encodes from the shapes it is given. test/Target/gemm-dynamic-ptx.test
// compiles it, and make-compiled-inputs.sh writes gemm_dynamic_mn_tma_sm90a
// for gpu-check-dynamic-tma.test.
!A = memref<?x256xf16>
!B = memref<256x?xf16>
!C = memref<?x?xf16>
!As = memref<128x32xf16, #gpu.address_space<workgroup>>
!Bs = memref<32x128xf16, #gpu.address_space<workgroup>>
!Cl = memref<128x128xf32, #gpu.address_space<private>>
func.func @gemm(%A: !A {tile.divisibility = 8 : i64}, %B: !B {tile.divisibility = 8 : i64}, %C: !C {tile.divisibility = 8 : i64}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %bm = arith.constant 128 : index
  %bn = arith.constant 128 : index
  %bk = arith.constant 32 : index
  %kt = arith.constant 8 : index
  %M = memref.dim %A, %c0 : !A
  %N = memref.dim %B, %c1 : !B
  %gx = arith.ceildivui %N, %bn : index
  %gy = arith.ceildivui %M, %bm : index
  tile.kernel grid(%gx, %gy) threads(128) as (%bx, %by) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    tile.clear %C_l : !Cl
    %row = arith.muli %by, %bm : index
    %col = arith.muli %bx, %bn : index
    tile.pipelined %c0 to %kt step %c1 num_stages = 3 as (%k) {
      %ko = arith.muli %k, %bk : index
      tile.copy %A[%row, %ko] to %A_s : !A to !As
      tile.copy %B[%ko, %col] to %B_s : !B to !Bs
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    }
    tile.copy %C_l to %C[%row, %col] : !Cl to !C
  }
  return
}
