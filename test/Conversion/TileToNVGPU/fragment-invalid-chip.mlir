// RUN: tile-opt %s --test-tile-lower-fragments=chip=sm_99 -verify-diagnostics

// expected-error @+1 {{unknown chip 'sm_99'; known: sm_80}}
module {
}
