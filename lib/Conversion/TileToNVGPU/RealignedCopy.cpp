//===- RealignedCopy.cpp - Copies from 2-byte-aligned rows ----------------===//
//
// Part of tile-mlir. Synchronous copies of 16-bit rows that are only 2-byte
// aligned, moved in 16-byte chunks read as aligned words and realigned.
//
//===----------------------------------------------------------------------===//

#include "CopyLoweringDetail.h"

#include "tile/Dialect/Tile/Utils/IndexFacts.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::copy;

/// Elements per chunk of a realigned copy: 16 bytes of 16-bit elements.
static constexpr int64_t kRealignedElements = 8;
/// Chunks per tile row from which a copy is realigned whatever else its run
/// loads: the 32x128 B tiles of the seed's GEMM (16 per row) gained up to 20%
/// on an H200 (4096x4095x4096).
static constexpr int64_t kMinRealignedChunksPerRow = 8;
/// Rows of fewer chunks (down to this many) are realigned only where the
/// caller allows it (lowerCopyRun's budget of words in flight): a warp's word
/// loads then spread over more rows than its element loads read.
static constexpr int64_t kMinNarrowChunksPerRow = 4;

/// A synchronous copy from global rows that are only 2-byte aligned (16-bit
/// elements, an odd row length) into a shared tile can still move 16-byte
/// chunks: each is read as the five aligned 32-bit words that cover it and
/// shifted into place (loadRealignedChunk). That needs a contiguous
/// row-major source of static shape (its linear index gives the shift; at
/// least one chunk and one word long), 16-bit elements on both sides, rows of
/// the extent made of at least kMinRealignedChunksPerRow whole chunks
/// (kMinNarrowChunksPerRow with `narrowRows`) and a destination aligned for
/// them. The source's first column must be provably non-negative: a chunk
/// counts its elements inside the tensor from its start (inBoundsElements),
/// so one that begins before column 0 and ends inside the row would be read
/// as all zeros. (Chunks of a vector plan start at multiples of their width
/// and cannot straddle column 0; realigned chunks start anywhere. A K loop
/// whose tiles start before the tensor, as `gemm.py --k-lead` writes, lost
/// the first columns of A that way on the GPU.) Returns the chunk plan, or
/// std::nullopt.
std::optional<ChunkPlan> copy::planRealigned(ArrayRef<int64_t> extent,
                                             const CopySide &src,
                                             const CopySide &dst,
                                             bool narrowRows) {
  int64_t minChunksPerRow =
      narrowRows ? kMinNarrowChunksPerRow : kMinRealignedChunksPerRow;
  if (src.shared || !dst.shared || src.type.getRank() != 2 ||
      !src.type.hasStaticShape() ||
      src.type.getNumElements() < kRealignedElements + 2 ||
      !src.type.getLayout().isIdentity() || !hasAlignedBase(src.memref) ||
      src.elementBytes() != 2 || !src.type.getElementType().isIntOrFloat() ||
      src.type.getElementType() != dst.type.getElementType() ||
      extent.back() % kRealignedElements != 0 ||
      extent.back() / kRealignedElements < minChunksPerRow ||
      !isAlignedFor(dst, kRealignedElements))
    return std::nullopt;
  if (!src.offsets.empty() && !provablyNonNegative(src.offsets.back()))
    return std::nullopt;
  return makePlan(extent, kRealignedElements);
}

RealignedSource copy::flattenSource(OpBuilder &b, Location loc,
                                    const CopySide &src) {
  SmallVector<ReassociationIndices> all{{0, 1}};
  return {memref::CollapseShapeOp::create(b, loc, src.memref, all),
          constantIndex(b, loc, src.type.getNumElements())};
}

/// Issues the loads of the kRealignedElements 16-bit elements at
/// `tileIndices` of a source whose rows are only 2-byte aligned: the five
/// 4-byte-aligned words from the one holding the first element. The fifth
/// is needed only for an odd linear index but read at the same constant
/// offset for every chunk (a per-chunk offset cost registers and, measured
/// on an H200, up to 12% at 4095^3); it ends one or two elements past the
/// chunk. Only a chunk whose two next elements are not both inside the
/// tensor takes the element-wise path; its words are read at index 0
/// instead, which keeps every load inside the tensor (planRealigned asks for
/// at least 10 elements) and free of branches. A chunk that is not whole
/// but lies before that point (the end of a row of the tile's edge) is
/// realigned all the same and its lanes past the edge are zeroed
/// (finishRealignedChunk): the words it reads past its row are the next
/// row's.
RealignedLoad copy::loadRealignedChunk(OpBuilder &b, Location loc,
                                       const CopySide &src,
                                       const RealignedSource &source,
                                       ArrayRef<Value> tileIndices,
                                       int64_t rowDelta) {
  constexpr int64_t v = kRealignedElements;
  SmallVector<Value> srcIndices = sideIndices(b, loc, src, tileIndices);
  RealignedLoad chunk;
  chunk.from = physicalAccess(b, loc, src, srcIndices, rowDelta);
  Value linear =
      arith::AddIOp::create(b, loc,
                            arith::MulIOp::create(b, loc, chunk.from.indices[0],
                                                  dimSize(b, loc, src, 1)),
                            chunk.from.indices[1]);
  chunk.count = boundsCount(b, loc, src, srcIndices, rowDelta, v);
  // The fifth word, read at a constant offset, ends one or two elements
  // past the chunk: the chunk is realigned only when both are inside.
  chunk.readable = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::ult,
      arith::AddIOp::create(b, loc, linear, constantIndex(b, loc, v + 1)),
      source.total);
  chunk.whole = chunk.readable;
  if (chunk.count) {
    // A chunk with no element inside may start before the tensor (a
    // negative row), where `linear + v + 1` wraps below the total: it takes
    // the element-wise path, which reads nothing. A chunk with one element
    // inside starts inside.
    Value zero = constantIndex(b, loc, 0);
    chunk.readable = arith::AndIOp::create(
        b, loc, chunk.readable,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, chunk.count,
                              zero));
    chunk.whole = arith::AndIOp::create(
        b, loc, chunk.readable,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, chunk.count,
                              constantIndex(b, loc, v)));
  }
  linear = arith::SelectOp::create(b, loc, chunk.readable, linear,
                                   constantIndex(b, loc, 0));
  Value odd = arith::AndIOp::create(b, loc, linear, constantIndex(b, loc, 1));
  chunk.odd = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, odd,
                                    constantIndex(b, loc, 0));
  Value base = arith::SubIOp::create(b, loc, linear, odd);
  auto i32 = b.getI32Type();
  auto pairType = VectorType::get({2}, src.type.getElementType());
  auto word = [&](Value index) -> Value {
    Value pair =
        vector::LoadOp::create(b, loc, pairType, source.flat, ValueRange{index},
                               /*nontemporal=*/false, llvm::Align(4));
    return vector::ExtractOp::create(
        b, loc,
        vector::BitCastOp::create(b, loc, VectorType::get({1}, i32), pair), 0);
  };
  for (int64_t i = 0; i < v / 2; ++i)
    chunk.words.push_back(word(b.createOrFold<arith::AddIOp>(
        loc, base, constantIndex(b, loc, 2 * i))));
  Value last = arith::AddIOp::create(b, loc, base, constantIndex(b, loc, v));
  chunk.words.push_back(word(last));
  return chunk;
}

