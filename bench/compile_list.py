#!/usr/bin/env python3
"""Compiles a list of GEMM configurations for bench/check_random.sh.

Each line of LIST names one kernel of test/Execution/Inputs/gemm.py, with
tab-separated fields: the chip, gemm.py's flags (`--emit kernel` is added),
tile-to-ptx's options (may be empty), and for a kernel over dynamic sizes
the MxNxK shapes to run it at (space-separated). Blank lines and lines
starting with '#' are skipped. For kernel n (its line's number among the
kernels, from 0) OUT gets n.ptx, n.launch and, for sm_90 and sm_90a, ptxas's
n.cubin, and OUT/manifest.tsv gets the line that check_random.sh reads (as
random_gemms.py --keep writes it). Prints one line per kernel (ptxas's
registers and spills) and exits 1 if any does not compile:

    python3 bench/compile_list.py bench/lists/review-risky.tsv DIR
    bench/check_random.sh DIR     # on the GPU machine
"""
import argparse
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GEMM = ROOT / "test" / "Execution" / "Inputs" / "gemm.py"


def read_list(path):
    """(chip, flags, options, shapes) for each kernel line of `path`."""
    kernels = []
    for number, line in enumerate(Path(path).read_text().splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) < 2 or len(fields) > 4:
            sys.exit(f"error: {path}:{number}: expected 2 to 4 tab-separated "
                     f"fields (chip, gemm.py flags, options, shapes), got "
                     f"{len(fields)}")
        fields += [""] * (4 - len(fields))
        kernels.append(tuple(field.strip() for field in fields))
    return kernels


def run(command, **kwargs):
    return subprocess.run(command, capture_output=True, text=True, **kwargs)


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("list")
    parser.add_argument("out")
    parser.add_argument("--tile-opt", default=str(ROOT / "build/bin/tile-opt"))
    parser.add_argument("--tile-translate",
                        default=str(ROOT / "build/bin/tile-translate"))
    parser.add_argument("--ptxas", default="ptxas")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    failed = 0
    manifest = []
    for index, (chip, flags, options, shapes) in enumerate(read_list(args.list)):
        flags = "--emit kernel " + flags
        kernel = run([sys.executable, str(GEMM)] + flags.split())
        gpu = out / f"{index}.mlir"
        compiled = kernel.returncode == 0 and run(
            [args.tile_opt, "-", f"--tile-to-ptx=chip={chip} print-budget=false "
             f"{options}", "-o", str(gpu)], input=kernel.stdout)
        if not compiled or compiled.returncode != 0:
            why = (compiled or kernel).stderr.strip().splitlines()
            print(f"FAIL {index} {chip} {flags} {options}: "
                  f"{why[0] if why else 'no message'}")
            failed += 1
            continue
        ptx, launch = out / f"{index}.ptx", out / f"{index}.launch"
        translated = [run([args.tile_translate, flag, str(gpu), "-o", str(path)])
                      for flag, path in (("--tile-emit-ptx", ptx),
                                         ("--tile-emit-launch", launch))]
        if any(t.returncode != 0 for t in translated):
            why = next(t for t in translated if t.returncode != 0).stderr.strip()
            print(f"FAIL {index} {chip}: tile-translate: {why}")
            failed += 1
            continue
        cubin = out / f"{index}.cubin"
        ptxas = run([args.ptxas, f"-arch={chip}", "-v", str(ptx), "-o", str(cubin)])
        if ptxas.returncode != 0:
            print(f"FAIL {index} {chip}: ptxas: {ptxas.stderr.strip()}")
            failed += 1
            continue
        if chip not in ("sm_90", "sm_90a"):
            cubin.unlink()
        gpu.unlink()
        usage = [line.split(":", 1)[1].strip() for line in ptxas.stderr.splitlines()
                 if "Used" in line] + [line.strip() for line in ptxas.stderr.splitlines()
                                       if "spill" in line]
        print(f"ok   {index} {chip} {flags} {options}: {'; '.join(usage)}")
        manifest.append("\t".join(
            [str(index), chip, f"{flags} {options}".strip()] + ([shapes] if shapes else [])))
    (out / "manifest.tsv").write_text("".join(line + "\n" for line in manifest))
    print(f"{len(manifest)} of {len(manifest) + failed} kernels compiled into {out}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
