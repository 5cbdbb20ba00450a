//===- FragmentCopies.cpp - Clears and copies of fragment tiles -----------===//
//
// Part of tile-mlir. Each thread moves exactly the elements it holds: the
// fragment side is a constant register index, the other side (global or
// shared) is indexed by the element's (row, column) plus the copy's offsets,
// masked against that side's bounds.
//
//===----------------------------------------------------------------------===//

#include "FragmentLoweringDetail.h"

#include "tile/Conversion/TileToNVGPU/SharedLayout.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::fragment;

void fragment::lowerFragmentClear(ClearOp op, FragmentState &state) {
  const FragmentRegisters &regs = *state.lookup(op.getTile());
  OpBuilder b(op);
  Location loc = op.getLoc();
  Type elem = regs.getElementType();
  // One 4-element store per mma tile: the registers of a tile are adjacent.
  auto vecType = VectorType::get({4}, elem);
  Value zero = arith::ConstantOp::create(
      b, loc, vecType, DenseElementsAttr::get(vecType, b.getZeroAttr(elem)));
  for (int64_t reg = 0; reg < regs.layout.getNumRegisters(); reg += 4)
    vector::StoreOp::create(
        b, loc, zero, regs.registers,
        ValueRange{arith::ConstantIndexOp::create(b, loc, reg)});
  op.erase();
}

namespace {
/// The non-fragment side of a copy: where element (row, col) of the fragment
/// goes, and whether it is inside the copy and that side's bounds.
struct OtherSide {
  Value memref;
  MemRefType type;
  SmallVector<Value, 2> offsets; // empty: the tile starts at (0, 0)
  SmallVector<int64_t, 2> extent;
  std::optional<SharedSwizzle> swizzle;
  ArrayRef<int64_t> fragmentShape;

  /// The other side's (row, col) of fragment element (row, col), and the
  /// condition under which it is copied (nullptr: always).
  std::tuple<Value, Value, Value> locate(OpBuilder &b, Location loc, Value row,
                                         Value col) const {
    Value cond;
    auto addCond = [&](Value c) {
      cond = cond ? arith::AndIOp::create(b, loc, cond, c).getResult() : c;
    };
    auto constant = [&](int64_t v) {
      return arith::ConstantIndexOp::create(b, loc, v);
    };
    Value index[2] = {row, col};
    for (int d = 0; d < 2; ++d) {
      // Outside the copied extent (the other side is smaller).
      if (extent[d] < fragmentShape[d])
        addCond(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                      index[d], constant(extent[d])));
      if (!offsets.empty())
        index[d] = arith::AddIOp::create(b, loc, offsets[d], index[d]);
      // Outside the other side's bounds: only with offsets or dynamic sizes.
      if (offsets.empty() && !type.isDynamicDim(d))
        continue;
      Value size = type.isDynamicDim(d)
                       ? memref::DimOp::create(b, loc, memref, d).getResult()
                       : constant(type.getDimSize(d)).getResult();
      addCond(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, index[d],
                                    size));
    }
    return {index[0], index[1], cond};
  }

  Value physicalColumn(OpBuilder &b, Location loc, Value row, Value col) const {
    return swizzle ? swizzle->getColumn(b, loc, row, col) : col;
  }
};
} // namespace

/// Runs `body` under `cond` (or unconditionally when cond is null).
static void emitIf(OpBuilder &b, Location loc, Value cond,
                   function_ref<void(OpBuilder &)> body) {
  if (!cond) {
    body(b);
    return;
  }
  auto ifOp = scf::IfOp::create(b, loc, cond, /*withElseRegion=*/false);
  OpBuilder inner = ifOp.getThenBodyBuilder();
  body(inner);
}

/// Can a 2-element vector store at an even linear index use 2-element
/// alignment? Only when rows hold whole pairs and the base is not offset by
/// an odd amount, i.e. an identity layout.
static bool canStorePairs(MemRefType type) {
  return type.getLayout().isIdentity() &&
         getElementBytes(type.getElementType()) <= 8;
}

