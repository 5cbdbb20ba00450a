#!/usr/bin/env python3
"""Prints a tile GEMM module that runs on the CPU and checks itself.

The module has two functions:

* `@gemm(%A, %B, %C)`: C = A * B with static shapes (A MxK f16, B KxN f16,
  C MxN f16; `--dtype bf16` for A and B, `--c-type` for C), written as the
  seed examples write it (examples/matmul_*.mlir):
  `plain` uses a serial scf.for, `auto` a `tile.pipelined` with only
  `num_stages`, `manual` one with `stage` and `order` by hand.
  `--transpose-a` stores A as KxM (`--transpose-b`: B as NxK) and uses
  the tile.gemm transpose flags. `--tiles-per-block T` has each block
  compute T tiles of a row of C, one after another in an scf.for.
* `@main()`: fills A and B with small integers that f16 and bf16 hold
  exactly, keeps copies of both, poisons C, calls @gemm, recomputes every
  element from the copies (so a kernel that writes to A or B is still checked
  against the true inputs) with a plain f32 loop nest rounded to C's type the
  same way, and prints

      max_abs_error: <largest |C - reference| over all elements>
      unwritten: <elements of C still holding the poison>
      checked: <number of elements compared, counted as they are compared>

The inputs keep every partial sum an integer below 2^24, so f32 sums are
exact in any order and a correct kernel gives max_abs_error 0 exactly.

`--emit main` prints only @main, to be appended to a hand-written @gemm.
"""

import argparse
import sys
import textwrap

# Exact in f16 (bf16 rounds it to -29952); the inputs' products repeat every
# 99 k-steps and sum to at least 0 per period, so no partial sum falls
# below -110 and none can be mistaken for the poison.
POISON = -30000.0


