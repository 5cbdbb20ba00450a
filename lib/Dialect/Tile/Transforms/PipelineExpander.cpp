//===- PipelineExpander.cpp - Prologue, steady state, epilogue ------------===//
//
// Part of tile-mlir.
//
// Time step t runs, for every stage s, the statements of stage s for
// iteration t - s, in the planned order. Steps 0..S-1 (S = depth - 1) are
// the prologue, steps S..N-1 the steady-state `scf.for`, steps N..N+S-1 the
// epilogue; a statement instance runs iff its iteration is in [0, N), which
// `scf.if` guards check where N is not a known constant, so every trip count
// (0, 1, smaller than the depth, dynamic) is correct.
//
// Synchronization. Every step that has a stage-0 slot (prologue and steady
// state) commits exactly one group of asynchronous copies, empty if the
// copies are guarded off, so that the number of committed groups is the step
// number and wait counts are constants (TileOPs issue 1852 crashes on a
// symbolic one). Each step starts with `tile.wait_group P` and
// `tile.barrier` (prologue steps that only fill fresh versions skip them),
// before the step issues its own copies: the wait makes the
// data of the oldest iteration a later stage reads complete, the barrier
// makes it visible to all threads and also ends every read of the version
// this step's copies overwrite (a version is read at most V-1 steps after
// it is written, by the choice of V). With the reader at stage s, P = s - 1
// in the steady state (depth - 2 for the seed) and s - 1 - e in epilogue
// step e, counting down to 0; prologue steps need P = s - 1 as well. For a
// dynamic trip count smaller than S the prologue commits S groups instead of
// N, which only makes the epilogue's counts conservative. A reader in the
// same stage as the copy waits for the step's own group (`wait_group 0`).
//
// Why not scf::pipelineForLoop: its schedule is this one, and annotateFn
// (wait counts) plus supportDynamicLoops with a predicateFn (scf.if guards)
// could express most of the rest. But the waits and barriers sit between time
// steps and belong to no body statement, every step must commit a group even
// when its copies are guarded off, and without supportDynamicLoops it skips
// loops with fewer iterations than stages; threading all of that through its
// callbacks as extra scheduled ops is more code than emitting the steps
// directly, and less obvious to check against the CPU oracle.
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/Transforms/Pipelining.h"

#include "tile/Dialect/Tile/IR/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "tile/Dialect/Tile/Utils/LoopUtils.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

#include <numeric>

using namespace mlir;
using namespace mlir::tile;

/// The steady state is unrolled by the number of buffer versions up to this
/// factor (depth 8 at most).
static constexpr int64_t kMaxUnroll = 8;

namespace {
/// Whether a statement instance runs in a step: never, always, or when
/// `condition` holds.
struct Presence {
  bool never = false;
  Value condition;
};

/// One statement of the loop body and what the step builder needs of it.
struct Statement {
  Operation *op = nullptr;
  int64_t stage = 0;
  bool async = false;
  /// Shared tiles (old allocation values) and handed-over tensors
  /// (getHandedOverGlobals) the statement reads / writes.
  SmallVector<Value> reads, writes;
  /// The smallest stage distance to an asynchronous writer of a tile it
  /// reads that runs in an earlier stage; 0 if none.
  int64_t asyncDistance = 0;
  /// Whether it reads a tile written in an earlier stage (so in an earlier
  /// time step).
  bool readsEarlierStage = false;
};

class Expander {
public:
  Expander(RewriterBase &rewriter, PipelinedOp loop,
           const PipelineSchedule &schedule, bool unroll)
      : b(rewriter), loop(loop), loc(loop.getLoc()), unroll(unroll) {
    depth = schedule.getDepth();
    maxStage = depth - 1;
    SmallVector<int64_t> byOrder(schedule.statements.size());
    for (auto [i, position] : llvm::enumerate(schedule.order))
      byOrder[position] = i;
    for (int64_t index : byOrder) {
      Statement &statement = statements.emplace_back();
      statement.op = schedule.statements[index];
      statement.stage = schedule.stage[index];
    }
    classify(schedule);
  }

