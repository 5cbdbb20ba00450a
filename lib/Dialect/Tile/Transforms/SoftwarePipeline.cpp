//===- SoftwarePipeline.cpp - The --tile-software-pipeline pass -----------===//
//
// Part of tile-mlir.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/Transforms/Passes.h"
#include "tile/Dialect/Tile/Transforms/Pipelining.h"
#include "tile/Dialect/Tile/Utils/LoopUtils.h"
#include "tile/Dialect/Tile/Utils/PassOptions.h"
#include "tile/Target/Chip.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_TILESOFTWAREPIPELINE
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;
using namespace mlir::tile;

/// Moves the index constants of `kernel` to the start of its body, one
/// per value.
static void hoistConstants(KernelOp kernel) {
  Block &body = kernel.getBody().front();
  SmallVector<arith::ConstantOp> constants;
  kernel.walk([&](arith::ConstantOp constant) {
    if (constant.getType().isIndex())
      constants.push_back(constant);
  });
  DenseMap<Attribute, arith::ConstantOp> first;
  Operation *insertionPoint = &body.front();
  for (arith::ConstantOp constant : constants) {
    auto [it, inserted] = first.try_emplace(constant.getValue(), constant);
    if (!inserted) {
      constant.replaceAllUsesWith(it->second.getResult());
      constant.erase();
      continue;
    }
    constant->moveBefore(insertionPoint);
  }
}

/// Whether `op`, outside `loop`, runs before it: where an op around `op`
/// (or `op` itself) and one around the loop (or the loop) first share a
/// block, the first comes before the second (a use in an scf.if before an
/// outer loop around the pipelined loop, say).
static bool isBeforeLoop(Operation *op, PipelinedOp loop) {
  for (Operation *around = op; around; around = around->getParentOp()) {
    Block *block = around->getBlock();
    if (!block)
      return false;
    if (Operation *enclosing = block->findAncestorOpInBlock(*loop))
      return enclosing != around && around->isBeforeInBlock(enclosing);
  }
  return false;
}

/// The innermost op around `loop` that may run it more than once (an
/// scf.for or scf.while, say) and lies inside the tile's scope; null if
/// none.
static Operation *getRepeatingAncestor(PipelinedOp loop, Value tile) {
  Operation *alloc = tile.getDefiningOp();
  for (Operation *op = loop->getParentOp(); op && !op->isAncestor(alloc);
       op = op->getParentOp())
    if (isa<LoopLikeOpInterface>(op))
      return op;
  return nullptr;
}

/// Whether `user` of a tile (or of a view of it) hands it on as another
/// value that is not a view: a memref result (arith.select, a call), a
/// terminator's operand (an scf.yield into a branch's result or a loop's
/// iteration argument), an operand of an op with regions (a loop's initial
/// iteration value), a call (the callee's argument, whose type a
/// version's does not match), its address as a plain value (an aligned
/// pointer, which leaves out a version's offset; a cast to another type),
/// or an op of unknown meaning. The rewrite gives each use of a
/// multi-buffered tile one version and cannot follow such a value to what
/// reads it.
static bool handsOnTile(Operation *user) {
  if (isa<ViewLikeOpInterface>(user) ||
      isa_and_nonnull<TileDialect>(user->getDialect()))
    return false;
  return user->getNumRegions() != 0 ||
         user->hasTrait<OpTrait::IsTerminator>() ||
         isa<CallOpInterface, memref::ExtractAlignedPointerAsIndexOp,
             memref::ExtractStridedMetadataOp, UnrealizedConversionCastOp>(
             user) ||
         !user->isRegistered() ||
         llvm::any_of(user->getResultTypes(), llvm::IsaPred<BaseMemRefType>);
}

