//===- SharedCarving.cpp - Shared tiles as views of one dynamic region ----===//
//
// Part of tile-mlir.
//
//===----------------------------------------------------------------------===//

#include "tile/Conversion/TileToNVGPU/SharedCarving.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "tile/Dialect/Tile/IR/TileOps.h"

using namespace mlir;
using namespace mlir::tile;

int64_t mlir::tile::carveSharedMemory(gpu::GPUFuncOp func) {
  SmallVector<AllocSharedOp> allocs;
  func.walk([&](AllocSharedOp op) { allocs.push_back(op); });
  if (allocs.empty())
    return 0;

  // The region is created at the top of the body so that it dominates every
  // tile, wherever the allocs sit.
  Block &entry = func.getBody().front();
  OpBuilder b = OpBuilder::atBlockBegin(&entry);
  Location loc = func.getLoc();
  auto workgroup =
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup);
  auto regionType = MemRefType::get({ShapedType::kDynamic}, b.getI8Type(),
                                    MemRefLayoutAttrInterface(), workgroup);
  Value region = gpu::DynamicSharedMemoryOp::create(b, loc, regionType);

  int64_t offset = 0;
  for (AllocSharedOp alloc : allocs) {
    auto type = alloc.getType();
    int64_t bytes = getTileBytes(type);
    int64_t end = appendSharedTile(offset, bytes);
    offset = end - bytes;
    OpBuilder ab(alloc);
    Value byteShift =
        arith::ConstantIndexOp::create(ab, alloc.getLoc(), offset);
    Value view = memref::ViewOp::create(ab, alloc.getLoc(), type, region,
                                        byteShift, ValueRange{});
    alloc.getResult().replaceAllUsesWith(view);
    alloc.erase();
    offset = end;
  }
  return offset;
}
