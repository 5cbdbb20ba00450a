// A GEMM whose tensors are smaller than its tiles and are copied without
// offsets: one block multiplies a 20x20 A by a 20x24 B into a 20x24 C through
// 64x32x32 tiles, A with a synchronous copy and B with an asynchronous one.
// The copies move the whole tiles; the parts outside the tensors read as
// zeros (and so add nothing to the product) or are not stored. Compiled by
// make-compiled-inputs.sh.

!A = memref<20x20xf16>
!B = memref<20x24xf16>
!C = memref<20x24xf16>
!As = memref<64x32xf16, #gpu.address_space<workgroup>>
!Bs = memref<32x32xf16, #gpu.address_space<workgroup>>
!Cl = memref<64x32xf32, #gpu.address_space<private>>

func.func @gemm(%A: !A, %B: !B, %C: !C) {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1, %c1) threads(128) as (%bx, %by) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    tile.clear %C_l : !Cl
    tile.copy %A to %A_s : !A to !As
    tile.copy_async %B to %B_s : !B to !Bs
    tile.commit_group
    tile.wait_group 0
    tile.barrier
    tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    tile.copy %C_l to %C : !Cl to !C
  }
  return
}