void fragment::lowerFragmentCopy(CopyOp op, FragmentState &state) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  const FragmentRegisters *src = state.lookup(op.getSource());
  const FragmentRegisters *dst = state.lookup(op.getDest());
  Type srcElem = op.getSource().getType().getElementType();
  Type dstElem = op.getDest().getType().getElementType();
  auto constant = [&](OpBuilder &builder, int64_t v) {
    return arith::ConstantIndexOp::create(builder, loc, v);
  };

  if (src && dst) {
    // Same shape, hence the same layout: register-wise.
    for (int64_t reg = 0; reg < src->layout.getNumRegisters(); ++reg) {
      Value index = constant(b, reg);
      Value v = memref::LoadOp::create(b, loc, src->registers, index);
      memref::StoreOp::create(b, loc, convertElement(b, loc, v, dstElem),
                              dst->registers, index);
    }
    op.erase();
    return;
  }

  const FragmentRegisters &frag = src ? *src : *dst;
  OtherSide other;
  other.memref = src ? op.getDest() : op.getSource();
  other.type = cast<MemRefType>(other.memref.getType());
  other.offsets =
      llvm::to_vector<2>(src ? op.getDestIndices() : op.getSourceIndices());
  other.extent = op.getExtent();
  other.fragmentShape =
      cast<MemRefType>((src ? op.getSource() : op.getDest()).getType())
          .getShape();
  if (getMemorySpace(other.type) == MemorySpace::Shared)
    other.swizzle.emplace(other.type.getShape().back(),
                          getElementBytes(other.type.getElementType()));
  bool global = getMemorySpace(other.type) == MemorySpace::Global;

  auto position = [&](int64_t reg) {
    auto [dRow, dCol] = getRegisterDelta(frag.layout, reg);
    Value row = arith::AddIOp::create(b, loc, frag.rowBase, constant(b, dRow));
    Value col = arith::AddIOp::create(b, loc, frag.colBase, constant(b, dCol));
    return std::make_pair(row, col);
  };

  if (src) {
    // Fragment -> global / shared. Registers 2k and 2k+1 are adjacent
    // columns of one row: store them as one vector when both are in bounds
    // and the pair is aligned, else element by element.
    for (int64_t reg = 0; reg < frag.layout.getNumRegisters(); reg += 2) {
      Value values[2];
      for (int e = 0; e < 2; ++e)
        values[e] = convertElement(
            b, loc,
            memref::LoadOp::create(b, loc, frag.registers,
                                   ValueRange{constant(b, reg + e)}),
            dstElem);
      auto [row, col] = position(reg);
      Value col1 = arith::AddIOp::create(b, loc, col, constant(b, 1));
      auto [oRow, oCol, cond0] = other.locate(b, loc, row, col);
      auto [oRow1, oCol1, cond1] = other.locate(b, loc, row, col1);
      auto storeOne = [&](OpBuilder &builder, Value v, Value r, Value c) {
        memref::StoreOp::create(
            builder, loc, v, other.memref,
            ValueRange{r, other.physicalColumn(builder, loc, r, c)});
      };
      auto storeEach = [&](OpBuilder &builder) {
        emitIf(builder, loc, cond0, [&](OpBuilder &inner) {
          storeOne(inner, values[0], oRow, oCol);
        });
        emitIf(builder, loc, cond1, [&](OpBuilder &inner) {
          storeOne(inner, values[1], oRow1, oCol1);
        });
      };
      if (!global || !canStorePairs(other.type)) {
        storeEach(b);
        continue;
      }
      // Pair path: the linear index (row * stride + col) must be even for
      // the 2-element alignment the vector store promises.
      int64_t bytes = getElementBytes(dstElem);
      Value stride =
          other.type.isDynamicDim(1)
              ? memref::DimOp::create(b, loc, other.memref, 1).getResult()
              : constant(b, other.type.getDimSize(1)).getResult();
      Value linear = arith::AddIOp::create(
          b, loc, arith::MulIOp::create(b, loc, oRow, stride), oCol);
      Value even = arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::eq,
          arith::RemUIOp::create(b, loc, linear, constant(b, 2)),
          constant(b, 0));
      Value pairCond =
          cond1 ? arith::AndIOp::create(b, loc, cond1, even).getResult() : even;
      auto ifOp = scf::IfOp::create(b, loc, pairCond, /*withElseRegion=*/true);
      {
        OpBuilder then = ifOp.getThenBodyBuilder();
        Value pair = vector::FromElementsOp::create(
            then, loc, VectorType::get({2}, dstElem), ValueRange(values));
        vector::StoreOp::create(
            then, loc, pair, other.memref, ValueRange{oRow, oCol},
            /*nontemporal=*/false, llvm::MaybeAlign(2 * bytes));
      }
      OpBuilder otherwise = ifOp.getElseBodyBuilder();
      storeEach(otherwise);
    }
    op.erase();
    return;
  }

  // Global / shared -> fragment: out-of-bounds elements read as zero.
  for (int64_t reg = 0; reg < frag.layout.getNumRegisters(); ++reg) {
    auto [row, col] = position(reg);
    auto [oRow, oCol, cond] = other.locate(b, loc, row, col);
    auto load = [&](OpBuilder &builder) -> Value {
      return memref::LoadOp::create(
          builder, loc, other.memref,
          ValueRange{oRow, other.physicalColumn(builder, loc, oRow, oCol)});
    };
    Value value;
    if (!cond) {
      value = load(b);
    } else {
      auto ifOp = scf::IfOp::create(b, loc, TypeRange{srcElem}, cond,
                                    /*withElseRegion=*/true);
      OpBuilder then = ifOp.getThenBodyBuilder();
      scf::YieldOp::create(then, loc, load(then));
      OpBuilder otherwise = ifOp.getElseBodyBuilder();
      Value zero = arith::ConstantOp::create(
          otherwise, loc, cast<TypedAttr>(b.getZeroAttr(srcElem)));
      scf::YieldOp::create(otherwise, loc, zero);
      value = ifOp.getResult(0);
    }
    memref::StoreOp::create(b, loc, convertElement(b, loc, value, dstElem),
                            frag.registers, ValueRange{constant(b, reg)});
  }
  op.erase();
}
