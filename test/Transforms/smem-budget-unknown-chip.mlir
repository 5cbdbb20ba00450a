// RUN: tile-opt --tile-smem-budget=chip=sm_75 -verify-diagnostics %s

// The chip table knows sm_80 and newer; anything else is an error that lists
// the known names.
// expected-error @+1 {{unknown chip 'sm_75' for --tile-smem-budget; known chips: sm_80, sm_86, sm_89, sm_90, sm_90a}}
module {
}
