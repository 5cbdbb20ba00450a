"""Sorts what ptxas says about a kernel's wgmma pipeline into what costs
time and what does not.

ptxas reports when it has to keep wgmmas apart: "(C7519) warpgroup.arrive
is injected", "(C7517) warpgroup.wait is injected" (before code that uses
an accumulator a wgmma may still write) and "(C7514) ... wgmma.mma_async
instructions are serialized". Inside a group of several wgmmas, or under a
group left in flight across other work, that is a real loss: the lowering
must never give ptxas cause to (test/Target/wgmma-after-clear-ptx.test).

One case costs nothing. When every group is a single wgmma that the code
waits for at once (`wgmma.commit_group` then `wgmma.wait_group 0`), there is
nothing to serialize, and an injected wait can only stand between the wgmma
and that `wait_group 0`. ptxas 13.0 does inject one there in some kernels
with bounds-checked C stores (a serial loop over one k-tile of 16, N odd):
its scheduler moves address arithmetic of the stores into the gap and then
waits for the wgmma before it, so the SASS has two `WARPGROUP.DEPBAR.LE
gsb0, 0x0` in a row (docs/performance.md, "What the random sweeps found"). An
injected arrive is never taken for harmless.

As a script: ptxas_wgmma.py PTX STDERR prints `none`, `harmless` or
`costly`, then ptxas's lines about the pipeline.
"""
import re
import sys

_MMA = re.compile(r"\bwgmma\.mma_async\b")
_COMMIT = re.compile(r"\bwgmma\.commit_group\b")
_WAIT0 = re.compile(r"^\s*wgmma\.wait_group\.sync\.aligned\s+0\s*;")


def pipeline_lines(stderr):
    """ptxas's lines about the wgmma pipeline: injected arrives and waits,
    serialized wgmmas."""
    return [line for line in stderr.splitlines()
            if "injected" in line or "serialized" in line]


def single_wgmmas_waited_at_once(ptx):
    """True when the PTX has wgmmas and every commit group holds exactly one
    that the next instruction after the commit waits for (`wait_group 0`)."""
    lines = [line for line in ptx.splitlines()
             if line.strip() and not line.strip().startswith("//")]
    groups = 0
    pending = 0
    for i, line in enumerate(lines):
        if _MMA.search(line):
            pending += 1
        elif _COMMIT.search(line):
            if pending != 1 or i + 1 == len(lines) or \
                    not _WAIT0.match(lines[i + 1]):
                return False
            groups += 1
            pending = 0
    return groups > 0 and pending == 0


def classify(ptx, stderr):
    """`none` when ptxas says nothing about the wgmma pipeline, `harmless`
    when what it says cannot cost time (see the module's doc), else
    `costly`."""
    lines = pipeline_lines(stderr)
    if not lines:
        return "none"
    if any("warpgroup.arrive" in line for line in lines):
        return "costly"
    return "harmless" if single_wgmmas_waited_at_once(ptx) else "costly"


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: ptxas_wgmma.py PTX STDERR")
    with open(sys.argv[1]) as f:
        ptx = f.read()
    with open(sys.argv[2]) as f:
        stderr = f.read()
    print(classify(ptx, stderr))
    for line in pipeline_lines(stderr):
        print(line)
