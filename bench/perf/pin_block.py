#!/usr/bin/env python3
"""Makes every block of a kernel compute what one block of its full grid
computes, so that one kind of block (an interior tile, a tile of the grid's
last column, its corner) can be timed alone.

Each `mov.u32 %rN, %ctaid.{x,y,z};` of the PTX becomes a move of the chosen
block index, and each `mov.u32 %rN, %nctaid.{x,y,z};` a move of the full grid
(the launch description's `grid` line), so the kernel's own block order
(BlockOrder.h: grouped, from the far corner) maps the block to its tile as in
the full launch; a persistent kernel's block walks its tiles as in the full
launch too. The launch description written beside the PTX asks for a grid
of --copies x 1 x 1 blocks (default 1). With one block, `tile-run --bench`
times that block alone: its TFLOP/s figure counts the whole GEMM and means
nothing, the time is the block's. With more copies every block computes and
stores the same tile, which times that kind of block under load. Either way
the results are wrong (`--check` fails); only the time means something.

  bench/perf/pin_block.py in.ptx --block X[,Y[,Z]] [--copies N] -o out.ptx

reads in.launch (or --launch) and writes out.ptx and out.launch. Kernels in
clusters are refused: their blocks also read their rank in the cluster, and
a cluster of copies would share tiles that one block does not.
"""

import argparse
import re
import sys
from pathlib import Path

MOV = re.compile(r"^(\s*mov\.u32\s+%r\d+,\s*)%(n?ctaid)\.([xyz])(\s*;.*)$")
SPECIAL = re.compile(r"%n?ctaid\.[xyz]")


def fail(message):
    sys.exit("pin_block.py: error: " + message)


def read_grid(launch):
    grid = None
    for line in launch.splitlines():
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        if words[0] == "cluster":
            fail("the kernel runs in clusters; pinning one block's tile "
                 "would break its cluster")
        if words[0] == "grid":
            if len(words) != 4 or not all(w.isdigit() for w in words[1:]):
                fail("malformed grid line: " + line.strip())
            grid = [int(w) for w in words[1:]]
    if grid is None:
        fail("the launch description has no grid line")
    return grid


def pin(ptx, block, grid):
    out, pinned = [], 0
    for number, line in enumerate(ptx.splitlines(keepends=True), 1):
        m = MOV.match(line.rstrip("\n"))
        if m:
            axis = "xyz".index(m.group(3))
            value = grid[axis] if m.group(2) == "nctaid" else block[axis]
            out.append("%s%d%s\n" % (m.group(1), value, m.group(4)))
            pinned += 1
        elif SPECIAL.search(line.split("//", 1)[0]):
            fail("line %d reads a block index other than through "
                 "mov.u32: %s" % (number, line.strip()))
        else:
            out.append(line)
    if pinned == 0:
        fail("the PTX reads no block index (%ctaid)")
    return "".join(out)


def main():
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("ptx", type=Path)
    parser.add_argument("--launch", type=Path,
                        help="default: the PTX path with .launch")
    parser.add_argument("--block", required=True,
                        help="X[,Y[,Z]]: the block of the full grid")
    parser.add_argument("--copies", type=int, default=1,
                        help="blocks to launch, all computing that tile")
    parser.add_argument("-o", "--output", type=Path, required=True,
                        help="out.ptx; out.launch is written beside it")
    args = parser.parse_args()

    try:
        block = [int(v) for v in args.block.split(",")]
    except ValueError:
        fail("--block takes X[,Y[,Z]]: " + args.block)
    if not 1 <= len(block) <= 3:
        fail("--block takes X[,Y[,Z]]: " + args.block)
    block += [0] * (3 - len(block))
    if args.copies < 1:
        fail("--copies must be at least 1")
    launch_path = args.launch or args.ptx.with_suffix(".launch")
    try:
        launch = launch_path.read_text()
        ptx = args.ptx.read_text()
    except OSError as e:
        fail(str(e))
    grid = read_grid(launch)
    for b, g in zip(block, grid):
        if b < 0 or b >= g:
            fail("block %s is outside the grid %s" %
                 (",".join(map(str, block)), "x".join(map(str, grid))))

    pinned = pin(ptx, block, grid)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(pinned)
    grid_line = "grid %d 1 1" % args.copies
    lines = [grid_line if l.split("#", 1)[0].split()[:1] == ["grid"] else l
             for l in launch.splitlines()]
    args.output.with_suffix(".launch").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
