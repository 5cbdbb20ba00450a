// RUN: tile-opt %s --tile-lower-to-nvgpu="chip=sm_90 block-group=4611686018427387904" -verify-diagnostics

// The grouped block order multiplies the group by the grid's x-size in the
// kernel: a group larger than any grid (which changes nothing past the
// grid's rows) would overflow there.
// expected-error @+1 {{block-group=4611686018427387904 is more rows of blocks than a grid can have (at most 65535)}}
module {
}
