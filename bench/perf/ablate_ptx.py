#!/usr/bin/env python3
"""Deletes one kind of instruction from the innermost loops of a kernel's PTX,
to measure what it costs: `nocp` (every cp.async), `nowait`
(cp.async.wait_group) or `nobar` (bar.sync) from the loops, or `nostore`: every
`st.global` of the kernel predicated on `%nctaid.x == 0xfffff`, which never holds,
so ptxas keeps the values and addresses but nothing is stored. The kernel
computes wrong results afterwards; only its time means something
(tile-run --bench).

Modes for clustered TMA kernels, in the loops only: `noclusterbar`
deletes every cluster barrier (`barrier.cluster.arrive` and `.wait`; the
blocks then overwrite tiles their peers still read, and where some block
issues no box of a shared copy the others overrun its mbarrier phases:
such kernels compute wrong results or hang),
`nobarcluster` each `bar.sync` right before a cluster barrier, `loopnofence`
every `fence.proxy.async.shared::cta` and `loopnowaitbar` each `bar.sync`
right after an mbarrier wait. `latecopies` moves each step's cluster wait
and the copies after it behind the next step's mbarrier wait, where that
wait follows in the same loop body (not across the back edge), so that
waiting at the cluster barrier overlaps waiting for the next step's data.
These keep the results right. `sparseclusterbar` keeps the first cluster
barrier of each loop body and deletes the others, so that in an unrolled
steady state the blocks of a cluster meet once per iteration instead of once
per step: they may then overwrite a stage a peer still reads (wrong results),
but drift too little to overrun its mbarriers, which bounds what waiting only
for the stage a copy refills could be worth.

Modes separated by commas apply in turn: `nobarcluster,loopnofence`.

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

`fold=REG:VALUE[/REG:VALUE...]` writes in the values of registers that hold a
run-time stride, for one shape: each `add.s64 D, P, REG` whose result D is
used only as an address (`[D]`) or by another such addition is deleted, and
its addresses become `[root+offset]` immediates from the first register of
the chain (e.g. `fold=%rd79:131072/%rd81:65536` for a ?x? kernel's row
strides at K = N = 4096). The kernel computes right results at that shape
only; it measures what the additions cost.

  bench/perf/ablate_ptx.py MODE[,MODE...] in.ptx > out.ptx

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


def drop_syncs(lines, ranges, mode):
    """The TMA modes: `nofence` (every async-proxy fence) and `nowaitbar`
    (each bar.sync that directly follows the inline-asm block of an mbarrier
    try_wait loop) in the whole kernel; their `loop` versions and
    `noclusterbar`, `nobarcluster` in the loops only (see the docstring)."""
    loops_only = mode not in ("nofence", "nowaitbar")
    kind = mode[len("loop"):] if mode.startswith("loopno") else mode
    out, removed, in_wait, after_wait = [], 0, False, False
    for i, line in enumerate(lines):
        text = line.strip()
        next_text = lines[i + 1].strip() if i + 1 < len(lines) else ""
        bar = re.fullmatch(r"bar\.sync\s+0;", text)
        drop = (not loops_only or any(a <= i <= b for a, b in ranges)) and (
            (kind == "nofence" and text == "fence.proxy.async.shared::cta;")
            or (kind == "nowaitbar" and after_wait and bar)
            or (kind == "noclusterbar" and text.startswith("barrier.cluster."))
            or (kind == "nobarcluster" and bar
                and next_text.startswith("barrier.cluster.arrive")))
        if "mbarrier.try_wait" in text:
            in_wait = True
        elif in_wait and text == "// end inline asm":
            in_wait, after_wait = False, True
            out.append(line)
            continue
        if text:
            after_wait = False
        if drop:
            removed += 1
            continue
        out.append(line)
    return out, removed


def sparse_cluster_barriers(lines, ranges):
    """`sparseclusterbar`: in each loop body, every `barrier.cluster.arrive`
    and `.wait` after the body's first wait."""
    out, removed = [], 0
    for i, line in enumerate(lines):
        body = next((r for r in ranges if r[0] <= i <= r[1]), None)
        if body and line.strip().startswith("barrier.cluster.") and any(
                lines[j].strip().startswith("barrier.cluster.wait")
                for j in range(body[0], i)):
            removed += 1
            continue
        out.append(line)
    return out, removed


