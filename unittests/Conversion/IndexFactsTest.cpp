//===- IndexFactsTest.cpp - Divisors and bounds of index values -----------===//
//
// Part of tile-mlir. The facts that let the GPU lowering drop bounds checks
// and use wide vector copies: each case names a value of the kernel below by
// a `name` attribute on its defining op and states what must (or must not)
// be proved about it.
//
//===----------------------------------------------------------------------===//

#include "tile/Conversion/TileToNVGPU/IndexFacts.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace mlir;

namespace {

// A 3x4 grid of 64-thread blocks: block indices below 3 and 4, the thread
// id below 64, a loop counter 0, 8, ..., 56 below 60.
constexpr const char *kKernel = R"mlir(
func.func @f() {
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %c60 = arith.constant 60 : index
  tile.kernel grid(%c3, %c4) threads(64) as (%bx, %by) {
    %row = arith.muli %by, %c32 {name = "row"} : index
    %last = arith.subi %c3, %bx overflow<nuw> {name = "mirrored"} : index
    %wrapping = arith.subi %c3, %bx {name = "unflagged"} : index
    %shifted = arith.muli %last, %c32 {name = "mirrored_row"} : index
    %t = arith.addi %bx, %by {name = "sum"} : index
    %q = arith.divui %t, %c3 {name = "quotient"} : index
    %r = arith.remui %row, %c32 {name = "remainder"} : index
    %m = arith.minui %t, %c4 {name = "min"} : index
    %tid = gpu.thread_id x
    %lane = arith.addi %tid, %c1 {name = "lane_plus_one"} : index
    scf.for %k = %c8 to %c60 step %c8 {
      %ko = arith.muli %k, %c4 {name = "k_offset"} : index
      %odd = arith.addi %ko, %c1 {name = "k_offset_plus_one"} : index
    }
  }
  return
}
)mlir";

class IndexFacts : public ::testing::Test {
protected:
  IndexFacts() {
    registry.insert<arith::ArithDialect, func::FuncDialect, gpu::GPUDialect,
                    memref::MemRefDialect, scf::SCFDialect,
                    mlir::tile::TileDialect>();
    context = std::make_unique<MLIRContext>(registry);
    module = parseSourceString<ModuleOp>(kKernel, context.get());
  }

  /// The result of the op whose `name` attribute is `name`.
  Value named(StringRef name) {
    Value found;
    module->walk([&](Operation *op) {
      if (auto attr = op->getAttrOfType<StringAttr>("name"))
        if (attr.getValue() == name)
          found = op->getResult(0);
    });
    EXPECT_TRUE(found) << "no op named " << name.str();
    return found;
  }

  DialectRegistry registry;
  std::unique_ptr<MLIRContext> context;
  OwningOpRef<ModuleOp> module;
};

TEST_F(IndexFacts, Parses) { ASSERT_TRUE(module); }

TEST_F(IndexFacts, UpperBounds) {
  ASSERT_TRUE(module);
  EXPECT_EQ(mlir::tile::getConstantUpperBound(named("row")), 96);
  EXPECT_EQ(mlir::tile::getConstantUpperBound(named("sum")), 5);
  EXPECT_EQ(mlir::tile::getConstantUpperBound(named("quotient")), 1);
  EXPECT_EQ(mlir::tile::getConstantUpperBound(named("remainder")), 31);
  EXPECT_EQ(mlir::tile::getConstantUpperBound(named("min")), 4);
  EXPECT_EQ(mlir::tile::getConstantUpperBound(named("lane_plus_one")), 64);
  // 56 * 4: the last counter below 60 is 56, not 59.
  EXPECT_EQ(mlir::tile::getConstantUpperBound(named("k_offset")), 224);
}

// A difference marked nuw is at most its minuend; without the flag it may
// wrap to a huge value, and nothing is claimed (BlockOrder.h's mirror).
TEST_F(IndexFacts, SubtractionBoundOnlyWithoutWrap) {
  ASSERT_TRUE(module);
  EXPECT_EQ(mlir::tile::getConstantUpperBound(named("mirrored")), 3);
  EXPECT_EQ(mlir::tile::getConstantUpperBound(named("mirrored_row")), 96);
  EXPECT_EQ(mlir::tile::getConstantUpperBound(named("unflagged")),
            std::nullopt);
}

TEST_F(IndexFacts, Divisors) {
  ASSERT_TRUE(module);
  EXPECT_EQ(mlir::tile::getKnownDivisor(named("row")), 32);
  EXPECT_EQ(mlir::tile::getKnownDivisor(named("mirrored_row")), 32);
  EXPECT_EQ(mlir::tile::getKnownDivisor(named("k_offset")), 32);
  EXPECT_EQ(mlir::tile::getKnownDivisor(named("k_offset_plus_one")), 1);
  EXPECT_EQ(mlir::tile::getKnownDivisor(named("sum")), 1);
}

} // namespace
