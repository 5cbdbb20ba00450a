//===- GemmToMMA.cpp - tile.gemm to ldmatrix + mma.sync -------------------===//
//
// Part of tile-mlir. Each warp computes its sub-tile of the accumulator (see
// FragmentLayout.h) as tilesM x tilesN mma.sync m16n8k16 tiles, one k-step of
// 16 at a time, fully unrolled so that every register index is a constant.
// A and B come from shared memory through ldmatrix, whose per-lane row
// addresses go through the same swizzle as the copies that fill the tiles.
//
//===----------------------------------------------------------------------===//

#include "CopyLoweringDetail.h"
#include "FragmentLoweringDetail.h"

#include "tile/Conversion/TileToNVGPU/SharedLayout.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::fragment;

namespace {
struct GemmOperands {
  Value a, b;
  MemRefType aType, bType;
  bool transA, transB;
  int64_t k;
  SharedSwizzle swizzleA, swizzleB;

  explicit GemmOperands(GemmOp op)
      : a(op.getA()), b(op.getB()), aType(op.getA().getType()),
        bType(op.getB().getType()), transA(op.getTransposeA()),
        transB(op.getTransposeB()),
        k(transA ? aType.getDimSize(0) : aType.getDimSize(1)),
        swizzleA(aType.getDimSize(0), aType.getDimSize(1),
                 getElementBytes(aType.getElementType())),
        swizzleB(bType.getDimSize(0), bType.getDimSize(1),
                 getElementBytes(bType.getElementType())) {}
};
} // namespace

/// ldmatrix of `numTiles` 8x8 matrices; this lane supplies the address of
/// logical (row, col), a 16-byte chunk start, which the swizzle keeps one.
static Value loadMatrix(OpBuilder &b, Location loc, Value tile,
                        const SharedSwizzle &swizzle, Value row, Value col,
                        int64_t numTiles, bool transpose) {
  Type elem = cast<MemRefType>(tile.getType()).getElementType();
  auto [physicalRow, physicalCol] = swizzle.getPhysical(b, loc, row, col);
  return nvgpu::LdMatrixOp::create(b, loc, VectorType::get({numTiles, 2}, elem),
                                   tile, ValueRange{physicalRow, physicalCol},
                                   transpose, static_cast<uint32_t>(numTiles));
}

/// acc[reg .. reg+3] += a * b with one mma.sync m16n8k16.
static void emitMma(OpBuilder &b, Location loc, Value aTile, Value bTile,
                    const FragmentRegisters &acc, int64_t reg) {
  auto constant = [&](int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  Type f32 = b.getF32Type();
  Type elem = cast<VectorType>(aTile.getType()).getElementType();
  if (elem.isF16()) {
    // The accumulator rows (registers reg + 2h, +1) as the rows of
    // mma.sync's vector<2x2xf32>.
    auto rowType = VectorType::get({2}, f32);
    Value c = ub::PoisonOp::create(b, loc, VectorType::get({2, 2}, f32));
    for (int64_t h = 0; h < 2; ++h)
      c = vector::InsertOp::create(
          b, loc,
          vector::LoadOp::create(b, loc, rowType, acc.registers,
                                 ValueRange{constant(reg + 2 * h)}),
          c, h);
    Value d = nvgpu::MmaSyncOp::create(b, loc, aTile, bTile, c,
                                       ArrayRef<int64_t>{16, 8, 16});
    for (int64_t h = 0; h < 2; ++h) {
      Value row = vector::ExtractOp::create(b, loc, d, h);
      vector::StoreOp::create(b, loc, row, acc.registers,
                              ValueRange{constant(reg + 2 * h)});
    }
    return;
  }
  // bf16: nvgpu.mma.sync's lowering does not infer the bf16 PTX type in
  // MLIR 22, so build nvvm.mma.sync directly; its bf16 operands are pairs
  // packed in i32.
  Type i32 = b.getI32Type();
  auto packed = [&](Value tiles) {
    // Row by row: an n-D vector.bitcast does not lower to LLVM directly.
    int64_t n = cast<VectorType>(tiles.getType()).getDimSize(0);
    SmallVector<Value> regs;
    for (int64_t r = 0; r < n; ++r) {
      Value pair = vector::ExtractOp::create(b, loc, tiles, r);
      Value word =
          vector::BitCastOp::create(b, loc, VectorType::get({1}, i32), pair);
      regs.push_back(vector::ExtractOp::create(b, loc, word, 0));
    }
    return regs;
  };
  SmallVector<Value> c;
  for (int64_t r = 0; r < 4; ++r)
    c.push_back(memref::LoadOp::create(b, loc, acc.registers,
                                       ValueRange{constant(reg + r)}));
  auto resultType =
      LLVM::LLVMStructType::getLiteral(b.getContext(), {f32, f32, f32, f32});
  SmallVector<Value> a = packed(aTile);
  SmallVector<Value> bOperand = packed(bTile);
  Value d = NVVM::MmaOp::create(
      b, loc, resultType, a, bOperand, c, ArrayRef<int64_t>{16, 8, 16},
      std::nullopt, std::nullopt,
      std::array<NVVM::MMATypes, 2>{NVVM::MMATypes::bf16, NVVM::MMATypes::bf16},
      std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                     NVVM::MMALayout::col});
  for (int64_t r = 0; r < 4; ++r) {
    Value element = LLVM::ExtractValueOp::create(b, loc, d, r);
    memref::StoreOp::create(b, loc, element, acc.registers,
                            ValueRange{constant(reg + r)});
  }
}

