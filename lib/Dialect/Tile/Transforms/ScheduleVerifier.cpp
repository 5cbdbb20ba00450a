//===- ScheduleVerifier.cpp - Is a pipeline schedule legal? ---------------===//
//
// Part of tile-mlir.
//
// A schedule runs statement `s` of iteration `i` at time step `i + stage(s)`,
// in position `order(s)` within the step. It is legal when every pair of
// statements that depend on each other still runs in the original order.
// Planning, the software-pipelining rewrite and the schedule printer all call
// this, so a hand-written or hand-edited schedule cannot reach the rewrite
// unchecked (TileLang checks none of this; see its issues 2668 and 2720).
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/Transforms/Schedule.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/AsmState.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::tile;

namespace {

enum class DependenceKind {
  Value,
  ReadAfterWrite,
  WriteAfterRead,
  WriteAfterWrite
};

/// One reason why statement `second` must run after statement `first`.
struct Dependence {
  DependenceKind kind;
  /// The buffer both touch; null for SSA values and unknown memory.
  Value buffer;
};

class ScheduleChecker {
public:
  ScheduleChecker(PipelinedOp loop, const PipelineSchedule &schedule)
      : loop(loop), schedule(schedule) {}

  std::optional<ScheduleViolation> run();

private:
  std::optional<ScheduleViolation> checkLists();
  std::optional<ScheduleViolation> checkWithinIteration();
  std::optional<ScheduleViolation> checkIterationPrivateTiles();
  std::optional<ScheduleViolation> checkAcrossIterations();

  /// Memory dependences of statement `second` on statement `first`, assuming
  /// `first` runs first in the original program. At most one per buffer.
  SmallVector<Dependence> getMemoryDependences(unsigned first,
                                               unsigned second) const;

  int64_t getVersions(Value buffer);
  std::string describe(unsigned index) const;
  std::string describeBuffer(Value buffer);
  ScheduleViolation makeViolation(unsigned at, unsigned other,
                                  std::string message, std::string note);

  PipelinedOp loop;
  const PipelineSchedule &schedule;
  SmallVector<MemoryAccesses> accesses;
  DenseMap<Value, int64_t> versions;
  std::unique_ptr<AsmState> asmState;
};

} // namespace

/// The versions the rewrite gives `buffer`, 1 where it does not multi-buffer
/// it; once per buffer, as the checks ask for every pair of statements.
int64_t ScheduleChecker::getVersions(Value buffer) {
  auto [it, inserted] = versions.try_emplace(buffer, 1);
  if (inserted && isMultiBuffered(schedule, buffer))
    it->second = schedule.getNumVersions(buffer);
  return it->second;
}

std::string ScheduleChecker::describe(unsigned index) const {
  return schedule.describe(index);
}

std::string ScheduleChecker::describeBuffer(Value buffer) {
  if (!buffer)
    return "unknown memory";
  std::string result;
  llvm::raw_string_ostream os(result);
  auto type = dyn_cast<MemRefType>(buffer.getType());
  std::optional<MemorySpace> space = type ? getMemorySpace(type) : std::nullopt;
  if (space == MemorySpace::Shared)
    os << "shared tile ";
  else if (space == MemorySpace::Fragment)
    os << "fragment ";
  else
    os << "buffer ";
  // Number values as the printer does for the enclosing function, so the
  // name matches what `tile-opt` prints.
  if (!asmState) {
    Operation *root = loop->getParentWithTrait<OpTrait::IsIsolatedFromAbove>();
    asmState = std::make_unique<AsmState>(root ? root : loop.getOperation());
  }
  buffer.printAsOperand(os, *asmState);
  if (type) {
    os << " (";
    for (int64_t dim : type.getShape()) {
      if (ShapedType::isDynamic(dim))
        os << "?";
      else
        os << dim;
      os << "x";
    }
    os << type.getElementType() << ")";
  }
  return result;
}