def parse_list(text):
    return [int(x) for x in text.split(",")] if text else None


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--variant", choices=["plain", "auto", "manual"],
                   help="default: auto with --num-stages, manual with "
                   "--stage, else plain")
    p.add_argument("--emit", choices=["all", "kernel", "main"], default="all")
    p.add_argument("--M", type=int, default=96)
    p.add_argument("--N", type=int, default=80)
    p.add_argument("--K", type=int, default=200)
    p.add_argument("--bm", type=int, default=32)
    p.add_argument("--bn", type=int, default=32)
    p.add_argument("--bk", type=int, default=16)
    p.add_argument("--threads", type=int, default=128)
    p.add_argument("--k-step", choices=["tile", "element"], default="tile",
                   help="the K loop counts tiles (0 to ceil(K/bk) step 1, "
                   "as the seed) or elements (0 to K step bk)")
    p.add_argument("--k-offset", type=int, default=0,
                   help="shift the K loop's bounds by this much (a non-zero "
                   "lower bound), subtracting it again in the body")
    p.add_argument("--k-lead", type=int, default=0,
                   help="start every K tile this many elements early: the "
                   "copies read from k * bk - LEAD, the first tile from a "
                   "negative offset, and the loop runs ceil((K + LEAD) / "
                   "bk) times; what lies outside A and B reads as zero, so "
                   "the product is the same GEMM")
    p.add_argument("--transpose-a", action="store_true",
                   help="store A as KxM and use tile.gemm transpose_a")
    p.add_argument("--transpose-b", action="store_true",
                   help="store B as NxK and use tile.gemm transpose_b")
    p.add_argument("--dtype", choices=["f16", "bf16"], default="f16",
                   help="element type of A and B")
    p.add_argument("--c-type", choices=["f16", "bf16", "f32"], default=None,
                   help="element type of C (default: --dtype)")
    p.add_argument("--gemm-in-if", action="store_true",
                   help="put the gemm in an scf.if that always holds (a "
                        "statement with a region)")
    p.add_argument("--copy-b-in-if", action="store_true",
                   help="put the copy of B in an scf.if that always holds "
                        "(it then stays synchronous)")
    p.add_argument("--offset-in-if", action="store_true",
                   help="compute the copy of A's K offset with an scf.if "
                        "that always takes its then branch, and whose else "
                        "branch alone uses a value of the kernel body")
    p.add_argument("--two-gemms", action="store_true",
                   help="split each K tile into halves of bk/2: two copies "
                        "of A, two of B and two gemms into the accumulator "
                        "per iteration (six statements; not with --variant "
                        "manual)")
    p.add_argument("--tiles-per-block", type=int, default=1,
                   help="each block computes this many C tiles along N in "
                        "an scf.for around the clear, the K loop and the "
                        "store (the grid's x is ceil(N / bn / T)); tiles "
                        "past N in the last blocks lie outside C")
    p.add_argument("--tile-loop", choices=["for", "while", "carried"],
                   default="for",
                   help="with --tiles-per-block: the loop over the tiles, an "
                        "scf.for, an scf.while that carries the tile index, "
                        "or an scf.for that carries the tile's column (+bn "
                        "each tile)")
    p.add_argument("--dynamic", action="store_true",
                   help="the kernel takes memref<?x?x...> operands and reads "
                        "M, N and K with memref.dim")
    p.add_argument("--divisibility", type=int, default=None,
                   help="with --dynamic: promise that every size is a "
                        "multiple of this (tile.divisibility on the operands; "
                        "M, N and K must be multiples of it)")
    p.add_argument("--num-stages", type=int, default=None,
                   help="auto: the pipeline depth (default 3)")
    p.add_argument("--stage", default=None,
                   help="manual: stage per statement (default 0,0,1)")
    p.add_argument("--order", default=None,
                   help="manual: order per statement (default 0,1,2)")
    args = p.parse_args(argv)
    if args.variant is None:
        args.variant = ("auto" if args.num_stages is not None else
                        "manual" if args.stage else "plain")
    if args.variant != "auto" and args.num_stages is not None:
        p.error("--num-stages needs --variant auto")
    if args.variant != "manual" and (args.stage or args.order):
        p.error("--stage/--order need --variant manual")
    if args.two_gemms and (args.variant == "manual" or args.bk % 2):
        p.error("--two-gemms needs an even --bk and no --variant manual")
    if args.k_lead < 0 or (args.k_lead and (args.k_step != "tile" or
                                             args.k_offset)):
        p.error("--k-lead needs a non-negative value, --k-step tile and no "
                "--k-offset")
    if args.c_type is None:
        args.c_type = args.dtype
    if args.variant == "auto" and args.num_stages is None:
        args.num_stages = 3
    if args.variant == "manual" and args.stage is None:
        args.stage = "0,0,1"
        if args.order is None:
            args.order = "0,1,2"
    for name in ("M", "N", "K", "bm", "bn", "bk", "threads",
                 "tiles_per_block"):
        if getattr(args, name) <= 0:
            p.error(f"--{name.replace('_', '-')} must be positive")
    if args.tile_loop != "for" and args.tiles_per_block == 1:
        p.error("--tile-loop needs --tiles-per-block above 1")
    if args.divisibility is not None:
        if not args.dynamic or args.divisibility <= 0:
            p.error("--divisibility needs --dynamic and a positive value")
        if any(getattr(args, n) % args.divisibility for n in ("M", "N", "K")):
            p.error("--divisibility must divide --M, --N and --K")
    return args


def k_loop(a):
    """The K loop's bounds, the definitions they need (before the kernel) and
    the body's first ops, which give %ko, the element offset of the K tile.
    By default the seed's form: 0 to ceil(K/bk) step 1."""
    if a.k_lead:
        defs = (f"  %k_lead = arith.constant {a.k_lead} : index\n"
                "  %K_lead = arith.addi %K, %k_lead : index\n"
                "  %kt_lead = arith.ceildivui %K_lead, %bk : index\n")
        body = ("      %kb = arith.muli %k, %bk : index\n"
                "      %ko = arith.subi %kb, %k_lead : index")
        return "%c0 to %kt_lead step %c1", defs, body
    if a.k_step == "tile" and a.k_offset == 0:
        return ("%c0 to %kt step %c1", "",
                "      %ko = arith.muli %k, %bk : index")
    defs = f"  %k_off = arith.constant {a.k_offset} : index\n"
    defs += "  %k_lb = arith.addi %c0, %k_off : index\n"
    if a.k_step == "tile":
        defs += "  %k_ub = arith.addi %kt, %k_off : index\n"
        body = ("      %kk = arith.subi %k, %k_off : index\n"
                "      %ko = arith.muli %kk, %bk : index")
        return "%k_lb to %k_ub step %c1", defs, body
    defs += "  %k_ub = arith.addi %K, %k_off : index\n"
    body = "      %ko = arith.subi %k, %k_off : index"
    return "%k_lb to %k_ub step %bk", defs, body


