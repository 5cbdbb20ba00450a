// RUN: tile-opt %s --tile-lower-to-nvgpu="chip=sm_90 tma=true cluster=2" -verify-diagnostics

// A grid sized at run time cannot be checked against the cluster size: the
// blocks stay unclustered with a remark, before the launch description
// rejects the grid.
// expected-note @+1 {{a scalar argument, which the launch description does not pass}}
func.func @dynamic_grid(%A: memref<512x256xf16>, %n: index) {
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  // expected-remark @below {{blocks stay unclustered (cluster=2): the grid size is not computable from constants}}
  // expected-error @below {{grid size in x must be a positive constant, or computed from constants and the sizes of the memref arguments (memref.dim) with arith's ceildiv, div, min, muli, addi and subi: the launch description can say no more}}
  tile.kernel grid(%n, %c4) threads(128) as (%bx, %by) {
    %a = tile.alloc_shared : memref<128x32xf16, #gpu.address_space<workgroup>>
    %row = arith.muli %by, %c128 : index
    tile.copy_async %A[%row, %c32] to %a : memref<512x256xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
    tile.commit_group
    tile.wait_group 0
    tile.barrier
  }
  return
}
