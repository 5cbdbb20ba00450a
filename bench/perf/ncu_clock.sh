#!/usr/bin/env bash
# Profiles one launch of each kernel with Nsight Compute, leaving the clocks
# as the GPU sets them (--clock-control none), and prints the SM clock the
# kernel ran at, its elapsed cycles, its duration and the busiest pipeline's
# utilization. Cycles, not time, compare two kernels that ran at different
# clocks: the H200 lowers its SM clock under a heavy tensor-core load.
# Usage (on the GPU machine, from the repository root, after
# bench/perf/run_variants.sh or run_h200.py has built tile-run):
#   bench/perf/ncu_clock.sh DIR [TRITON_STAGES...]
# profiles every DIR/<name>.ptx through tile-run --check and, for each
# TRITON_STAGES, bench/triton_gemm.py's 128x128x32 / 4-warp kernel at 4096^3.
set -u
dir=$1
shift
out=${OUT:-/tmp/ncu-out}
mkdir -p "$out"
ncu_args=(--clock-control none --section SpeedOfLight --launch-count 1)
summary() {
  local f=$1
  awk -v name="$2" '
    /SM Frequency/ { ghz = $NF }
    /Elapsed Cycles/ { cycles = $NF }
    /Duration/ { unit = $(NF-1); us = $NF }
    /Compute \(SM\) Throughput/ { busy = $NF }
    END {
      if (unit == "ms") { gsub(",", "", us); us = us * 1000 }
      printf "%-28s SM %s GHz  %s cycles  %s us  SM busy %s%%\n",
             name, ghz, cycles, us, busy
    }' "$f"
}
for ptx in "$dir"/*.ptx; do
  name=$(basename "$ptx" .ptx)
  timeout 150 ncu "${ncu_args[@]}" -k gemm_kernel \
    build-runtime/bin/tile-run --ptx "$ptx" --check >"$out/ncu_$name.txt" 2>&1 ||
    { echo "$name: ncu failed (see $out/ncu_$name.txt)"; continue; }
  summary "$out/ncu_$name.txt" "$name"
done
for stages in "$@"; do
  cfg="[{\"name\":\"triton_s$stages\",\"M\":4096,\"N\":4096,\"K\":4096,\"bm\":128,\"bn\":128,\"bk\":32,\"threads\":128,\"stages\":$stages}]"
  # Skip the compile-time and check launches; profile one timed launch.
  timeout 200 ncu "${ncu_args[@]}" -k regex:matmul_kernel --launch-skip 3 \
    python3 bench/triton_gemm.py --configs "$cfg" >"$out/ncu_triton_s$stages.txt" 2>&1 ||
    { echo "triton_s$stages: ncu failed"; continue; }
  summary "$out/ncu_triton_s$stages.txt" "triton_s$stages"
done
