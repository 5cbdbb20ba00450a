//===- PrintSchedule.cpp - Show a pipeline schedule as a timeline ---------===//
//
// Part of tile-mlir.
//
// A teaching aid: `stage` and `order` are two short integer lists whose
// meaning only shows once iterations overlap. This pass unrolls the schedule
// for a few iterations and prints, per time step, which statement of which
// iteration runs and which version of each shared tile it touches.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/Transforms/Passes.h"
#include "tile/Dialect/Tile/Transforms/Schedule.h"
#include "tile/Dialect/Tile/Utils/LoopUtils.h"
#include "tile/Dialect/Tile/Utils/PassOptions.h"

#include "mlir/IR/AsmState.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_TILEPRINTSCHEDULE
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;
using namespace mlir::tile;

/// "copy" for tile ops, the full name for anything else.
static StringRef getShortName(Operation *op) {
  StringRef name = op->getName().getStringRef();
  name.consume_front("tile.");
  return name;
}

/// The longest timeline the trip-count option asks for: one line per step.
static constexpr int64_t kMaxShownTrips = 4096;

namespace {

/// A shared tile a statement touches, as the table shows it.
struct TileAccess {
  Value buffer;
  bool write;
};

struct TilePrintSchedulePass
    : tile::NamedOptionErrors<
          tile::impl::TilePrintScheduleBase<TilePrintSchedulePass>> {
  using NamedOptionErrors::NamedOptionErrors;

  void runOnOperation() override {
    if (tripCount > kMaxShownTrips) {
      emitError(getOperation()->getLoc())
          << "trip-count=" << int64_t(tripCount) << " is more than the "
          << kMaxShownTrips << " iterations a timeline shows";
      return signalPassFailure();
    }
    if (tripCount < 0) {
      emitError(getOperation()->getLoc())
          << "trip-count=" << int64_t(tripCount)
          << " is negative: give the iterations to show, or 0 for the "
             "default";
      return signalPassFailure();
    }
    bool failedAny = false;
    getOperation()->walk([&](PipelinedOp loop) {
      // On stderr, as tile-smem-budget's table: stdout carries the IR.
      failedAny |= failed(printLoop(loop, llvm::errs()));
    });
    if (failedAny)
      signalPassFailure();
  }

private:
  LogicalResult printLoop(PipelinedOp loop, llvm::raw_ostream &os);
};

} // namespace

