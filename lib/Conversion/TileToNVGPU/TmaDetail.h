//===- TmaDetail.h - Boxes and tensor maps of TMA copies ------*- C++ -*-===//
//
// Part of tile-mlir. Private to lib/Conversion/TileToNVGPU: how a whole
// shared tile moves to or from a 2-D kernel argument as TMA boxes
// (TmaBoxes.cpp), for the loads (TmaCopies.cpp) and the stores
// (TmaStores.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef LIB_CONVERSION_TILETONVGPU_TMADETAIL_H
#define LIB_CONVERSION_TILETONVGPU_TMADETAIL_H

#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/IR/Builders.h"
#include "tile/Dialect/Tile/IR/TileOps.h"

#include <string>

namespace mlir {
namespace tile {
namespace tma {

/// One box: boxRows x boxCols elements of the global tensor at the copy's
/// offset plus (rowOffset, colOffset), at element elementOffset of the
/// shared tile's storage.
struct Box {
  int64_t rowOffset, colOffset, elementOffset;
};

/// How a whole shared tile goes through the TMA.
struct BoxPlan {
  BlockArgument global;
  int64_t boxRows, boxCols;
  nvgpu::TensorMapSwizzleKind swizzle;
  SmallVector<Box> boxes;
  /// Bytes of all boxes, out-of-bounds ones included (TMA counts them).
  int64_t bytes;
};

/// Whether `global` is a row-major 2-D argument of the kernel's function
/// with f16, bf16 or f32 elements and rows of a multiple of 16 bytes, as a
/// tensor map needs; on failure `why` says what it is not.
LogicalResult checkGlobal(Value global, std::string &why);

/// Whether the innermost of `indices` (a tile's first element in `global`,
/// which must pass checkGlobal) is provably a multiple of 16 bytes: the TMA
/// faults with an illegal instruction on a box whose innermost coordinate is
/// not, even where the box lies before the tensor and reads only zeros. No
/// indices stand for the tensor's origin. On failure `why` says so.
LogicalResult checkInnerOffset(Value global, ValueRange indices,
                               std::string &why);

/// The boxes that move a shared tile of `tileType` (the innermost two
/// dimensions; SharedLayout.h gives its layout) to or from `global`, which
/// must pass checkGlobal. On failure `why` says what does not fit.
FailureOr<BoxPlan> planBoxes(Value global, MemRefType tileType,
                             std::string &why);

/// A tensor map for `plan`'s boxes, created on the host before `kernel`; the
/// outlining passes it as a kernel parameter.
Value createTensorMap(KernelOp kernel, const BoxPlan &plan);

/// The shared side of one box: a [boxRows][boxCols] view of `buffer` (a
/// shared allocation) from its element `first` (where the tile starts) on.
Value getBoxView(OpBuilder &b, Location loc, Value buffer, Value first,
                 const BoxPlan &plan, const Box &box);

/// The global side of one box: its coordinates, innermost first, for a tile
/// at `offsets` (row, column) of the global tensor; none: at (0, 0).
SmallVector<Value, 2> getBoxCoordinates(OpBuilder &b, Location loc,
                                        ValueRange offsets, const Box &box);

} // namespace tma
} // namespace tile
} // namespace mlir

#endif // LIB_CONVERSION_TILETONVGPU_TMADETAIL_H
