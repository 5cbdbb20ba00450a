//===- SharedLayout.cpp - Physical layout of shared tiles on the GPU ------===//
//
// Part of tile-mlir.
//
//===----------------------------------------------------------------------===//

#include "tile/Conversion/TileToNVGPU/SharedLayout.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::tile;

// Shared memory has 32 banks of 4 bytes: one 128-byte line is 8 groups of 16
// bytes. ldmatrix reads 8 rows of one 16-byte chunk column; cp.async writes
// whole 16-byte chunks. XOR-ing the chunk index with a pattern that differs
// for each of 8 consecutive rows puts those 8 chunks in 8 different groups:
//  - rows of >= 8 chunks (>= 128 B): pattern = row % 8;
//  - rows of c < 8 chunks: 8 / c consecutive rows already fall in different
//    groups of one line, so they share a pattern; pattern = (row / (8 / c))
//    % c.
SharedSwizzle::SharedSwizzle(int64_t rowElements, int64_t elementBytes) {
  chunkElements = std::max<int64_t>(1, 16 / elementBytes);
  int64_t rowBytes = rowElements * elementBytes;
  chunksPerRow = rowBytes % 16 == 0 ? rowBytes / 16 : 0;
  if (chunksPerRow == 0 || (chunksPerRow & (chunksPerRow - 1)) != 0) {
    // Not a power-of-two number of whole chunks: keep the identity.
    rowsPerPattern = 1;
    numPatterns = 1;
    return;
  }
  numPatterns = std::min<int64_t>(chunksPerRow, 8);
  rowsPerPattern = std::max<int64_t>(1, 8 / chunksPerRow);
}

int64_t SharedSwizzle::getColumn(int64_t row, int64_t col) const {
  if (isIdentity())
    return col;
  int64_t chunk = col / chunkElements;
  int64_t pattern = (row / rowsPerPattern) % numPatterns;
  return (chunk ^ pattern) * chunkElements + col % chunkElements;
}

Value SharedSwizzle::getColumn(OpBuilder &b, Location loc, Value row,
                               Value col) const {
  if (isIdentity())
    return col;
  auto constant = [&](int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  Value chunkElems = constant(chunkElements);
  Value chunk = arith::DivUIOp::create(b, loc, col, chunkElems);
  Value inChunk = arith::RemUIOp::create(b, loc, col, chunkElems);
  Value pattern = row;
  if (rowsPerPattern > 1)
    pattern = arith::DivUIOp::create(b, loc, pattern, constant(rowsPerPattern));
  pattern = arith::RemUIOp::create(b, loc, pattern, constant(numPatterns));
  Value swizzled = arith::XOrIOp::create(b, loc, chunk, pattern);
  Value base = arith::MulIOp::create(b, loc, swizzled, chunkElems);
  return arith::AddIOp::create(b, loc, base, inChunk);
}