LogicalResult TilePrintSchedulePass::printLoop(PipelinedOp loop,
                                               llvm::raw_ostream &os) {
  os << "schedule of tile.pipelined at " << loop.getLoc() << "\n";
  std::optional<PipelineSchedule> schedule = getSchedule(loop);
  bool given = schedule.has_value();
  if (!given)
    schedule = getOrInferSchedule(loop);
  if (!schedule) {
    os << "  serial loop (num_stages = 0 or absent): not pipelined\n";
    return success();
  }
  // A schedule inferred from num_stages alone is shallower where there is
  // nothing to overlap, as planning makes it (with a warning): only a given
  // one must match num_stages.
  if (failed(given ? verifySchedule(loop, *schedule)
                   : verifyScheduleLegality(loop, *schedule)))
    return failure();

  Operation *root = loop->getParentWithTrait<OpTrait::IsIsolatedFromAbove>();
  AsmState asmState(root ? root : loop.getOperation());
  auto name = [&](Value buffer) {
    std::string result;
    llvm::raw_string_ostream nameOs(result);
    buffer.printAsOperand(nameOs, asmState);
    return result;
  };

  int64_t depth = schedule->getDepth();
  std::optional<int64_t> staticTrips = getStaticTripCount(
      loop.getLowerBound(), loop.getUpperBound(), loop.getStep());
  auto iterations = [](int64_t count) {
    return std::to_string(count) + (count == 1 ? " iteration" : " iterations");
  };
  int64_t trips;
  std::string shown;
  if (tripCount > 0) {
    trips = tripCount;
    shown = iterations(trips) + " (trip-count option)";
  } else if (staticTrips && *staticTrips <= 8) {
    trips = *staticTrips;
    shown = iterations(trips) + " (the static trip count)";
  } else {
    trips = 6;
    shown = staticTrips ? "the first 6 of " + std::to_string(*staticTrips) +
                              " iterations"
                        : "6 iterations (no static trip count)";
  }
  os << "  depth " << depth << ", showing " << shown << "\n";
  if (std::optional<int64_t> numStages = loop.getNumStages();
      !given && numStages && *numStages > depth)
    os << "  num_stages = " << *numStages << " finds nothing to overlap: depth "
       << depth << ", as tile-pipeline-planning plans it\n";

  // Statements and the shared tiles they touch, with their versions.
  unsigned n = schedule->statements.size();
  SmallVector<SmallVector<TileAccess>> tileAccesses(n);
  SmallVector<Value> tiles;
  for (unsigned i = 0; i < n; ++i) {
    MemoryAccesses accesses = getMemoryAccesses(schedule->statements[i]);
    for (auto [list, write] : {std::make_pair(&accesses.reads, false),
                               std::make_pair(&accesses.writes, true)})
      for (Value buffer : *list) {
        auto type = dyn_cast<MemRefType>(buffer.getType());
        if (!type || getMemorySpace(type) != MemorySpace::Shared)
          continue;
        tileAccesses[i].push_back({buffer, write});
        if (!llvm::is_contained(tiles, buffer))
          tiles.push_back(buffer);
      }
  }
  // Once per tile: the timeline asks at every access of every step.
  DenseMap<Value, int64_t> versions;
  for (Value tile : tiles)
    versions[tile] = isMultiBuffered(*schedule, tile)
                         ? schedule->getNumVersions(tile)
                         : int64_t(1);
  auto versionsOf = [&](Value tile) { return versions.lookup(tile); };
  for (Value tile : tiles)
    os << "  shared tile " << name(tile) << " : " << tile.getType() << ", "
       << versionsOf(tile) << (versionsOf(tile) == 1 ? " version" : " versions")
       << "\n";
  for (unsigned i = 0; i < n; ++i) {
    os << llvm::formatv("  #{0} stage {1} order {2}  {3}", i,
                        schedule->stage[i], schedule->order[i],
                        getShortName(schedule->statements[i]));
    for (const TileAccess &access : tileAccesses[i])
      os << (access.write ? "  writes " : "  reads ") << name(access.buffer);
    os << "\n";
  }

  // Statements in the order one time step runs them.
  SmallVector<unsigned> byOrder(n);
  for (unsigned i = 0; i < n; ++i)
    byOrder[schedule->order[i]] = i;

  if (trips == 0) {
    os << "  (no iterations: the loop body never runs)\n";
    return success();
  }
  os << "  step  phase     | statement, iteration (-> writes, <- reads a "
        "shared tile version), in 'order'\n";
  // Iteration `it` runs statement `s` at time step `it + stage(s)`: the
  // prologue fills the pipeline, the steady state starts a new iteration
  // with every stage busy, the epilogue drains it.
  for (int64_t t = 0; t < trips + depth - 1; ++t) {
    StringRef phase = t >= trips      ? "epilogue"
                      : t < depth - 1 ? "prologue"
                                      : "steady";
    os << llvm::formatv("  t={0,-3} {1,-9}", t, phase);
    bool idle = true;
    for (unsigned s : byOrder) {
      int64_t it = t - schedule->stage[s];
      if (it < 0 || it >= trips)
        continue;
      idle = false;
      os << " | " << getShortName(schedule->statements[s]) << " it" << it;
      for (const TileAccess &access : tileAccesses[s])
        os << (access.write ? " -> " : " <- ") << name(access.buffer) << "[v"
           << it % versionsOf(access.buffer) << "]";
    }
    if (idle)
      os << " | (no statement: an empty stage)";
    os << "\n";
  }
  return success();
}