ScheduleViolation ScheduleChecker::makeViolation(unsigned at, unsigned other,
                                                 std::string message,
                                                 std::string note) {
  // A dependence that comes only from undeclared effects looks arbitrary
  // unless the message says where it comes from.
  for (unsigned index : {at, other})
    if (index < accesses.size() &&
        (accesses[index].readsUnknown || accesses[index].writesUnknown))
      message += "; statement #" + std::to_string(index) +
                 " does not declare its memory effects, so it is assumed to "
                 "touch all memory";
  ScheduleViolation violation;
  violation.op = schedule.statements[at];
  violation.other = schedule.statements[other];
  violation.message = std::move(message);
  violation.note = std::move(note);
  return violation;
}

SmallVector<Dependence>
ScheduleChecker::getMemoryDependences(unsigned first, unsigned second) const {
  const MemoryAccesses &a = accesses[first];
  const MemoryAccesses &b = accesses[second];
  SmallVector<Value> candidates;
  for (const MemoryAccesses *side : {&a, &b})
    for (Value buffer : llvm::concat<const Value>(side->reads, side->writes))
      if (!llvm::is_contained(candidates, buffer))
        candidates.push_back(buffer);

  SmallVector<Dependence> dependences;
  for (Value buffer : candidates) {
    if (a.mayWrite(buffer) && b.mayRead(buffer))
      dependences.push_back({DependenceKind::ReadAfterWrite, buffer});
    else if (a.mayRead(buffer) && b.mayWrite(buffer))
      dependences.push_back({DependenceKind::WriteAfterRead, buffer});
    else if (a.mayWrite(buffer) && b.mayWrite(buffer))
      dependences.push_back({DependenceKind::WriteAfterWrite, buffer});
  }
  if (a.writesUnknown && b.readsUnknown)
    dependences.push_back({DependenceKind::ReadAfterWrite, Value()});
  else if (a.readsUnknown && b.writesUnknown)
    dependences.push_back({DependenceKind::WriteAfterRead, Value()});
  else if (a.writesUnknown && b.writesUnknown)
    dependences.push_back({DependenceKind::WriteAfterWrite, Value()});
  return dependences;
}

std::optional<ScheduleViolation> ScheduleChecker::checkLists() {
  size_t n = schedule.statements.size();
  std::optional<std::string> error = checkStageList(schedule.stage, n);
  if (!error)
    error = checkOrderList(schedule.order, n);
  if (!error)
    return std::nullopt;
  ScheduleViolation violation;
  violation.message = std::move(*error);
  return violation;
}

std::optional<ScheduleViolation> ScheduleChecker::checkWithinIteration() {
  ArrayRef<int64_t> stage = schedule.stage, order = schedule.order;
  for (unsigned b = 0, n = schedule.statements.size(); b < n; ++b) {
    SmallVector<unsigned> valueDeps =
        getValueProducers(loop, schedule.statements, b);
    for (unsigned a = 0; a < b; ++a) {
      bool earlierStage = stage[b] < stage[a];
      bool earlierOrder = stage[b] == stage[a] && order[b] < order[a];
      if (!earlierStage && !earlierOrder)
        continue;
      SmallVector<Dependence> deps;
      if (llvm::is_contained(valueDeps, a))
        deps.push_back({DependenceKind::Value, Value()});
      llvm::append_range(deps, getMemoryDependences(a, b));
      if (deps.empty())
        continue;
      const Dependence &dep = deps.front();
      std::string A = describe(a), B = describe(b);
      std::string X = describeBuffer(dep.buffer);
      std::string prefix = earlierStage ? B + " "
                                        : "'order' runs " + B + " before " + A +
                                              " in the same stage, but it ";
      std::string message, note;
      switch (dep.kind) {
      case DependenceKind::Value:
        message = prefix + "uses a value that " + A + " computes";
        note = A + " computes it here";
        break;
      case DependenceKind::ReadAfterWrite:
        message = prefix + "reads " + X + " that " + A + " writes";
        note = A + " writes " + X + " here";
        break;
      case DependenceKind::WriteAfterRead:
        message = prefix + "overwrites " + X + " that " + A +
                  " reads earlier in the same iteration";
        note = A + " reads " + X + " here";
        break;
      case DependenceKind::WriteAfterWrite:
        message = prefix + "writes " + X + " that " + A +
                  " writes earlier in the same iteration";
        note = A + " writes " + X + " here";
        break;
      }
      if (earlierStage) {
        message += ", so it cannot run in an earlier stage";
        if (dep.kind == DependenceKind::WriteAfterRead)
          message += " (the reader would see the next iteration's data: the "
                     "write-after-read that TileLang issue 2668 miscompiles)";
      }
      return makeViolation(b, a, std::move(message), std::move(note));
    }
  }
  return std::nullopt;
}