  void run();

private:
  void classify(const PipelineSchedule &schedule);
  Value tripCount();
  void emitStep(bool commits, int64_t epilogueStep,
                function_ref<Presence(int64_t)> presence,
                function_ref<Value(int64_t)> ivOfStage, bool topBarrier);
  void emitSteps(function_ref<Value(Value)> ivAt);
  void emitPrologue(function_ref<Value(Value)> ivAt);
  void emitSteadyState(function_ref<Value(Value)> ivAt);
  void emitEpilogue(function_ref<Value(Value)> ivAt);
  bool copiesMayRunPastTheEnd();
  void markSteadyState(scf::ForOp forOp);
  Operation *emitStatement(const Statement &statement, Value iv,
                           IRMapping &map);
  Value materialize(Value value, IRMapping &map);
  Value index(int64_t value) {
    return arith::ConstantIndexOp::create(b, loc, value);
  }

  RewriterBase &b;
  PipelinedOp loop;
  Location loc;
  int64_t depth, maxStage;
  bool unroll;
  SmallVector<Statement> statements;
  /// Multi-buffered tiles: old allocation -> (versioned allocation, V).
  llvm::MapVector<Value, std::pair<Value, int64_t>> versioned;
  /// In the unrolled steady state: the iteration number of stage 0 in the
  /// step being emitted, modulo the unroll factor (a multiple of every V),
  /// which makes every version index a constant.
  std::optional<int64_t> phase;
  bool touchesShared = false, hasAsync = false;
  Operation *lastAsync = nullptr;
  Value lb, step, n;
  std::optional<int64_t> staticN;
};
} // namespace

static bool isAsyncCandidate(Operation *op) {
  auto copy = dyn_cast<CopyOp>(op);
  if (!copy)
    return false;
  auto source = cast<MemRefType>(copy.getSource().getType());
  auto dest = cast<MemRefType>(copy.getDest().getType());
  return getMemorySpace(source) == MemorySpace::Global &&
         getMemorySpace(dest) == MemorySpace::Shared &&
         source.getElementType() == dest.getElementType();
}

