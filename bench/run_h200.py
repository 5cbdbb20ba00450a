#!/usr/bin/env python3
"""The benchmark, on the GPU machine, in one call.

Builds tile-run there (CMake, -DTILE_ENABLE_COMPILER=OFF: no MLIR needed),
runs every configuration that bench/compile_all.sh compiled into bench/ptx/
with `tile-run --check [--bench] --json` (cuBLAS is timed in the same
process), runs Triton's tutorial-style GEMM (bench/triton_gemm.py) on the
same tiles, threads and stages (and again with mma.sync, Triton's Hopper
warpgroup MMA turned off), and cuBLAS through torch. Writes
bench/results/h200.json (one record per row), the plot
docs/benchmark-stages.png (TFLOP/s against num_stages), and prints the table
last.
"""

import argparse
import datetime
import json
import os
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import configs  # noqa: E402


def log(*a):
    print(*a, flush=True)


def sh(cmd, **kw):
    return subprocess.run(cmd, shell=isinstance(cmd, str), capture_output=True,
                          text=True, **kw)


def build_tile_run(build_dir):
    exe = os.path.join(build_dir, "bin", "tile-run")
    gen = ["-G", "Ninja"] if shutil.which("ninja") else []
    cfg = sh(["cmake", "-S", ROOT, "-B", build_dir, "-DCMAKE_BUILD_TYPE=Release",
              "-DTILE_ENABLE_COMPILER=OFF"] + gen)
    if cfg.returncode != 0:
        sys.exit("cmake configure failed:\n" + cfg.stdout + cfg.stderr)
    b = sh(["cmake", "--build", build_dir, "-j", str(os.cpu_count() or 4)])
    if b.returncode != 0:
        sys.exit("cmake build failed:\n" + b.stdout + b.stderr)
    return exe


def environment():
    env = dict(gpu="unknown", driver="unknown", cuda="unknown")
    q = sh("nvidia-smi --query-gpu=name,driver_version --format=csv,noheader")
    if q.returncode == 0 and q.stdout.strip():
        parts = [p.strip() for p in q.stdout.splitlines()[0].split(",")]
        env["gpu"], env["driver"] = parts[0], parts[1]
    v = sh("nvcc --version")
    m = re.search(r"release ([0-9.]+)", v.stdout or "")
    if m:
        env["cuda"] = m.group(1)
    return env


def kernel_suffix(rec):
    """Our kernels name the instruction their chip gives them when it is not
    the default's wgmma, and the tile-to-ptx options they add."""
    chip = rec.get("chip", configs.WGMMA_CHIP)
    notes = [] if chip == configs.WGMMA_CHIP else ["mma.sync", chip]
    notes += rec.get("options", "").split()
    return " (%s)" % ", ".join(notes) if notes else ""


def tiles(r):
    return "%dx%dx%d" % (r["bm"], r["bn"], r["bk"])


def run_tile_run(exe, rec, opts):
    args = [exe, "--ptx", os.path.join(ROOT, rec["ptx"]), "--launch",
            os.path.join(ROOT, rec["launch"]), "--check", "--json",
            "--seed", str(opts.seed)]
    if rec["role"] == "bench":
        args += ["--bench", "--iters", str(opts.iters), "--warmup",
                 str(opts.warmup)]
    p = sh(args, timeout=opts.run_timeout)
    js = None
    for line in reversed(p.stdout.splitlines()):
        if line.startswith("{"):
            js = json.loads(line)
            break
    err = [l for l in p.stderr.splitlines() if "error:" in l]
    return js, p.returncode, (err[0] if err else p.stderr.strip()[-300:])


