#!/usr/bin/env bash
# Compiles every benchmark configuration into bench/ptx/ (run here, where
# tile-opt is built; the GPU machine has no MLIR). Options: see
# `bench/compile_all.py --help`.
set -euo pipefail
exec python3 "$(dirname "${BASH_SOURCE[0]}")/compile_all.py" "$@"
