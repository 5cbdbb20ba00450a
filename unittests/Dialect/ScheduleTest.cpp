//===- ScheduleTest.cpp - Unit tests for PipelineSchedule -----------------===//
//
// Part of tile-mlir.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/Transforms/Schedule.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringExtras.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::tile;

namespace {

/// The seed GEMM body with the given schedule attributes on the loop.
static std::string seedGemm(StringRef schedule) {
  return (R"mlir(
    func.func @f(%A: memref<256x256xf16>, %B: memref<256x256xf16>) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      tile.kernel grid(%c1) threads(128) as (%bx) {
        %A_s = tile.alloc_shared : memref<64x32xf16, #gpu.address_space<workgroup>>
        %B_s = tile.alloc_shared : memref<32x64xf16, #gpu.address_space<workgroup>>
        %C_l = tile.alloc_fragment : memref<64x64xf32, #gpu.address_space<private>>
        tile.pipelined %c0 to %c8 step %c1 )mlir" +
          schedule + R"mlir( as (%k) {
          %ko = arith.muli %k, %c32 : index
          tile.copy %A[%c0, %ko] to %A_s : memref<256x256xf16> to memref<64x32xf16, #gpu.address_space<workgroup>>
          tile.copy %B[%ko, %c0] to %B_s : memref<256x256xf16> to memref<32x64xf16, #gpu.address_space<workgroup>>
          tile.gemm %A_s, %B_s, %C_l : memref<64x32xf16, #gpu.address_space<workgroup>>, memref<32x64xf16, #gpu.address_space<workgroup>>, memref<64x64xf32, #gpu.address_space<private>>
        }
      }
      return
    })mlir")
      .str();
}

class ScheduleTest : public ::testing::Test {
protected:
  ScheduleTest() {
    context.loadDialect<TileDialect, func::FuncDialect, arith::ArithDialect,
                        memref::MemRefDialect, gpu::GPUDialect>();
  }

  /// Parses the seed GEMM with `schedule` and returns its loop.
  PipelinedOp parseLoop(StringRef schedule) {
    module = parseSourceString<ModuleOp>(seedGemm(schedule), &context);
    PipelinedOp loop;
    if (module)
      module->walk([&](PipelinedOp op) { loop = op; });
    return loop;
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

TEST_F(ScheduleTest, NoStageMeansNoSchedule) {
  PipelinedOp loop = parseLoop("num_stages = 3");
  ASSERT_TRUE(loop);
  EXPECT_FALSE(getSchedule(loop).has_value());
}

TEST_F(ScheduleTest, OrderDefaultsToSourceOrder) {
  PipelinedOp loop = parseLoop("stage = [0, 0, 1]");
  ASSERT_TRUE(loop);
  std::optional<PipelineSchedule> schedule = getSchedule(loop);
  ASSERT_TRUE(schedule.has_value());
  EXPECT_EQ(schedule->order, (SmallVector<int64_t>{0, 1, 2}));
  EXPECT_EQ(schedule->getDepth(), 2);
}

TEST_F(ScheduleTest, VersionsSpanWriterToLastReader) {
  struct Case {
    StringRef stages;
    int64_t versionsA, versionsB;
  };
  for (const Case &c :
       {Case{"stage = [0, 0, 1]", 2, 2}, Case{"stage = [0, 0, 2]", 3, 3},
        Case{"stage = [0, 0, 3]", 4, 4},
        // B is written in the gemm's stage: one version.
        Case{"stage = [0, 1, 1]", 2, 1}}) {
    PipelinedOp loop = parseLoop(c.stages);
    ASSERT_TRUE(loop) << c.stages.str();
    std::optional<PipelineSchedule> schedule = getSchedule(loop);
    ASSERT_TRUE(schedule.has_value());
    auto copyA = cast<CopyOp>(schedule->statements[0]);
    auto copyB = cast<CopyOp>(schedule->statements[1]);
    EXPECT_EQ(schedule->getNumVersions(copyA.getDest()), c.versionsA)
        << c.stages.str();
    EXPECT_EQ(schedule->getNumVersions(copyB.getDest()), c.versionsB)
        << c.stages.str();
  }
}

} // namespace
