//===- Schedule.h - The schedule of a pipelined loop ------------*- C++ -*-===//
//
// Part of tile-mlir. The one data structure that planning writes and the
// budget check, the schedule printer and the software-pipelining rewrite read.
// It lives in the IR as the `stage` and `order` attributes of
// `tile.pipelined`; this is only a typed view of them.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_TRANSFORMS_SCHEDULE_H
#define TILE_DIALECT_TILE_TRANSFORMS_SCHEDULE_H

#include "mlir/Support/LogicalResult.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "llvm/ADT/SmallVector.h"

#include <string>

#include <optional>

namespace mlir {
namespace tile {

/// A resolved schedule: for every statement of the loop body (see
/// PipelinedOp::getStatements), the stage it runs in and its position in the
/// emitted steady-state body.
struct PipelineSchedule {
  llvm::SmallVector<Operation *> statements;
  llvm::SmallVector<int64_t> stage;
  llvm::SmallVector<int64_t> order;

  /// The number of stages: max(stage) + 1 (1 for an empty body).
  int64_t getDepth() const;

  /// Buffer versions that shared tile `buffer` needs: one more than the
  /// largest stage distance from a statement that writes it to a statement
  /// that reads it, so a version is not overwritten while a later stage
  /// still reads it. 1 for a buffer no statement writes.
  int64_t getNumVersions(Value buffer) const;

  /// "statement #i ('<op name>', stage s)", as diagnostics name statements.
  std::string describe(unsigned index) const;
};

/// The schedule written in `loop`'s `stage` / `order` attributes, `order`
/// defaulting to source order; std::nullopt when `loop` has no `stage`.
/// Assumes the op verifier passed (lengths match, order is a permutation).
std::optional<PipelineSchedule> getSchedule(PipelinedOp loop);

/// Whether `op` writes / reads memory reachable from `buffer` (the buffer
/// itself or a view of it).
bool writesBuffer(Operation *op, Value buffer);
bool readsBuffer(Operation *op, Value buffer);

/// The allocation a memref value views: walks through view-like ops
/// (subview, cast, ...) to their source.
Value getUnderlyingBuffer(Value memref);

/// The global-memory buffers (underlying buffers; tensors of the kernel)
/// that one of `ops` writes and another reads, each once, in order of first
/// use. Tile ops spread a tensor over the threads as they spread a tile, so
/// such a hand-over through global memory needs a barrier between the ops
/// as a shared tile's does.
SmallVector<Value> getHandedOverGlobals(ArrayRef<Operation *> ops);

/// The memory one statement reads and writes, as underlying buffers (see
/// getUnderlyingBuffer). Ops with regions contribute the effects of the ops
/// they hold. An effect on no particular value, or an op that does not
/// describe its effects, reads or writes unknown memory, which conflicts with
/// every buffer. A memref of unknown origin (an arith.select or scf.if of
/// tiles) may be any buffer of its memory space, as for writesBuffer and
/// readsBuffer. Allocation effects are left out: a statement that uses an
/// allocation depends on it through the SSA value already.
struct MemoryAccesses {
  llvm::SmallVector<Value, 4> reads;
  llvm::SmallVector<Value, 4> writes;
  bool readsUnknown = false;
  bool writesUnknown = false;

  bool mayRead(Value buffer) const;
  bool mayWrite(Value buffer) const;
};
MemoryAccesses getMemoryAccesses(Operation *op);

/// The statements (indices into `statements`, the loop's statements) whose
/// results statement `index` uses, directly or through side-effect-free ops
/// of the body, including uses inside its regions.
llvm::SmallVector<unsigned>
getValueProducers(PipelinedOp loop, llvm::ArrayRef<Operation *> statements,
                  unsigned index);

/// Whether `buffer` is a shared tile that the software-pipelining rewrite
/// multi-buffers under `schedule`: a `tile.alloc_shared` result that needs
/// more than one version.
bool isMultiBuffered(const PipelineSchedule &schedule, Value buffer);

/// Why a schedule is not legal. `op` is where the error is reported (the
/// statement the schedule runs too early); `other` is the statement it
/// conflicts with and gets a note. Both are null for errors about the lists
/// themselves, which are reported at the loop.
struct ScheduleViolation {
  Operation *op = nullptr;
  Operation *other = nullptr;
  std::string message;
  std::string note;
};

/// The first rule `schedule` breaks, or std::nullopt when it is legal:
/// `stage` and `order` have one entry per statement, `order` is a
/// permutation, stages are non-negative, and every dependence between two
/// statements, inside one iteration or from one iteration to a later one,
/// still runs in source order once iteration `i`'s statement `s` runs at time
/// step `i + stage(s)` in position `order(s)`. Multi-buffered shared tiles
/// (see isMultiBuffered) carry no dependence between iterations that use
/// different versions, so they must not be read before they are written in
/// an iteration.
std::optional<ScheduleViolation>
findScheduleViolation(PipelinedOp loop, const PipelineSchedule &schedule);

/// Reports findScheduleViolation's result as an error (with a note at the
/// other statement).
LogicalResult verifyScheduleLegality(PipelinedOp loop,
                                     const PipelineSchedule &schedule);

/// verifyScheduleLegality, for a schedule written by hand or by planning
/// (that `num_stages` agrees with a stage list is the op verifier's).
LogicalResult verifySchedule(PipelinedOp loop,
                             const PipelineSchedule &schedule);

/// The schedule `--tile-pipeline-planning` infers for `loop` at depth
/// `numStages` (>= 1), and why copies were kept out of stage 0.
struct InferredSchedule {
  PipelineSchedule schedule;
  /// Global-to-shared copies kept in the consumer stage, each with the
  /// violation that issuing it in stage 0 would cause.
  llvm::SmallVector<std::pair<Operation *, ScheduleViolation>> demoted;
  /// True when nothing could be overlapped and every statement landed in
  /// stage 0 although numStages > 1.
  bool collapsed = false;
};
InferredSchedule inferSchedule(PipelinedOp loop, int64_t numStages);

/// The schedule `loop` runs with: its `stage`/`order` attributes when it has
/// them, else the inferred schedule for its `num_stages` (>= 1), else
/// std::nullopt (a serial loop).
std::optional<PipelineSchedule> getOrInferSchedule(PipelinedOp loop);

} // namespace tile
} // namespace mlir

#endif // TILE_DIALECT_TILE_TRANSFORMS_SCHEDULE_H
