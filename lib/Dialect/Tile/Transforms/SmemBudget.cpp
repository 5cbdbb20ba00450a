//===- SmemBudget.cpp - Shared memory and registers per kernel ------------===//
//
// Part of tile-mlir.
//
// Prints, per kernel, the shared memory its tiles need at `num_stages = 1`
// and at the planned depth against the chip's per-block limit, and the
// fragment registers per thread against the per-thread limit. Every limit
// comes from the chip table (tile/Target/Chip.h).
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/Transforms/Passes.h"
#include "tile/Dialect/Tile/Transforms/Schedule.h"
#include "tile/Dialect/Tile/Utils/PassOptions.h"
#include "tile/Target/Chip.h"

#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_TILESMEMBUDGET
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;
using namespace mlir::tile;

/// The schedule each loop runs with in one row of the table.
using ScheduleFn = std::function<std::optional<PipelineSchedule>(PipelinedOp)>;

namespace {

/// What the budget needs to know about one kernel.
struct KernelFootprint {
  SmallVector<AllocSharedOp> sharedTiles;
  SmallVector<PipelinedOp> loops;
  int64_t fragmentBytes = 0;
  int64_t accumulatorBytes = 0;
  /// The fragment allocations that GEMMs accumulate into, each once.
  llvm::SetVector<AllocFragmentOp> accumulators;
};

struct TileSmemBudgetPass
    : tile::NamedOptionErrors<
          tile::impl::TileSmemBudgetBase<TileSmemBudgetPass>> {
  using NamedOptionErrors::NamedOptionErrors;

  void runOnOperation() override;

private:
  LogicalResult checkKernel(KernelOp kernel, StringRef name,
                            const ChipInfo &chipInfo);
};

} // namespace

/// Shared bytes of `kernel` when every loop runs with `scheduleFor(loop)`.
static int64_t getSharedBytes(const KernelFootprint &footprint,
                              const ScheduleFn &scheduleFor) {
  SmallVector<std::optional<PipelineSchedule>> schedules;
  for (PipelinedOp loop : footprint.loops)
    schedules.push_back(scheduleFor(loop));
  int64_t total = 0;
  for (AllocSharedOp tile : footprint.sharedTiles) {
    int64_t versions = 1;
    for (const std::optional<PipelineSchedule> &schedule : schedules)
      if (schedule)
        versions = std::max(versions, schedule->getNumVersions(tile));
    // As the GPU lowering carves them (Chip.h), all versions of a tile
    // back to back.
    total = appendSharedTile(total, getTileBytes(tile.getType()) * versions);
  }
  return total;
}

static std::string formatShape(MemRefType type) {
  std::string result;
  llvm::raw_string_ostream os(result);
  for (int64_t dim : type.getShape())
    os << dim << "x";
  os << type.getElementType();
  return result;
}

