#!/usr/bin/env bash
# Runs every <name>.ptx (+ <name>.launch) of a directory through tile-run
# with --check --bench and, where a <name>.cubin sits beside it, counts the
# SASS instruction mix of the kernel's innermost loops with cuobjdump. For
# short device leases: one call measures all variants; the table is printed
# last. Usage (on the GPU machine, from the repository root):
#   bench/perf/run_variants.sh DIR [REPEATS]
set -u
dir=$1 repeats=${2:-1}
out=${OUT:-/tmp/perf-out}
mkdir -p "$out"
if [ ! -x build-runtime/bin/tile-run ]; then
  cmake -S . -B build-runtime -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DTILE_ENABLE_COMPILER=OFF >"$out/cmake.log" 2>&1 &&
    ninja -C build-runtime tile-run >"$out/ninja.log" 2>&1 ||
    { tail -20 "$out/cmake.log" "$out/ninja.log"; exit 1; }
fi
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu,power.draw \
  --format=csv,noheader
table=()
for ptx in "$dir"/*.ptx; do
  name=$(basename "$ptx" .ptx)
  for r in $(seq 1 "$repeats"); do
    timeout 120 build-runtime/bin/tile-run --ptx "$ptx" --check --bench \
      --iters 50 >"$out/$name.$r.txt" 2>&1
    rc=$?
    check=$(grep -oE 'PASS|FAIL' "$out/$name.$r.txt" | head -1)
    tf=$(grep -oE '= [0-9.]+ TFLOP/s' "$out/$name.$r.txt" | head -2 |
      grep -oE '[0-9.]+' | paste -sd/)
    table+=("$(printf '%-34s rc=%d %-4s kernel/cuBLAS TFLOP/s %s' "$name" "$rc" "${check:-?}" "$tf")")
  done
  cubin="$dir/$name.cubin"
  if [ -f "$cubin" ] && command -v cuobjdump >/dev/null; then
    cuobjdump -sass "$cubin" >"$out/$name.sass" 2>&1
  fi
done
printf '%s\n' "${table[@]}"