void Expander::classify(const PipelineSchedule &schedule) {
  SetVector<Value> tiles;
  // Tiles used directly or through a view made outside the loop (a
  // single-version tile may be; PipelinePreconditions refuses views of
  // multi-buffered ones): a statement that touches one needs the same waits
  // and barriers either way.
  loop.walk([&](Operation *op) {
    for (Value operand : op->getOperands())
      if (auto alloc =
              getUnderlyingBuffer(operand).getDefiningOp<AllocSharedOp>())
        tiles.insert(alloc.getResult());
  });
  // And tensors that one statement writes and another reads, which need
  // the same barriers between them (PipelinePreconditions keeps such
  // statements in one stage; they get no versions).
  SmallVector<Value> globals = getHandedOverGlobals(llvm::map_to_vector(
      statements, [](const Statement &statement) { return statement.op; }));
  touchesShared = !tiles.empty() || !globals.empty();
  for (Statement &statement : statements) {
    for (Value buffer : llvm::concat<const Value>(tiles, globals)) {
      if (writesBuffer(statement.op, buffer))
        statement.writes.push_back(buffer);
      if (readsBuffer(statement.op, buffer))
        statement.reads.push_back(buffer);
    }
  }
  // Stage-0 copies become asynchronous; later-stage or converting copies stay
  // synchronous (cp.async neither converts nor fits a later stage's slot in
  // the group count), and so does a copy into a tile that no statement of the
  // loop reads (nothing would wait for it, and two copies in flight to the
  // same address land in no defined order) or that a statement ordered
  // before it reads (that statement reads the previous iteration's tile,
  // which no wait covers). So does a copy from a tensor that a statement of
  // the loop writes: an asynchronous copy reads its source any time until
  // its wait, which may be after that write (in the same step or in the
  // steps its group stays in flight).
  DenseMap<Value, Statement *> asyncWriter;
  auto canBeAsync = [&](size_t position) {
    const Statement &writer = statements[position];
    if (writer.stage != 0 || !isAsyncCandidate(writer.op))
      return false;
    Value source = getUnderlyingBuffer(cast<CopyOp>(writer.op).getSource());
    if (llvm::any_of(statements, [&](const Statement &other) {
          return other.op != writer.op && writesBuffer(other.op, source);
        }))
      return false;
    return llvm::all_of(writer.writes, [&](Value tile) {
      bool read = false;
      for (auto [index, reader] : llvm::enumerate(statements)) {
        if (index == position || !llvm::is_contained(reader.reads, tile))
          continue;
        if (index < position && reader.stage == writer.stage)
          return false;
        read = true;
      }
      return read;
    });
  };
  for (auto [position, statement] : llvm::enumerate(statements)) {
    statement.async = canBeAsync(position);
    if (!statement.async)
      continue;
    for (Value tile : statement.writes)
      asyncWriter[tile] = &statement;
    hasAsync = true;
    lastAsync = statement.op;
  }
  DenseMap<Value, int64_t> writerStage;
  for (Statement &statement : statements)
    for (Value tile : statement.writes)
      writerStage[tile] = statement.stage;
  for (Statement &statement : statements)
    for (Value tile : statement.reads) {
      if (auto it = writerStage.find(tile);
          it != writerStage.end() && it->second < statement.stage)
        statement.readsEarlierStage = true;
      if (Statement *writer = asyncWriter.lookup(tile);
          writer && writer->stage < statement.stage) {
        int64_t distance = statement.stage - writer->stage;
        if (!statement.asyncDistance || distance < statement.asyncDistance)
          statement.asyncDistance = distance;
      }
    }
  for (Value tile : tiles) {
    int64_t versions = schedule.getNumVersions(tile);
    if (versions < 2)
      continue;
    auto alloc = tile.getDefiningOp<AllocSharedOp>();
    versioned[tile] = {createVersionedAlloc(b, alloc, versions), versions};
  }
}

/// Whether the stage-0 copies of one iteration more may run at the end of the
/// steady state, as tile-prefetch-fragments has them do (reading nothing,
/// they fill their tiles with zeros). They fill the version of each
/// multi-buffered tile that the next iteration would use, which no code
/// after the loop reads; but a single-version tile that code outside the
/// loop uses would be overwritten.
bool Expander::copiesMayRunPastTheEnd() {
  for (const Statement &statement : statements) {
    if (!statement.async)
      continue;
    for (Value tile : statement.writes)
      if (!versioned.contains(tile) &&
          llvm::any_of(tile.getUsers(), [&](Operation *user) {
            return !loop->isAncestor(user);
          }))
        return false;
  }
  return true;
}

/// Marks the steady-state loop of a loop with more than one stage for later
/// passes, with the number of stages (see TileDialect.td). A one-stage loop
/// is serial by request and stays so.
void Expander::markSteadyState(scf::ForOp forOp) {
  if (maxStage == 0 || !copiesMayRunPastTheEnd())
    return;
  Builder b(forOp.getContext());
  TileDialect::SteadyStateAttrHelper(forOp.getContext())
      .setAttr(forOp, b.getI64IntegerAttr(depth));
}

Value Expander::tripCount() {
  Value ub = loop.getUpperBound();
  staticN = getStaticTripCount(lb, ub, step);
  if (staticN)
    return index(*staticN);
  Value span = b.createOrFold<arith::SubIOp>(loc, ub, lb);
  Value count = b.createOrFold<arith::CeilDivUIOp>(loc, span, step);
  Value positive =
      b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::sgt, ub, lb);
  return b.createOrFold<arith::SelectOp>(loc, positive, count, index(0));
}