LogicalResult TileSmemBudgetPass::checkKernel(KernelOp kernel, StringRef name,
                                              const ChipInfo &chipInfo) {
  KernelFootprint footprint;
  kernel.walk([&](Operation *op) {
    if (auto alloc = dyn_cast<AllocSharedOp>(op)) {
      footprint.sharedTiles.push_back(alloc);
    } else if (auto alloc = dyn_cast<AllocFragmentOp>(op)) {
      footprint.fragmentBytes += getTileBytes(alloc.getType());
    } else if (auto loop = dyn_cast<PipelinedOp>(op)) {
      footprint.loops.push_back(loop);
    } else if (auto gemm = dyn_cast<GemmOp>(op)) {
      // A fragment is an allocation (ranked); C may also view a function
      // argument, of any type.
      auto alloc =
          getUnderlyingBuffer(gemm.getC()).getDefiningOp<AllocFragmentOp>();
      if (alloc && footprint.accumulators.insert(alloc))
        footprint.accumulatorBytes += getTileBytes(alloc.getType());
    }
  });

  // The planned depth: the deepest pipelined loop of the kernel.
  ScheduleFn planned = [](PipelinedOp loop) {
    return getOrInferSchedule(loop);
  };
  ScheduleFn serial = [](PipelinedOp) {
    return std::optional<PipelineSchedule>();
  };
  int64_t depth = 1;
  for (PipelinedOp loop : footprint.loops)
    if (std::optional<PipelineSchedule> schedule = planned(loop))
      depth = std::max(depth, schedule->getDepth());
  // The same kernel with every loop deeper than `stages` planned at
  // `stages` instead: what `num_stages = stages` would give.
  auto cappedAt = [&](int64_t stages) -> ScheduleFn {
    return [stages, planned](PipelinedOp loop) {
      std::optional<PipelineSchedule> schedule = planned(loop);
      if (schedule && schedule->getDepth() > stages)
        return std::optional<PipelineSchedule>(
            inferSchedule(loop, stages).schedule);
      return schedule;
    };
  };

  int64_t limit = chipInfo.maxSharedBytesPerBlock;
  auto status = [&](int64_t bytes) {
    return bytes <= limit ? "[OK]" : "[OVER]";
  };
  // A report, like the diagnostics, goes to stderr: stdout carries the IR
  // (`tile-opt k.mlir --tile-to-ptx=chip=sm_90a | tile-translate ...`).
  llvm::raw_ostream &os = print ? llvm::errs() : llvm::nulls();
  os << "kernel @" << name << " (chip " << chipInfo.name << ", limit " << limit
     << " B per block)\n";
  int64_t serialBytes = getSharedBytes(footprint, serial);
  os << llvm::formatv("  stages={0,-3} {1,9} B  {2}\n", 1, serialBytes,
                      status(serialBytes));
  int64_t plannedBytes = serialBytes;
  if (depth > 1) {
    plannedBytes = getSharedBytes(footprint, planned);
    os << llvm::formatv("  stages={0,-3} {1,9} B  {2}\n", depth, plannedBytes,
                        status(plannedBytes));
  }
  if (plannedBytes > chipInfo.defaultSharedBytesPerBlock &&
      plannedBytes <= limit)
    os << "  above the " << chipInfo.defaultSharedBytesPerBlock
       << " B default: the launch must raise the kernel's dynamic "
          "shared-memory limit\n";

  int64_t threads = kernel.getThreads();
  auto registersFor = [&](int64_t bytes) {
    return llvm::divideCeil(bytes, threads * 4);
  };
  int64_t registers = registersFor(footprint.fragmentBytes);
  int64_t maxRegisters = getRegisterLimit(chipInfo, threads);
  os << "  registers " << registers << " per thread for fragments ("
     << footprint.fragmentBytes << " B / " << threads
     << " threads / 4 B), limit " << maxRegisters << " at " << threads
     << " threads  " << (registers <= maxRegisters ? "[OK]" : "[OVER]") << "\n";
  os.flush();

  int64_t accumulatorRegisters = registersFor(footprint.accumulatorBytes);
  if (accumulatorRegisters > maxRegisters) {
    InFlightDiagnostic diag = emitWarning(kernel.getLoc());
    diag << "the GEMM accumulator alone needs " << accumulatorRegisters
         << " registers per thread (";
    llvm::interleave(
        footprint.accumulators,
        [&](AllocFragmentOp alloc) { diag << formatShape(alloc.getType()); },
        [&] { diag << " + "; });
    diag << " = " << footprint.accumulatorBytes << " B / " << threads
         << " threads / 4 B) but a thread of " << threads << " has at most "
         << maxRegisters << " on " << chipInfo.name
         << ": the tile cannot live in registers whole; "
            "tile-split-accumulators (in tile-to-ptx) computes it in parts "
            "where it can, or use more threads or a smaller tile";
  } else if (registers > maxRegisters) {
    emitWarning(kernel.getLoc())
        << "fragment tiles need " << registers << " registers per thread ("
        << footprint.fragmentBytes << " B / " << threads
        << " threads / 4 B) but a thread of " << threads << " has at most "
        << maxRegisters << " on " << chipInfo.name
        << ": expect spills to local memory";
  }

  if (plannedBytes <= limit)
    return success();
  // At the kernel's location without the dump of the whole kernel that
  // Operation::emitError appends: the table above already says what counts.
  InFlightDiagnostic diag = emitError(kernel.getLoc());
  diag << "kernel @" << name << " needs " << plannedBytes
       << " bytes of shared memory at num_stages = " << depth << " but "
       << chipInfo.name << " allows " << limit << " per block; ";
  for (int64_t stages = depth - 1; stages >= 1; --stages) {
    if (getSharedBytes(footprint, cappedAt(stages)) <= limit) {
      diag << "the largest num_stages that fits is " << stages;
      return diag;
    }
  }
  diag << "no num_stages fits (one stage needs " << serialBytes
       << " bytes): use smaller tiles";
  return diag;
}

void TileSmemBudgetPass::runOnOperation() {
  const ChipInfo *chipInfo =
      lookupChipOrEmitError(getOperation()->getLoc(), chip, getArgument());
  if (!chipInfo)
    return signalPassFailure();
  bool failedAny = false;
  llvm::DenseMap<Operation *, unsigned> kernelsPerFunction;
  getOperation()->walk([&](KernelOp kernel) {
    std::string name = "<unnamed>";
    Operation *parent = kernel->getParentOfType<FunctionOpInterface>();
    if (parent) {
      name = cast<FunctionOpInterface>(parent).getName().str();
      unsigned index = kernelsPerFunction[parent]++;
      if (index > 0)
        name += "#" + std::to_string(index);
    }
    failedAny |= failed(checkKernel(kernel, name, *chipInfo));
  });
  if (failedAny)
    signalPassFailure();
}