/// Whether `op` overwrites all of `tile` (an allocation, not a view): a
/// tile.clear of it, or a tile.copy into it at offset 0 whose extent is the
/// tile's shape (a global source gives that extent, out-of-bounds elements
/// reading as zero; a tile source must be at least as large).
static bool writesWholeTile(Operation *op, Value tile) {
  if (auto clear = dyn_cast<ClearOp>(op))
    return clear.getTile() == tile;
  auto copy = dyn_cast<CopyOp>(op);
  if (!copy || copy.getDest() != tile ||
      !llvm::all_of(copy.getDestIndices(),
                    [](Value index) { return isConstantIntValue(index, 0); }))
    return false;
  auto source = cast<MemRefType>(copy.getSource().getType());
  if (getMemorySpace(source) == MemorySpace::Global)
    return true;
  auto dest = cast<MemRefType>(tile.getType());
  return llvm::all_of(llvm::zip_equal(source.getShape(), dest.getShape()),
                      [](auto sizes) {
                        auto [from, to] = sizes;
                        return !ShapedType::isDynamic(from) && from >= to;
                      });
}

std::optional<ScheduleViolation> ScheduleChecker::checkIterationPrivateTiles() {
  unsigned n = schedule.statements.size();
  SmallVector<Value> checked;
  for (unsigned w = 0; w < n; ++w) {
    for (Value buffer : accesses[w].writes) {
      if (llvm::is_contained(checked, buffer) || getVersions(buffer) < 2)
        continue;
      checked.push_back(buffer);
      // The rewrite gives every iteration in flight its own version, so each
      // iteration must write all of the tile, and before it reads it.
      if (!writesWholeTile(schedule.statements[w], buffer)) {
        unsigned reader = 0;
        while (reader < n && (reader == w || !accesses[reader].mayRead(buffer)))
          ++reader;
        std::string X = describeBuffer(buffer);
        std::string message =
            describe(w) + " may not write all of " + X +
            " in every iteration (it writes a part, or writes under a "
            "condition), but the schedule splits the tile into " +
            std::to_string(getVersions(buffer)) +
            " versions, one per iteration in flight, and the rest of each "
            "version would hold another iteration's data; write the whole "
            "tile (a tile.copy or tile.clear of all of it)";
        return makeViolation(w, reader < n ? reader : w, std::move(message),
                             (reader < n ? describe(reader) : describe(w)) +
                                 " reads " + X + " here");
      }
      unsigned first = 0;
      while (!accesses[first].mayRead(buffer) &&
             !accesses[first].mayWrite(buffer))
        ++first;
      if (!accesses[first].mayRead(buffer))
        continue;
      unsigned writer = first;
      while (!accesses[writer].mayWrite(buffer))
        ++writer;
      std::string X = describeBuffer(buffer);
      std::string message =
          describe(first) + " reads " + X + " before " + describe(writer) +
          " overwrites it in the same iteration, so it needs the previous "
          "iteration's data; but the schedule splits the tile into " +
          std::to_string(getVersions(buffer)) +
          " versions, one per iteration in flight, and the read would see "
          "its own iteration's version (TileLang issue 2668)";
      return makeViolation(first, writer, std::move(message),
                           describe(writer) + " overwrites " + X + " here");
    }
  }
  return std::nullopt;
}

