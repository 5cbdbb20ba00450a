#!/usr/bin/env python3
"""Deletes one kind of instruction from the innermost loops of a kernel's PTX,
to measure what it costs: `nocp` (every cp.async), `nowait`
(cp.async.wait_group) or `nobar` (bar.sync). The kernel computes wrong results
afterwards; only its time means something (tile-run --bench).

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


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in PATTERNS:
        sys.exit(__doc__)
    pattern = PATTERNS[sys.argv[1]]
    with open(sys.argv[2]) as f:
        lines = f.read().split("\n")
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
