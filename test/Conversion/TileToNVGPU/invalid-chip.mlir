// RUN: tile-opt %s --tile-lower-to-nvgpu=chip=sm_70 -verify-diagnostics

// The chip table knows sm_80 and newer; anything else is an error that
// names the pass and lists the known chips.
// expected-error @+1 {{unknown chip 'sm_70' for --tile-lower-to-nvgpu; known chips: sm_80, sm_86, sm_89, sm_90, sm_90a}}
module {
}
