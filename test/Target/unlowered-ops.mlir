// RUN: tile-opt %s --split-input-file --tile-to-ptx="chip=sm_90 print-budget=false" -verify-diagnostics

// Ops of a kernel body that the GPU pipeline does not convert are reported
// where they are, not as a cast that LLVM's translation cannot take.

func.func @transfer_read(%in: memref<4x8xf32>, %out: memref<4x8xf32>) {
  %c4 = arith.constant 4 : index
  tile.kernel grid(%c4) threads(32) as (%bx) {
    %c0 = arith.constant 0 : index
    %p = arith.constant 0.0 : f32
    // expected-error @+1 {{'vector.transfer_read' op is not lowered by the GPU pipeline, which converts a kernel's tile ops, then its scf, arith, math, memref and gpu ops and the vector ops that map to LLVM directly}}
    %v = vector.transfer_read %in[%bx, %c0], %p : memref<4x8xf32>, vector<8xf32>
    vector.transfer_write %v, %out[%bx, %c0] : vector<8xf32>, memref<4x8xf32>
  }
  return
}

// -----

// The op itself, not the terminator of its region.
func.func @linalg_fill(%B: memref<4x8xf32>) {
  %c4 = arith.constant 4 : index
  tile.kernel grid(%c4) threads(32) as (%bx) {
    %z = arith.constant 2.0 : f32
    %row = memref.subview %B[%bx, 0] [1, 8] [1, 1] : memref<4x8xf32> to memref<8xf32, strided<[1], offset: ?>>
    // expected-error @+1 {{'linalg.fill' op is not lowered by the GPU pipeline}}
    linalg.fill ins(%z : f32) outs(%row : memref<8xf32, strided<[1], offset: ?>>)
  }
  return
}
