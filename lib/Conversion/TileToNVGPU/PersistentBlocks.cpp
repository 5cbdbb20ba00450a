//===- PersistentBlocks.cpp - The tile-persistent-blocks pass -------------===//
//
// Part of tile-mlir. Turns a software-pipelined kernel into a persistent one:
// a fixed number of blocks loop over the tiles of the original grid, and
// each issues the next tile's prologue copies before it stores the current
// tile's results, so that their latency hides behind the stores. See the
// pass description in Passes.td.
//
// Upstream has no notion of a tile loop around a pipelined reduction, so
// this is ours. It works on the output of tile-software-pipeline, whose
// kernel body is: allocations, a head (clear, index math, the prologue's
// tile.copy_async and tile.commit_group), the loops and epilogue of the
// pipeline, and a tail that stores fragments to global memory.
//
//===----------------------------------------------------------------------===//

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "tile/Conversion/Passes.h"
#include "tile/Conversion/TileToNVGPU/BlockOrder.h"
#include "tile/Conversion/TileToNVGPU/InteriorBlocks.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Dialect/Tile/Utils/LoopUtils.h"
#include "tile/Dialect/Tile/Utils/PassOptions.h"
#include "tile/Runtime/LaunchDesc.h"
#include "llvm/Support/MathExtras.h"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_TILEPERSISTENTBLOCKS
#include "tile/Conversion/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;
using namespace mlir::tile;

namespace {
/// A kernel body (or a version of one) without its tile allocations, cut
/// into the parts the rewrite moves separately.
struct BodyParts {
  /// The leading clears, index math and prologue copies and commits.
  SmallVector<Operation *> head;
  /// From the first other op to the last one that synchronizes or computes
  /// on shared tiles (loops, gemms, waits, barriers, copies).
  SmallVector<Operation *> middle;
  /// The rest: the stores of the results.
  SmallVector<Operation *> tail;
  /// The head's copies and commits and the pure ops they use, in order.
  SmallVector<Operation *> prologue;
};
} // namespace

static std::optional<MemorySpace> getSpace(Value memref) {
  return getMemorySpace(cast<MemRefType>(memref.getType()));
}

/// Whether `op` is one of the prologue's copies or commits, which move to
/// where the previous tile's stores are: a tile.copy_async, a
/// tile.commit_group, or an scf.if without results that only computes and
/// issues copies (tile-software-pipeline guards each prologue step's copies
/// that way where the trip count is dynamic).
static bool isPrologueCopy(Operation *op) {
  if (isa<CopyAsyncOp, CommitGroupOp>(op))
    return true;
  auto branch = dyn_cast<scf::IfOp>(op);
  if (!branch || branch.getNumResults() != 0)
    return false;
  WalkResult walk = branch->walk([&](Operation *inner) {
    if (inner == op || isPure(inner) || isa<CopyAsyncOp, scf::YieldOp>(inner))
      return WalkResult::advance();
    return WalkResult::interrupt();
  });
  return !walk.wasInterrupted();
}