def loop_header(args, bounds):
    """The K loop of the chosen variant, opening its body."""
    if args.variant == "plain":
        return f"scf.for %k = {bounds} {{"
    if args.variant == "auto":
        return (f"tile.pipelined {bounds} "
                f"num_stages = {args.num_stages} as (%k) {{")
    schedule = f"stage = [{', '.join(map(str, parse_list(args.stage)))}]"
    if args.order:
        schedule += f" order = [{', '.join(map(str, parse_list(args.order)))}]"
    return f"tile.pipelined {bounds} {schedule} as (%k) {{"


def a_shape(a):
    return (a.K, a.M) if a.transpose_a else (a.M, a.K)


def b_shape(a):
    return (a.N, a.K) if a.transpose_b else (a.K, a.N)


def memref_type(shape, elem):
    return f"memref<{shape[0]}x{shape[1]}x{elem}>"


def kernel_type(a, shape, elem):
    """An operand's type in @gemm: dynamic in both dimensions with --dynamic."""
    return memref_type(("?", "?") if a.dynamic else shape, elem)


def size_defs(a):
    """The definitions of %M, %N and %K in @gemm: constants, or with
    --dynamic the operands' sizes."""
    if not a.dynamic:
        return "".join(f"  %{n} = arith.constant {getattr(a, n)} : index\n"
                       for n in ("M", "N", "K"))
    m, k_a = ("%c1", "%c0") if a.transpose_a else ("%c0", "%c1")
    n = "%c0" if a.transpose_b else "%c1"
    return (f"  %M = memref.dim %A, {m} : !A\n"
            f"  %N = memref.dim %B, {n} : !B\n"
            f"  %K = memref.dim %A, {k_a} : !A\n")