Value Expander::materialize(Value value, IRMapping &map) {
  if (Value mapped = map.lookupOrNull(value))
    return mapped;
  Operation *def = value.getDefiningOp();
  if (!def || def->getBlock() != &loop.getBody().front())
    return value;
  // The operands of `def` and of the ops in its regions (an scf.if that
  // yields a body value): values defined inside `def` are left alone.
  def->walk([&](Operation *nested) {
    for (Value operand : nested->getOperands())
      materialize(operand, map);
  });
  b.clone(*def, map);
  return map.lookup(value);
}

Operation *Expander::emitStatement(const Statement &statement, Value iv,
                                   IRMapping &map) {
  map.map(loop.getInductionVar(), iv);
  // The operands of the statement and of the ops in its regions.
  statement.op->walk([&](Operation *user) {
    for (Value operand : user->getOperands()) {
      auto it = versioned.find(operand);
      if (it == versioned.end()) {
        materialize(operand, map);
        continue;
      }
      if (map.contains(operand))
        continue;
      int64_t versions = it->second.second;
      Value version = phase
                          ? index(llvm::mod(*phase - statement.stage, versions))
                          : createVersionIndex(b, loc, iv, lb, step, versions);
      map.map(operand, createVersionView(b, loc, it->second.first, version));
    }
  });
  if (auto copy = dyn_cast<CopyOp>(statement.op); copy && statement.async) {
    auto lookup = [&](ValueRange values) {
      return llvm::map_to_vector(
          values, [&](Value v) { return map.lookupOrDefault(v); });
    };
    return CopyAsyncOp::create(
        b, copy.getLoc(), map.lookupOrDefault(copy.getSource()),
        lookup(copy.getSourceIndices()), map.lookupOrDefault(copy.getDest()),
        lookup(copy.getDestIndices()));
  }
  return b.clone(*statement.op, map);
}

