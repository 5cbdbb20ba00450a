//===- TileOpsTest.cpp - Unit tests for tile ops --------------------------===//
//
// Part of tile-mlir.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::tile;

namespace {

class TileOpsTest : public ::testing::Test {
protected:
  TileOpsTest() {
    context.loadDialect<TileDialect, func::FuncDialect, arith::ArithDialect,
                        memref::MemRefDialect, gpu::GPUDialect>();
  }

  OwningOpRef<ModuleOp> parse(StringRef source) {
    return parseSourceString<ModuleOp>(source, &context);
  }

  MLIRContext context;
};

TEST_F(TileOpsTest, MemorySpaceClassification) {
  auto f16 = Float16Type::get(&context);
  auto global = MemRefType::get({4, 4}, f16);
  auto shared =
      MemRefType::get({4, 4}, f16, MemRefLayoutAttrInterface(),
                      getMemorySpaceAttr(&context, MemorySpace::Shared));
  auto fragment =
      MemRefType::get({4, 4}, f16, MemRefLayoutAttrInterface(),
                      getMemorySpaceAttr(&context, MemorySpace::Fragment));
  auto integerSpace =
      MemRefType::get({4, 4}, f16, MemRefLayoutAttrInterface(),
                      IntegerAttr::get(IntegerType::get(&context, 64), 3));
  EXPECT_EQ(getMemorySpace(global), MemorySpace::Global);
  EXPECT_EQ(getMemorySpace(shared), MemorySpace::Shared);
  EXPECT_EQ(getMemorySpace(fragment), MemorySpace::Fragment);
  EXPECT_EQ(getMemorySpace(integerSpace), std::nullopt);
}

TEST_F(TileOpsTest, CopyExtentIsTheTileShape) {
  OwningOpRef<ModuleOp> module = parse(R"mlir(
    func.func @f(%A: memref<?x100xf16>, %i: index) {
      %c1 = arith.constant 1 : index
      tile.kernel grid(%c1) threads(128) as (%bx) {
        %s = tile.alloc_shared : memref<64x32xf16, #gpu.address_space<workgroup>>
        tile.copy %A[%i, %i] to %s : memref<?x100xf16> to memref<64x32xf16, #gpu.address_space<workgroup>>
        %t = tile.alloc_shared : memref<16x200xf16, #gpu.address_space<workgroup>>
        tile.copy %A[%i, %i] to %t : memref<?x100xf16> to memref<16x200xf16, #gpu.address_space<workgroup>>
      }
      return
    })mlir");
  ASSERT_TRUE(module);
  SmallVector<SmallVector<int64_t>> extents;
  module->walk([&](CopyOp copy) { extents.push_back(copy.getExtent()); });
  ASSERT_EQ(extents.size(), 2u);
  EXPECT_EQ(extents[0], (SmallVector<int64_t>{64, 32}));
  // The tile is wider than the tensor: the copy still covers the whole
  // tile, zero-filling past the tensor's edge.
  EXPECT_EQ(extents[1], (SmallVector<int64_t>{16, 200}));
}

TEST_F(TileOpsTest, StatementsAreTheOpsWithMemoryEffects) {
  OwningOpRef<ModuleOp> module = parse(R"mlir(
    func.func @f(%A: memref<128x128xf16>) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c32 = arith.constant 32 : index
      tile.kernel grid(%c1) threads(128) as (%bx) {
        %s = tile.alloc_shared : memref<32x32xf16, #gpu.address_space<workgroup>>
        %f = tile.alloc_fragment : memref<32x32xf32, #gpu.address_space<private>>
        tile.pipelined %c0 to %c4 step %c1 num_stages = 2 as (%k) {
          %ko = arith.muli %k, %c32 : index
          tile.copy %A[%c0, %ko] to %s : memref<128x128xf16> to memref<32x32xf16, #gpu.address_space<workgroup>>
          tile.gemm %s, %s, %f : memref<32x32xf16, #gpu.address_space<workgroup>>, memref<32x32xf16, #gpu.address_space<workgroup>>, memref<32x32xf32, #gpu.address_space<private>>
        }
      }
      return
    })mlir");
  ASSERT_TRUE(module);
  PipelinedOp loop;
  module->walk([&](PipelinedOp op) { loop = op; });
  ASSERT_TRUE(loop);
  SmallVector<Operation *> statements = loop.getStatements();
  ASSERT_EQ(statements.size(), 2u);
  EXPECT_TRUE(isa<CopyOp>(statements[0]));
  EXPECT_TRUE(isa<GemmOp>(statements[1]));
}

} // namespace
