#!/usr/bin/env python3
"""Writes tile-level GEMM kernels that exercise only the fragment lowering.

Each kernel stages its A and B tiles global -> fragment -> shared (fragment
copies, swizzled shared stores), runs tile.gemm from shared, and stores the
accumulator to global with bounds masks. No pipelining and no global->shared
copies, so the kernels need nothing but the fragment lowering; see run.sh.

Output: kernels.mlir and manifest.txt (one line per kernel:
name M N K bm bn bk threads dtype transA transB).
"""
import sys

# name, M, N, K, bm, bn, bk, threads, dtype, transA, transB
CONFIGS = [
    ("nn_128x128_t128", 256, 256, 256, 128, 128, 32, 128, "f16", 0, 0),
    ("nn_odd", 200, 136, 96, 128, 128, 32, 128, "f16", 0, 0),
    ("tn_64x64", 128, 192, 128, 64, 64, 32, 128, "f16", 1, 0),
    ("nt_64x128", 128, 256, 64, 64, 128, 32, 128, "f16", 0, 1),
    ("tt_odd", 100, 72, 80, 64, 64, 16, 128, "f16", 1, 1),
    ("nn_128x256_t256", 256, 512, 128, 128, 256, 32, 256, "f16", 0, 0),
    ("nn_odd_tiles_n", 64, 48, 64, 64, 48, 32, 128, "f16", 0, 0),
    ("fma_f32", 96, 80, 40, 64, 32, 16, 128, "f32", 0, 1),
    ("mma_bf16", 64, 64, 64, 64, 64, 32, 128, "bf16", 1, 0),
    ("mma_bf16_odd", 136, 200, 48, 128, 128, 32, 128, "bf16", 0, 1),
    # The FMA fallback at 1 to 8 warps with every transpose, K tiles of 8
    # and 24 (not multiples of 16), and bf16 mma.sync at 2 and 3 warps.
    ("fma_f32_nn_16x8x16_t32", 37, 19, 40, 16, 8, 16, 32, "f32", 0, 0),
    ("fma_f32_tn_16x8x16_t32", 37, 19, 40, 16, 8, 16, 32, "f32", 1, 0),
    ("fma_f32_nt_16x16x16_t32", 37, 35, 40, 16, 16, 16, 32, "f32", 0, 1),
    ("fma_f32_tt_48x48x48_t96", 101, 53, 100, 48, 48, 48, 96, "f32", 1, 1),
    ("fma_f32_nn_48x24x48_t96", 101, 53, 100, 48, 24, 48, 96, "f32", 0, 0),
    ("fma_f32_tt_32x16x32_t64", 70, 37, 75, 32, 16, 32, 64, "f32", 1, 1),
    ("fma_f32_nt_128x64x16_t256", 261, 131, 37, 128, 64, 16, 256, "f32", 0, 1),
    ("fma_f32_tn_128x64x16_t256", 261, 131, 37, 128, 64, 16, 256, "f32", 1, 0),
    ("fma_bf16_nt_64x64x24_t128", 133, 141, 77, 64, 64, 24, 128, "bf16", 0, 1),
    ("fma_f16_nt_48x48x8_t96", 100, 50, 30, 48, 48, 8, 96, "f16", 0, 1),
    ("mma_bf16_tt_48x48x48_t96", 101, 53, 100, 48, 48, 48, 96, "bf16", 1, 1),
    ("mma_bf16_tn_32x16x32_t64", 70, 37, 75, 32, 16, 32, 64, "bf16", 1, 0),
]


def kernel(name, M, N, K, bm, bn, bk, threads, dt, ta, tb):
    wg = "#gpu.address_space<workgroup>"
    pv = "#gpu.address_space<private>"
    a_shape = (K, M) if ta else (M, K)
    b_shape = (N, K) if tb else (K, N)
    as_shape = (bk, bm) if ta else (bm, bk)
    bs_shape = (bn, bk) if tb else (bk, bn)
    t = lambda s, e, sp="": f"memref<{s[0]}x{s[1]}x{e}{', ' + sp if sp else ''}>"
    A, B, C = t(a_shape, dt), t(b_shape, dt), t((M, N), "f16")
    As, Bs = t(as_shape, dt, wg), t(bs_shape, dt, wg)
    Af, Bf = t(as_shape, dt, pv), t(bs_shape, dt, pv)
    Cl = t((bm, bn), "f32", pv)
    a_idx = "[%ko, %row]" if ta else "[%row, %ko]"
    b_idx = "[%col, %ko]" if tb else "[%ko, %col]"
    flags = (" transpose_a" if ta else "") + (" transpose_b" if tb else "")
    return f"""
func.func @{name}(%A: {A}, %B: {B}, %C: {C}) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %bm = arith.constant {bm} : index
  %bn = arith.constant {bn} : index
  %bk = arith.constant {bk} : index
  %gx = arith.constant {(N + bn - 1) // bn} : index
  %gy = arith.constant {(M + bm - 1) // bm} : index
  %kt = arith.constant {(K + bk - 1) // bk} : index
  tile.kernel grid(%gx, %gy) threads({threads}) as (%bx, %by) {{
    %A_s = tile.alloc_shared : {As}
    %B_s = tile.alloc_shared : {Bs}
    %A_f = tile.alloc_fragment : {Af}
    %B_f = tile.alloc_fragment : {Bf}
    %C_l = tile.alloc_fragment : {Cl}
    tile.clear %C_l : {Cl}
    %row = arith.muli %by, %bm : index
    %col = arith.muli %bx, %bn : index
    scf.for %k = %c0 to %kt step %c1 {{
      %ko = arith.muli %k, %bk : index
      tile.copy %A{a_idx} to %A_f : {A} to {Af}
      tile.copy %B{b_idx} to %B_f : {B} to {Bf}
      gpu.barrier
      tile.copy %A_f to %A_s : {Af} to {As}
      tile.copy %B_f to %B_s : {Bf} to {Bs}
      gpu.barrier
      tile.gemm %A_s, %B_s, %C_l{flags} : {As}, {Bs}, {Cl}
    }}
    tile.copy %C_l to %C[%row, %col] : {Cl} to {C}
  }}
  return
}}
"""


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "."
    with open(f"{out}/kernels.mlir", "w") as f:
        for c in CONFIGS:
            f.write(kernel(*c))
    with open(f"{out}/manifest.txt", "w") as f:
        for c in CONFIGS:
            f.write(" ".join(str(x) for x in c) + "\n")


if __name__ == "__main__":
    main()
