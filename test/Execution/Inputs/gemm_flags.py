"""Random choices of gemm.py flags, and the command-line options, that the
random sweeps share (test/Execution/Inputs/random_schedules.py,
test/Target/Inputs/random_gemms.py).
"""


def add_sweep_arguments(parser):
    """The options of both sweeps: the seed and count, gemm.py, tile-opt,
    the time limit of each step, and the body's regions and second gemm."""
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--count", type=int, required=True)
    parser.add_argument("--gen", required=True, help="gemm.py")
    parser.add_argument("--tile-opt", required=True)
    parser.add_argument("--timeout", type=int, default=120,
                        help="seconds each step may take")
    parser.add_argument("--regions", action="store_true",
                        help="also put the gemm, the copy of B or A's K "
                        "offset under an scf.if (gemm.py's --gemm-in-if, "
                        "--copy-b-in-if, --offset-in-if), drawn from a "
                        "stream of their own so that a seed's other choices "
                        "stay as they were")
    parser.add_argument("--two-gemms", action="store_true",
                        help="give half of the pipelined and serial (not "
                        "hand-scheduled) kernels gemm.py's --two-gemms: two "
                        "copies of A, two of B and two gemms per iteration, "
                        "from a stream of its own as --regions")
    parser.add_argument("--tile-loops", action="store_true",
                        help="give a third of the kernels gemm.py's "
                        "--tiles-per-block 2 or 3: each block runs the "
                        "clear, the K loop and the store for that many tiles "
                        "of a row of C in an scf.for, from a stream of its "
                        "own as --regions")
    parser.add_argument("--leads", action="store_true",
                        help="give a third of the kernels whose K loop has "
                        "the seed's form gemm.py's --k-lead (1 to 64 "
                        "elements): every K tile starts that far early, the "
                        "first at a negative offset that reads zeros, from a "
                        "stream of its own as --regions")


def draw_layout_flags(rng):
    """Transposed operands and the K loop's form: each with a fixed chance,
    drawn in a fixed order so that a seed keeps its configurations."""
    flags = []
    if rng.random() < 0.3:
        flags.append("--transpose-a")
    if rng.random() < 0.3:
        flags.append("--transpose-b")
    if rng.random() < 0.2:
        flags += ["--k-step", "element"]
    if rng.random() < 0.2:
        flags += ["--k-offset", str(rng.choice([1, 5, 32]))]
    return flags


def draw_tile_loop_flags(rng):
    """gemm.py's --tiles-per-block for a third of the configurations
    (--tile-loops of the sweeps), the loop an scf.for or, for half of them,
    an scf.while (--tile-loop while), from the caller's own stream; the same
    draws per call."""
    chance, tiles, loop = rng.random(), rng.choice([2, 3]), rng.random()
    if chance >= 1 / 3:
        return []
    flags = ["--tiles-per-block", str(tiles)]
    return flags + ["--tile-loop", "while"] if loop < 1 / 2 else flags


def draw_region_flags(rng):
    """Ops with regions in the K loop's body (--regions of the sweeps): the
    gemm or the copy of B under an scf.if, and A's K offset from one. Each
    with a fixed chance, from the caller's own stream."""
    flags = []
    for flag in ["--gemm-in-if", "--copy-b-in-if", "--offset-in-if"]:
        if rng.random() < 0.3:
            flags.append(flag)
    return flags


def draw_lead_flags(rng, flags):
    """gemm.py's --k-lead for a third of the configurations whose K loop
    `flags` leave in the seed's form (no --k-step element, no --k-offset),
    from the caller's own stream; one draw per call whatever `flags`, so
    that the stream stays in step with the configurations."""
    chance, lead = rng.random(), rng.choice([1, 2, 3, 7, 8, 16, 24, 31, 64])
    if chance < 1 / 3 and "--k-step" not in flags and "--k-offset" not in flags:
        return ["--k-lead", str(lead)]
    return []