/// Cuts `body` (a kernel body, or a version of one, whose scf.yield stays
/// behind) into BodyParts, leaving out its tile allocations, or explains in
/// `why` why it does not have the expected shape (and in `culprit` the op
/// that does not fit it, where one does).
static std::optional<BodyParts> cutBody(Block &body, std::string &why,
                                        Operation *&culprit) {
  BodyParts parts;
  auto ops = body.without_terminator();
  // A fragment's clear belongs to the head; a shared tile's does not: the
  // head runs after the next tile's prologue copies are issued, which may
  // fill that tile.
  auto isHead = [](Operation &op) {
    auto clear = dyn_cast<ClearOp>(op);
    return isPure(&op) || isPrologueCopy(&op) ||
           (clear &&
            getMemorySpace(clear.getTile().getType()) == MemorySpace::Fragment);
  };
  auto isMiddle = [](Operation &op) {
    return op.getNumRegions() != 0 ||
           isa<GemmOp, WaitGroupOp, BarrierOp, CommitGroupOp, CopyAsyncOp>(op);
  };
  Operation *firstMiddle = nullptr, *lastMiddle = nullptr;
  for (Operation &op : ops) {
    if (isa<AllocSharedOp, AllocFragmentOp>(op))
      continue;
    if (!firstMiddle && !isHead(op))
      firstMiddle = &op;
    if (firstMiddle && isMiddle(op))
      lastMiddle = &op;
  }
  if (!lastMiddle) {
    why = "the kernel has no reduction (no loop, gemm or wait after its "
          "prologue)";
    return std::nullopt;
  }
  enum { Head, Middle, Tail } part = Head;
  for (Operation &op : ops) {
    if (isa<AllocSharedOp, AllocFragmentOp>(op))
      continue;
    if (&op == firstMiddle)
      part = Middle;
    SmallVector<Operation *> &into = part == Head     ? parts.head
                                     : part == Middle ? parts.middle
                                                      : parts.tail;
    into.push_back(&op);
    if (&op == lastMiddle)
      part = Tail;
  }
  llvm::SmallPtrSet<Operation *, 16> prologue;
  for (Operation *op : llvm::reverse(parts.head)) {
    bool copies = isPrologueCopy(op);
    // A user may sit in a region of a prologue op (the yield of an scf.if
    // that computes a copy's offset): what counts is its op in `body`.
    bool feeds = isPure(op) && llvm::any_of(op->getUsers(), [&](Operation *u) {
                   return prologue.contains(body.findAncestorOpInBlock(*u));
                 });
    if (copies || feeds)
      prologue.insert(op);
  }
  for (Operation *op : parts.head)
    if (prologue.contains(op))
      parts.prologue.push_back(op);
  // The next tile's prologue copies are in flight while the tail runs, so
  // the tail must not touch shared memory.
  for (Operation *op : parts.tail) {
    auto copy = dyn_cast<CopyOp>(op);
    bool store = copy && getSpace(copy.getSource()) == MemorySpace::Fragment &&
                 getSpace(copy.getDest()) == MemorySpace::Global;
    if (!isPure(op) && !store) {
      why = "after the pipeline, the kernel does more than store fragments";
      culprit = op;
      return std::nullopt;
    }
  }
  return parts;
}

/// Clones `ops`, in order, with `mapping`.
static void cloneAll(OpBuilder &b, ArrayRef<Operation *> ops,
                     IRMapping &mapping) {
  for (Operation *op : ops)
    b.clone(*op, mapping);
}

namespace {
/// A kernel body cut into BodyParts: the body itself, or each of the two
/// versions that tile-specialize-interior-blocks gave it (the interior
/// blocks' and the edge blocks'), which then become versions of each tile.
struct KernelParts {
  SmallVector<Operation *> allocs;
  /// With versions: the pure ops before them, which compute their
  /// condition from the block indices, and the scf.if that holds them.
  SmallVector<Operation *> condition;
  scf::IfOp versions;
  /// The parts of the body, or of the then and else versions.
  SmallVector<BodyParts, 2> parts;

  bool hasPrologue() const {
    return llvm::any_of(parts,
                        [](const BodyParts &p) { return !p.prologue.empty(); });
  }
};
} // namespace

