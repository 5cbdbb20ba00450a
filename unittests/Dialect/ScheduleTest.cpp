//===- ScheduleTest.cpp - Unit tests for PipelineSchedule -----------------===//
//
// Part of tile-mlir.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/Transforms/Schedule.h"

#include "SeedKernel.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringExtras.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::testing;

namespace {

class ScheduleTest : public ::testing::Test {
protected:
  ScheduleTest() {
    context.loadDialect<TileDialect, func::FuncDialect, arith::ArithDialect,
                        memref::MemRefDialect, gpu::GPUDialect>();
  }

  /// Parses the seed GEMM with `schedule` and returns its loop.
  PipelinedOp parseLoop(StringRef schedule) {
    module = parseSourceString<ModuleOp>(makeSeedLoop(schedule), &context);
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
