//===- TileOpsToLoops.cpp - Tile copy, gemm and clear as loop nests -------===//
//
// Part of tile-mlir. The reference meaning of the computing tile ops, one
// element at a time. Upstream's `memref.copy` and `linalg.matmul` do not fit:
// a tile copy reads zero outside its source, skips stores outside its
// destination and converts float types, and a tile GEMM widens its operands
// to f32 before accumulating; spelling these out as loops keeps the semantics
// visible in one place.
//
//===----------------------------------------------------------------------===//

#include "tile/Conversion/TileToCPU/TileToCPU.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::tile;

/// The size of dimension `dim` of `memref` as an index value.
static Value getDimSize(OpBuilder &b, Location loc, Value memref, int64_t dim) {
  int64_t size = cast<MemRefType>(memref.getType()).getDimSize(dim);
  if (!ShapedType::isDynamic(size))
    return arith::ConstantIndexOp::create(b, loc, size);
  return memref::DimOp::create(b, loc, memref, dim);
}

/// Builds a loop nest from 0 to `upperBounds` by 1 at the builder's point.
static void buildZeroBasedLoopNest(
    OpBuilder &b, Location loc, ValueRange upperBounds,
    function_ref<void(OpBuilder &, Location, ValueRange)> bodyBuilder) {
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  SmallVector<Value> lbs(upperBounds.size(), zero);
  SmallVector<Value> steps(upperBounds.size(), one);
  scf::buildLoopNest(b, loc, lbs, upperBounds, steps, bodyBuilder);
}

/// An i32 constant.
static Value constantI32(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIntOp::create(b, loc, b.getI32Type(), value);
}

/// f32 `value` rounded to nearest even bf16, in integer arithmetic. LLVM's
/// own fptrunc to bf16 is not exact on every host (x86 with AVX512-BF16
/// flushes subnormal results to zero), and the oracle has to round as the
/// GPU's cvt.rn.bf16.f32 does. NaN stays NaN (quiet, sign kept).
static Value roundToBF16(OpBuilder &b, Location loc, Value value) {
  Value bits = arith::BitcastOp::create(b, loc, b.getI32Type(), value);
  Value sixteen = constantI32(b, loc, 16);
  Value high = arith::ShRUIOp::create(b, loc, bits, sixteen);
  Value lsb = arith::AndIOp::create(b, loc, high, constantI32(b, loc, 1));
  Value bias = arith::AddIOp::create(b, loc, constantI32(b, loc, 0x7FFF), lsb);
  Value biased = arith::AddIOp::create(b, loc, bits, bias);
  Value rounded = arith::ShRUIOp::create(b, loc, biased, sixteen);
  Value quietNaN =
      arith::OrIOp::create(b, loc, high, constantI32(b, loc, 0x40));
  Value isNaN =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, value, value);
  Value result = arith::SelectOp::create(b, loc, isNaN, quietNaN, rounded);
  Value half = arith::TruncIOp::create(b, loc, b.getI16Type(), result);
  return arith::BitcastOp::create(b, loc, b.getBF16Type(), half);
}

/// f64 `value` rounded to f32 by round-to-odd: toward zero, with the last
/// bit set when that lost anything. Rounding the result once more to nearest
/// even in a format at least two bits narrower (bf16) gives the nearest-even
/// rounding of `value` itself, which rounding to nearest twice does not. The
/// truncation toward zero is the nearest-even one stepped back by one unit
/// where it went away from zero (arith.truncf's rounding-mode attribute
/// only tells LLVM which mode the CPU is in, it does not set it).
static Value roundToOddF32(OpBuilder &b, Location loc, Value value) {
  Value nearest = arith::TruncFOp::create(b, loc, b.getF32Type(), value);
  Value back = arith::ExtFOp::create(b, loc, value.getType(), nearest);
  auto compare = [&](arith::CmpFPredicate predicate, Value lhs, Value rhs) {
    return arith::CmpFOp::create(b, loc, predicate, lhs, rhs).getResult();
  };
  Value zero = arith::ConstantOp::create(b, loc, value.getType(),
                                         b.getZeroAttr(value.getType()));
  Value roundedUp = compare(arith::CmpFPredicate::OGT, back, value);
  Value positive = compare(arith::CmpFPredicate::OGT, value, zero);
  Value awayUp = arith::AndIOp::create(b, loc, roundedUp, positive);
  Value roundedDown = compare(arith::CmpFPredicate::OLT, back, value);
  Value negative = compare(arith::CmpFPredicate::OLT, value, zero);
  Value awayDown = arith::AndIOp::create(b, loc, roundedDown, negative);
  Value away = arith::OrIOp::create(b, loc, awayUp, awayDown);
  Value bits = arith::BitcastOp::create(b, loc, b.getI32Type(), nearest);
  // Sign and magnitude: one less in the low bits is one unit toward zero.
  bits = arith::SelectOp::create(
      b, loc, away, arith::SubIOp::create(b, loc, bits, constantI32(b, loc, 1)),
      bits);
  Value inexact = compare(arith::CmpFPredicate::ONE, back, value);
  Value odd = arith::OrIOp::create(
      b, loc, bits,
      arith::ExtUIOp::create(b, loc, b.getI32Type(), inexact).getResult());
  return arith::BitcastOp::create(b, loc, b.getF32Type(), odd);
}

