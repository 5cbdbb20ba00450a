#!/usr/bin/env bash
# The main job: the seed's experiment. Until the GPU lowering lands it
# parses, verifies and prints the seed's three kernels.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

tile_install_deps
tile_build tile-opt

for variant in auto manual plain; do
  example="$TILE_ROOT/examples/matmul_$variant.mlir"
  tile_log "matmul_$variant: parse, verify, print ($example)"
  "$TILE_BUILD/bin/tile-opt" "$example"
done

cat <<'MSG'

Parsed and verified the seed's three kernels. Not yet done by this build:
schedule planning, the shared-memory budget, software pipelining, lowering
to PTX and running on a GPU (see the open issues).
MSG
