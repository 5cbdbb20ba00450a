#!/usr/bin/env bash
# The seed's experiment, end to end: generate the GEMM kernel for a tile
# configuration, print the shared-memory budget (stages=1 and the target,
# [OK]/[OVER]), compile it through the whole pipeline to PTX, assemble the
# PTX with ptxas (registers, spills, shared bytes), print the pipelining
# lines of the PTX, and run it when a GPU and tile-run are present.
#
#   scripts/demo.sh [--variant auto|manual|plain] [--stages N]
#                   [--block-m BM] [--block-n BN] [--block-k BK]
#                   [--threads T] [--chip sm_90a] [--m M] [--n N] [--k K]
#                   [--out DIR] [--no-run]
#
# The files go to DIR, by default a folder of build/demo/ named after the
# configuration (so runs of different configurations keep theirs apart).
# The default chip, sm_90a, is the H100/H200's: its GEMMs use wgmma. --chip
# sm_90 (mma.sync) gives PTX that also JIT-compiles for later GPUs; sm_80,
# sm_86 and sm_89 are the Ampere and Ada chips.
# An over-budget configuration prints [OVER] and exits non-zero with the
# compiler's error (e.g. --block-m 256 --block-n 256 --block-k 64 --stages 4).
# --no-run stops after the PTX, also where a GPU is present.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

variant=auto stages="" bm=128 bn=128 bk=32 threads=128 chip=sm_90a
m=4096 n=4096 k=4096 out="" run=1
usage() { sed -n '2,20p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit "${1:-0}"; }
while (($#)); do
  case "$1" in
    --variant|--stages|--block-m|--block-n|--block-k|--threads|--chip|--m|--n|--k|--out)
      if (($# < 2)); then echo "error: option '$1' needs a value" >&2; usage 2; fi ;;
  esac
  case "$1" in
    --variant) variant=$2; shift ;;
    --stages) stages=$2; shift ;;
    --block-m) bm=$2; shift ;;
    --block-n) bn=$2; shift ;;
    --block-k) bk=$2; shift ;;
    --threads) threads=$2; shift ;;
    --chip) chip=$2; shift ;;
    --m) m=$2; shift ;;
    --n) n=$2; shift ;;
    --k) k=$2; shift ;;
    --out) out=$2; shift ;;
    --no-run) run=0 ;;
    -h|--help) usage 0 ;;
    *) echo "error: unknown option '$1'" >&2; usage 2 ;;
  esac
  shift
done
case "$variant" in auto|manual|plain) ;; *)
  echo "error: --variant must be auto, manual or plain, not '$variant'" >&2; exit 2 ;;
esac
if [ -n "$stages" ] && ! [[ "$stages" =~ ^[1-9][0-9]*$ ]]; then
  echo "error: --stages must be a positive integer, not '$stages'" >&2; exit 2
fi

tile_install_deps || exit 1
tile_build tile-opt tile-translate >/dev/null || exit 1
# A build/ that has the CUDA runtime (the toolkit is there) builds tile-run
# too, so that a run uses one of these sources.
if ((run)) && grep -q '^TILE_ENABLE_RUNTIME:BOOL=ON' "$TILE_BUILD/CMakeCache.txt" 2>/dev/null; then
  tile_build tile-run >/dev/null || exit 1
fi
opt="$TILE_BUILD/bin/tile-opt"
translate="$TILE_BUILD/bin/tile-translate"
[ -n "$out" ] ||
  out="$TILE_BUILD/demo/${variant}_${m}x${n}x${k}_${bm}x${bn}x${bk}_${threads}t_s${stages:-default}_${chip}"
mkdir -p "$out"
name="matmul_${variant}"

# The schedule, as the seed writes it: auto gives only the depth (default
# 3), manual gives stage/order by hand (default the seed's [0,0,1]; with
# --stages N, [0,0,N-1]), plain is a serial loop.
gen_args=(--variant "$variant" --emit kernel --M "$m" --N "$n" --K "$k"
          --bm "$bm" --bn "$bn" --bk "$bk" --threads "$threads")
case "$variant" in
  auto) gen_args+=(--num-stages "${stages:-3}") ;;
  manual) [ -n "$stages" ] && gen_args+=(--stage "0,0,$((stages - 1))" --order 0,1,2) ;;
  plain) [ -n "$stages" ] && tile_log "--stages is ignored for --variant plain" ;;
esac
echo "== $name: C[${m}x${n}] = A[${m}x${k}] * B[${k}x${n}], f16 in, f32 accumulate"
echo "   tiles ${bm}x${bn}x${bk}, $threads threads, chip $chip"
python3 "$TILE_ROOT/test/Execution/Inputs/gemm.py" "${gen_args[@]}" >"$out/$name.mlir" || exit 1
echo "   kernel: $out/$name.mlir"

echo
echo "== shared-memory budget"
# tile-opt prints the table on stderr (its stdout is for IR); it is this
# step's output, so it goes to the demo's stdout with its diagnostics.
budget=$("$opt" "$out/$name.mlir" --tile-smem-budget=chip="$chip" -o /dev/null 2>&1)
status=$?
printf '%s\n' "$budget"
if ((status != 0)); then
  echo
  # Only the budget's own error is about shared memory; an unknown --chip or
  # a bad --threads fails here too, with the compiler's error above.
  if grep -q "bytes of shared memory" <<<"$budget"; then
    echo "error: $name with ${bm}x${bn}x${bk} tiles does not fit $chip's shared memory;" \
         "use fewer --stages or smaller tiles" >&2
  else
    echo "error: the budget check of $name failed (the compiler's error is above)" >&2
  fi
  exit 1