def emit_kernel(a):
    k_bounds, k_defs, k_body = k_loop(a)
    # With --two-gemms each shared tile holds half a K tile.
    tk = a.bk // 2 if a.two_gemms else a.bk
    a_tile = (tk, a.bm) if a.transpose_a else (a.bm, tk)
    b_tile = (a.bn, tk) if a.transpose_b else (tk, a.bn)
    a_k = "%ka" if a.offset_in_if else "%ko"
    a_at = f"{a_k}, %row" if a.transpose_a else f"%row, {a_k}"
    # %far is defined in the kernel body and used only inside the scf.if's
    # else region (never taken: %ko < K): passes that clone a copy with the
    # ops feeding it must follow uses into regions.
    far = "    %far = arith.muli %bx, %bk : index\n" if a.offset_in_if else ""
    # Whether %ko lies below K: with --k-lead the first tile's %ko is
    # negative, below K as a signed number.
    below = "slt" if a.k_lead else "ult"
    offset = ""
    if a.offset_in_if:
        offset = (f"      %in_k = arith.cmpi {below}, %ko, %K : index\n"
                  "      %ka = scf.if %in_k -> (index) {\n"
                  "        scf.yield %ko : index\n"
                  "      } else {\n"
                  "        scf.yield %far : index\n"
                  "      }\n")
    b_at = "%col, %ko" if a.transpose_b else "%ko, %col"
    flags = ((" transpose_a" if a.transpose_a else "")
             + (" transpose_b" if a.transpose_b else ""))
    copy_b = f"      tile.copy %B[{b_at}] to %B_s : !B to !Bs"
    if a.copy_b_in_if:
        copy_b = (f"      %inside = arith.cmpi {below}, %ko, %K : index\n"
                  "      scf.if %inside {\n  " + copy_b + "\n      }")
    gemm = f"      tile.gemm %A_s, %B_s, %C_l{flags} : !As, !Bs, !Cl"
    if a.two_gemms:
        # The second half: its own tiles at K offset %ko + bk/2.
        a2_at = "%ko2, %row" if a.transpose_a else "%row, %ko2"
        b2_at = "%col, %ko2" if a.transpose_b else "%ko2, %col"
        copy_b += (f"\n      %ko2 = arith.addi %ko, %half : index\n"
                   f"      tile.copy %A[{a2_at}] to %A2_s : !A to !As\n"
                   f"      tile.copy %B[{b2_at}] to %B2_s : !B to !Bs")
        gemm += (f"\n      tile.gemm %A2_s, %B2_s, %C_l{flags} : "
                 "!As, !Bs, !Cl")
    if a.gemm_in_if:
        # The loop's lower bound (k_loop): %k never is below it, so the
        # condition always holds, also where --k-offset makes it negative.
        lower = ("%k_lb" if not a.k_lead and
                 (a.k_step != "tile" or a.k_offset != 0) else "%c0")
        gemm = (f"      %always = arith.cmpi sge, %k, {lower} : index\n"
                "      scf.if %always {\n" + textwrap.indent(gemm, "  ") +
                "\n      }")
    second = ""
    if a.two_gemms:
        second = ("    %A2_s = tile.alloc_shared : !As\n"
                  "    %B2_s = tile.alloc_shared : !Bs\n"
                  f"    %half = arith.constant {tk} : index\n")
    col_tile = "%tile" if a.tiles_per_block > 1 else "%bx"
    col_def = ("" if a.tile_loop == "carried" else
               f"    %col = arith.muli {col_tile}, %bn : index\n")
    tile_body = f"""\
    tile.clear %C_l : !Cl
    %row = arith.muli %by, %bm : index
{col_def}\
{far}\
    {loop_header(a, k_bounds)}
{k_body}
{offset}\
      tile.copy %A[{a_at}] to %A_s : !A to !As
{copy_b}
{gemm}
    }}
    tile.copy %C_l to %C[%row, %col] : !Cl to !C
"""
    grid_x = "  %gx = arith.ceildivui %N, %bn : index\n"
    if a.tiles_per_block > 1:
        # Tile bx * T + t of the row: the clear, the K loop and the store
        # run T times in each block.
        grid_x = ("  %tiles_n = arith.ceildivui %N, %bn : index\n"
                  f"  %tpb = arith.constant {a.tiles_per_block} : index\n"
                  "  %gx = arith.ceildivui %tiles_n, %tpb : index\n")
        if a.tile_loop == "for":
            tile_body = ("    %first = arith.muli %bx, %tpb : index\n"
                         "    scf.for %t = %c0 to %tpb step %c1 {\n"
                         "      %tile = arith.addi %first, %t : index\n"
                         + textwrap.indent(tile_body, "  ") + "    }\n")
        elif a.tile_loop == "carried":
            tile_body = ("    %first = arith.muli %bx, %tpb : index\n"
                         "    %first_col = arith.muli %first, %bn : index\n"
                         "    scf.for %t = %c0 to %tpb step %c1\n"
                         "        iter_args(%col = %first_col) -> index {\n"
                         + textwrap.indent(tile_body, "  ") +
                         "      %next_col = arith.addi %col, %bn : index\n"
                         "      scf.yield %next_col : index\n"
                         "    }\n")
        else:
            tile_body = ("    %first = arith.muli %bx, %tpb : index\n"
                         "    %end = arith.addi %first, %tpb : index\n"
                         "    scf.while (%next = %first) : (index) -> index {\n"
                         "      %more = arith.cmpi ult, %next, %end : index\n"
                         "      scf.condition(%more) %next : index\n"
                         "    } do {\n"
                         "    ^bb0(%tile: index):\n"
                         + textwrap.indent(tile_body, "  ") +
                         "      %after = arith.addi %tile, %c1 : index\n"
                         "      scf.yield %after : index\n"
                         "    }\n")
    promise = ("" if a.divisibility is None else
               f" {{tile.divisibility = {a.divisibility} : i64}}")
    return f"""\
!A = {kernel_type(a, a_shape(a), a.dtype)}
!B = {kernel_type(a, b_shape(a), a.dtype)}
!C = {kernel_type(a, (a.M, a.N), a.c_type)}
!As = memref<{a_tile[0]}x{a_tile[1]}x{a.dtype}, #gpu.address_space<workgroup>>
!Bs = memref<{b_tile[0]}x{b_tile[1]}x{a.dtype}, #gpu.address_space<workgroup>>
!Cl = memref<{a.bm}x{a.bn}xf32, #gpu.address_space<private>>

func.func @gemm(%A: !A{promise}, %B: !B{promise}, %C: !C{promise}) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %bm = arith.constant {a.bm} : index
  %bn = arith.constant {a.bn} : index
  %bk = arith.constant {a.bk} : index
{size_defs(a)}\
{grid_x}  %gy = arith.ceildivui %M, %bm : index
  %kt = arith.ceildivui %K, %bk : index
{k_defs}\
  tile.kernel grid(%gx, %gy) threads({a.threads}) as (%bx, %by) {{
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
{second}\
    %C_l = tile.alloc_fragment : !Cl
{tile_body}  }}
  return
}}
"""


