//===- ScheduleVerifierTest.cpp - Unit tests for schedule checks ----------===//
//
// Part of tile-mlir. Covers what lit cannot reach: schedules built in C++
// (as the software-pipelining rewrite may build them) whose lists are
// malformed, and inference at every depth without going through the pass.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/Transforms/Schedule.h"

#include "SeedKernel.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::testing;

namespace {

class ScheduleVerifierTest : public ::testing::Test {
protected:
  ScheduleVerifierTest() {
    context.loadDialect<TileDialect, func::FuncDialect, arith::ArithDialect,
                        memref::MemRefDialect, gpu::GPUDialect>();
  }

  /// The loop of makeLoop(schedule, body), after the module-level ops
  /// `declarations`.
  PipelinedOp parseLoop(StringRef schedule, StringRef body,
                        StringRef declarations = "") {
    module = parseSourceString<ModuleOp>(
        declarations.str() + makeLoop(schedule, body), &context);
    PipelinedOp loop;
    if (module)
      module->walk([&](PipelinedOp op) { loop = op; });
    return loop;
  }

  std::string seedBody() { return (kCopyA + kCopyB + kGemm).str(); }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

TEST_F(ScheduleVerifierTest, InfersSeedScheduleAtEveryDepth) {
  PipelinedOp loop = parseLoop("num_stages = 3", seedBody());
  ASSERT_TRUE(loop);
  for (int64_t depth = 1; depth <= 4; ++depth) {
    InferredSchedule inferred = inferSchedule(loop, depth);
    SmallVector<int64_t> expected{0, 0, depth - 1};
    EXPECT_EQ(inferred.schedule.stage, expected) << "depth " << depth;
    EXPECT_EQ(inferred.schedule.order, (SmallVector<int64_t>{0, 1, 2}));
    EXPECT_EQ(inferred.schedule.getDepth(), depth);
    EXPECT_TRUE(inferred.demoted.empty());
    EXPECT_FALSE(inferred.collapsed);
    EXPECT_FALSE(findScheduleViolation(loop, inferred.schedule));
  }
}

TEST_F(ScheduleVerifierTest, SerialLoopHasNoSchedule) {
  PipelinedOp loop = parseLoop("num_stages = 0", seedBody());
  ASSERT_TRUE(loop);
  EXPECT_FALSE(getOrInferSchedule(loop).has_value());
}

TEST_F(ScheduleVerifierTest, RejectsMalformedLists) {
  PipelinedOp loop = parseLoop("num_stages = 2", seedBody());
  ASSERT_TRUE(loop);
  PipelineSchedule schedule = inferSchedule(loop, 2).schedule;

  PipelineSchedule shortStage = schedule;
  shortStage.stage.pop_back();
  std::optional<ScheduleViolation> violation =
      findScheduleViolation(loop, shortStage);
  ASSERT_TRUE(violation);
  EXPECT_EQ(violation->op, nullptr);
  EXPECT_EQ(violation->message, "'stage' has 2 entries but the body has 3 "
                                "statements (one entry per statement)");

  PipelineSchedule repeatedOrder = schedule;
  repeatedOrder.order = {0, 0, 1};
  violation = findScheduleViolation(loop, repeatedOrder);
  ASSERT_TRUE(violation);
  EXPECT_EQ(violation->message,
            "'order' is not a permutation of 0..2: 0 appears twice");

  PipelineSchedule negative = schedule;
  negative.stage[2] = -1;
  violation = findScheduleViolation(loop, negative);
  ASSERT_TRUE(violation);
  EXPECT_EQ(violation->message, "stage of statement #2 is negative (-1)");

  PipelineSchedule tooDeep = schedule;
  tooDeep.stage[0] = kMaxPipelineDepth;
  violation = findScheduleViolation(loop, tooDeep);
  ASSERT_TRUE(violation);
  EXPECT_EQ(violation->message,
            "stage of statement #0 is 64; the depth (max(stage) + 1) must be "
            "at most 64");
}

TEST_F(ScheduleVerifierTest, NamesBothStatementsOfAViolation) {
  PipelinedOp loop = parseLoop("num_stages = 2", seedBody());
  ASSERT_TRUE(loop);
  PipelineSchedule schedule = inferSchedule(loop, 2).schedule;
  // The gemm before the copy of A that feeds it.
  schedule.stage = {1, 0, 0};
  std::optional<ScheduleViolation> violation =
      findScheduleViolation(loop, schedule);
  ASSERT_TRUE(violation);
  EXPECT_EQ(violation->op, schedule.statements[2]);
  EXPECT_EQ(violation->other, schedule.statements[0]);
  EXPECT_NE(violation->message.find("cannot run in an earlier stage"),
            std::string::npos);
}

TEST_F(ScheduleVerifierTest, DemotesCopiesThatFeedTheNextIteration) {
  // TileLang issue 2668: each gemm reads the tiles the previous iteration
  // loaded, so no copy may be issued ahead of it.
  PipelinedOp loop =
      parseLoop("num_stages = 3", (kGemm + kCopyA + kCopyB).str());
  ASSERT_TRUE(loop);
  InferredSchedule inferred = inferSchedule(loop, 3);
  EXPECT_EQ(inferred.demoted.size(), 2u);
  EXPECT_TRUE(inferred.collapsed);
  EXPECT_EQ(inferred.schedule.stage, (SmallVector<int64_t>{0, 0, 0}));
  EXPECT_FALSE(findScheduleViolation(loop, inferred.schedule));

  // TileLang's schedule for the same loop is rejected.
  PipelineSchedule tilelang = inferred.schedule;
  tilelang.stage = {2, 0, 0};
  std::optional<ScheduleViolation> violation =
      findScheduleViolation(loop, tilelang);
  ASSERT_TRUE(violation);
  EXPECT_NE(violation->message.find("TileLang issue 2668"), std::string::npos);
}

TEST_F(ScheduleVerifierTest, MultiBuffersOnlySharedTilesReadInALaterStage) {
  PipelinedOp loop = parseLoop("num_stages = 3", seedBody());
  ASSERT_TRUE(loop);
  PipelineSchedule schedule = inferSchedule(loop, 3).schedule;
  auto gemm = cast<GemmOp>(schedule.statements[2]);
  EXPECT_TRUE(isMultiBuffered(schedule, gemm.getA()));
  EXPECT_FALSE(isMultiBuffered(schedule, gemm.getC()));
  schedule.stage = {0, 0, 0};
  EXPECT_FALSE(isMultiBuffered(schedule, gemm.getA()));
}

// The rules below see more than the rewrite takes: planning refuses a loop
// with two writers of a shared tile, a tile of unknown origin or an op of
// unknown memory effects before it looks at a schedule (checkPipelinable),
// so only a schedule built in C++ reaches them.

TEST_F(ScheduleVerifierTest, OrdersTwoWritersOfATile) {
  constexpr StringLiteral copyA2 =
      "tile.copy %A[%c32, %ko] to %A_s : memref<256x256xf16> to "
      "memref<64x32xf16, #gpu.address_space<workgroup>>\n";
  PipelinedOp loop =
      parseLoop("num_stages = 2", (kCopyA + copyA2 + kGemm).str());
  ASSERT_TRUE(loop);
  PipelineSchedule schedule = inferSchedule(loop, 2).schedule;
  schedule.stage = {1, 0, 1};
  schedule.order = {0, 1, 2};
  std::optional<ScheduleViolation> violation =
      findScheduleViolation(loop, schedule);
  ASSERT_TRUE(violation);
  EXPECT_EQ(violation->op, schedule.statements[1]);
  EXPECT_EQ(violation->other, schedule.statements[0]);
  EXPECT_EQ(violation->message,
            "statement #1 ('tile.copy', stage 0) writes shared tile %0 "
            "(64x32xf16) that statement #0 ('tile.copy', stage 1) writes "
            "earlier in the same iteration, so it cannot run in an earlier "
            "stage");
}

TEST_F(ScheduleVerifierTest, WritesOfOneVersionLandInOrder) {
  constexpr StringLiteral clearA =
      "tile.clear %A_s : memref<64x32xf16, #gpu.address_space<workgroup>>\n";
  PipelinedOp loop =
      parseLoop("num_stages = 3", (kCopyA + kGemm + clearA).str());
  ASSERT_TRUE(loop);
  PipelineSchedule schedule = inferSchedule(loop, 3).schedule;
  schedule.stage = {0, 1, 2};
  schedule.order = {0, 1, 2};
  std::optional<ScheduleViolation> violation =
      findScheduleViolation(loop, schedule);
  ASSERT_TRUE(violation);
  EXPECT_EQ(violation->op, schedule.statements[0]);
  EXPECT_EQ(violation->other, schedule.statements[2]);
  EXPECT_EQ(violation->message,
            "statement #0 ('tile.copy', stage 0) of iteration k+2 runs before "
            "statement #2 ('tile.clear', stage 2) of iteration k, but both "
            "write shared tile %0 (64x32xf16), so the earlier iteration's "
            "write would land last (the tile has 2 versions, so iterations k "
            "and k+2 share one)");
}

TEST_F(ScheduleVerifierTest, AnOpaqueCallTouchesAllMemory) {
  constexpr StringLiteral declaration = "func.func private @opaque()\n";
  constexpr StringLiteral call = "func.call @opaque() : () -> ()\n";
  PipelinedOp loop =
      parseLoop("num_stages = 2", (call + call).str(), declaration);
  ASSERT_TRUE(loop);
  PipelineSchedule schedule = inferSchedule(loop, 2).schedule;
  schedule.stage = {1, 0};
  std::optional<ScheduleViolation> violation =
      findScheduleViolation(loop, schedule);
  ASSERT_TRUE(violation);
  EXPECT_EQ(violation->message,
            "statement #1 ('func.call', stage 0) reads unknown memory that "
            "statement #0 ('func.call', stage 1) writes, so it cannot run in "
            "an earlier stage; statement #1 does not declare its memory "
            "effects, so it is assumed to touch all memory; statement #0 "
            "does not declare its memory effects, so it is assumed to touch "
            "all memory");

  // Inference issues no copy ahead of a call that may write their sources.
  loop = parseLoop("num_stages = 3", (seedBody() + call).str(), declaration);
  ASSERT_TRUE(loop);
  InferredSchedule inferred = inferSchedule(loop, 3);
  ASSERT_EQ(inferred.demoted.size(), 2u);
  EXPECT_TRUE(inferred.collapsed);
  EXPECT_EQ(inferred.schedule.stage, (SmallVector<int64_t>{0, 0, 0, 0}));
  EXPECT_NE(inferred.demoted[0].second.message.find(
                "statement #3 does not declare its memory effects"),
            std::string::npos);
}

TEST_F(ScheduleVerifierTest, ATileOfUnknownOriginAliasesEveryTile) {
  // The copy may write A_s, which the gemm reads one stage earlier.
  constexpr StringLiteral body =
      "%p = arith.constant true\n"
      "%t = arith.select %p, %A_s, %A_s : memref<64x32xf16, "
      "#gpu.address_space<workgroup>>\n"
      "tile.copy %A[%c0, %ko] to %t : memref<256x256xf16> to "
      "memref<64x32xf16, #gpu.address_space<workgroup>>\n";
  PipelinedOp loop = parseLoop("num_stages = 2", (body + kGemm).str());
  ASSERT_TRUE(loop);
  PipelineSchedule schedule = inferSchedule(loop, 2).schedule;
  schedule.stage = {1, 0};
  schedule.order = {0, 1};
  std::optional<ScheduleViolation> violation =
      findScheduleViolation(loop, schedule);
  ASSERT_TRUE(violation);
  EXPECT_EQ(violation->op, schedule.statements[1]);
  EXPECT_EQ(violation->message.rfind("statement #1 ('tile.gemm', stage 0) "
                                     "reads",
                                     0),
            0u);
}

} // namespace