fi

echo
# The budget table was printed above; the compile step keeps it off.
echo "== compile: tile-opt --tile-to-ptx=\"chip=$chip print-budget=false\""
if ! "$opt" "$out/$name.mlir" --tile-to-ptx="chip=$chip print-budget=false" -o "$out/$name.out.mlir"; then
  echo "error: compiling $name failed" >&2
  exit 1
fi
"$translate" --tile-emit-ptx "$out/$name.out.mlir" -o "$out/$name.ptx" || exit 1
"$translate" --tile-emit-launch "$out/$name.out.mlir" -o "$out/$name.launch" || exit 1
echo "   PTX: $out/$name.ptx ($(wc -l <"$out/$name.ptx") lines)"
echo "   launch description: $out/$name.launch"
sed 's/^/     /' "$out/$name.launch"

echo
echo "== ptxas"
ptxas=$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)
if [ -x "$ptxas" ]; then
  if ! "$ptxas" -arch="$chip" -v "$out/$name.ptx" -o "$out/$name.cubin" 2>"$out/$name.ptxas"; then
    cat "$out/$name.ptxas" >&2
    echo "error: ptxas rejected $out/$name.ptx" >&2
    exit 1
  fi
  regs=$(grep -oE 'Used [0-9]+ registers' "$out/$name.ptxas" | grep -oE '[0-9]+')
  spills=$(grep -oE '[0-9]+ bytes spill stores, [0-9]+ bytes spill loads' "$out/$name.ptxas")
  smem=$(grep -oE '[0-9]+ bytes smem' "$out/$name.ptxas" | grep -oE '^[0-9]+')
  dyn=$(awk '$1 == "shared_bytes" {print $2}' "$out/$name.launch")
  echo "   registers: ${regs:-?} per thread"
  echo "   spills: ${spills:-none reported}"
  echo "   shared: ${smem:-0} bytes static + ${dyn:-0} bytes dynamic"
else
  echo "   $ptxas not found: not assembled"
fi

echo
echo "== pipelining-relevant PTX lines (line: instruction; runs of one kind collapsed)"
python3 - "$out/$name.ptx" <<'PY' || exit 1
import re, sys
interesting = re.compile(
    r"^\$L__BB\w+:|\bbra(\.uni)?\b|cp\.async|bar\.sync|ldmatrix|mma\.sync"
    r"|wgmma\.|fence\.proxy"
    r"|st\.shared\.v")  # the last: synchronous copies into shared memory
def short(text):  # wgmma's accumulator lists run to hundreds of columns
    return text if len(text) <= 100 else text[:96] + " ..."
def kind(text):
    # Labels and branches form one kind: a long run of them is the masked
    # edge of the output store, not loop structure.
    if text.startswith("$L__"):
        return "label/branch"
    words = text.split()
    word = words[1] if text.startswith("@") else words[0]
    return "label/branch" if word.startswith("bra") else word.rstrip(";")
run, counts = [], {}
def flush():
    # Control flow is shown in full up to 8 lines, other runs as first/last.
    if not run:
        return
    branches = kind(run[0][1]) == "label/branch"
    head = (6 if len(run) > 8 else len(run)) if branches else 1
    for number, text in run[:head]:
        print(f"  {number:6d}: {short(text)}")
    if len(run) > head + 1:
        print(f"          ... {len(run) - head - 1} more {kind(run[0][1])}")
    if len(run) > head:
        print(f"  {run[-1][0]:6d}: {short(run[-1][1])}")
    run.clear()
for number, line in enumerate(open(sys.argv[1]), 1):
    text = line.strip()
    if text.startswith("//") or not interesting.search(text):
        continue
    k = kind(text)
    counts[k] = counts.get(k, 0) + 1
    if run and kind(run[-1][1]) != k:
        flush()
    run.append((number, text))
flush()
print("  totals: " + ", ".join(f"{k} x{v}" for k, v in sorted(counts.items())))
PY
if grep -q malloc "$out/$name.ptx"; then
  echo "error: the PTX calls malloc (shared memory was not carved)" >&2
  exit 1
fi

echo
echo "== run"
# The full build has tile-run too when the CUDA toolkit is present; a
# runtime-only build (build-runtime/) serves machines without MLIR.
runner="$TILE_BUILD/bin/tile-run"
[ -x "$runner" ] || runner="$TILE_ROOT/build-runtime/bin/tile-run"
if [ "$run" = 0 ]; then
  echo "   not run (--no-run)"
elif command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1; then
  if [ ! -x "$runner" ] && [ "${TILE_SKIP_DEPS:-0}" != 1 ] &&
    { command -v nvcc >/dev/null || [ -x /usr/local/cuda/bin/nvcc ]; }; then
    # The runtime needs only the CUDA toolkit (docs/benchmarks.md).
    tile_log "building tile-run in build-runtime/"
    cmake -S "$TILE_ROOT" -B "$TILE_ROOT/build-runtime" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DTILE_ENABLE_COMPILER=OFF >/dev/null &&
      cmake --build "$TILE_ROOT/build-runtime" --target tile-run >/dev/null ||
      tile_log "building tile-run failed"
  fi
  if [ -x "$runner" ]; then
    "$runner" --ptx "$out/$name.ptx" --launch "$out/$name.launch" --check --bench || exit 1
  else
    echo "   a GPU is present but $runner is not built: not run"
  fi
else
  echo "   no GPU present (nvidia-smi finds none): compiled and assembled only"
fi
