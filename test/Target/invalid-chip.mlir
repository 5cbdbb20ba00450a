// RUN: tile-opt %s --tile-to-ptx=chip=sm_12 -verify-diagnostics

// expected-error @+1 {{unknown chip 'sm_12' for --tile-to-ptx; known chips: sm_80, sm_86, sm_89, sm_90, sm_90a}}
module {
}