void Expander::emitStep(bool commits, int64_t epilogueStep,
                        function_ref<Presence(int64_t)> presenceOf,
                        function_ref<Value(int64_t)> ivOfStage,
                        bool topBarrier) {
  SmallVector<Presence> presence;
  for (int64_t stage = 0; stage < depth; ++stage)
    presence.push_back(presenceOf(stage));
  std::optional<int64_t> pending;
  for (const Statement &statement : statements)
    if (statement.asyncDistance && !presence[statement.stage].never) {
      int64_t count =
          std::max<int64_t>(0, statement.asyncDistance - 1 - epilogueStep);
      pending = pending ? std::min(*pending, count) : count;
    }
  if (pending)
    WaitGroupOp::create(b, loc, *pending);
  if (touchesShared && (topBarrier || pending))
    BarrierOp::create(b, loc);

  // Shared tiles written in this step since the last barrier, with the
  // writer's stage. Only a statement of the same stage touches the same
  // version; other stages use other versions.
  llvm::SmallDenseMap<Value, int64_t> dirty;
  // Shared tiles that an asynchronous copy of this step fills, with its
  // stage, until a wait_group 0: a barrier does not complete cp.async.
  llvm::DenseSet<std::pair<Value, int64_t>> inFlight;
  // Shared tiles read in this step since the last barrier, with the reader's
  // stage: a later write by the same stage (a tile read as the previous
  // iteration's, then refilled) must wait for every thread's read.
  llvm::DenseSet<std::pair<Value, int64_t>> read;
  llvm::SmallDenseMap<int64_t, IRMapping> unguardedMaps, guardedResults;
  llvm::SmallDenseMap<int64_t, Value> ivs;
  // Whether an asynchronous copy of this step is not in a group yet. The
  // step's group is committed after its last asynchronous copy; a wait for a
  // copy earlier in the step must commit that copy's group first, since
  // cp.async.wait_group only waits for committed groups. The extra group
  // only makes the next steps' waits stricter: their counts assume one
  // group per step.
  bool uncommitted = false;
  for (const Statement &statement : statements) {
    const Presence &p = presence[statement.stage];
    if (!p.never) {
      bool needsBarrier = false, needsWait = false;
      for (Value tile :
           llvm::concat<const Value>(statement.reads, statement.writes)) {
        if (auto it = dirty.find(tile);
            it != dirty.end() && it->second == statement.stage)
          needsBarrier = true;
        // After the wait, a barrier makes every thread's copy visible.
        if (inFlight.contains({tile, statement.stage}))
          needsWait = needsBarrier = true;
      }
      for (Value tile : statement.writes)
        needsBarrier |= read.contains({tile, statement.stage});
      if (needsWait) {
        if (uncommitted)
          CommitGroupOp::create(b, loc);
        uncommitted = false;
        WaitGroupOp::create(b, loc, 0);
        inFlight.clear();
      }
      if (needsBarrier) {
        BarrierOp::create(b, loc);
        dirty.clear();
        read.clear();
      }
      Value &iv = ivs[statement.stage];
      if (!iv)
        iv = ivOfStage(statement.stage);
      if (p.condition) {
        // Guarded: the statement's results (used by later statements of its
        // stage, see checkRewritable) leave the scf.if, zero when it is off.
        IRMapping map = guardedResults[statement.stage];
        TypeRange types = statement.op->getResultTypes();
        auto ifOp = scf::IfOp::create(b, loc, types, p.condition,
                                      /*withElseRegion=*/!types.empty());
        {
          OpBuilder::InsertionGuard guard(b);
          if (types.empty()) {
            b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
            emitStatement(statement, iv, map);
          } else {
            b.setInsertionPointToStart(ifOp.thenBlock());
            Operation *clone = emitStatement(statement, iv, map);
            scf::YieldOp::create(b, loc, clone->getResults());
            b.setInsertionPointToStart(ifOp.elseBlock());
            SmallVector<Value> zeros;
            for (Type type : types)
              zeros.push_back(arith::ConstantOp::create(
                  b, loc, type, cast<TypedAttr>(b.getZeroAttr(type))));
            scf::YieldOp::create(b, loc, zeros);
          }
        }
        for (auto [result, guarded] :
             llvm::zip_equal(statement.op->getResults(), ifOp.getResults()))
          guardedResults[statement.stage].map(result, guarded);
      } else {
        emitStatement(statement, iv, unguardedMaps[statement.stage]);
      }
      for (Value tile : statement.writes) {
        dirty[tile] = statement.stage;
        if (statement.async)
          inFlight.insert({tile, statement.stage});
      }
      for (Value tile : statement.reads)
        read.insert({tile, statement.stage});
      uncommitted |= statement.async;
    }
    if (commits && statement.op == lastAsync) {
      CommitGroupOp::create(b, loc);
      uncommitted = false;
    }
  }
}

void Expander::emitSteps(function_ref<Value(Value)> ivAt) {
  emitPrologue(ivAt);
  emitSteadyState(ivAt);
  emitEpilogue(ivAt);
}

void Expander::emitPrologue(function_ref<Value(Value)> ivAt) {
  // Prologue: step t runs stages 0..t for iterations t..0. Its first steps
  // only fill fresh versions: they need a barrier only once a step reads
  // what an earlier one wrote, or a tile has been read at all (a later write
  // could overwrite it).
  bool readSoFar = false;
  for (int64_t t = 0; t < maxStage; ++t) {
    auto runs = [&](const Statement &statement) {
      return statement.stage <= t &&
             (!staticN || t - statement.stage < *staticN);
    };
    bool readsEarlierStep = llvm::any_of(statements, [&](const Statement &st) {
      return runs(st) && st.readsEarlierStage;
    });
    auto presence = [&](int64_t stage) -> Presence {
      if (stage > t)
        return {true, {}};
      int64_t iteration = t - stage;
      if (staticN)
        return {iteration >= *staticN, {}};
      return {false, b.createOrFold<arith::CmpIOp>(
                         loc, arith::CmpIPredicate::slt, index(iteration), n)};
    };
    emitStep(/*commits=*/true, 0, presence,
             [&](int64_t stage) { return ivAt(index(t - stage)); },
             /*topBarrier=*/t > 0 && (readSoFar || readsEarlierStep));
    readSoFar |= llvm::any_of(statements, [&](const Statement &st) {
      return runs(st) && !st.reads.empty();
    });
  }
}