/// ldmatrix + mma.sync m16n8k16 (f16 or bf16, f32 accumulators).
///
/// ldmatrix lane l supplies the row address of matrix l/8, row l%8. With
/// m = matrix index, bit 0 of m ("half") and bit 1 ("quad") pick which 8x8
/// quarter of a 16x16 operand tile the matrix is:
///  - A (m16 x k16): matrices (m0,k0) (m8,k0) (m0,k8) (m8,k8): half -> +8
///    rows of A, quad -> +8 in k. A row-major [M][K] loads them as is; a
///    transposed A stored [K][M] loads them with .trans.
///  - B (k16 x n8, two n-tiles per x4): matrices (k0,n0) (k8,n0) (k0,n8)
///    (k8,n8): half -> +8 in k, quad -> next n-tile. B stored [K][N] needs
///    .trans (mma wants B column-major); a transposed B stored [N][K] does
///    not.
static void emitMmaGemm(OpBuilder &b, Location loc, const GemmOperands &ops,
                        const FragmentRegisters &acc, FragmentState &state) {
  const FragmentLayout &layout = acc.layout;
  auto constant = [&](int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  auto add = [&](Value x, Value y) {
    return arith::AddIOp::create(b, loc, x, y).getResult();
  };
  auto addConst = [&](Value x, int64_t c) {
    return c == 0 ? x : add(x, constant(c));
  };
  Value lane = state.laneId;
  Value laneRow = arith::RemUIOp::create(b, loc, lane, constant(8));
  Value octet = arith::DivUIOp::create(b, loc, lane, constant(8));
  Value octetParity = arith::RemUIOp::create(b, loc, octet, constant(2));
  Value half = arith::MulIOp::create(b, loc, octetParity, constant(8));
  Value sixteenth = arith::DivUIOp::create(b, loc, lane, constant(16));
  Value quad = arith::MulIOp::create(b, loc, sixteenth, constant(8));
  auto bTileType = VectorType::get({2, 2}, ops.bType.getElementType());

  // x4 loads two n-tiles of B at once; an odd tile count ends with an x2.
  for (int64_t ks = 0; ks < ops.k / 16; ++ks) {
    int64_t k0 = ks * 16;
    SmallVector<Value> aTiles;
    for (int64_t i = 0; i < layout.tilesM; ++i) {
      Value m0 = addConst(acc.warpRow, i * 16);
      Value row = ops.transA ? addConst(add(quad, laneRow), k0)
                             : add(add(m0, half), laneRow);
      Value col = ops.transA ? add(m0, half) : addConst(quad, k0);
      aTiles.push_back(
          loadMatrix(b, loc, ops.a, ops.swizzleA, row, col, 4, ops.transA));
    }
    SmallVector<Value> bTiles;
    for (int64_t j = 0; j < layout.tilesN;) {
      int64_t count = layout.tilesN - j >= 2 ? 2 : 1;
      Value n0 = addConst(acc.warpCol, j * 8);
      Value nLane = count == 2 ? add(n0, quad) : n0;
      Value row =
          ops.transB ? add(nLane, laneRow) : addConst(add(half, laneRow), k0);
      Value col = ops.transB ? addConst(half, k0) : nLane;
      Value tiles = loadMatrix(b, loc, ops.b, ops.swizzleB, row, col, 2 * count,
                               !ops.transB);
      if (count == 1) {
        bTiles.push_back(tiles);
      } else {
        // Split the x4 result (two n-tiles) with 1-D extracts and inserts,
        // which lower to plain LLVM aggregate ops.
        for (int64_t t = 0; t < 2; ++t) {
          Value tile = ub::PoisonOp::create(b, loc, bTileType);
          for (int64_t r = 0; r < 2; ++r)
            tile = vector::InsertOp::create(
                b, loc, vector::ExtractOp::create(b, loc, tiles, 2 * t + r),
                tile, r);
          bTiles.push_back(tile);
        }
      }
      j += count;
    }
    for (int64_t i = 0; i < layout.tilesM; ++i)
      for (int64_t j = 0; j < layout.tilesN; ++j)
        emitMma(b, loc, aTiles[i], bTiles[j], acc,
                layout.getRegister(i, j, 0, 0));
  }
}

/// The fallback for what mma.sync does not cover here (f32 inputs,
/// K not a multiple of 16, chips before sm_80): each thread accumulates its
/// own elements with scalar FMAs, reading A and B from shared memory.
static void emitFmaGemm(OpBuilder &b, Location loc, const GemmOperands &ops,
                        const FragmentRegisters &acc) {
  const FragmentLayout &layout = acc.layout;
  auto constant = [&](OpBuilder &builder, int64_t v) {
    return arith::ConstantIndexOp::create(builder, loc, v);
  };
  Value lower = constant(b, 0);
  Value upper = constant(b, ops.k);
  auto loop = scf::ForOp::create(b, loc, lower, upper, constant(b, 1));
  OpBuilder body = OpBuilder::atBlockTerminator(loop.getBody());
  Value k = loop.getInductionVar();
  Type f32 = body.getF32Type();
  auto load = [&](Value tile, const SharedSwizzle &swizzle, Value row,
                  Value col) {
    auto [physicalRow, physicalCol] = swizzle.getPhysical(body, loc, row, col);
    Value v = memref::LoadOp::create(body, loc, tile,
                                     ValueRange{physicalRow, physicalCol});
    return copy::convertFloat(body, loc, v, f32);
  };
  // Row i*16 + h*8 of the warp tile (plus this lane's row) for each (i, h).
  SmallVector<Value> aValues;
  for (int64_t i = 0; i < layout.tilesM; ++i)
    for (int64_t h = 0; h < 2; ++h) {
      Value m = arith::AddIOp::create(body, loc, acc.rowBase,
                                      constant(body, i * 16 + h * 8));
      aValues.push_back(ops.transA ? load(ops.a, ops.swizzleA, k, m)
                                   : load(ops.a, ops.swizzleA, m, k));
    }
  SmallVector<Value> bValues;
  for (int64_t j = 0; j < layout.tilesN; ++j)
    for (int64_t e = 0; e < 2; ++e) {
      Value n = arith::AddIOp::create(body, loc, acc.colBase,
                                      constant(body, j * 8 + e));
      bValues.push_back(ops.transB ? load(ops.b, ops.swizzleB, n, k)
                                   : load(ops.b, ops.swizzleB, k, n));
    }
  for (int64_t i = 0; i < layout.tilesM; ++i)
    for (int64_t j = 0; j < layout.tilesN; ++j)
      for (int64_t h = 0; h < 2; ++h)
        for (int64_t e = 0; e < 2; ++e) {
          Value index = constant(body, layout.getRegister(i, j, h, e));
          Value c = memref::LoadOp::create(body, loc, acc.registers, index);
          Value d = arith::MulFOp::create(body, loc, aValues[i * 2 + h],
                                          bValues[j * 2 + e]);
          d = arith::AddFOp::create(body, loc, c, d);
          memref::StoreOp::create(body, loc, d, acc.registers, index);
        }
}

void fragment::lowerFragmentGemm(GemmOp op, FragmentState &state) {
  const FragmentRegisters &acc = *state.lookup(op.getC());
  if (acc.layout.warpgroup) {
    emitWgmmaGemm(op, acc, state);
    op.erase();
    return;
  }
  GemmOperands ops(op);
  OpBuilder b(op);
  bool useMma = state.chip.computeCapability >= 80 &&
                (ops.aType.getElementType().isF16() ||
                 ops.aType.getElementType().isBF16()) &&
                ops.k % 16 == 0;
  if (useMma)
    emitMmaGemm(b, op.getLoc(), ops, acc, state);
  else
    emitFmaGemm(b, op.getLoc(), ops, acc);
  op.erase();
}
