//===- TmaBoxes.cpp - Boxes and tensor maps of TMA copies -----------------===//
//
// Part of tile-mlir. See TmaDetail.h.
//
//===----------------------------------------------------------------------===//

#include "TmaDetail.h"

#include "CopyLoweringDetail.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "tile/Conversion/TileToNVGPU/SharedLayout.h"
#include "tile/Dialect/Tile/Utils/IndexFacts.h"
#include "tile/Runtime/LaunchDesc.h"

using namespace mlir;
using namespace mlir::tile;
using copy::constantIndex;

/// The largest extent of a TMA box in one dimension.
static constexpr int64_t kMaxBoxExtent = 256;

LogicalResult tma::checkGlobal(Value global, std::string &why) {
  auto fail = [&](const Twine &reason) {
    why = reason.str();
    return failure();
  };
  auto argument = dyn_cast<BlockArgument>(global);
  if (!argument ||
      !isa<FunctionOpInterface>(argument.getOwner()->getParentOp()))
    return fail("its global tensor is not an argument of the kernel's "
                "function");
  auto globalType = cast<MemRefType>(argument.getType());
  if (globalType.getRank() != 2 || !globalType.getLayout().isIdentity())
    return fail("its global tensor is not a row-major 2-D tensor");
  Type element = globalType.getElementType();
  if (!element.isF16() && !element.isBF16() && !element.isF32())
    return fail("its elements are not f16, bf16 or f32");
  int64_t elementBytes = element.getIntOrFloatBitWidth() / 8;
  // The copies address a box by signed 32-bit coordinates (the lowering of
  // nvgpu.tma.async.load truncates the indices); tile-run checks extents
  // known only at run time.
  for (int64_t dim = 0; dim < 2; ++dim)
    if (!globalType.isDynamicDim(dim) &&
        globalType.getDimSize(dim) > ::tile::runtime::kMaxTensorMapExtent)
      return fail("its global tensor has " + Twine(globalType.getDimSize(dim)) +
                  (dim == 0 ? " rows" : " columns") +
                  ", more than the TMA's signed 32-bit coordinates reach");
  // The tensor map's row pitch must be a multiple of 16 bytes. Over a row
  // length known only at run time, the launch encodes the map from the
  // shape it is given, and tile.divisibility promises the multiple.
  if (globalType.isDynamicDim(1)) {
    int64_t divisor = copy::knownStrideDivisor(argument, 0);
    if ((divisor * elementBytes) % 16 != 0)
      return fail("the rows of its global tensor have a length known only "
                  "at run time, promised a multiple of " +
                  Twine(divisor) + " elements (" +
                  Twine(divisor * elementBytes) +
                  " bytes), not of 16 bytes (tile.divisibility)");
    return success();
  }
  int64_t pitch = globalType.getDimSize(1) * elementBytes;
  if (pitch % 16 != 0)
    return fail("the rows of its global tensor are " + Twine(pitch) +
                " bytes, not a multiple of 16");
  return success();
}

LogicalResult tma::checkInnerOffset(Value global, ValueRange indices,
                                    std::string &why) {
  if (indices.empty())
    return success();
  int64_t elementBytes =
      cast<MemRefType>(global.getType()).getElementTypeBitWidth() / 8;
  int64_t divisor = getKnownDivisor(indices.back());
  if ((divisor * elementBytes) % 16 == 0)
    return success();
  why = "the TMA needs its first column at a multiple of 16 bytes, and it is "
        "known to be a multiple of " +
        std::to_string(divisor) +
        (divisor == 1 ? " element (" : " elements (") +
        std::to_string(divisor * elementBytes) + " bytes) only";
  return failure();
}