void Expander::emitSteadyState(function_ref<Value(Value)> ivAt) {
  // Steady state: every stage runs, iteration t - s for stage s. It is
  // unrolled by the least common multiple U of the version counts, so that
  // every version index is a constant and the shared addresses fold into
  // immediate offsets instead of a div/rem and a multiply-add per access
  // every step; the other (N - S) mod U steps run in a rolled loop, before
  // the unrolled one when N is static.
  if (staticN && *staticN <= maxStage)
    return;
  auto emitSteadyStep = [&](Value iv, int64_t shift) {
    emitStep(
        /*commits=*/true, 0, [](int64_t) { return Presence(); },
        [&](int64_t stage) -> Value {
          int64_t distance = shift - stage;
          if (distance == 0)
            return iv;
          Value offset = b.createOrFold<arith::MulIOp>(
              loc, index(std::abs(distance)), step);
          if (distance < 0)
            return b.createOrFold<arith::SubIOp>(loc, iv, offset);
          return b.createOrFold<arith::AddIOp>(loc, iv, offset);
        },
        /*topBarrier=*/true);
  };
  // More copies of the body than kMaxUnroll would only grow the code. The
  // lcm stops growing there: that of 16 tiles' version counts at depth 53
  // would not fit in int64_t.
  int64_t factor = 1;
  for (auto &[tile, info] : versioned) {
    factor = std::lcm(factor, info.second);
    if (factor > kMaxUnroll)
      break;
  }
  if (!unroll || factor > kMaxUnroll)
    factor = 1;
  auto emitRolled = [&](Value from, Value to) {
    auto forOp = scf::ForOp::create(b, loc, from, to, step);
    markSteadyState(forOp);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(forOp.getBody()->getTerminator());
    emitSteadyStep(forOp.getInductionVar(), 0);
  };
  // Unrolled trips from `from` to `to`; `firstStep` is the step number of
  // `from` (its value mod V gives the constant version indices).
  auto emitUnrolled = [&](Value from, Value to, int64_t firstStep) {
    auto forOp = scf::ForOp::create(
        b, loc, from, to,
        b.createOrFold<arith::MulIOp>(loc, index(factor), step));
    markSteadyState(forOp);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(forOp.getBody()->getTerminator());
    for (int64_t u = 0; u < factor; ++u) {
      phase = firstStep + u;
      emitSteadyStep(forOp.getInductionVar(), u);
    }
    phase.reset();
  };
  Value first = ivAt(index(maxStage));
  Value last = ivAt(n);
  if (factor == 1) {
    emitRolled(first, last);
  } else if (staticN) {
    // The (N - S) mod U rolled steps run before the unrolled loop, so
    // that the unrolled loop is the kernel's last steady-state loop (the
    // one tile-prefetch-fragments pipelines further).
    int64_t steadySteps = *staticN - maxStage;
    int64_t rolled = steadySteps % factor;
    Value mainStart = ivAt(index(maxStage + rolled));
    if (rolled > 0)
      emitRolled(first, mainStart);
    if (steadySteps / factor > 0)
      emitUnrolled(mainStart, last, maxStage + rolled);
  } else {
    Value steady = b.createOrFold<arith::SubIOp>(
        loc, b.createOrFold<arith::MaxSIOp>(loc, n, index(maxStage)),
        index(maxStage));
    Value rolled = b.createOrFold<arith::RemUIOp>(loc, steady, index(factor));
    Value mainEnd = ivAt(b.createOrFold<arith::AddIOp>(
        loc, index(maxStage),
        b.createOrFold<arith::SubIOp>(loc, steady, rolled)));
    emitUnrolled(first, mainEnd, maxStage);
    emitRolled(mainEnd, last);
  }
}