/// Converts a float `value` to `type`, rounding to nearest even as the GPU
/// does; f16 <-> bf16 goes through f32 since neither holds the other.
static Value convertFloat(OpBuilder &b, Location loc, Value value, Type type) {
  Type from = value.getType();
  if (from == type)
    return value;
  auto fromFloat = cast<FloatType>(from);
  auto toFloat = cast<FloatType>(type);
  if (fromFloat.getWidth() < toFloat.getWidth())
    return arith::ExtFOp::create(b, loc, type, value);
  if (toFloat.isBF16()) {
    if (fromFloat.isF64())
      return roundToBF16(b, loc, roundToOddF32(b, loc, value));
    if (!fromFloat.isF32())
      value = arith::ExtFOp::create(b, loc, b.getF32Type(), value);
    return roundToBF16(b, loc, value);
  }
  if (fromFloat.getWidth() > toFloat.getWidth())
    return arith::TruncFOp::create(b, loc, type, value);
  Value wide = arith::ExtFOp::create(b, loc, b.getF32Type(), value);
  return arith::TruncFOp::create(b, loc, type, wide);
}

/// `lhs && rhs`, where a null value stands for "true".
static Value andBounds(OpBuilder &b, Location loc, Value lhs, Value rhs) {
  if (!lhs)
    return rhs;
  return arith::AndIOp::create(b, loc, lhs, rhs);
}

namespace {
/// One side of a copy: the memref, its offsets (empty: all zero) and, per
/// element of the extent, the index and whether it is in bounds.
struct CopySide {
  Value memref;
  ValueRange offsets;

  /// Appends to `indices` the index into this side for the loop position
  /// `ivs`, and sets `inBounds` to the condition that it lies inside the
  /// memref (null when it always does).
  void locate(OpBuilder &b, Location loc, ValueRange ivs,
              ArrayRef<int64_t> extent, SmallVectorImpl<Value> &indices,
              Value &inBounds) const {
    auto type = cast<MemRefType>(memref.getType());
    for (auto [dim, iv] : llvm::enumerate(ivs)) {
      Value index = offsets.empty()
                        ? iv
                        : arith::AddIOp::create(b, loc, offsets[dim], iv);
      indices.push_back(index);
      // Without an offset, a static size at least the extent always holds
      // the element; skip the test so that tile-to-tile copies stay simple.
      int64_t size = type.getDimSize(dim);
      if (offsets.empty() && !ShapedType::isDynamic(size) &&
          size >= extent[dim])
        continue;
      // Unsigned: a negative offset is out of bounds too.
      Value inside =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, index,
                                getDimSize(b, loc, memref, dim));
      inBounds = andBounds(b, loc, inBounds, inside);
    }
  }
};
} // namespace

/// Builds, at `b`'s point, a loop nest over the copy extent `extent` that
/// runs `store` for every element the copy stores: those whose index into
/// `dest` (given to `store`, after the loop position) lies inside it.
static void forEachStoredElement(
    OpBuilder &b, Location loc, ArrayRef<int64_t> extent, const CopySide &dest,
    function_ref<void(OpBuilder &, Location, ValueRange, ValueRange)> store) {
  SmallVector<Value> upperBounds;
  for (int64_t size : extent)
    upperBounds.push_back(arith::ConstantIndexOp::create(b, loc, size));
  buildZeroBasedLoopNest(
      b, loc, upperBounds, [&](OpBuilder &b, Location loc, ValueRange ivs) {
        SmallVector<Value> destIndices;
        Value destInBounds;
        dest.locate(b, loc, ivs, extent, destIndices, destInBounds);
        if (!destInBounds) {
          store(b, loc, ivs, destIndices);
          return;
        }
        scf::IfOp::create(b, loc, destInBounds,
                          [&](OpBuilder &b, Location loc) {
                            store(b, loc, ivs, destIndices);
                            scf::YieldOp::create(b, loc);
                          });
      });
}

