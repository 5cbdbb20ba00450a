//===- Passes.td - Tile dialect conversion passes ----------*- tablegen -*-===//
//
// Part of tile-mlir.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_CONVERSION_PASSES_TD
#define TILE_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def TileLowerToCPU : Pass<"tile-lower-to-cpu", "ModuleOp"> {
  let summary = "gives every tile op its meaning as sequential loops over memrefs";
  let description = [{
    Lowers the tile dialect to plain sequential code (`scf` loops, `memref`
    loads and stores, `arith`) so that a kernel can be run on the CPU and its
    numbers compared with a reference. `tile.kernel` becomes a loop nest over
    the grid (block index `d` iterates grid size `d`; threads do not exist
    here, tile ops are whole-tile operations); shared and fragment tiles
    become buffers in the default memory space, allocated where the tile is
    and freed when its thread block ends; `tile.copy` and `tile.copy_async` copy element
    by element, reading zero outside the source and skipping stores outside
    the destination, converting float types; `tile.gemm` accumulates in f32
    after widening each operand element; `tile.clear` stores zeros; a
    remaining `tile.pipelined` runs as a serial `scf.for` in source order.
    The output of the software-pipelining rewrite runs too: its
    multi-versioned buffers, subviews and `scf` loops are already sequential
    code, asynchronous copies complete at once, and `tile.commit_group`,
    `tile.wait_group` and `tile.barrier` are erased. Finally every
    `#gpu.address_space` is dropped from every memref type in the module, so
    the standard CPU-to-LLVM passes apply. There is no concurrency here: a
    missing barrier or wait cannot show up in CPU results.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
  ];
}

#endif // TILE_CONVERSION_PASSES_TD
