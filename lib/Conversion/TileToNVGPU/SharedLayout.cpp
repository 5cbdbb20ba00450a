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

static bool isPowerOfTwo(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

// Shared memory has 32 banks of 4 bytes: one 128-byte line is 8 groups of 16
// bytes. ldmatrix reads 8 rows of one 16-byte chunk column; cp.async writes
// whole 16-byte chunks. XOR-ing the chunk index with a pattern that differs
// for each of 8 consecutive rows puts those 8 chunks in 8 different groups:
//  - rows of 8 chunks (128 B): pattern = row % 8;
//  - rows of c < 8 chunks: 8 / c consecutive rows already fall in different
//    groups of one line, so they share a pattern; pattern = (row / (8 / c))
//    % c.
// Both are the swizzles wgmma calls 128B, 64B and 32B: the chunk bits of the
// byte address XOR-ed with the bits just above the 128-byte line. Rows wider
// than 128 bytes become 128-byte panels (panel p holds columns [64p, 64p+64)
// of every f16 row, stored after panel p-1), each swizzled as a 128-byte-row
// tile: ldmatrix and cp.async stay conflict-free, and wgmma can read a
// K x N operand stored [K][N] (its "MN-major" layout, which needs 128-byte
// rows). A tile whose rows do not split into whole panels keeps one panel
// and XORs the low chunk bits of its long rows.
SharedSwizzle::SharedSwizzle(int64_t rows, int64_t rowElements,
                             int64_t elementBytes)
    : rows(rows), rowElements(rowElements), panels(1) {
  chunkElements = std::max<int64_t>(1, 16 / elementBytes);
  int64_t rowBytes = rowElements * elementBytes;
  chunksPerRow = rowBytes % 16 == 0 ? rowBytes / 16 : 0;
  if (!isPowerOfTwo(chunksPerRow)) {
    // Not a power-of-two number of whole chunks: keep the identity.
    rowsPerPattern = 1;
    numPatterns = 1;
    return;
  }
  numPatterns = std::min<int64_t>(chunksPerRow, 8);
  rowsPerPattern = std::max<int64_t>(1, 8 / chunksPerRow);
  if (chunksPerRow > 8 && rows % (chunksPerRow / 8) == 0)
    panels = chunksPerRow / 8;
}

int64_t SharedSwizzle::period() const {
  return std::max(rowsPerPattern * numPatterns, panels);
}

std::pair<int64_t, int64_t> SharedSwizzle::getPhysical(int64_t row,
                                                       int64_t col) const {
  if (isIdentity())
    return {row, col};
  int64_t panelElements = getPanelElements();
  int64_t panel = col / panelElements, inPanel = col % panelElements;
  int64_t chunk = inPanel / chunkElements;
  int64_t pattern = (row / rowsPerPattern) % numPatterns;
  int64_t swizzled =
      (chunk ^ pattern) * chunkElements + inPanel % chunkElements;
  // Panel p, row r starts at element (p * rows + r) * panelElements of the
  // tile, that is physical row p * rows / panels + r / panels, column
  // (r % panels) * panelElements.
  return {panel * (rows / panels) + row / panels,
          (row % panels) * panelElements + swizzled};
}

std::pair<Value, Value> SharedSwizzle::getPhysical(OpBuilder &b, Location loc,
                                                   Value row, Value col) const {
  if (isIdentity())
    return {row, col};
  auto constant = [&](int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  auto div = [&](Value x, int64_t d) -> Value {
    return d == 1 ? x : arith::DivUIOp::create(b, loc, x, constant(d));
  };
  auto rem = [&](Value x, int64_t d) -> Value {
    return arith::RemUIOp::create(b, loc, x, constant(d));
  };
  auto mul = [&](Value x, int64_t c) -> Value {
    return c == 1 ? x : arith::MulIOp::create(b, loc, x, constant(c));
  };
  auto add = [&](Value x, Value y) -> Value {
    return arith::AddIOp::create(b, loc, x, y);
  };
  int64_t panelElements = getPanelElements();
  Value inPanel = panels == 1 ? col : rem(col, panelElements);
  Value pattern = rem(div(row, rowsPerPattern), numPatterns);
  // The order of these ops is what the kernels were tuned with. It changes
  // no value, but LLVM and ptxas schedule the result differently: creating
  // `chunk` before `inChunk` (and `panelRow` before `rowInPanel`) made the
  // 128x256x64 mma.sync kernel with a rolled steady state 4.7% slower on an
  // H200, with identical loop PTX up to register names (docs/performance.md,
  // "Operand order and ptxas").
  Value inChunk = rem(inPanel, chunkElements);
  Value chunk = div(inPanel, chunkElements);
  Value swizzledChunk = arith::XOrIOp::create(b, loc, chunk, pattern);
  Value swizzled = add(mul(swizzledChunk, chunkElements), inChunk);
  if (panels == 1)
    return {row, swizzled};
  Value rowInPanel = div(row, panels);
  Value panelRow = mul(div(col, panelElements), rows / panels);
  Value physicalRow = add(panelRow, rowInPanel);
  Value physicalCol = add(mul(rem(row, panels), panelElements), swizzled);
  return {physicalRow, physicalCol};
}
