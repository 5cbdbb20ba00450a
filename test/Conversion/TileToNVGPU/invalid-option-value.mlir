// RUN: tile-opt %s --tile-to-ptx="chip=sm_90a tma=maybe" -verify-diagnostics
// RUN: not tile-opt %s --tile-to-ptx="chip=sm_90a tma=maybe" 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not="error: {{$}}"

// A value that llvm::cl cannot parse is named with its option and pass
// (tile::initializePassOptions). Upstream, Pass::initializeOptions gets an
// empty message for it, and the diagnostic said only "error: ".
// expected-error@unknown {{invalid value 'maybe' for option 'tma' of tile-to-ptx}}
// CHECK: error: invalid value 'maybe' for option 'tma' of tile-to-ptx
module {
}