/// Cuts the kernel body `body` into KernelParts, or explains in `why` (and
/// `culprit`, as cutBody) why it does not have the expected shape.
static std::optional<KernelParts> cutKernel(Block &body, std::string &why,
                                            Operation *&culprit) {
  KernelParts kernel;
  SmallVector<Operation *> rest;
  for (Operation &op : body) {
    if (isa<AllocSharedOp, AllocFragmentOp>(op))
      kernel.allocs.push_back(&op);
    else
      rest.push_back(&op);
  }
  auto versions = rest.empty() ? nullptr : dyn_cast<scf::IfOp>(rest.back());
  if (versions && versions->hasAttr(kBlockVersionsAttrName) &&
      versions.elseBlock() &&
      llvm::all_of(ArrayRef(rest).drop_back(),
                   [](Operation *op) { return isPure(op); })) {
    kernel.condition.assign(rest.begin(), rest.end() - 1);
    kernel.versions = versions;
    for (Block *version : {versions.thenBlock(), versions.elseBlock()}) {
      std::optional<BodyParts> parts = cutBody(*version, why, culprit);
      if (!parts)
        return std::nullopt;
      kernel.parts.push_back(std::move(*parts));
    }
    return kernel;
  }
  std::optional<BodyParts> parts = cutBody(body, why, culprit);
  if (!parts)
    return std::nullopt;
  kernel.parts.push_back(std::move(*parts));
  return kernel;
}

/// Emits `emit` of the kernel's parts for the tile whose block indices
/// `mapping` gives: of the one body, or of both versions, under an scf.if on
/// their condition for that tile (tile.block_versions, as the kernel's).
static void
emitForTile(OpBuilder &b, Location loc, const KernelParts &kernel,
            IRMapping &mapping,
            function_ref<void(OpBuilder &, const BodyParts &)> emit) {
  if (!kernel.versions) {
    emit(b, kernel.parts.front());
    return;
  }
  cloneAll(b, kernel.condition, mapping);
  scf::IfOp versions = kernel.versions;
  Value condition = mapping.lookupOrDefault(versions.getCondition());
  auto branch = scf::IfOp::create(b, loc, TypeRange(), condition,
                                  /*withElseRegion=*/true);
  branch->setAttr(kBlockVersionsAttrName, b.getUnitAttr());
  OpBuilder interior = OpBuilder::atBlockTerminator(branch.thenBlock());
  emit(interior, kernel.parts[0]);
  OpBuilder edge = OpBuilder::atBlockTerminator(branch.elseBlock());
  emit(edge, kernel.parts[1]);
}

/// Whether every thread has passed a barrier after the last op of `ops`
/// touched shared memory: the last op is a barrier, or a serial loop that
/// runs at least once and whose body ends with one (a serial K loop's
/// barrier before the next step's copies).
static bool endsWithBarrier(ArrayRef<Operation *> ops) {
  if (ops.empty())
    return false;
  if (isa<BarrierOp>(ops.back()))
    return true;
  auto loop = dyn_cast<scf::ForOp>(ops.back());
  if (!loop)
    return false;
  std::optional<int64_t> trips = getStaticTripCount(loop);
  Operation *last = loop.getBody()->getTerminator()->getPrevNode();
  return trips && *trips >= 1 && last && isa<BarrierOp>(last);
}

/// `size` as an index value at `b`: a constant, or the value itself (a grid
/// size defined above the kernel).
static Value materialize(OpBuilder &b, Location loc, OpFoldResult size) {
  if (auto value = dyn_cast<Value>(size))
    return value;
  return arith::ConstantIndexOp::create(
      b, loc, cast<IntegerAttr>(cast<Attribute>(size)).getInt());
}

/// The block indices of tile `t` of `grid`. A two-dimensional grid with
/// `group` > 1 runs in the grouped order of BlockOrder.h, the order the
/// outlining gives a grid of blocks; otherwise in row-major order (dimension
/// 0 fastest). With `limit`, t is first clamped to limit - 1 (an identity
/// where t < limit holds), so that index bounds see the grid's bounds.
static SmallVector<Value> tileIndices(OpBuilder &b, Location loc, Value t,
                                      ArrayRef<OpFoldResult> grid,
                                      int64_t group,
                                      std::optional<int64_t> limit) {
  auto constant = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  if (limit)
    t = arith::MinUIOp::create(b, loc, t, constant(*limit - 1));
  if (grid.size() == 2 && group > 1) {
    Value gridX = materialize(b, loc, grid[0]);
    Value gridY = materialize(b, loc, grid[1]);
    auto [x, y] = buildGroupedBlockOrder(b, loc, t, gridX, gridY, group);
    return {x, y};
  }
  SmallVector<Value> indices;
  Value stride;
  for (OpFoldResult size : grid) {
    Value extent = materialize(b, loc, size);
    Value scaled = stride ? b.createOrFold<arith::DivUIOp>(loc, t, stride) : t;
    indices.push_back(b.createOrFold<arith::RemUIOp>(loc, scaled, extent));
    stride =
        stride ? b.createOrFold<arith::MulIOp>(loc, stride, extent) : extent;
  }
  return indices;
}

