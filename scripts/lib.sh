# Shared by scripts/demo.sh and scripts/test.sh: install what is missing,
# then configure and build build/ incrementally. Source it; do not run it.

TILE_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TILE_BUILD=${TILE_BUILD:-$TILE_ROOT/build}
LLVM_PREFIX=/usr/lib/llvm-22
TILE_APT_PACKAGES=(libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools
                   cmake ninja-build g++ libgtest-dev ccache python3)

tile_log() { printf '==> %s\n' "$*" >&2; }

# TILE_SKIP_DEPS=1 takes the machine and the build tree as they are: no
# package check and no build (the lit test of scripts/demo.sh, which runs
# inside the suite's own build, perhaps under `cmake --build --target
# check-tile`).

# Installs the Debian packages that are missing; runs `apt-get update` only
# when something has to be installed.
tile_install_deps() {
  [ "${TILE_SKIP_DEPS:-0}" = 1 ] && return 0
  local missing=()
  for pkg in "${TILE_APT_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' ||
      missing+=("$pkg")
  done
  if ((${#missing[@]})); then
    tile_log "installing: ${missing[*]}"
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo=sudo
    $sudo apt-get update -qq
    # Through env: sudo resets the environment, and a debconf prompt would
    # wait unseen for an answer (stdout goes nowhere).
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
  if [ -f "$TILE_ROOT/requirements.txt" ]; then
    python3 -m pip install -q -r "$TILE_ROOT/requirements.txt" \
      --disable-pip-version-check --root-user-action=ignore
  fi
}

# Configures build/ once and builds the given targets (default: all).
tile_build() {
  [ "${TILE_SKIP_DEPS:-0}" = 1 ] && return 0
  if [ ! -f "$TILE_BUILD/build.ninja" ]; then
    tile_log "configuring $TILE_BUILD"
    cmake -S "$TILE_ROOT" -B "$TILE_BUILD" -G Ninja \
      -DCMAKE_BUILD_TYPE=Release \
      -DMLIR_DIR="$LLVM_PREFIX/lib/cmake/mlir" \
      -DLLVM_EXTERNAL_LIT="$LLVM_PREFIX/bin/lit" >/dev/null
  fi
  tile_log "building $*"
  cmake --build "$TILE_BUILD" --target "${@:-all}"
}
