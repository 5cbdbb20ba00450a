#!/usr/bin/env python3
"""Compiles every benchmark configuration to PTX + launch description.

Runs on the build machine (it needs tile-opt; the GPU machine has no MLIR).
Writes bench/ptx/<name>.ptx, <name>.launch and bench/ptx/manifest.json, which
bench/run_h200.py reads on the GPU machine. A configuration that does not
compile (the seed's over-budget 256x256x64 with 4 stages must not) is kept in
the manifest with the compiler's error, so the benchmark shows it.

The compiler commands are templates (--pipeline-cmd, --emit-ptx-cmd,
--emit-launch-cmd) so that they follow the compiler's tools as they change.
"""

import argparse
import datetime
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import configs  # noqa: E402

PIPELINE = ("{tile_opt} {mlir} '--tile-to-ptx=chip={chip}{options}' "
            "-o {gpu_mlir}")
EMIT_PTX = "{tile_translate} {gpu_mlir} --tile-emit-ptx -o {ptx}"
EMIT_LAUNCH = "{tile_translate} {gpu_mlir} --tile-emit-launch -o {launch}"


def run(cmd):
    p = subprocess.run(cmd, shell=True, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def first_error(text):
    text = text.replace(ROOT + os.sep, "")  # repository-relative paths
    for line in text.splitlines():
        if "error:" in line:
            return line.strip()
    lines = [l for l in text.splitlines() if l.strip()]
    return lines[-1].strip() if lines else "failed without a message"


def generator_args(c):
    args = ["--variant", c["variant"], "--emit", "kernel"]
    for key in ("M", "N", "K", "bm", "bn", "bk", "threads"):
        args += ["--" + key, str(c[key])]
    if c["variant"] == "auto":
        args += ["--num-stages", str(c["stages"])]
    return args


def compile_ours(c, opts, out_dir):
    # The record names the chip compiled for (the table labels rows by it),
    # --chip's where given.
    rec = dict(c, kernel_source="tile-mlir", chip=opts.chip or c["chip"])
    base = os.path.join(out_dir, c["name"])
    paths = dict(mlir=base + ".mlir", gpu_mlir=base + ".gpu.mlir",
                 ptx=base + ".ptx", launch=base + ".launch",
                 tile_opt=opts.tile_opt, tile_translate=opts.tile_translate,
                 chip=rec["chip"],
                 options=" " + c["options"] if c.get("options") else "")
    rc, out, err = run(" ".join([sys.executable, opts.gen] +
                                generator_args(c)))
    if rc != 0:
        return dict(rec, status="error", error="generator: " + first_error(err))
    with open(paths["mlir"], "w") as f:
        f.write(out)
    for step, template in (("compile", opts.pipeline_cmd),
                           ("emit-ptx", opts.emit_ptx_cmd),
                           ("emit-launch", opts.emit_launch_cmd)):
        rc, out, err = run(template.format(**paths))
        if rc != 0:
            return dict(rec, status="error", step=step,
                        error=first_error(err + out))
    for p in ("mlir", "gpu_mlir"):
        if not opts.keep_mlir:
            os.remove(paths[p])
    return dict(rec, status="ok", ptx=os.path.relpath(paths["ptx"], ROOT),
                launch=os.path.relpath(paths["launch"], ROOT))


def compile_handwritten(cs, opts, out_dir):
    script = os.path.join(ROOT, "test", "Runtime", "Inputs", "make-inputs.sh")
    specs = ["%s %d %d %d %d" % (c["name"], c["M"], c["N"], c["K"],
                                 c["stages"]) for c in cs]
    rc, out, err = run(" ".join([script, opts.nvcc, out_dir] +
                                ["'%s'" % s for s in specs]))
    recs = []
    for c in cs:
        rec = dict(c, kernel_source="test/Runtime/Inputs/gemm_wmma.cu")
        if rc != 0:
            recs.append(dict(rec, status="error", error=first_error(err)))
            continue
        base = os.path.join(out_dir, c["name"])
        recs.append(dict(rec, status="ok",
                         ptx=os.path.relpath(base + ".ptx", ROOT),
                         launch=os.path.relpath(base + ".launch", ROOT)))
    return recs


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--out", default=os.path.join(HERE, "ptx"))
    p.add_argument("--chip", default=None,
                   help="compile every configuration for this chip instead "
                   "of its own (bench/configs.py)")
    p.add_argument("--tile-opt", default=os.path.join(ROOT, "build", "bin",
                                                      "tile-opt"))
    p.add_argument("--tile-translate",
                   default=os.path.join(ROOT, "build", "bin",
                                        "tile-translate"))
    p.add_argument("--gen", default=os.path.join(ROOT, "test", "Execution",
                                                 "Inputs", "gemm.py"))
    p.add_argument("--nvcc", default=shutil.which("nvcc") or
                   "/usr/local/cuda/bin/nvcc")
    p.add_argument("--pipeline-cmd", default=PIPELINE)
    p.add_argument("--emit-ptx-cmd", default=EMIT_PTX)
    p.add_argument("--emit-launch-cmd", default=EMIT_LAUNCH)
    p.add_argument("--no-handwritten", action="store_true",
                   help="skip the hand-written stand-in kernel")
    p.add_argument("--no-ours", action="store_true",
                   help="only the hand-written stand-in (harness checks)")
    p.add_argument("--keep-mlir", action="store_true")
    opts = p.parse_args()
    os.makedirs(opts.out, exist_ok=True)

    records = []
    missing = [x for x in (opts.tile_opt, opts.tile_translate, opts.gen)
               if not os.path.exists(x)]
    for c in [] if opts.no_ours else configs.configs():
        if missing:
            records.append(dict(c, kernel_source="tile-mlir",
                                status="skipped",
                                error="not built: " + ", ".join(
                                    os.path.relpath(x, ROOT) for x in missing)))
        else:
            records.append(compile_ours(c, opts, opts.out))
        r = records[-1]
        print("%-48s %s%s" % (r["name"], r["status"],
                              "  " + r["error"] if r.get("error") else ""))
    if not opts.no_handwritten:
        for r in compile_handwritten(configs.handwritten_configs(), opts,
                                     opts.out):
            records.append(r)
            print("%-48s %s" % (r["name"], r["status"]))

    rc, commit, _ = run("git -C %s rev-parse --short HEAD" % ROOT)
    rc2, dirty, _ = run("git -C %s status --porcelain -uno" % ROOT)
    commit = commit.strip() + ("-dirty" if dirty.strip() else "")
    manifest = dict(commit=commit, chip=opts.chip or "per configuration",
                    compiled=datetime.datetime.now(datetime.timezone.utc)
                    .strftime("%Y-%m-%dT%H:%M:%SZ"),
                    records=records)
    with open(os.path.join(opts.out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    ok = sum(r["status"] == "ok" for r in records)
    print("%d of %d configurations compiled into %s" %
          (ok, len(records), os.path.relpath(opts.out, ROOT)))


if __name__ == "__main__":
    main()