static LogicalResult makePersistent(KernelOp kernel, int64_t blocks,
                                    int64_t group) {
  // Each grid size is a constant or a value defined above the kernel (one
  // computed from dynamic tensor sizes), which the tile loop reads too.
  SmallVector<OpFoldResult> grid;
  std::optional<int64_t> staticTiles = 1;
  for (Value size : kernel.getGridSizes()) {
    std::optional<int64_t> constant = evaluateConstantIndex(size);
    if (!constant) {
      grid.push_back(size);
      staticTiles.reset();
      continue;
    }
    if (*constant <= 0)
      return kernel.emitError("tile-persistent-blocks: the grid size ")
             << *constant << " is not positive";
    grid.push_back(
        IntegerAttr::get(IndexType::get(kernel.getContext()), *constant));
    if (staticTiles && llvm::MulOverflow(*staticTiles, *constant, *staticTiles))
      return kernel.emitError("tile-persistent-blocks: the grid has more "
                              "than 2^63 - 1 blocks");
  }
  if (staticTiles && *staticTiles <= blocks)
    return success(); // One tile per block already.

  // A block that leaves after its tile would leave the loop over the next
  // tiles with it, and those tiles would go uncomputed.
  Operation *exit = nullptr;
  kernel.walk([&](NVVM::Exit op) {
    exit = op;
    return WalkResult::interrupt();
  });
  if (exit) {
    InFlightDiagnostic diag =
        exit->emitError("tile-persistent-blocks: the kernel exits early "
                        "('nvvm.exit'); in a persistent kernel each block "
                        "runs several tiles, and an exit would leave the "
                        "rest uncomputed");
    diag.attachNote(kernel.getLoc()) << "in this kernel";
    return diag;
  }

  Block &body = kernel.getBody().front();
  std::string why;
  Operation *culprit = nullptr;
  std::optional<KernelParts> parts = cutKernel(body, why, culprit);
  if (!parts && culprit) {
    InFlightDiagnostic diag = culprit->emitError("tile-persistent-blocks: ")
                              << why;
    diag.attachNote(kernel.getLoc()) << "in this kernel";
    return diag;
  }
  if (!parts)
    return kernel.emitError("tile-persistent-blocks: ") << why;

  Location loc = kernel.getLoc();
  OpBuilder b(kernel);
  auto constant = [&](OpBuilder &builder, int64_t v) -> Value {
    return arith::ConstantIndexOp::create(builder, loc, v);
  };
  // The number of tiles: a constant, or the product of the grid sizes,
  // computed before the kernel (a dynamic grid may have fewer tiles than
  // `blocks`).
  Value end;
  if (!staticTiles) {
    for (OpFoldResult size : grid) {
      Value extent = materialize(b, loc, size);
      end = end ? arith::MulIOp::create(b, loc, end, extent) : extent;
    }
  }

  // A dynamic grid launches no more blocks than there are tiles (a
  // minimum the launch description's grid_expr spells as min(a,b)).
  Value gridSize = constant(b, blocks);
  if (!staticTiles)
    gridSize = arith::MinUIOp::create(b, loc, gridSize, end);
  auto persistent =
      KernelOp::create(b, loc, ValueRange{gridSize}, kernel.getThreadsAttr());
  Block *newBody = new Block();
  persistent.getBody().push_back(newBody);
  Value first = newBody->addArgument(b.getIndexType(), loc);
  for (Operation *alloc : parts->allocs)
    alloc->moveBefore(newBody, newBody->end());

  auto mapIndices = [&](IRMapping &mapping, ArrayRef<Value> indices) {
    for (auto [arg, index] : llvm::zip_equal(body.getArguments(), indices))
      mapping.map(arg, index);
  };
  bool hasPrologue = parts->hasPrologue();
  auto emitPrologue = [&](IRMapping &mapping) {
    return [&](OpBuilder &builder, const BodyParts &version) {
      cloneAll(builder, version.prologue, mapping);
    };
  };

  // The first tile's prologue: block `first` has a tile, since the grid is
  // no larger than the tile count.
  b.setInsertionPointToEnd(newBody);
  if (hasPrologue) {
    IRMapping mapping;
    mapIndices(mapping, tileIndices(b, loc, first, grid, group, staticTiles));
    emitForTile(b, loc, *parts, mapping, emitPrologue(mapping));
  }
  if (staticTiles)
    end = constant(b, *staticTiles);
  auto loop = scf::ForOp::create(b, loc, first, end, constant(b, blocks));
  b.setInsertionPoint(loop.getBody()->getTerminator());
  Value tile = loop.getInductionVar();
  IRMapping mapping;
  mapIndices(mapping, tileIndices(b, loc, tile, grid, group, std::nullopt));
  emitForTile(
      b, loc, *parts, mapping, [&](OpBuilder &vb, const BodyParts &version) {
        // The head without its copies and commits: the clears, and the index
        // math the loops use too.
        for (Operation *op : version.head)
          if (!isPrologueCopy(op))
            vb.clone(*op, mapping);
        cloneAll(vb, version.middle, mapping);
        // Every thread is done with the shared tiles before the next tile's
        // prologue overwrites them; the stores below read registers only.
        if (!endsWithBarrier(version.middle))
          BarrierOp::create(vb, loc);
        if (hasPrologue) {
          Value next =
              arith::AddIOp::create(vb, loc, tile, constant(vb, blocks));
          Value more = arith::CmpIOp::create(vb, loc, arith::CmpIPredicate::ult,
                                             next, end);
          auto branch = scf::IfOp::create(vb, loc, TypeRange(), more,
                                          /*withElseRegion=*/false);
          OpBuilder inner = OpBuilder::atBlockTerminator(branch.thenBlock());
          IRMapping nextMapping;
          mapIndices(nextMapping,
                     tileIndices(inner, loc, next, grid, group, staticTiles));
          // The next tile is interior or not on its own.
          emitForTile(inner, loc, *parts, nextMapping,
                      emitPrologue(nextMapping));
        }
        cloneAll(vb, version.tail, mapping);
      });
  kernel.erase();
  return success();
}

