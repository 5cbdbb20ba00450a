// RUN: tile-opt %s --test-tile-lower-fragments=chip=sm_99 -verify-diagnostics

// expected-error @+1 {{unknown chip 'sm_99' for --test-tile-lower-fragments; known chips: sm_80, sm_86, sm_89, sm_90, sm_90a}}
module {
}