def emit_fill(name, shape, elem, mul_i, mul_j, mod, bias, transposed):
    """Logical element (r, c) = ((r * mul_i + c * mul_j) % mod) - bias, with
    memref `name` holding element (r, c) at [c][r] when `transposed`."""
    rows, cols = shape
    if transposed:
        mul_i, mul_j = mul_j, mul_i
    return f"""\
  scf.for %i = %c0 to %c{rows} step %c1 {{
    scf.for %j = %c0 to %c{cols} step %c1 {{
      %ti = arith.muli %i, %c{mul_i} : index
      %tj = arith.muli %j, %c{mul_j} : index
      %s = arith.addi %ti, %tj : index
      %r = arith.remui %s, %c{mod} : index
      %v = arith.subi %r, %c{bias} : index
      %vi = arith.index_cast %v : index to i32
      %vf = arith.sitofp %vi : i32 to {elem}
      memref.store %vf, %{name}[%i, %j] : memref<{rows}x{cols}x{elem}>
    }}
  }}
"""


def emit_call(a, tA, tB, tC):
    """The call of @gemm, through casts to dynamic types with --dynamic."""
    if not a.dynamic:
        return f"  func.call @gemm(%A, %B, %C) : ({tA}, {tB}, {tC}) -> ()"
    dyn = [kernel_type(a, None, e) for e in (a.dtype, a.dtype, a.c_type)]
    casts = "".join(f"  %{n}_dyn = memref.cast %{n} : {t} to {d}\n"
                    for n, t, d in zip("ABC", (tA, tB, tC), dyn))
    return (casts + "  func.call @gemm(%A_dyn, %B_dyn, %C_dyn) : "
            f"({', '.join(dyn)}) -> ()")