FailureOr<tma::BoxPlan> tma::planBoxes(Value global, MemRefType tileType,
                                       std::string &why) {
  if (failed(checkGlobal(global, why)))
    return failure();
  auto fail = [&](const Twine &reason) {
    why = reason.str();
    return failure();
  };
  auto argument = cast<BlockArgument>(global);
  int64_t elementBytes =
      cast<MemRefType>(argument.getType()).getElementTypeBitWidth() / 8;
  int64_t rank = tileType.getRank();
  int64_t rows = tileType.getDimSize(rank - 2);
  int64_t cols = tileType.getDimSize(rank - 1);

  BoxPlan plan;
  plan.global = argument;
  SharedSwizzle layout(rows, cols, elementBytes);
  using Swizzle = nvgpu::TensorMapSwizzleKind;
  if (layout.panels > 1) {
    // 128-byte panels, each a 128-byte-swizzled tile of its own.
    plan.swizzle = Swizzle::SWIZZLE_128B;
    plan.boxCols = layout.getPanelElements();
  } else if (layout.isIdentity()) {
    plan.swizzle = Swizzle::SWIZZLE_NONE;
    plan.boxCols = cols;
  } else if (layout.numPatterns == layout.chunksPerRow) {
    // Rows of 32, 64 or 128 bytes: the XOR of SharedLayout.h is the TMA's
    // 32B, 64B or 128B swizzle.
    plan.swizzle = layout.chunksPerRow == 2   ? Swizzle::SWIZZLE_32B
                   : layout.chunksPerRow == 4 ? Swizzle::SWIZZLE_64B
                                              : Swizzle::SWIZZLE_128B;
    plan.boxCols = cols;
  } else {
    return fail("its shared tile's layout is not one the TMA writes");
  }
  int64_t rowBytes = plan.boxCols * elementBytes;
  if (rowBytes % 16 != 0)
    return fail("its shared tile's rows are " + Twine(rowBytes) +
                " bytes (the TMA needs a multiple of 16)");
  if (plan.boxCols > kMaxBoxExtent)
    return fail("its shared tile's rows are " + Twine(plan.boxCols) +
                " elements (a TMA box row holds at most " +
                Twine(kMaxBoxExtent) + ")");
  plan.boxRows = std::min(rows, kMaxBoxExtent);
  if (rows % plan.boxRows != 0)
    return fail("its shared tile has " + Twine(rows) +
                " rows, more than one box and not a multiple of one");
  // The TMA moves boxes at 128-byte aligned shared addresses, and a swizzled
  // box must start where its pattern does (every 8 rows), since the hardware
  // swizzles address bits. Tiles start at kSharedTileAlignment (1024) bytes;
  // versions are whole tiles apart.
  int64_t align = plan.swizzle == Swizzle::SWIZZLE_NONE ? 128 : 8 * rowBytes;
  if ((rows * cols * elementBytes) % align != 0 ||
      (plan.boxRows * rowBytes) % align != 0)
    return fail("its shared tile is not aligned for the TMA (" + Twine(align) +
                " bytes)");
  for (int64_t p = 0; p < layout.panels; ++p)
    for (int64_t r = 0; r < rows; r += plan.boxRows)
      plan.boxes.push_back(
          {r, p * plan.boxCols, (p * rows + r) * plan.boxCols});
  plan.bytes = int64_t(plan.boxes.size()) * plan.boxRows * rowBytes;
  return plan;
}

Value tma::createTensorMap(KernelOp kernel, const BoxPlan &plan) {
  OpBuilder b(kernel);
  Location loc = kernel.getLoc();
  auto globalType = cast<MemRefType>(plan.global.getType());
  Type element = globalType.getElementType();
  auto unranked = memref::CastOp::create(
      b, loc, UnrankedMemRefType::get(element, globalType.getMemorySpace()),
      plan.global);
  auto workgroup =
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup);
  auto boxType = MemRefType::get({plan.boxRows, plan.boxCols}, element,
                                 MemRefLayoutAttrInterface(), workgroup);
  auto type = nvgpu::TensorMapDescriptorType::get(
      b.getContext(), boxType, plan.swizzle,
      nvgpu::TensorMapL2PromoKind::L2PROMO_128B,
      nvgpu::TensorMapOOBKind::OOB_ZERO,
      nvgpu::TensorMapInterleaveKind::INTERLEAVE_NONE);
  return nvgpu::TmaCreateDescriptorOp::create(
      b, loc, type, unranked,
      ValueRange{constantIndex(b, loc, plan.boxRows),
                 constantIndex(b, loc, plan.boxCols)});
}

Value tma::getBoxView(OpBuilder &b, Location loc, Value buffer, Value first,
                      const BoxPlan &plan, const Box &box) {
  auto bufferType = cast<MemRefType>(buffer.getType());
  auto boxType = MemRefType::get(
      {plan.boxRows, plan.boxCols}, bufferType.getElementType(),
      StridedLayoutAttr::get(b.getContext(), ShapedType::kDynamic,
                             {plan.boxCols, 1}),
      bufferType.getMemorySpace());
  Value offset = b.createOrFold<arith::AddIOp>(
      loc, first, constantIndex(b, loc, box.elementOffset));
  return memref::ReinterpretCastOp::create(
      b, loc, boxType, buffer, offset,
      ArrayRef<OpFoldResult>{b.getIndexAttr(plan.boxRows),
                             b.getIndexAttr(plan.boxCols)},
      ArrayRef<OpFoldResult>{b.getIndexAttr(plan.boxCols), b.getIndexAttr(1)});
}

SmallVector<Value, 2> tma::getBoxCoordinates(OpBuilder &b, Location loc,
                                             ValueRange offsets,
                                             const Box &box) {
  Value row = offsets.empty() ? constantIndex(b, loc, 0) : offsets[0];
  Value col = offsets.empty() ? constantIndex(b, loc, 0) : offsets[1];
  return {b.createOrFold<arith::AddIOp>(loc, col,
                                        constantIndex(b, loc, box.colOffset)),
          b.createOrFold<arith::AddIOp>(loc, row,
                                        constantIndex(b, loc, box.rowOffset))};
}