/// The value of a realigned chunk: for an odd index each output word joins
/// the upper half of one word and the lower half of the next. A chunk cut by
/// the tensor's edge whose words are readable zeroes its lanes past `count`;
/// one whose words are not reads its elements one by one, zero outside the
/// tensor. Whole chunks branch past both. (Masking every chunk instead, with
/// no branch, cost the sm_90 4095^3 GEMM 11%: 107.8 against 121.0 TFLOP/s on
/// an H200.)
///
/// Before, every chunk that was not whole took the element-wise path: at the
/// last column of tiles of 4096x4095x4096 the threads holding a row's last
/// chunk waited for those element loads one chunk after another, and a
/// block of that column took 2.8 times as long as an interior block (one
/// block launched alone on an H200; 1.4 times since). docs/performance.md,
/// "Partial chunks realigned", has the measurements.
Value copy::finishRealignedChunk(OpBuilder &b, Location loc,
                                 const RealignedLoad &chunk, Type elementType) {
  constexpr int64_t v = kRealignedElements;
  auto i32 = b.getI32Type();
  Value sixteen = arith::ConstantIntOp::create(b, loc, i32, 16);
  SmallVector<Value> joined;
  for (int64_t i = 0; i + 1 < int64_t(chunk.words.size()); ++i) {
    Value high = arith::ShRUIOp::create(b, loc, chunk.words[i], sixteen);
    Value low = arith::ShLIOp::create(b, loc, chunk.words[i + 1], sixteen);
    Value shifted = arith::OrIOp::create(b, loc, high, low);
    joined.push_back(
        arith::SelectOp::create(b, loc, chunk.odd, shifted, chunk.words[i]));
  }
  auto vectorType = VectorType::get({v}, elementType);
  auto toVector = [&](OpBuilder &b, ArrayRef<Value> words) -> Value {
    return vector::BitCastOp::create(
        b, loc, vectorType,
        vector::FromElementsOp::create(b, loc, VectorType::get({v / 2}, i32),
                                       words));
  };
  Value value = toVector(b, joined);
  llvm::MaybeAlign align(2);
  if (!chunk.count)
    return loadWholeOrMasked(
        b, loc, chunk.whole, [&](OpBuilder &) { return value; }, chunk.from,
        chunk.count, vectorType, align);
  auto ifOp = scf::IfOp::create(b, loc, TypeRange{vectorType}, chunk.whole,
                                /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  scf::YieldOp::create(b, loc, value);
  b.setInsertionPointToStart(ifOp.elseBlock());
  // Word w holds lanes 2w (low half) and 2w + 1: it keeps both when count
  // exceeds 2w + 1, its low half when count is 2w + 1. (A select of the
  // vector of lanes grew the checked K loop of the sm_90a 4095^3 GEMM from
  // 1244 SASS instructions to 1532; masking words, to 1255.)
  auto masked = [&](OpBuilder &b) -> Value {
    Value count = arith::IndexCastOp::create(b, loc, i32, chunk.count);
    auto constant = [&](int64_t c) -> Value {
      return arith::ConstantIntOp::create(b, loc, i32, c);
    };
    auto exceeds = [&](int64_t c) -> Value {
      return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, count,
                                   constant(c));
    };
    SmallVector<Value> words;
    for (auto [w, word] : llvm::enumerate(joined)) {
      int64_t low = 2 * w;
      // Lane `low` (the low half) when count > low, both when count > low + 1.
      Value lowLane = exceeds(low);
      Value lowHalf = constant(0xFFFF);
      Value half =
          arith::SelectOp::create(b, loc, lowLane, lowHalf, constant(0));
      Value bothLanes = exceeds(low + 1);
      Value both = constant(-1);
      Value mask = arith::SelectOp::create(b, loc, bothLanes, both, half);
      words.push_back(arith::AndIOp::create(b, loc, word, mask));
    }
    return toVector(b, words);
  };
  scf::YieldOp::create(b, loc,
                       loadWholeOrMasked(b, loc, chunk.readable, masked,
                                         chunk.from, chunk.count, vectorType,
                                         align));
  return ifOp.getResult(0);
}
