#!/usr/bin/env bash
# compute-sanitizer on the small kernels of bench/ptx/manifest.json (role
# "sanitize": the seed's three variants and depths 2..4 at 256^3, and the
# hand-written stand-in): memcheck, racecheck and synccheck, one launch each
# through tile-run. Prints one line per kernel and tool with the sanitizer's
# summary; exits non-zero if any reports an error or hazard.
#   usage: bench/sanitize.sh [TILE_RUN] [MANIFEST] [LOG_DIR]
# Runs on the GPU machine (compute-sanitizer needs the device itself; it
# refuses one that a sandboxed runtime such as gVisor passes through).
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TILE_RUN=${1:-$ROOT/build-runtime/bin/tile-run}
MANIFEST=${2:-$ROOT/bench/ptx/manifest.json}
LOG_DIR=${3:-$ROOT/bench/results/sanitize}
if [ ! -x "$TILE_RUN" ]; then
  echo "error: $TILE_RUN: no such executable (build tile-run first)" >&2
  exit 2
fi
if [ ! -f "$MANIFEST" ]; then
  echo "error: $MANIFEST: no such file (bench/compile_all.sh writes it)" >&2
  exit 2
fi
# SANITIZE_TIMEOUT (seconds, default 120) bounds each run, for hung kernels.
SANITIZER=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
mkdir -p "$LOG_DIR"

status=0
while read -r name ptx launch; do
  for tool in memcheck racecheck synccheck; do
    log="$LOG_DIR/$name.$tool.log"
    extra=()
    [ "$tool" = racecheck ] && extra=(--racecheck-report all)
    timeout "${SANITIZE_TIMEOUT:-120}" "$SANITIZER" --tool "$tool" "${extra[@]}" --error-exitcode 99 \
      "$TILE_RUN" --ptx "$ROOT/$ptx" --launch "$ROOT/$launch" >"$log" 2>&1
    rc=$?
    summary=$(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log" | tail -1)
    [ -n "$summary" ] || summary="no summary (rc $rc): $(grep -m1 -iE 'error' "$log")"
    printf '%-50s %-10s rc=%-3s %s\n' "$name" "$tool" "$rc" "$summary"
    if [ "$rc" -ne 0 ] || ! grep -qE '(ERROR SUMMARY: 0 errors|0 hazards displayed \(0 errors, 0 warnings\))' "$log"; then
      status=1
    fi
  done
done < <(python3 - "$MANIFEST" <<'PY'
import json, sys
for r in json.load(open(sys.argv[1]))["records"]:
    if r["role"] == "sanitize" and r["status"] == "ok":
        print(r["name"], r["ptx"], r["launch"])
PY
)
exit $status