void mlir::tile::forEachCopiedElement(
    OpBuilder &b, Location loc, ArrayRef<int64_t> extent, Value source,
    ValueRange sourceIndices, Value dest, ValueRange destIndices,
    function_ref<void(OpBuilder &, Location, const CopiedElement &)> body) {
  CopySide sourceSide{source, sourceIndices};
  forEachStoredElement(
      b, loc, extent, CopySide{dest, destIndices},
      [&](OpBuilder &b, Location loc, ValueRange ivs, ValueRange destIndices) {
        SmallVector<Value> sourceIndices;
        Value sourceInBounds;
        sourceSide.locate(b, loc, ivs, extent, sourceIndices, sourceInBounds);
        body(b, loc,
             CopiedElement{ivs, sourceIndices, sourceInBounds, destIndices});
      });
}

Value mlir::tile::loadCopiedElement(OpBuilder &b, Location loc, Value source,
                                    const CopiedElement &element) {
  auto load = [&](OpBuilder &b, Location loc) -> Value {
    return memref::LoadOp::create(b, loc, source, element.sourceIndices);
  };
  if (!element.sourceInBounds)
    return load(b, loc);
  Type type = cast<MemRefType>(source.getType()).getElementType();
  auto ifOp = scf::IfOp::create(
      b, loc, element.sourceInBounds,
      [&](OpBuilder &b, Location loc) {
        scf::YieldOp::create(b, loc, load(b, loc));
      },
      [&](OpBuilder &b, Location loc) {
        Value zero = arith::ConstantOp::create(
            b, loc, cast<TypedAttr>(b.getZeroAttr(type)));
        scf::YieldOp::create(b, loc, zero);
      });
  return ifOp.getResult(0);
}

static void lowerCopyLike(RewriterBase &rewriter, Operation *op,
                          ArrayRef<int64_t> extent, Value source,
                          ValueRange sourceIndices, Value dest,
                          ValueRange destIndices) {
  Location loc = op->getLoc();
  rewriter.setInsertionPoint(op);
  Type sourceElem = cast<MemRefType>(source.getType()).getElementType();
  Type destElem = cast<MemRefType>(dest.getType()).getElementType();

  forEachCopiedElement(
      rewriter, loc, extent, source, sourceIndices, dest, destIndices,
      [&](OpBuilder &b, Location loc, const CopiedElement &element) {
        Value value = loadCopiedElement(b, loc, source, element);
        if (sourceElem != destElem)
          value = convertFloat(b, loc, value, destElem);
        memref::StoreOp::create(b, loc, value, dest, element.destIndices);
      });
  rewriter.eraseOp(op);
}

/// A value no correct kernel reads from a tile: NaN, or for a float type
/// without one its lowest value; an integer's lowest value.
TypedAttr mlir::tile::getPoison(OpBuilder &b, Type element) {
  if (auto type = dyn_cast<FloatType>(element)) {
    const llvm::fltSemantics &semantics = type.getFloatSemantics();
    return b.getFloatAttr(type,
                          llvm::APFloat::semanticsHasNaN(semantics)
                              ? llvm::APFloat::getQNaN(semantics)
                              : llvm::APFloat::getLargest(semantics, true));
  }
  unsigned width = element.isIndex() ? IndexType::kInternalStorageBitWidth
                                     : element.getIntOrFloatBitWidth();
  return b.getIntegerAttr(element, llvm::APInt::getSignedMinValue(width));
}

Value mlir::tile::isPoison(OpBuilder &b, Location loc, Value value) {
  Type element = value.getType();
  // NaN is no value's equal, not even its own: any NaN counts. The CPU's
  // LLVM compares only the float types it has; of the others (f8, say),
  // getPoison's bits do.
  if (isa<Float16Type, BFloat16Type, Float32Type, Float64Type>(element))
    return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, value,
                                 value);
  Value poison = arith::ConstantOp::create(b, loc, getPoison(b, element));
  if (auto type = dyn_cast<FloatType>(element)) {
    Type bits = b.getIntegerType(type.getWidth());
    value = arith::BitcastOp::create(b, loc, bits, value);
    poison = arith::BitcastOp::create(b, loc, bits, poison);
  }
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, value, poison);
}

Value mlir::tile::getViewRoot(Value view, SmallVectorImpl<Operation *> *views) {
  while (Operation *def = view.getDefiningOp()) {
    if (!isa<memref::SubViewOp, memref::CastOp>(def))
      break;
    if (views)
      views->push_back(def);
    view = def->getOperand(0);
  }
  return view;
}

