#!/usr/bin/env python3
"""Writes the PTX of each gpu.binary in a module, and how to launch it.

usage: extract.py module.mlir outdir
Writes outdir/<kernel>.ptx and outdir/launch.txt with one line per kernel:
  <func> <entry> <gx> <gy> <threads> <arg>...
where <arg> is pN (the func's N-th memref, as a bare pointer) or iV (an
index constant V, passed as a 64-bit integer).
"""
import re
import sys

BINARY = re.compile(r'gpu\.binary @(\w+) .*?assembly = "((?:[^"\\]|\\.)*)"')
LAUNCH = re.compile(r"gpu\.launch_func\s+@(\w+)::@(\w+) blocks in \((%\w+), (%\w+), %\w+\) "
                    r"threads in \((%\w+), %\w+, %\w+\)\s+args\((.*)\)")
CONST = re.compile(r"(%\w+) = arith\.constant (-?\d+) : index")


def unescape(s):
    return re.sub(r"\\([0-9A-Fa-f]{2}|\\)",
                  lambda m: "\\" if m.group(1) == "\\" else chr(int(m.group(1), 16)), s)


def main():
    text = open(sys.argv[1]).read()
    out = sys.argv[2]
    for m in BINARY.finditer(text):
        with open(f"{out}/{m.group(1)}.ptx", "w") as f:
            f.write(unescape(m.group(2)))
    lines = []
    for func in re.split(r"\n\s*func\.func ", text)[1:]:
        name = func.split("(")[0].lstrip("@")
        consts = dict(CONST.findall(func))
        for l in LAUNCH.finditer(func):
            module, entry, gx, gy, tx, args = l.groups()
            spec = []
            for a in args.split(", "):
                v = a.split(" : ")[0]
                spec.append("p" + v[4:] if v.startswith("%arg") else "i" + consts[v])
            lines.append(" ".join([name, module, entry, consts[gx], consts[gy], consts[tx]] + spec))
    with open(f"{out}/launch.txt", "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
