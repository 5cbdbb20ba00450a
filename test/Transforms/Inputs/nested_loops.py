"""Prints a kernel whose copy into a shared tile and gemm reading it sit in
DEPTH nested scf.for loops (software-pipeline-sync-nested.mlir)."""
import sys

depth = int(sys.argv[1])
print("""!G = memref<64x64xf16>
!S = memref<16x16xf16, #gpu.address_space<workgroup>>
!F = memref<16x16xf32, #gpu.address_space<private>>
func.func @nested(%A: !G, %C: !G) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !S
    %C_l = tile.alloc_fragment : !F
    tile.clear %C_l : !F""")
for i in range(depth):
    print(f"    scf.for %i{i} = %c0 to %c2 step %c1 {{")
print("""      tile.copy %A[%c0, %c0] to %A_s : !G to !S
      tile.gemm %A_s, %A_s, %C_l : !S, !S, !F""")
for _ in range(depth):
    print("    }")
print("""    tile.copy %C_l to %C : !F to !G
  }
  return
}""")
