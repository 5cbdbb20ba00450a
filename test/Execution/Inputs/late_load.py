#!/usr/bin/env python3
"""Rewrites a gemm.py kernel (stdin, `--emit kernel`, K loop counting tiles
from 0) so that B is prefetched into a single shared buffer: B's tile 0 is
copied before the loop, and each iteration copies tile k + 1 after the gemm
that reads tile k. The gemm then reads the tile the previous iteration
loaded, a loop-carried read of a shared tile (the shape of TileLang issue
2668), and the result is still C = A * B, so gemm.py's checker applies.
"""

import sys

B_COPY = "tile.copy %B[%ko, %col] to %B_s : !B to !Bs"
out = []
for line in sys.stdin:
    stripped = line.strip()
    if stripped.startswith(("tile.pipelined", "scf.for")):
        out.append("    tile.copy %B[%c0, %col] to %B_s : !B to !Bs\n")
    if stripped == B_COPY:
        continue
    out.append(line)
    if stripped.startswith("tile.gemm"):
        out.append("      %kn = arith.addi %ko, %bk : index\n")
        out.append("      tile.copy %B[%kn, %col] to %B_s : !B to !Bs\n")
text = "".join(out)
if B_COPY in text or "%kn" not in text:
    sys.exit("late_load.py: input is not a gemm.py kernel with a K loop")
sys.stdout.write(text)