namespace {
struct TilePersistentBlocksPass
    : mlir::tile::NamedOptionErrors<mlir::tile::impl::TilePersistentBlocksBase<
          TilePersistentBlocksPass>> {
  using NamedOptionErrors::NamedOptionErrors;

  void runOnOperation() override {
    if (blocks <= 0) {
      emitError(getOperation()->getLoc(),
                "tile-persistent-blocks: blocks must be positive");
      return signalPassFailure();
    }
    // As tile-lower-to-nvgpu's block-group: past the most rows a grid can
    // have, every group is the whole grid, and a larger group would overflow
    // the group's first tile (group * grid_x) over a grid known at run time.
    if (blockGroup > ::tile::runtime::kMaxGridDim[1]) {
      emitError(getOperation()->getLoc())
          << "tile-persistent-blocks: block-group=" << int64_t(blockGroup)
          << " is more rows of tiles than a grid can have (at most "
          << ::tile::runtime::kMaxGridDim[1] << ")";
      return signalPassFailure();
    }
    SmallVector<KernelOp> kernels;
    getOperation()->walk([&](KernelOp kernel) { kernels.push_back(kernel); });
    for (KernelOp kernel : kernels)
      if (failed(makePersistent(kernel, blocks, blockGroup)))
        return signalPassFailure();
  }
};
} // namespace
