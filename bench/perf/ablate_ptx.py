#!/usr/bin/env python3
"""Deletes one kind of instruction from the innermost loops of a kernel's PTX,
to measure what it costs: `nocp` (every cp.async), `nowait`
(cp.async.wait_group) or `nobar` (bar.sync) from the loops, or `nostore`: every
`st.global` of the kernel predicated on `%nctaid.x == 0xfffff`, which never holds,
so ptxas keeps the values and addresses but nothing is stored. The kernel
computes wrong results afterwards; only its time means something
(tile-run --bench).

Two modes for TMA kernels: `nofence` deletes every
`fence.proxy.async.shared::cta` of the kernel, which keeps the results right
when the TMA wrote every shared operand (wgmma reads them through the same
async proxy). `nowaitbar` deletes the `bar.sync` right after each mbarrier
wait: after that wait every thread sees the group's bytes, but the barrier
may also be what keeps the next copies from overwriting a version another
warpgroup still reads. The unrolled wgmma steady state has a barrier (or,
with one warpgroup, the wgmma wait) for that; a rolled loop does not, so
check the results (tile-run --check).

`halfb` and `halfab` bound what sharing tiles between the blocks of a cluster
(TMA multicast) could be worth: they delete, in the loops, the last quarter of
each commit group's `cp.async` (half of B's, for groups that copy A and then
B in two equal halves) or the second half of each half (half of A's and half
of B's), as if another block had loaded those bytes.

  bench/perf/ablate_ptx.py MODE in.ptx > out.ptx

A loop is a label with a backward branch to it; its body is everything in
between. Prints how many instructions it removed on stderr."""

import re
import sys

PATTERNS = {"nocp": "cp.async.cg", "nowait": "cp.async.wait_group",
            "nobar": "bar.sync"}


def loop_ranges(lines):
    labels = {}
    for i, line in enumerate(lines):
        m = re.match(r"^(\$L__BB\d+_\d+):", line)
        if m:
            labels[m.group(1)] = i
    ranges = []
    for i, line in enumerate(lines):
        m = re.search(r"\bbra(?:\.uni)?\s+(\$L__BB\d+_\d+);", line)
        if m and m.group(1) in labels and labels[m.group(1)] < i:
            ranges.append((labels[m.group(1)], i))
    return ranges


def predicate_stores(lines):
    """Guards every st.global with a predicate that is false at run time but
    that ptxas cannot prove false, set right after the register declarations."""
    out, guarded = [], 0
    for i, line in enumerate(lines):
        if line.strip().startswith("st.global"):
            line = re.sub(r"^(\s*)", r"\1@%p_nostore ", line, count=1)
            guarded += 1
        out.append(line)
        is_reg = re.match(r"^\s*\.reg\s", line)
        if is_reg and not re.match(r"^\s*\.reg\s", lines[i + 1]):
            out += ["\t.reg .pred \t%p_nostore;", "\t.reg .b32 \t%r_nostore;",
                    "\tmov.u32 \t%r_nostore, %nctaid.x;",
                    "\tsetp.eq.u32 \t%p_nostore, %r_nostore, 1048575;"]
    return out, guarded


def drop_shared_quarters(lines, ranges, mode):
    """Deletes the quarters of each loop commit group that `mode` names."""
    drop = {"halfb": (3,), "halfab": (1, 3)}[mode]
    out, group, removed = [], [], 0

    def flush():
        nonlocal removed
        n = len(group)
        for k, (i, line) in enumerate(group):
            if n % 4 == 0 and (4 * k) // n in drop:
                removed += 1
                continue
            out.append(line)
        group.clear()

    for i, line in enumerate(lines):
        in_loop = any(a <= i <= b for a, b in ranges)
        if in_loop and "cp.async.cg" in line:
            group.append((i, line))
            continue
        if "cp.async.commit_group" in line:
            flush()
        out.append(line)
    flush()
    return out, removed


def drop_tma_syncs(lines, mode):
    """`nofence`: every async-proxy fence; `nowaitbar`: each bar.sync that
    directly follows the inline-asm block of an mbarrier try_wait loop."""
    out, removed, in_wait, after_wait = [], 0, False, False
    for line in lines:
        text = line.strip()
        if mode == "nofence" and text == "fence.proxy.async.shared::cta;":
            removed += 1
            continue
        if "mbarrier.try_wait" in text:
            in_wait = True
        elif in_wait and text == "// end inline asm":
            in_wait, after_wait = False, True
            out.append(line)
            continue
        if after_wait and text:
            after_wait = False
            if mode == "nowaitbar" and re.fullmatch(r"bar\.sync\s+0;", text):
                removed += 1
                continue
        out.append(line)
    return out, removed


def main():
    modes = list(PATTERNS) + ["nostore", "halfb", "halfab", "nofence",
                              "nowaitbar"]
    if len(sys.argv) != 3 or sys.argv[1] not in modes:
        sys.exit(__doc__)
    with open(sys.argv[2]) as f:
        lines = f.read().split("\n")
    if sys.argv[1] == "nostore":
        out, guarded = predicate_stores(lines)
        sys.stderr.write("nostore: guarded %d\n" % guarded)
        print("\n".join(out))
        return
    if sys.argv[1] in ("nofence", "nowaitbar"):
        out, removed = drop_tma_syncs(lines, sys.argv[1])
        sys.stderr.write("%s: removed %d\n" % (sys.argv[1], removed))
        print("\n".join(out))
        return
    ranges = loop_ranges(lines)
    if sys.argv[1] in ("halfb", "halfab"):
        out, removed = drop_shared_quarters(lines, ranges, sys.argv[1])
        sys.stderr.write("%s: removed %d\n" % (sys.argv[1], removed))
        print("\n".join(out))
        return
    pattern = PATTERNS[sys.argv[1]]
    kept, removed = [], 0
    for i, line in enumerate(lines):
        if pattern in line and any(a <= i <= b for a, b in ranges):
            removed += 1
            continue
        kept.append(line)
    sys.stderr.write("%s: removed %d\n" % (sys.argv[1], removed))
    print("\n".join(kept))


if __name__ == "__main__":
    main()