/// Uses of a multi-buffered tile outside its loop are redirected to one
/// version: the last iteration's after the loop, version 0 before it. That
/// needs "after" to be visible from the loop's block; a use after an op
/// that encloses the loop (an outer loop, say) could see any iteration.
/// A view made before the loop is a use before it, so it views version 0;
/// what reads through it after the loop would see that version, not the
/// last iteration's. (Inside the loop, PipelinePreconditions refuses
/// views.) Where an outer loop runs the pipelined loop again, a read before
/// it sees the previous run's last version from the second run on, and a
/// read after a run of no iterations sees the run before; neither is one
/// version the rewrite can name. Writes there are as without an outer
/// loop. An op that hands the tile on as another value is refused
/// (handsOnTile).
static LogicalResult checkUsesOutside(PipelinedOp loop, Value tile) {
  Operation *repeating = getRepeatingAncestor(loop, tile);
  std::optional<int64_t> trips = getStaticTripCount(
      loop.getLowerBound(), loop.getUpperBound(), loop.getStep());
  // `reader` uses the tile (through `view`, when not null) outside the
  // loop, in the loop's block or before an op that encloses it.
  auto check = [&](Operation *reader, Operation *view) -> LogicalResult {
    if (handsOnTile(reader)) {
      InFlightDiagnostic diag =
          reader->emitOpError()
          << "hands on a shared tile that a pipelined loop multi-buffers, "
             "outside the loop; the rewrite gives each use of the tile one "
             "version and cannot follow the value this op makes: use the "
             "tile itself";
      if (view)
        diag.attachNote(view->getLoc()) << "the view is made here";
      diag.attachNote(loop.getLoc()) << "the pipelined loop is here";
      return diag;
    }
    bool before = isBeforeLoop(reader, loop);
    bool rerun = repeating && repeating->isAncestor(reader) &&
                 (before || !trips || *trips == 0) && readsBuffer(reader, tile);
    if ((!view || before) && !rerun)
      return success();
    InFlightDiagnostic diag = reader->emitOpError();
    if (view && !before) {
      diag << "uses a shared tile that a pipelined loop multi-buffers "
              "after the loop, through a view made before it; such a view "
              "sees the first version, not the last iteration's: read the "
              "tile itself after the loop";
    } else {
      diag << "reads a shared tile that a pipelined loop multi-buffers "
           << (before ? "before the loop" : "after the loop")
           << ", inside a loop that runs the pipelined loop again; "
           << (before ? "from its second run on"
                      : "after a run of no iterations")
           << " the read would see a version left by the run before, "
              "which the rewrite cannot name";
      diag.attachNote(repeating->getLoc()) << "the enclosing loop is here";
    }
    if (view)
      diag.attachNote(view->getLoc()) << "the view is made here";
    diag.attachNote(loop.getLoc()) << "the pipelined loop is here";
    return diag;
  };

  for (Operation *user : tile.getUsers()) {
    if (loop->isAncestor(user))
      continue;
    if (!loop->getBlock()->findAncestorOpInBlock(*user) &&
        !isBeforeLoop(user, loop)) {
      InFlightDiagnostic diag =
          user->emitOpError()
          << "uses a shared tile that a pipelined loop multi-buffers, but "
             "outside the loop's block; the rewrite cannot tell which "
             "version it sees";
      diag.attachNote(loop.getLoc()) << "the pipelined loop is here";
      return diag;
    }
    if (isa<ViewLikeOpInterface>(user) && !isBeforeLoop(user, loop)) {
      // After the loop the tile becomes a view of one version, whose
      // layout (a dynamic offset) a view's result type does not have.
      InFlightDiagnostic diag =
          user->emitOpError()
          << "makes a view of a shared tile that a pipelined loop "
             "multi-buffers, after the loop; there the tile is one of its "
             "versions, at an offset the view's type does not have: use "
             "the tile itself";
      diag.attachNote(loop.getLoc()) << "the pipelined loop is here";
      return diag;
    }
    if (!isa<ViewLikeOpInterface>(user)) {
      if (failed(check(user, nullptr)))
        return failure();
      continue;
    }
    SmallVector<Operation *> views = {user};
    while (!views.empty()) {
      Operation *view = views.pop_back_val();
      for (Operation *reader : view->getUsers()) {
        if (isa<ViewLikeOpInterface>(reader)) {
          views.push_back(reader);
          continue;
        }
        if (!loop->isAncestor(reader) && failed(check(reader, user)))
          return failure();
      }
    }
  }
  return success();
}

