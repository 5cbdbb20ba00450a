"""Random choices of gemm.py flags that the random sweeps share
(test/Execution/Inputs/random_schedules.py, test/Target/Inputs/random_gemms.py).
"""


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


def draw_region_flags(rng):
    """Ops with regions in the K loop's body (--regions of the sweeps): the
    gemm or the copy of B under an scf.if, and A's K offset from one. Each
    with a fixed chance, from the caller's own stream."""
    flags = []
    for flag in ["--gemm-in-if", "--copy-b-in-if", "--offset-in-if"]:
        if rng.random() < 0.3:
            flags.append(flag)
    return flags