def run_triton_mma_sync(add, cublas_tflops, opts, seconds_left):
    """Triton's rows again with mma.sync (bench/triton_gemm.py --mma-sync in
    a child process): the same instruction as ours, for comparison. The
    child gets what is left of --time-budget (None: no budget)."""
    cfgs = configs.triton_mma_sync_configs()
    kernel = "Triton (mma.sync)"
    if seconds_left is not None and seconds_left <= 0:
        for c in cfgs:
            add(kernel, c, status="skipped", error="time budget spent")
        return
    timeout = opts.run_timeout * len(cfgs)
    if seconds_left is not None:
        timeout = min(timeout, seconds_left)
    try:
        out = subprocess.run(
            [sys.executable, os.path.join(HERE, "triton_gemm.py"),
             "--mma-sync", "--seed", str(opts.seed), "--configs",
             json.dumps(cfgs)], capture_output=True, text=True,
            timeout=timeout).stdout
    except subprocess.TimeoutExpired as e:
        # The configurations that finished printed their lines already.
        out = e.stdout or ""
        if isinstance(out, bytes):
            out = out.decode(errors="replace")
    results = {}
    for line in out.splitlines():
        if line.startswith("{"):
            r = json.loads(line)
            results[r["name"]] = r
    for c in cfgs:
        t = results.get(c["name"])
        if t is None:
            add(kernel, c, status="run-error",
                error="no result (timed out or failed)")
        elif "error" in t:
            add(kernel, c, status="error", error=t["error"])
        else:
            add(kernel, c, tflops=t["tflops"], cublas_tflops=cublas_tflops,
                ratio_cublas=t["tflops"] / cublas_tflops, check=t["check"],
                max_abs_err=t["max_abs_err"], instruction=t["instruction"],
                status="ok" if t["check"] == "pass" else "check-failed")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ptx-dir", default=os.path.join(HERE, "ptx"))
    ap.add_argument("--results", default=os.path.join(HERE, "results",
                                                      "h200.json"))
    ap.add_argument("--plot", default=os.path.join(ROOT, "docs",
                                                   "benchmark-stages.png"))
    ap.add_argument("--build-dir", default=os.path.join(ROOT, "build-runtime"))
    ap.add_argument("--tile-run", default=None,
                    help="use this tile-run instead of building one")
    ap.add_argument("--iters", type=int, default=50)
    ap.add_argument("--warmup", type=int, default=10)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--run-timeout", type=float, default=120,
                    help="seconds one tile-run may take (a hung kernel)")
    ap.add_argument("--no-triton", action="store_true")
    ap.add_argument("--time-budget", type=float, default=0,
                    help="seconds; once spent, the remaining Triton configs "
                    "are skipped (0: no limit)")
    opts = ap.parse_args()
    start = time.time()

    manifest_path = os.path.join(opts.ptx_dir, "manifest.json")
    if not os.path.isfile(manifest_path):
        sys.exit("error: %s: no such file (compile the configurations with "
                 "bench/compile_all.sh where tile-opt is built, and copy "
                 "bench/ptx/ here)" % manifest_path)
    with open(manifest_path) as f:
        manifest = json.load(f)
    env = environment()
    date = datetime.datetime.now(datetime.timezone.utc).strftime(
        "%Y-%m-%dT%H:%M:%SZ")
    log("GPU %s, driver %s, CUDA %s; PTX from commit %s" %
        (env["gpu"], env["driver"], env["cuda"], manifest.get("commit")))
    if opts.tile_run:
        exe = os.path.abspath(opts.tile_run)
        if not (os.path.isfile(exe) and os.access(exe, os.X_OK)):
            sys.exit("error: --tile-run %s: no such executable" % opts.tile_run)
    else:
        exe = build_tile_run(opts.build_dir)
        log("built", os.path.relpath(exe, ROOT))

    rows = []

    def add(kernel, c, **kw):
        row = dict(kernel=kernel, variant=c["variant"], tiles=tiles(c),
                   stages=c["stages"], threads=c["threads"], M=c["M"],
                   N=c["N"], K=c["K"], role=c["role"], tflops=None,
                   cublas_tflops=None, ratio_cublas=None, check=None,
                   max_abs_err=None, status="ok", error=None,
                   gpu=env["gpu"], cuda=env["cuda"], driver=env["driver"],
                   date=date, commit=manifest.get("commit"))
        row.update(kw)
        rows.append(row)
        log("%-52s %-6s %8s TFLOP/s  %s" % (
            c["name"], row["check"] or "-",
            "%.1f" % row["tflops"] if row["tflops"] else "-",
            row["error"] or ""))

    for rec in manifest["records"]:
        kernel = ("hand-written WMMA (stand-in)"
                  if rec["variant"] == "handwritten" else "tile-mlir " +
                  rec["variant"] + kernel_suffix(rec))
        if rec["role"] == "sanitize":
            continue
        if rec["status"] != "ok":
            add(kernel, rec, status="compile-" + rec["status"],
                error=rec.get("error"))
            continue
        try:
            js, rc, err = run_tile_run(exe, rec, opts)
        except subprocess.TimeoutExpired:
            add(kernel, rec, status="timeout", error="tile-run timed out")
            continue
        if js is None:
            add(kernel, rec, status="run-error", error=err)
            continue
        bench = js.get("bench", {})
        check = js.get("check", {})
        add(kernel, rec, tflops=bench.get("kernel_tflops"),
            cublas_tflops=bench.get("cublas_tflops"),
            ratio_cublas=bench.get("ratio"),
            check="pass" if check.get("pass") else "fail",
            max_abs_err=check.get("max_abs_err"),
            registers=js.get("registers"), shared_bytes=js.get("shared_bytes"),
            status="ok" if rc == 0 else "check-failed",
            # The GPU the kernel ran on, as the driver names it (nvidia-smi,
            # which env() asks, may be missing).
            gpu=js.get("gpu", env["gpu"]))

    if not opts.no_triton:
        try:
            import triton_gemm
            base = configs.SEED
            cub = triton_gemm.cublas_time(base["M"], base["N"], base["K"])
            cub_cfg = dict(name="cublas_torch_4096", variant="cublas", bm=0,
                           bn=0, bk=0, threads=0, stages=0, role="bench",
                           **base)
            add("cuBLAS (torch.matmul)", cub_cfg, tflops=cub["tflops"],
                cublas_tflops=cub["tflops"], ratio_cublas=1.0)
            for c in configs.triton_configs():
                if opts.time_budget and time.time() - start > opts.time_budget:
                    add("Triton", c, status="skipped",
                        error="time budget spent")
                    continue
                try:
                    t = triton_gemm.check_and_time(
                        c["M"], c["N"], c["K"], c["bm"], c["bn"], c["bk"],
                        c["threads"], c["stages"], seed=opts.seed)
                    add("Triton", c, tflops=t["tflops"],
                        cublas_tflops=cub["tflops"],
                        ratio_cublas=t["tflops"] / cub["tflops"],
                        check=t["check"], max_abs_err=t["max_abs_err"],
                        instruction=t["instruction"],
                        status="ok" if t["check"] == "pass" else
                        "check-failed")
                except Exception as e:  # OutOfResources for too many stages
                    msg = str(e).strip().splitlines()
                    add("Triton", c, status="error",
                        error=(type(e).__name__ + ": " +
                               (msg[0] if msg else ""))[:200])
            run_triton_mma_sync(
                add, cub["tflops"], opts,
                opts.time_budget - (time.time() - start)
                if opts.time_budget else None)
        except Exception as e:
            log("Triton/torch section failed: %s: %s" % (type(e).__name__, e))

    os.makedirs(os.path.dirname(opts.results), exist_ok=True)
    with open(opts.results, "w") as f:
        json.dump(rows, f, indent=1)
    log("wrote", os.path.relpath(opts.results, ROOT))
    try:
        plot(rows, opts.plot)
        log("wrote", os.path.relpath(opts.plot, ROOT))
    except Exception as e:
        log("plot failed: %s: %s" % (type(e).__name__, e))
    print_table(rows, env)