std::optional<ScheduleViolation> ScheduleChecker::checkAcrossIterations() {
  ArrayRef<int64_t> stage = schedule.stage, order = schedule.order;
  unsigned n = schedule.statements.size();
  // Statement `a` of iteration k must run before statement `b` of iteration
  // k + d whenever they touch the same memory. Iteration k + d runs `b` at
  // time k + d + stage(b); the closest conflicting pair is d = 1, or d =
  // versions for a multi-buffered tile (closer iterations use other versions).
  for (unsigned a = 0; a < n; ++a) {
    for (unsigned b = 0; b < n; ++b) {
      if (a == b)
        continue;
      for (const Dependence &dep : getMemoryDependences(a, b)) {
        int64_t distance = dep.buffer ? getVersions(dep.buffer) : 1;
        int64_t lead = stage[a] - stage[b];
        if (lead < distance || (lead == distance && order[a] < order[b]))
          continue;
        std::string A = describe(a), B = describe(b);
        std::string X = describeBuffer(dep.buffer);
        std::string later = "iteration k+" + std::to_string(distance);
        std::string message =
            B + " of " + later + " runs before " + A + " of iteration k, ";
        std::string note;
        switch (dep.kind) {
        case DependenceKind::ReadAfterWrite:
          message += "but it reads " + X + " that " + A + " writes";
          note = A + " writes " + X + " here";
          break;
        case DependenceKind::WriteAfterRead:
          message +=
              "but it overwrites " + X + " that " + A + " still has to read";
          note = A + " reads " + X + " here";
          break;
        case DependenceKind::WriteAfterWrite:
          message += "but both write " + X +
                     ", so the earlier iteration's write would land last";
          note = A + " writes " + X + " here";
          break;
        case DependenceKind::Value:
          llvm_unreachable(
              "getMemoryDependences gives memory dependences only");
        }
        if (distance > 1)
          message += " (the tile has " + std::to_string(distance) +
                     " versions, so iterations k and k+" +
                     std::to_string(distance) + " share one)";
        return makeViolation(b, a, std::move(message), std::move(note));
      }
    }
  }
  return std::nullopt;
}

std::optional<ScheduleViolation> ScheduleChecker::run() {
  if (std::optional<ScheduleViolation> violation = checkLists())
    return violation;
  for (Operation *statement : schedule.statements)
    accesses.push_back(getMemoryAccesses(statement));
  if (std::optional<ScheduleViolation> violation = checkWithinIteration())
    return violation;
  if (std::optional<ScheduleViolation> violation = checkIterationPrivateTiles())
    return violation;
  return checkAcrossIterations();
}

std::optional<ScheduleViolation>
mlir::tile::findScheduleViolation(PipelinedOp loop,
                                  const PipelineSchedule &schedule) {
  return ScheduleChecker(loop, schedule).run();
}

LogicalResult
mlir::tile::verifyScheduleLegality(PipelinedOp loop,
                                   const PipelineSchedule &schedule) {
  std::optional<ScheduleViolation> violation =
      findScheduleViolation(loop, schedule);
  if (!violation)
    return success();
  if (!violation->op)
    return loop.emitOpError() << violation->message;
  InFlightDiagnostic diag = violation->op->emitError(violation->message);
  diag.attachNote(violation->other->getLoc()) << violation->note;
  return diag;
}

LogicalResult mlir::tile::verifySchedule(PipelinedOp loop,
                                         const PipelineSchedule &schedule) {
  // A num_stages that disagrees with the stage list is the op verifier's.
  return verifyScheduleLegality(loop, schedule);
}
