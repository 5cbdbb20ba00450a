#!/usr/bin/env bash
# Runs every test suite of tile-mlir: the lit regression tests (test/), the
# GoogleTest unit tests (run through lit as well) and the Python tests.
# Ends with one line "N passed, M failed" over all suites; exits non-zero if
# anything failed.
#
#   scripts/test.sh [-h|--help]
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# It takes no options: an unknown one would otherwise start the whole run.
case "${1-}" in
  "") ;;
  -h|--help) sed -n '2,7p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
  *) echo "error: scripts/test.sh takes no options, got '$1' (see --help)" >&2; exit 2 ;;
esac

tile_install_deps || exit 1
tile_build all tile-doc || exit 1

passed=0
failed=0

# lit: regression tests and unit tests in one run.
lit_log=$(mktemp)
"$LLVM_PREFIX/bin/lit" -sv "$TILE_BUILD/test" "$TILE_BUILD/unittests" 2>&1 | tee "$lit_log"
lit_status=${PIPESTATUS[0]}
count() { # the number lit printed for a result kind, or 0 (lit pads the names
          # to a common width when several kinds occur: "Passed     : 112")
  local n
  n=$(sed -nE "s/^ *$1 *: *([0-9]+).*/\1/p" "$lit_log" | tail -1)
  echo "${n:-0}"
}
passed=$((passed + $(count Passed) + $(count "Expectedly Failed")))
failed=$((failed + $(count Failed) + $(count "Unexpectedly Passed") + $(count Unresolved) + $(count "Timed Out")))
rm -f "$lit_log"
# lit failing without a failed test (a crash, a config error) still fails.
if [ "$lit_status" -ne 0 ] && [ "$failed" -eq 0 ]; then
  failed=1
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