void Expander::emitEpilogue(function_ref<Value(Value)> ivAt) {
  // Epilogue: step N + e runs stages e+1..S for iterations N-1..; steps
  // before S were prologue steps already.
  for (int64_t e = 0; e < maxStage; ++e) {
    Value condition;
    if (staticN) {
      if (*staticN + e < maxStage)
        continue;
    } else {
      condition = b.createOrFold<arith::CmpIOp>(
          loc, arith::CmpIPredicate::sge,
          b.createOrFold<arith::AddIOp>(loc, n, index(e)), index(maxStage));
    }
    auto presence = [&](int64_t stage) -> Presence {
      return {stage <= e, condition};
    };
    emitStep(
        /*commits=*/false, e, presence,
        [&](int64_t stage) {
          return ivAt(b.createOrFold<arith::AddIOp>(loc, n, index(e - stage)));
        },
        /*topBarrier=*/true);
  }
}

void Expander::run() {
  b.setInsertionPoint(loop);
  lb = loop.getLowerBound();
  step = loop.getStep();
  n = tripCount();
  auto ivAt = [&](Value iteration) -> Value {
    return b.createOrFold<arith::AddIOp>(
        loc, lb, b.createOrFold<arith::MulIOp>(loc, iteration, step));
  };

  // A loop known to run zero times leaves nothing behind.
  if (!staticN || *staticN > 0)
    emitSteps(ivAt);
  if (hasAsync)
    WaitGroupOp::create(b, loc, 0);

  // Uses of a multi-buffered tile outside the loop: after it they see the
  // last iteration's version (TileLang issue 3039), before it version 0.
  Block *loopBlock = loop->getBlock();
  Operation *afterLoop = loop->getNextNode();
  for (auto &[tile, info] : versioned) {
    auto [buffer, versions] = info;
    Value lastView;
    {
      Value lastIteration = b.createOrFold<arith::SubIOp>(
          loc, b.createOrFold<arith::MaxUIOp>(loc, n, index(1)), index(1));
      lastView = createVersionView(
          b, loc, buffer,
          createVersionIndex(b, loc, ivAt(lastIteration), lb, step, versions));
    }
    Value firstView;
    for (OpOperand &use : llvm::make_early_inc_range(tile.getUses())) {
      Operation *user = use.getOwner();
      if (loop->isAncestor(user))
        continue;
      Operation *ancestor = loopBlock->findAncestorOpInBlock(*user);
      bool after =
          ancestor && afterLoop &&
          (ancestor == afterLoop || afterLoop->isBeforeInBlock(ancestor));
      if (after) {
        use.set(lastView);
        continue;
      }
      if (!firstView) {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointAfterValue(buffer);
        // Version 0 starts where the buffer does, so it keeps the tile's
        // own type (offset 0): a view made of it before the loop still
        // verifies.
        firstView =
            memref::CastOp::create(b, loc, tile.getType(),
                                   createVersionView(b, loc, buffer, index(0)));
      }
      use.set(firstView);
    }
  }
  b.eraseOp(loop);
  for (auto &[tile, info] : versioned)
    if (tile.use_empty())
      b.eraseOp(tile.getDefiningOp());
}

void mlir::tile::expandPipelinedLoop(RewriterBase &rewriter, PipelinedOp loop,
                                     const PipelineSchedule &schedule,
                                     bool unroll) {
  Expander(rewriter, loop, schedule, unroll).run();
}