def series(rows, kernel, tiles_, threads):
    """The plot's points: rows that passed their check (a failed one keeps
    its TFLOP/s in the table, marked, but is no point of a curve)."""
    pts = sorted((r["stages"], r["tflops"]) for r in rows
                 if r["kernel"] == kernel and r["tiles"] == tiles_ and
                 r["threads"] == threads and r["tflops"] and
                 r.get("status", "ok") == "ok" and
                 r["M"] == configs.SEED["M"] and r["N"] == configs.SEED["N"]
                 and r["K"] == configs.SEED["K"])
    return [p[0] for p in pts], [p[1] for p in pts]


def plot(rows, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for kernel, t, thr, style, label in [
            ("tile-mlir auto", "128x128x32", 128, "o-",
             "tile-mlir auto, 128x128x32, 128 threads (wgmma, sm_90a)"),
            ("tile-mlir auto (mma.sync, sm_90)", "128x128x32", 128, "o--",
             "tile-mlir auto, 128x128x32, 128 threads (mma.sync, sm_90)"),
            ("Triton", "128x128x32", 128, "s-",
             "Triton, 128x128x32, 4 warps (wgmma)"),
            ("Triton (mma.sync)", "128x128x32", 128, "s--",
             "Triton with mma.sync, 128x128x32, 4 warps"),
            ("hand-written WMMA (stand-in)", "128x128x32", 256, "^--",
             "hand-written WMMA stand-in, 128x128x32, 256 threads")]:
        xs, ys = series(rows, kernel, t, thr)
        if xs:
            ax.plot(xs, ys, style, label=label)
    cub = [r["tflops"] for r in rows if r["kernel"].startswith("cuBLAS")]
    if cub:
        ax.axhline(cub[0], color="gray", linestyle=":",
                   label="cuBLAS (torch.matmul) %.0f" % cub[0])
    gpu = rows[0]["gpu"] if rows else ""
    ax.set_title("fp16 GEMM 4096^3 on %s: TFLOP/s against num_stages" % gpu)
    ax.set_xlabel("num_stages")
    ax.set_ylabel("TFLOP/s (median)")
    ax.set_xticks([1, 2, 3, 4, 5])
    ax.set_ylim(bottom=0)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def print_table(rows, env):
    log("")
    log("fp16 GEMM on %s (driver %s, CUDA %s); TFLOP/s = median, L2 flushed"
        % (env["gpu"], env["driver"], env["cuda"]))
    head = "| kernel | tiles | threads | stages | MxNxK | check | TFLOP/s | cuBLAS | ratio | note |"
    log(head)
    log("|" + "---|" * (head.count("|") - 1))
    for r in rows:
        f = lambda v, fmt: (fmt % v) if v is not None else "-"
        log("| %s | %s | %s | %s | %dx%dx%d | %s | %s | %s | %s | %s |" % (
            r["kernel"], r["tiles"] if r["threads"] else "-",
            r["threads"] or "-", r["stages"] or "-", r["M"], r["N"], r["K"],
            r["check"] or "-", f(r["tflops"], "%.1f"),
            f(r["cublas_tflops"], "%.1f"), f(r["ratio_cublas"], "%.2f"),
            (r["status"] if r["status"] != "ok" else "") +
            (": " + r["error"] if r["error"] else "") +
            (r.get("instruction") or "")))


if __name__ == "__main__":
    main()
