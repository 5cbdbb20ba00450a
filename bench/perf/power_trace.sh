#!/usr/bin/env bash
# Samples the GPU's power draw, SM clock, temperature and whether the software
# power cap is holding the clock down (nvidia-smi, every 100 ms) while
# tile-run benchmarks each kernel for a few seconds, to see what the power
# limit does to a sustained load.
# Usage (on the GPU machine, from the repository root, with tile-run built in
# build-runtime/):
#   bench/perf/power_trace.sh DIR NAME... [-- TILE-RUN FLAGS]
# runs $TILE_RUN (default build-runtime/bin/tile-run) --ptx DIR/NAME.ptx
# --bench --iters 6000 --warmup 200 (or the flags after --) for each NAME and prints, per kernel, the start and end
# times and the samples in between: time, power, SM clock, temperature,
# power cap active. tile-run times the kernel first and cuBLAS after it, so
# each trace shows the kernel's phase and then cuBLAS's.
set -u
if [ $# -lt 2 ]; then
  echo "usage: bench/perf/power_trace.sh DIR NAME... [-- TILE-RUN FLAGS]" >&2
  exit 2
fi
dir=$1
shift
names=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
  names+=("$1")
  shift
done
[ $# -gt 0 ] && shift
flags=("$@")
[ ${#flags[@]} -gt 0 ] || flags=(--bench --iters 6000 --warmup 200)
run=${TILE_RUN:-build-runtime/bin/tile-run}
if [ ! -x "$run" ]; then
  echo "error: $run: no such executable (build tile-run first, or set TILE_RUN)" >&2
  exit 2
fi
for name in "${names[@]}"; do
  if [ ! -f "$dir/$name.ptx" ]; then
    echo "error: $dir/$name.ptx: no such file" >&2
    exit 2
  fi
done
query=timestamp,power.draw,clocks.sm,temperature.gpu,clocks_throttle_reasons.sw_power_cap
nvidia-smi --query-gpu=name,power.limit,clocks.max.sm --format=csv,noheader
for name in "${names[@]}"; do
  echo "== $name"
  trace=$(mktemp)
  nvidia-smi --query-gpu=$query --format=csv,noheader -lms 100 >"$trace" &
  sampler=$!
  sleep 0.5
  echo "start $(date +%T.%N)"
  "$run" --ptx "$dir/$name.ptx" "${flags[@]}" 2>&1 | grep -E "TFLOP|error"
  echo "end $(date +%T.%N)"
  sleep 0.5
  kill "$sampler"
  wait "$sampler" 2>/dev/null
  # "2026/12/02 16:14:00.302, 142.01 W, ..." -> "16:14:00.302, 142.01 W, ..."
  sed 's/^[0-9\/]* //' "$trace"
  rm -f "$trace"
done
