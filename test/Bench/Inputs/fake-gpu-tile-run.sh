#!/bin/sh
# Stands in for tile-run in test/Bench/gpu-tests.test: --fail fails, --crash
# prints an error and then dies of a signal, anything else passes its check
# and names its arguments.
if [ "$1" = --fail ]; then
  echo "tile-run: error: told to fail" >&2
  exit 1
fi
if [ "$1" = --crash ]; then
  echo "tile-run: error: told to fail" >&2
  kill -SEGV $$
fi
echo "tile-run $*"
echo "check: PASS"
