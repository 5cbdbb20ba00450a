#!/usr/bin/env python3
"""Deletes one kind of instruction from the innermost loops of a kernel's PTX,
to measure what it costs: `nocp` (every cp.async), `nowait`
(cp.async.wait_group) or `nobar` (bar.sync) from the loops, or `nostore`: every
`st.global` of the kernel predicated on `%nctaid.x == 0xfffff`, which never holds,
so ptxas keeps the values and addresses but nothing is stored. The kernel
computes wrong results afterwards; only its time means something
(tile-run --bench).

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


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in list(PATTERNS) + ["nostore"]:
        sys.exit(__doc__)
    with open(sys.argv[2]) as f:
        lines = f.read().split("\n")
    if sys.argv[1] == "nostore":
        out, guarded = predicate_stores(lines)
        sys.stderr.write("nostore: guarded %d\n" % guarded)
        print("\n".join(out))
        return
    pattern = PATTERNS[sys.argv[1]]
    ranges = loop_ranges(lines)
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
