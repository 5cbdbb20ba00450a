#!/usr/bin/env python3
"""Turns each tile.kernel of a fragment-lowered module into a gpu.launch.

Stand-in for the kernel outlining and shared-memory carving of
--tile-lower-to-nvgpu, so that the fragment lowering can be checked on a GPU
by itself: shared tiles become workgroup attributions of the launch. Works on
tile-opt's printed form; only for the kernels of gen_kernels.py.
"""
import re
import sys

KERNEL = re.compile(
    r"^(\s*)tile\.kernel grid\((%\w+), (%\w+)\) threads\((\d+)\) as \((%\w+), (%\w+)\) \{$")
SHARED = re.compile(r"^\s*(%\w+) = tile\.alloc_shared : (.*)$")


def main():
    lines = open(sys.argv[1]).read().splitlines()
    out, i = [], 0
    while i < len(lines):
        m = KERNEL.match(lines[i])
        if not m:
            out.append(lines[i])
            i += 1
            continue
        indent, gx, gy, threads, bx, by = m.groups()
        body, j = [], i + 1
        while lines[j] != indent + "}":
            body.append(lines[j])
            j += 1
        shared = [SHARED.match(l) for l in body]
        attrs = ", ".join(f"{s.group(1)} : {s.group(2)}" for s in shared if s)
        body = [l for l, s in zip(body, shared) if not s]
        out.append(f"{indent}%one_{i} = arith.constant 1 : index")
        out.append(f"{indent}%threads_{i} = arith.constant {threads} : index")
        out.append(
            f"{indent}gpu.launch blocks({bx}, {by}, %bz_{i}) in "
            f"(%gx_{i} = {gx}, %gy_{i} = {gy}, %gz_{i} = %one_{i}) "
            f"threads(%tx_{i}, %ty_{i}, %tz_{i}) in "
            f"(%sx_{i} = %threads_{i}, %sy_{i} = %one_{i}, %sz_{i} = %one_{i}) "
            f"workgroup({attrs}) {{")
        out.extend(body)
        out.append(indent + "  gpu.terminator")
        out.append(indent + "}")
        i = j + 1
    print("\n".join(out))


if __name__ == "__main__":
    main()
