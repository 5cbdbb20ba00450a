//===- FragmentCopies.cpp - Clears and copies of fragment tiles -----------===//
//
// Part of tile-mlir. Each thread moves exactly the elements it holds: the
// fragment side is a constant register index, the other side (global or
// shared) is indexed by the element's (row, column) plus the copy's offsets,
// masked against that side's bounds.
//
//===----------------------------------------------------------------------===//

#include "CopyLoweringDetail.h"
#include "FragmentLoweringDetail.h"

#include "tile/Conversion/TileToNVGPU/InteriorBlocks.h"
#include "tile/Conversion/TileToNVGPU/SharedLayout.h"
#include "tile/Dialect/Tile/Utils/IndexFacts.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <tuple>

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
  /// condition under which it is copied (nullptr: always). With `inExtent`,
  /// the condition that the element lies in the copied extent goes there
  /// instead (nullptr: always), and the returned one is the other side's
  /// bounds alone.
  std::tuple<Value, Value, Value> locate(OpBuilder &b, Location loc, Value row,
                                         Value col,
                                         Value *inExtent = nullptr) const {
    Value cond;
    auto andInto = [&](Value &into, Value c) {
      into = into ? arith::AndIOp::create(b, loc, into, c).getResult() : c;
    };
    auto addCond = [&](Value c) { andInto(cond, c); };
    auto constant = [&](int64_t v) {
      return arith::ConstantIndexOp::create(b, loc, v);
    };
    Value index[2] = {row, col};
    for (int d = 0; d < 2; ++d) {
      // Outside the copied extent (the other side is smaller).
      if (extent[d] < fragmentShape[d]) {
        Value c = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                        index[d], constant(extent[d]));
        if (inExtent)
          andInto(*inExtent, c);
        else
          addCond(c);
      }
      if (!offsets.empty())
        index[d] = arith::AddIOp::create(b, loc, offsets[d], index[d]);
      // Outside the other side's bounds: not where the offset's range (0
      // without offsets) keeps the copy inside.
      if (provablyInside(d))
        continue;
      Value size = type.isDynamicDim(d)
                       ? memref::DimOp::create(b, loc, memref, d).getResult()
                       : constant(type.getDimSize(d)).getResult();
      addCond(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, index[d],
                                    size));
    }
    return {index[0], index[1], cond};
  }

  /// The other side's (row, col) of fragment element (row, col), for copies
  /// that are provablyInside.
  std::pair<Value, Value> at(OpBuilder &b, Location loc, Value row,
                             Value col) const {
    if (offsets.empty())
      return {row, col};
    return {arith::AddIOp::create(b, loc, offsets[0], row),
            arith::AddIOp::create(b, loc, offsets[1], col)};
  }

  /// Whether the copied part of dimension `d` provably lies inside this
  /// side (IndexFacts bounds the offset).
  bool provablyInside(int d) const {
    int64_t copied = std::min(extent[d], fragmentShape[d]);
    if (offsets.empty())
      return !type.isDynamicDim(d) && copied <= type.getDimSize(d);
    return provablyFitsIn(offsets[d], copied, memref, d);
  }

  /// Whether every fragment element is provably copied and inside this
  /// side, so that locate's conditions all hold.
  bool provablyInside() const {
    for (int d = 0; d < 2; ++d)
      if (extent[d] < fragmentShape[d] || !provablyInside(d))
        return false;
    return true;
  }

  /// The indices of the element at (row, col) of this side.
  SmallVector<Value, 2> physical(OpBuilder &b, Location loc, Value row,
                                 Value col) const {
    if (!swizzle)
      return {row, col};
    auto [physicalRow, physicalCol] = swizzle->getPhysical(b, loc, row, col);
    return {physicalRow, physicalCol};
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
/// an odd amount: an identity layout over a base that is itself aligned (a
/// memref.view's byte shift is not in its type).
static bool canStorePairs(const OtherSide &other) {
  return other.type.getLayout().isIdentity() &&
         getElementBytes(other.type.getElementType()) <= 8 &&
         copy::hasAlignedBase(other.memref);
}

/// Fragment -> global for 16-bit elements, two mma tiles (j, j+1) of one row
/// at a time: lanes 2k and 2k+1 of a quad hold columns 2k..2k+1 and
/// 2k+2..2k+3 of both tiles, so one shuffle with the neighbour lane gives the
/// even lane four consecutive columns of tile j and the odd lane four of tile
/// j+1. Each lane then writes 8 bytes, and a warp's store covers 32 whole
/// bytes of each of its 8 rows instead of half of every 32-byte sector.
/// Where the copy may leave the other side, each 4-column chunk is stored
/// under its first column's bounds check: canExchangePairs makes every chunk
/// wholly inside or wholly outside.
static void storeExchangedPairs(OpBuilder &b, Location loc,
                                const FragmentRegisters &frag,
                                const OtherSide &other, Type dstElem,
                                const FragmentState &state) {
  auto constant = [&](int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  const FragmentLayout &layout = frag.layout;
  Type i32 = b.getI32Type();
  bool inside = other.provablyInside();
  Value laneBit = arith::AndIOp::create(b, loc, state.laneId, constant(1));
  Value odd = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, laneBit,
                                    constant(0));
  // One 32-bit word: the converted pair of registers reg, reg + 1.
  auto word = [&](int64_t reg) {
    Value values[2];
    for (int e = 0; e < 2; ++e)
      values[e] = copy::convertFloat(
          b, loc,
          memref::LoadOp::create(b, loc, frag.registers,
                                 ValueRange{constant(reg + e)}),
          dstElem);
    Value pair = vector::FromElementsOp::create(
        b, loc, VectorType::get({2}, dstElem), values);
    return vector::ExtractOp::create(
        b, loc,
        vector::BitCastOp::create(b, loc, VectorType::get({1}, i32), pair), 0);
  };
  for (int64_t i = 0; i < layout.tilesM; ++i) {
    for (int64_t h = 0; h < 2; ++h) {
      for (int64_t j = 0; j < layout.tilesN; j += 2) {
        int64_t reg0 = layout.getRegister(i, j, h, 0);
        int64_t reg1 = layout.getRegister(i, j + 1, h, 0);
        Value w0 = word(reg0), w1 = word(reg1);
        Value send = arith::SelectOp::create(b, loc, odd, w0, w1);
        Value recv = gpu::ShuffleOp::create(b, loc, send, /*offset=*/1,
                                            /*width=*/32, gpu::ShuffleMode::XOR)
                         .getShuffleResult();
        Value first = arith::SelectOp::create(b, loc, odd, recv, w0);
        Value second = arith::SelectOp::create(b, loc, odd, w1, recv);
        // The chunk starts at the even lane's column of tile j, or two
        // columns before the odd lane's own column of tile j + 1.
        auto [dRow, dCol0] = getRegisterDelta(layout, reg0);
        int64_t dCol1 = getRegisterDelta(layout, reg1).second - 2;
        Value row = arith::AddIOp::create(b, loc, frag.rowBase, constant(dRow));
        Value oddCol = constant(dCol1);
        Value evenCol = constant(dCol0);
        Value col = arith::AddIOp::create(
            b, loc, frag.colBase,
            arith::SelectOp::create(b, loc, odd, oddCol, evenCol));
        Value oRow, oCol, cond;
        if (inside)
          std::tie(oRow, oCol) = other.at(b, loc, row, col);
        else
          std::tie(oRow, oCol, cond) = other.locate(b, loc, row, col);
        Value words = vector::FromElementsOp::create(
            b, loc, VectorType::get({2}, i32), ValueRange{first, second});
        Value chunk = vector::BitCastOp::create(
            b, loc, VectorType::get({4}, dstElem), words);
        emitIf(b, loc, cond, [&](OpBuilder &inner) {
          vector::StoreOp::create(inner, loc, chunk, other.memref,
                                  ValueRange{oRow, oCol},
                                  /*nontemporal=*/false, llvm::MaybeAlign(8));
        });
      }
    }
  }
}

/// Whether storeExchangedPairs applies: 16-bit elements into a global
/// row-major memref whose row length is a multiple of 4 (static, or dynamic
/// under tile.divisibility), an even number of mma tiles
/// per warp row, and every 4-element chunk 8-byte aligned (a chunk starts at
/// a column that is a multiple of 4 within the fragment, so the row length
/// and the column offset must be multiples of 4 too). The copied extent's
/// columns and the row length being multiples of 4 also put each chunk
/// wholly inside or wholly outside the bounds, so edge tiles qualify: before,
/// they kept element pairs, and every tile of a kernel whose C is not a tile
/// multiple wrote half-filled 32-byte sectors (twice the L2 write sectors of
/// 4096^3 at 4000^3, measured with ncu).
static bool canExchangePairs(const OtherSide &other, const FragmentLayout &l,
                             Type dstElem) {
  if (getElementBytes(dstElem) != 2 || l.tilesN % 2 != 0 ||
      !canStorePairs(other))
    return false;
  // A dynamic row length is a multiple of the argument's tile.divisibility.
  int64_t rowLength = other.type.isDynamicDim(1)
                          ? copy::knownStrideDivisor(other.memref, 0)
                          : other.type.getDimSize(1);
  int64_t colDivisor =
      other.offsets.empty() ? 4 : getKnownDivisor(other.offsets[1]);
  return rowLength % 4 == 0 && colDivisor % 4 == 0 && l.warpTileN % 4 == 0 &&
         other.extent[1] % 4 == 0;
}

/// Fragment -> a whole shared tile, every element inside it: each register
/// pair (adjacent columns, hence adjacent in their 16-byte chunk) as one
/// vector store. Rows `period()` apart lie at the same physical columns,
/// period() / panels physical rows apart (SharedLayout.h), and where every
/// warp's columns start on a panel, columns a panel apart lie in the same
/// place of neighbouring panels, rows / panels physical rows apart. So the
/// swizzled position is computed once per row residue and column within a
/// panel, and the rest are constant row offsets from it. Computing it per
/// register instead gave LLVM one address per element to hoist out of a
/// persistent kernel's tile loop, and ptxas spilled them.
static bool canStoreSharedPairs(const OtherSide &other, Type dstElem) {
  if (!other.swizzle || !other.offsets.empty() || !other.provablyInside() ||
      other.type.getRank() != 2)
    return false;
  const SharedSwizzle &swizzle = *other.swizzle;
  return getElementBytes(dstElem) <= 8 && swizzle.chunkElements % 2 == 0 &&
         swizzle.rowElements % 2 == 0 && swizzle.period() % swizzle.panels == 0;
}

/// `value` through an inline-asm `mov` (`mov.bN $0, $1;` with `constraint`
/// for both operands), which LLVM cannot look through; `pinned` also keeps it
/// where it is (a volatile asm).
static Value movThroughAsm(OpBuilder &b, Location loc, Value value,
                           StringRef mov, StringRef constraint, bool pinned) {
  std::string text = (mov + " $0, $1;").str();
  std::string constraints = ("=" + constraint + "," + constraint).str();
  auto asmOp = LLVM::InlineAsmOp::create(
      b, loc, value.getType(), ValueRange{value}, b.getStringAttr(text),
      b.getStringAttr(constraints),
      /*has_side_effects=*/pinned ? b.getUnitAttr() : nullptr,
      /*is_align_stack=*/nullptr, LLVM::TailCallKindAttr(),
      /*asm_dialect=*/nullptr, /*operand_attrs=*/nullptr);
  return asmOp.getResult(0);
}

/// `index` (< 2^32) through a `mov` that LLVM must keep where it is: what is
/// computed from the result stays in the loop around it.
static Value pinInLoop(OpBuilder &b, Location loc, Value index) {
  Value narrow = arith::IndexCastUIOp::create(b, loc, b.getI32Type(), index);
  Value pinned = movThroughAsm(b, loc, narrow, "mov.b32", "r", /*pinned=*/true);
  return arith::IndexCastUIOp::create(b, loc, b.getIndexType(), pinned);
}

static void storeSharedPairs(OpBuilder &b, Location loc,
                             const FragmentRegisters &frag,
                             const OtherSide &other, Type dstElem,
                             bool inLoop) {
  const SharedSwizzle &swizzle = *other.swizzle;
  int64_t period = swizzle.period();
  auto constant = [&](int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  // In a loop (a persistent kernel's tile loop), LLVM would hoist every
  // store's address, which depends on the thread alone, out of it: 64
  // addresses of 64 bits for a 256x128 tile at 256 threads, live across the
  // main loop. ptxas spilled them (116 bytes) and the 256x128x64 mma.sync
  // kernel lost 2% on an H200. Computed from a pinned copy of the thread's
  // position they stay in the loop: a few bases, the rest immediate offsets.
  Value rowBase = inLoop ? pinInLoop(b, loc, frag.rowBase) : frag.rowBase;
  Value colBase = inLoop ? pinInLoop(b, loc, frag.colBase) : frag.colBase;
  // A thread's columns are colBase + dCol, with colBase the warp's first
  // column (a multiple of warpTileN) plus at most 6 (FragmentLayout.h), and
  // dCol a multiple of 8 for the first register of a pair.
  int64_t panelElements = swizzle.getPanelElements();
  bool panelAligned = swizzle.panels > 1 &&
                      frag.layout.warpTileN % panelElements == 0 &&
                      panelElements % 8 == 0;
  auto vectorType = VectorType::get({2}, dstElem);
  llvm::DenseMap<std::pair<int64_t, int64_t>, std::pair<Value, Value>> bases;
  for (int64_t reg = 0; reg < frag.layout.getNumRegisters(); reg += 2) {
    auto [dRow, dCol] = getRegisterDelta(frag.layout, reg);
    int64_t residue = dRow % period;
    int64_t column = panelAligned ? dCol % panelElements : dCol;
    std::pair<Value, Value> &base = bases[{residue, column}];
    if (!base.first) {
      Value baseRow = arith::AddIOp::create(b, loc, rowBase, constant(residue));
      Value baseCol = arith::AddIOp::create(b, loc, colBase, constant(column));
      base = swizzle.getPhysical(b, loc, baseRow, baseCol);
    }
    int64_t rowOffset =
        (dRow - residue) / swizzle.panels +
        (dCol - column) / panelElements * (swizzle.rows / swizzle.panels);
    Value row = base.first;
    if (rowOffset != 0)
      row = arith::AddIOp::create(b, loc, row, constant(rowOffset));
    SmallVector<Value, 2> values;
    for (int64_t e = 0; e < 2; ++e)
      values.push_back(copy::convertFloat(
          b, loc,
          memref::LoadOp::create(b, loc, frag.registers,
                                 ValueRange{constant(reg + e)}),
          dstElem));
    Value pair = vector::FromElementsOp::create(b, loc, vectorType, values);
    vector::StoreOp::create(
        b, loc, pair, other.memref, ValueRange{row, base.second},
        /*nontemporal=*/false, llvm::MaybeAlign(2 * getElementBytes(dstElem)));
  }
}

/// Row and column of register `reg` of `frag` in its tile, for this thread.
static std::pair<Value, Value>
getRegisterPosition(OpBuilder &b, Location loc, const FragmentRegisters &frag,
                    int64_t reg) {
  auto [dRow, dCol] = getRegisterDelta(frag.layout, reg);
  Value row = arith::AddIOp::create(
      b, loc, frag.rowBase, arith::ConstantIndexOp::create(b, loc, dRow));
  Value col = arith::AddIOp::create(
      b, loc, frag.colBase, arith::ConstantIndexOp::create(b, loc, dCol));
  return {row, col};
}

/// Fragment -> global / shared memory, where neither the exchanged pairs
/// nor the shared pairs apply.
static void storeFragment(OpBuilder &b, Location loc,
                          const FragmentRegisters &frag, const OtherSide &other,
                          Type dstElem) {
  auto constant = [&](OpBuilder &builder, int64_t v) {
    return arith::ConstantIndexOp::create(builder, loc, v);
  };
  auto position = [&](int64_t reg) {
    return getRegisterPosition(b, loc, frag, reg);
  };
  bool global = getMemorySpace(other.type) == MemorySpace::Global;
  // Fragment -> global / shared. Registers 2k and 2k+1 are adjacent
  // columns of one row: store them as one vector when both are in bounds
  // and the pair is aligned, else element by element.
  for (int64_t reg = 0; reg < frag.layout.getNumRegisters(); reg += 2) {
    Value values[2];
    for (int e = 0; e < 2; ++e)
      values[e] = copy::convertFloat(
          b, loc,
          memref::LoadOp::create(b, loc, frag.registers,
                                 ValueRange{constant(b, reg + e)}),
          dstElem);
    auto [row, col] = position(reg);
    Value col1 = arith::AddIOp::create(b, loc, col, constant(b, 1));
    // Named values, not structured bindings: the lambdas below capture
    // them, which C++17 does not allow for bindings.
    Value oRow, oCol, cond0, oRow1, oCol1, cond1;
    std::tie(oRow, oCol, cond0) = other.locate(b, loc, row, col);
    std::tie(oRow1, oCol1, cond1) = other.locate(b, loc, row, col1);
    auto storeOne = [&](OpBuilder &builder, Value v, Value r, Value c) {
      memref::StoreOp::create(builder, loc, v, other.memref,
                              other.physical(builder, loc, r, c));
    };
    auto storeEach = [&](OpBuilder &builder) {
      emitIf(builder, loc, cond0,
             [&](OpBuilder &inner) { storeOne(inner, values[0], oRow, oCol); });
      emitIf(builder, loc, cond1, [&](OpBuilder &inner) {
        storeOne(inner, values[1], oRow1, oCol1);
      });
    };
    if (!global || !canStorePairs(other)) {
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
    Value parity = arith::RemUIOp::create(b, loc, linear, constant(b, 2));
    Value even = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, parity,
                                       constant(b, 0));
    // Both columns' conditions: col + 1 inside does not put col inside
    // where the copy's column offset is negative (col = -1).
    Value pairCond = even;
    for (Value cond : {cond1, cond0})
      if (cond)
        pairCond = arith::AndIOp::create(b, loc, cond, pairCond);
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
}

/// Global / shared memory -> fragment.
static void loadFragment(OpBuilder &b, Location loc,
                         const FragmentRegisters &frag, const OtherSide &other,
                         Type srcElem, Type dstElem) {
  auto constant = [&](OpBuilder &builder, int64_t v) {
    return arith::ConstantIndexOp::create(builder, loc, v);
  };
  auto position = [&](int64_t reg) {
    return getRegisterPosition(b, loc, frag, reg);
  };
  // Global / shared -> fragment: out-of-bounds elements read as zero;
  // elements outside the copied extent (the other side is a smaller tile)
  // keep their values, as the op and the CPU lowering say.
  for (int64_t reg = 0; reg < frag.layout.getNumRegisters(); ++reg) {
    auto [row, col] = position(reg);
    Value inExtent;
    Value oRow, oCol, cond; // captured by `load` below
    std::tie(oRow, oCol, cond) = other.locate(b, loc, row, col, &inExtent);
    OpBuilder::InsertionGuard guard(b);
    if (inExtent) {
      auto extentIf = scf::IfOp::create(b, loc, inExtent,
                                        /*withElseRegion=*/false);
      b.setInsertionPoint(extentIf.thenBlock()->getTerminator());
    }
    auto load = [&](OpBuilder &builder) -> Value {
      return memref::LoadOp::create(builder, loc, other.memref,
                                    other.physical(builder, loc, oRow, oCol));
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
    Value converted = copy::convertFloat(b, loc, value, dstElem);
    memref::StoreOp::create(b, loc, converted, frag.registers,
                            ValueRange{constant(b, reg)});
  }
}

/// Whether `op` lies in a version of the kernel body that
/// tile-specialize-interior-blocks made.
static bool inBlockVersion(Operation *op) {
  for (auto ifOp = op->getParentOfType<scf::IfOp>(); ifOp;
       ifOp = ifOp->getParentOfType<scf::IfOp>())
    if (ifOp->hasAttr(kBlockVersionsAttrName))
      return true;
  return false;
}

/// Replaces each of `frag`'s registers (f32: a wgmma accumulator, which
/// tile.gemm requires to be f32) by an opaque `mov` of it.
///
/// Where the body has two versions, both end by storing their accumulator,
/// and LLVM's SimplifyCFG sinks the last store the versions have in common
/// into the block they join in, with a phi of the two versions' values.
/// Register coalescing then gives the wgmma accumulators of both versions
/// the same virtual registers, ptxas cannot give each wgmma its accumulator
/// as consecutive registers, and it serializes every wgmma of the kernel
/// ("(C7511) ... insufficient register resources for the wgmma pipeline";
/// the 4000^3 kernel with f32 C, say). SimplifyCFG sinks the store but not
/// the inline asm, so the phi joins the copies and leaves the accumulators
/// apart; ptxas folds the moves.
static void passThroughMov(OpBuilder &b, Location loc,
                           const FragmentRegisters &frag) {
  for (int64_t reg = 0; reg < frag.layout.getNumRegisters(); ++reg) {
    Value index = arith::ConstantIndexOp::create(b, loc, reg);
    Value value = memref::LoadOp::create(b, loc, frag.registers, index);
    memref::StoreOp::create(
        b, loc, movThroughAsm(b, loc, value, "mov.b32", "f", /*pinned=*/false),
        frag.registers, index);
  }
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
      memref::StoreOp::create(b, loc, copy::convertFloat(b, loc, v, dstElem),
                              dst->registers, index);
    }
    op.erase();
    return;
  }

  if (src && src->layout.warpgroup && src->getElementType().isF32() &&
      inBlockVersion(op))
    passThroughMov(b, loc, *src);
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
    other.swizzle.emplace(other.type.getDimSize(0), other.type.getDimSize(1),
                          getElementBytes(other.type.getElementType()));
  bool global = getMemorySpace(other.type) == MemorySpace::Global;

  if (src && global && canExchangePairs(other, frag.layout, dstElem)) {
    storeExchangedPairs(b, loc, frag, other, dstElem, state);
    op.erase();
    return;
  }

  if (src && canStoreSharedPairs(other, dstElem)) {
    storeSharedPairs(b, loc, frag, other, dstElem,
                     /*inLoop=*/op->getParentOfType<scf::ForOp>() != nullptr);
    op.erase();
    return;
  }

  if (src)
    storeFragment(b, loc, frag, other, dstElem);
  else
    loadFragment(b, loc, frag, other, srcElem, dstElem);
  op.erase();
}