/// A multi-buffered tile gets one version count and one indexing, so two
/// pipelined loops must not both version the same tile. And it is a tile
/// too: its versions together must not pass the verifier's size limit (the
/// budget refuses far smaller ones on a chip, but tile-software-pipeline
/// runs without one).
static LogicalResult checkVersionedTiles(
    ArrayRef<std::pair<PipelinedOp, PipelineSchedule>> scheduled) {
  DenseMap<Value, PipelinedOp> owner;
  for (auto &entry : scheduled) {
    PipelinedOp loop = entry.first;
    const PipelineSchedule &schedule = entry.second;
    // The tiles the statements use, in their regions too.
    SetVector<Value> used;
    for (Operation *op : schedule.statements)
      op->walk(
          [&](Operation *user) { used.insert_range(user->getOperands()); });
    for (Value operand : used) {
      auto alloc = operand.getDefiningOp<AllocSharedOp>();
      int64_t versions = alloc ? schedule.getNumVersions(operand) : 1;
      if (versions < 2)
        continue;
      if (failed(checkUsesOutside(loop, operand)))
        return failure();
      if (int64_t bytes = getTileBytes(alloc.getType());
          bytes > kMaxTileBytes / versions) {
        InFlightDiagnostic diag =
            loop.emitOpError()
            << "needs " << versions << " versions of a shared tile of " << bytes
            << " bytes, more than a tile may hold (2^32 bytes)";
        diag.attachNote(alloc.getLoc()) << "the tile is allocated here";
        return diag;
      }
      auto [it, inserted] = owner.try_emplace(operand, loop);
      if (inserted || it->second == loop)
        continue;
      InFlightDiagnostic diag =
          loop.emitOpError()
          << "multi-buffers a shared tile that another pipelined loop "
             "also multi-buffers; give each loop its own tiles";
      diag.attachNote(it->second.getLoc()) << "the other loop is here";
      diag.attachNote(alloc.getLoc()) << "the tile is allocated here";
      return diag;
    }
  }
  return success();
}

namespace {
struct TileSoftwarePipelinePass
    : mlir::tile::NamedOptionErrors<mlir::tile::impl::TileSoftwarePipelineBase<
          TileSoftwarePipelinePass>> {
  using NamedOptionErrors::NamedOptionErrors;

  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    SmallVector<std::pair<PipelinedOp, PipelineSchedule>> scheduled;
    SmallVector<PipelinedOp> plain;
    bool failedAny = false;
    getOperation().walk([&](PipelinedOp loop) {
      FailureOr<std::optional<PipelineSchedule>> schedule =
          getRewriteSchedule(loop);
      // The rewrite's own preconditions first (they name what the rewrite
      // cannot express), then planning's legality rules, which hand-edited IR
      // may break after planning ran.
      if (failed(schedule) ||
          (*schedule && (failed(checkRewritable(loop, **schedule)) ||
                         failed(verifySchedule(loop, **schedule))))) {
        failedAny = true;
        return;
      }
      if (*schedule)
        scheduled.push_back({loop, std::move(**schedule)});
      else
        plain.push_back(loop);
    });
    if (failedAny || failed(checkVersionedTiles(scheduled)))
      return signalPassFailure();

    // A loop without a schedule is a serial loop: it becomes the `scf.for`
    // it means, so that the barrier placement and the lowerings see one loop
    // form.
    for (PipelinedOp loop : plain)
      convertToSerialLoop(rewriter, loop);
    getOperation().walk([&](KernelOp kernel) {
      insertSharedMemoryBarriers(kernel.getBody().front());
    });
    for (auto &[loop, schedule] : scheduled)
      expandPipelinedLoop(rewriter, loop, schedule, unrollSteadyState);

    // The expansion builds index arithmetic for every step, stage and
    // version; fold it where the iteration is a constant (prologue, static
    // epilogue), share what repeats, and gather the constants at the top of
    // each kernel so the loop bodies read as the schedule.
    if (scheduled.empty())
      return;
    SmallVector<Operation *> arithmetic;
    getOperation().walk([&](Operation *op) {
      if (isa_and_nonnull<arith::ArithDialect>(op->getDialect()) ||
          isa<memref::SubViewOp>(op))
        arithmetic.push_back(op);
    });
    (void)applyOpPatternsGreedily(arithmetic, RewritePatternSet(&getContext()));
    DominanceInfo dominance;
    eliminateCommonSubExpressions(rewriter, dominance, getOperation());
    getOperation().walk([&](KernelOp kernel) { hoistConstants(kernel); });
  }
};
} // namespace
