// RUN: tile-opt %s --tile-to-ptx="chip=sm_90a opt-level=4" -verify-diagnostics

// LLVM has optimization levels 0 to 3; a larger one used to fail only when
// the GPU module was serialized, with the whole module as a note.
// expected-error @+1 {{opt-level=4 is not an LLVM optimization level: use 0, 1, 2 or 3}}
module {
}