/// Stores `value` into every element of `tile` at `b`'s point.
void mlir::tile::forEachElement(
    OpBuilder &b, Location loc, Value memref,
    function_ref<void(OpBuilder &, Location, ValueRange)> body) {
  auto type = cast<MemRefType>(memref.getType());
  SmallVector<Value> sizes;
  for (int64_t dim = 0; dim < type.getRank(); ++dim)
    sizes.push_back(getDimSize(b, loc, memref, dim));
  buildZeroBasedLoopNest(b, loc, sizes, body);
}

static void fillTile(OpBuilder &b, Location loc, Value tile, TypedAttr value) {
  Value constant = arith::ConstantOp::create(b, loc, value);
  forEachElement(b, loc, tile, [&](OpBuilder &b, Location loc, ValueRange ivs) {
    memref::StoreOp::create(b, loc, constant, tile, ivs);
  });
}

void mlir::tile::poisonTile(OpBuilder &b, Location loc, Value tile) {
  Type element = cast<MemRefType>(tile.getType()).getElementType();
  fillTile(b, loc, tile, getPoison(b, element));
}

void mlir::tile::poisonCopyDestination(OpBuilder &b, Location loc,
                                       ArrayRef<int64_t> extent, Value dest,
                                       ValueRange destIndices) {
  Type element = cast<MemRefType>(dest.getType()).getElementType();
  Value poison = arith::ConstantOp::create(b, loc, getPoison(b, element));
  forEachStoredElement(
      b, loc, extent, CopySide{dest, destIndices},
      [&](OpBuilder &b, Location loc, ValueRange, ValueRange indices) {
        memref::StoreOp::create(b, loc, poison, dest, indices);
      });
}

void mlir::tile::lowerCopyToLoops(RewriterBase &rewriter, CopyOp op) {
  lowerCopyLike(rewriter, op, op.getExtent(), op.getSource(),
                op.getSourceIndices(), op.getDest(), op.getDestIndices());
}

void mlir::tile::lowerCopyToLoops(RewriterBase &rewriter, CopyAsyncOp op) {
  lowerCopyLike(rewriter, op, op.getExtent(), op.getSource(),
                op.getSourceIndices(), op.getDest(), op.getDestIndices());
}

void mlir::tile::lowerGemmToLoops(RewriterBase &rewriter, GemmOp op) {
  Location loc = op->getLoc();
  rewriter.setInsertionPoint(op);
  Value a = op.getA(), b = op.getB(), c = op.getC();
  bool transposeA = op.getTransposeA(), transposeB = op.getTransposeB();
  Type f32 = rewriter.getF32Type();

  Value m = getDimSize(rewriter, loc, c, 0);
  Value n = getDimSize(rewriter, loc, c, 1);
  Value k = getDimSize(rewriter, loc, a, transposeA ? 0 : 1);
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);

  buildZeroBasedLoopNest(
      rewriter, loc, {m, n}, [&](OpBuilder &bld, Location loc, ValueRange mn) {
        Value i = mn[0], j = mn[1];
        Value init = memref::LoadOp::create(bld, loc, c, ValueRange{i, j});
        auto reduction = scf::ForOp::create(
            bld, loc, zero, k, one, ValueRange{init},
            [&](OpBuilder &bld, Location loc, Value kk, ValueRange acc) {
              SmallVector<Value> aIndex = transposeA
                                              ? SmallVector<Value>{kk, i}
                                              : SmallVector<Value>{i, kk};
              SmallVector<Value> bIndex = transposeB
                                              ? SmallVector<Value>{j, kk}
                                              : SmallVector<Value>{kk, j};
              Value lhs = convertFloat(
                  bld, loc, memref::LoadOp::create(bld, loc, a, aIndex), f32);
              Value rhs = convertFloat(
                  bld, loc, memref::LoadOp::create(bld, loc, b, bIndex), f32);
              Value product = arith::MulFOp::create(bld, loc, lhs, rhs);
              Value sum = arith::AddFOp::create(bld, loc, acc[0], product);
              scf::YieldOp::create(bld, loc, sum);
            });
        memref::StoreOp::create(bld, loc, reduction.getResult(0), c,
                                ValueRange{i, j});
      });
  rewriter.eraseOp(op);
}

void mlir::tile::lowerClearToLoops(RewriterBase &rewriter, ClearOp op) {
  rewriter.setInsertionPoint(op);
  Type element = op.getTile().getType().getElementType();
  fillTile(rewriter, op->getLoc(), op.getTile(),
           cast<TypedAttr>(rewriter.getZeroAttr(element)));
  rewriter.eraseOp(op);
}
