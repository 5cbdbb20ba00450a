// RUN: tile-opt --tile-split-accumulators=chip=sm_75 -verify-diagnostics %s

// The register limit comes from the chip table, which knows sm_80 and newer.
// expected-error @+1 {{unknown chip 'sm_75' for --tile-split-accumulators; known chips: sm_80, sm_86, sm_89, sm_90, sm_90a}}
module {
}