def emit_main(a):
    consts = sorted({0, 1, 2, 3, 4, 5, 7, 9, 11, a.M, a.N, a.K})
    const_lines = "\n".join(
        f"  %c{c} = arith.constant {c} : index" for c in consts)
    tA = memref_type(a_shape(a), a.dtype)
    tB = memref_type(b_shape(a), a.dtype)
    a_at = "%k, %i" if a.transpose_a else "%i, %k"
    b_at = "%j, %k" if a.transpose_b else "%k, %j"
    tC = memref_type((a.M, a.N), a.c_type)
    ab, c = a.dtype, a.c_type
    # The reference rounds the f32 sum to C's type and back.
    if c == "f32":
        round_ref = "      %ref = arith.addf %sum, %zero : f32"
        load_got = (f"      %got = memref.load %C[%i, %j] : {tC}")
        poison32 = "  %poison32 = arith.addf %poison, %zero : f32"
    else:
        round_ref = (f"      %ref16 = arith.truncf %sum : f32 to {c}\n"
                     f"      %ref = arith.extf %ref16 : {c} to f32")
        load_got = (f"      %got16 = memref.load %C[%i, %j] : {tC}\n"
                    f"      %got = arith.extf %got16 : {c} to f32")
        poison32 = f"  %poison32 = arith.extf %poison : {c} to f32"
    return f"""\
func.func @main() {{
{const_lines}
  %A = memref.alloc() : {tA}
  %B = memref.alloc() : {tB}
  %C = memref.alloc() : {tC}
{emit_fill("A", a_shape(a), ab, 7, 3, 11, 5, a.transpose_a)}\
{emit_fill("B", b_shape(a), ab, 5, 2, 9, 4, a.transpose_b)}\
  // The reference reads copies taken before the call: @gemm may write to
  // %A and %B, not to these.
  %A0 = memref.alloc() : {tA}
  %B0 = memref.alloc() : {tB}
  memref.copy %A, %A0 : {tA} to {tA}
  memref.copy %B, %B0 : {tB} to {tB}
  %poison = arith.constant {POISON:e} : {c}
  scf.for %i = %c0 to %c{a.M} step %c1 {{
    scf.for %j = %c0 to %c{a.N} step %c1 {{
      memref.store %poison, %C[%i, %j] : {tC}
    }}
  }}

{emit_call(a, tA, tB, tC)}

  // The reference: a plain loop nest, f32 sum over k, rounded to C's type.
  %zero = arith.constant 0.0 : f32
  %none = arith.constant 0 : i64
  %one = arith.constant 1 : i64
{poison32}
  %result:3 = scf.for %i = %c0 to %c{a.M} step %c1
      iter_args(%err_i = %zero, %bad_i = %none, %n_i = %none)
      -> (f32, i64, i64) {{
    %row:3 = scf.for %j = %c0 to %c{a.N} step %c1
        iter_args(%err_j = %err_i, %bad_j = %bad_i, %n_j = %n_i)
        -> (f32, i64, i64) {{
      %sum = scf.for %k = %c0 to %c{a.K} step %c1
          iter_args(%acc = %zero) -> (f32) {{
        %a16 = memref.load %A0[{a_at}] : {tA}
        %b16 = memref.load %B0[{b_at}] : {tB}
        %a32 = arith.extf %a16 : {ab} to f32
        %b32 = arith.extf %b16 : {ab} to f32
        %p = arith.mulf %a32, %b32 : f32
        %acc1 = arith.addf %acc, %p : f32
        scf.yield %acc1 : f32
      }}
{round_ref}
{load_got}
      %diff = arith.subf %got, %ref : f32
      %abs = math.absf %diff : f32
      %err = arith.maximumf %err_j, %abs : f32
      %is_poison = arith.cmpf oeq, %got, %poison32 : f32
      %inc = arith.select %is_poison, %one, %none : i64
      %bad = arith.addi %bad_j, %inc : i64
      %n = arith.addi %n_j, %one : i64
      scf.yield %err, %bad, %n : f32, i64, i64
    }}
    scf.yield %row#0, %row#1, %row#2 : f32, i64, i64
  }}
  vector.print str "max_abs_error: "
  vector.print %result#0 : f32
  vector.print str "unwritten: "
  vector.print %result#1 : i64
  vector.print str "checked: "
  vector.print %result#2 : i64
  memref.dealloc %A : {tA}
  memref.dealloc %B : {tB}
  memref.dealloc %A0 : {tA}
  memref.dealloc %B0 : {tB}
  memref.dealloc %C : {tC}
  return
}}
"""


def main(argv):
    args = parse_args(argv)
    out = [f"// Generated by test/Execution/Inputs/gemm.py {' '.join(argv)}\n"]
    if args.emit in ("all", "kernel"):
        out.append(emit_kernel(args))
    if args.emit in ("all", "main"):
        out.append(emit_main(args))
    sys.stdout.write("\n".join(out))


if __name__ == "__main__":
    main(sys.argv[1:])