def move_copies_late(lines, ranges):
    """`latecopies`: each `barrier.cluster.wait` that follows an arrive, with
    the code after it up to the label that ends its copies' branch, moves
    behind the next mbarrier wait of the same loop body. A run that holds an
    unconditional branch (the back edge) stays."""
    out, moved, i = [], 0, 0
    while i < len(lines):
        start = lines[i].strip().startswith("barrier.cluster.wait") and \
            "barrier.cluster.arrive" in lines[i - 1] and \
            any(a <= i <= b for a, b in ranges)
        if start:
            j = i
            while j < len(lines) and j < i + 60 and \
                    not re.match(r"^\$L__BB\d+_\d+:", lines[j]):
                j += 1
            k = j + 1
            while k < len(lines) and "mbarrier.try_wait" not in lines[k] and \
                    "bra.uni \t$L__BB" not in lines[k]:
                k += 1
            run = lines[i:j + 1]
            if j < i + 60 and k < len(lines) and \
                    "mbarrier.try_wait" in lines[k] and \
                    not any("bra.uni" in line for line in run):
                while "// end inline asm" not in lines[k]:
                    k += 1
                out += lines[j + 1:k + 1] + run
                moved += 1
                i = k + 1
                continue
        out.append(lines[i])
        i += 1
    return out, moved


def fold_strides(lines, spec):
    """The `fold=` mode: see the docstring. `spec` is REG:VALUE/REG:VALUE."""
    values = {}
    for item in spec.split("/"):
        reg, _, value = item.partition(":")
        values[reg] = int(value)
    add = re.compile(r"^\s*add\.s64\s+(%rd\d+),\s*(%rd\d+),\s*(%rd\d+);\s*$")
    chain = {}  # D -> (P, value)
    for line in lines:
        m = add.match(line)
        if m and m.group(3) in values:
            chain[m.group(1)] = (m.group(2), values[m.group(3)])
    # D folds where every other use is an address; a kept addition still
    # reads its operand.
    folded = set(chain)
    for line in lines:
        m = add.match(line)
        if m and m.group(1) in chain:
            continue
        for reg in re.findall(r"(\[?)(%rd\d+)(\]?)", line):
            if reg[1] in folded and reg[0] + reg[2] != "[]":
                folded.discard(reg[1])
    changed = True
    while changed:
        changed = False
        for d, (p, _) in chain.items():
            if d not in folded and p in folded:
                folded.discard(p)
                changed = True

    def root(reg):
        offset = 0
        while reg in folded:
            offset += chain[reg][1]
            reg = chain[reg][0]
        return reg, offset

    def address(m):
        if m.group(1) not in folded:
            return m.group(0)
        reg, offset = root(m.group(1))
        return "[%s%+d]" % (reg, offset)

    out, removed = [], 0
    for line in lines:
        m = add.match(line)
        if m and m.group(1) in folded:
            removed += 1
            continue
        out.append(re.sub(r"\[(%rd\d+)\]", address, line))
    return out, removed


MODES = list(PATTERNS) + ["nostore", "halfb", "halfab", "nofence",
                          "nowaitbar", "noclusterbar", "nobarcluster",
                          "loopnofence", "loopnowaitbar", "latecopies",
                          "sparseclusterbar"]


def apply(mode, lines):
    """Returns the lines without (or with moved) what `mode` names, and a
    count for stderr."""
    if mode == "nostore":
        return predicate_stores(lines)
    if mode.startswith("fold="):
        return fold_strides(lines, mode[len("fold="):])
    ranges = loop_ranges(lines)
    if mode in ("halfb", "halfab"):
        return drop_shared_quarters(lines, ranges, mode)
    if mode == "latecopies":
        return move_copies_late(lines, ranges)
    if mode == "sparseclusterbar":
        return sparse_cluster_barriers(lines, ranges)
    if mode in ("nofence", "nowaitbar", "noclusterbar", "nobarcluster",
                "loopnofence", "loopnowaitbar"):
        return drop_syncs(lines, ranges, mode)
    pattern = PATTERNS[mode]
    kept, removed = [], 0
    for i, line in enumerate(lines):
        if pattern in line and any(a <= i <= b for a, b in ranges):
            removed += 1
            continue
        kept.append(line)
    return kept, removed


def main():
    modes = sys.argv[1].split(",") if len(sys.argv) == 3 else []
    if not modes or any(mode not in MODES and not mode.startswith("fold=")
                        for mode in modes):
        sys.exit(__doc__)
    with open(sys.argv[2]) as f:
        lines = f.read().split("\n")
    for mode in modes:
        lines, count = apply(mode, lines)
        verb = {"nostore": "guarded", "latecopies": "moved"}.get(mode,
                                                                 "removed")
        sys.stderr.write("%s: %s %d\n" % (mode.partition("=")[0], verb,
                                          count))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
