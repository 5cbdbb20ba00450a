//===- SplitAccumulators.cpp - Accumulators in parts that fit registers ---===//
//
// Part of tile-mlir.
//
// A GEMM accumulator is a fragment: M x N f32 elements spread over the
// block's threads, one register each. Past the per-thread limit (a 256x256
// tile at 128 threads needs 512 registers a thread, the limit is 255) ptxas
// spills it to local memory, and on an H200 the seed's 256x256x64
// configuration ran at 25 TFLOP/s. The accumulator's rows and columns are
// independent, so the kernel can compute it in parts that fit: each part
// clears its own sub-tile, runs its own copy of the reduction loop over the
// rows of A and the columns of B that it needs, and stores its part of C,
// in a block of its own where the kernel allows it, else one part after
// another. Every element is the same sum in the same order, so the results
// are those of the kernel as written, bit for bit.
//
// Upstream's tiling (scf::tileUsingSCF) tiles TilingInterface ops on tensors
// or buffers; a tile kernel's accumulator is a value that a clear, a loop of
// GEMMs and a store share, which that interface does not describe, so the
// rewrite is ours.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/Transforms/Passes.h"
#include "tile/Dialect/Tile/Utils/IndexFacts.h"
#include "tile/Dialect/Tile/Utils/LoopUtils.h"
#include "tile/Dialect/Tile/Utils/MemRefUtils.h"
#include "tile/Dialect/Tile/Utils/PassOptions.h"
#include "tile/Runtime/LaunchDesc.h"
#include "tile/Target/Chip.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/MathExtras.h"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_TILESPLITACCUMULATORS
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;
using namespace mlir::tile;

/// The smallest extent of a part in either dimension: one mma.sync m16n8k16
/// tile is 16 rows.
static constexpr int64_t kMinPartExtent = 16;

namespace {

/// How an M x N accumulator is cut: `parts[d]` pieces along dimension d
/// (0: rows, 1: columns), each `partShape[d]` long. Only the first
/// `computed[d]` of them are computed: those past it lie wholly outside the
/// tensors that the accumulator is stored into, for every block.
struct SplitPlan {
  int64_t parts[2] = {1, 1};
  int64_t partShape[2] = {0, 0};
  int64_t computed[2] = {1, 1};

  int64_t getNumParts() const { return parts[0] * parts[1]; }
  int64_t getNumComputed() const { return computed[0] * computed[1]; }
};

/// A shared tile that a GEMM into the accumulator reads, and which of its
/// dimensions runs along the accumulator's rows (A's role) or columns (B's).
struct OperandTile {
  AllocSharedOp alloc;
  unsigned accumulatorDim;
  unsigned tileDim;
};

/// The part of a kernel that computes one accumulator.
struct AccumulatorRegion {
  AllocFragmentOp accumulator;
  SmallVector<OperandTile> operands;
  /// Its stores of the whole tile into global memory.
  SmallVector<CopyOp> stores;
  /// The ops of the clear's block (the kernel body, or the body of a loop
  /// over tiles) from the accumulator's clear (or an earlier copy into a
  /// GEMM's tile) to its last store that each part repeats; the pure ones
  /// that need nothing repeated (index arithmetic) stay where they are.
  SmallVector<Operation *> repeated;
};

/// Parts that run in blocks of their own: for each accumulator dimension
/// that is cut (0: rows, 1: columns), the grid dimension whose blocks take
/// its parts. Where both take the same one, a block's part there is
/// `row part * column parts + column part`.
struct PartBlocks {
  std::optional<unsigned> gridDim[2];
};

} // namespace

static int64_t getRegisters(MemRefType type, int64_t threads) {
  return llvm::divideCeil(getTileBytes(type), threads * 4);
}

/// Halves the accumulator's longer dimension (rows on a tie) until a part's
/// registers and the GEMM's own fit the thread's limit; std::nullopt where
/// the parts would become smaller than kMinPartExtent first.
static std::optional<SplitPlan> planSplit(MemRefType type, int64_t threads,
                                          int64_t registerLimit) {
  SplitPlan plan;
  plan.partShape[0] = type.getDimSize(0);
  plan.partShape[1] = type.getDimSize(1);
  auto fits = [&] {
    MemRefType part = MemRefType::get({plan.partShape[0], plan.partShape[1]},
                                      type.getElementType());
    return getRegisters(part, threads) + kGemmExtraRegisters <= registerLimit;
  };
  auto halvable = [&](unsigned dim) {
    int64_t half = plan.partShape[dim] / 2;
    return plan.partShape[dim] % 2 == 0 && half % kMinPartExtent == 0;
  };
  while (!fits()) {
    unsigned dim = plan.partShape[1] > plan.partShape[0] ? 1 : 0;
    if (!halvable(dim))
      dim = 1 - dim;
    if (!halvable(dim))
      return std::nullopt;
    plan.parts[dim] *= 2;
    plan.partShape[dim] /= 2;
  }
  plan.computed[0] = plan.parts[0];
  plan.computed[1] = plan.parts[1];
  return plan;
}

/// Leaves out of `plan` the parts that no store of `region` reaches into. A
/// part starting `p * partShape` into the tile stores from the store's index
/// plus that, so where the index is at least `low` for every block and the
/// tensor has `size` rows (or columns), only the parts with
/// `low + p * partShape < size` can write anything; the others would clear,
/// copy tiles and compute for nothing (with M = 64 and 128-row tiles cut in
/// halves, the second half of every block). A dynamic size, or an index
/// without a known lower bound, keeps every part. At least one part is
/// computed, so that the kernel keeps its shape.
static void dropPartsOutside(SplitPlan &plan, const AccumulatorRegion &region) {
  for (unsigned dim = 0; dim < 2; ++dim) {
    int64_t reached = 1;
    for (CopyOp store : region.stores) {
      int64_t size =
          cast<MemRefType>(store.getDest().getType()).getDimSize(dim);
      std::optional<int64_t> low =
          store.getDestIndices().empty()
              ? std::optional<int64_t>(0)
              : getConstantLowerBound(store.getDestIndices()[dim]);
      if (ShapedType::isDynamic(size) || !low) {
        reached = plan.parts[dim];
        break;
      }
      if (size > *low)
        reached = std::max(
            reached, llvm::divideCeilSigned(size - *low, plan.partShape[dim]));
    }
    plan.computed[dim] = std::min(reached, plan.parts[dim]);
  }
}

static bool isGlobal(Value memref) {
  return getMemorySpace(cast<BaseMemRefType>(memref.getType())) ==
         MemorySpace::Global;
}

/// The block in which the parts of an accumulator cleared by `clear` are
/// cut: the clear's, where that is the kernel body or a block of loops over
/// tiles (scf.for, scf.while), each iteration of which computes the whole
/// accumulator again, or of branches (scf.if, scf.index_switch) there; else
/// null, with the reason in `why`. Where the parts run in blocks of their
/// own, every block of a tile takes the same iterations and branches: their
/// conditions see the tile's block index, the same for all its parts.
static Block *getPartsBlock(ClearOp clear, std::string &why) {
  Block *block = clear->getBlock();
  for (Operation *parent = clear->getParentOp(); !isa<KernelOp>(parent);
       parent = parent->getParentOp()) {
    if (!isa<scf::ForOp, scf::WhileOp, scf::IfOp, scf::IndexSwitchOp>(parent)) {
      why = "its clear is inside a '" + parent->getName().getStringRef().str() +
            "', and only one in the kernel's body, or in 'scf.for', "
            "'scf.while', 'scf.if' and 'scf.index_switch' ops there, can be "
            "split";
      return nullptr;
    }
  }
  return block;
}

/// Collects what computes `accumulator`, or says why the kernel cannot
/// compute it in parts.
static FailureOr<AccumulatorRegion>
analyzeAccumulator(AllocFragmentOp accumulator, std::string &why) {
  AccumulatorRegion region;
  region.accumulator = accumulator;
  Value acc = accumulator.getResult();
  ClearOp clear;
  for (Operation *user : acc.getUsers()) {
    auto op = dyn_cast<ClearOp>(user);
    if (!op)
      continue;
    if (clear) {
      why = "it is cleared more than once";
      return failure();
    }
    clear = op;
  }
  if (!clear) {
    why = "it is not cleared, accumulated by tile.gemm and stored into "
          "global memory";
    return failure();
  }
  // The clear, the top-level ops of the GEMMs and the stores share a block.
  Block *body = getPartsBlock(clear, why);
  if (!body)
    return failure();
  SmallVector<GemmOp> gemms;
  SmallVector<CopyOp> stores;
  for (Operation *user : acc.getUsers()) {
    if (user == clear) {
      continue;
    } else if (auto op = dyn_cast<GemmOp>(user);
               op && op.getC() == acc && op.getA() != acc && op.getB() != acc) {
      gemms.push_back(op);
    } else if (auto op = dyn_cast<CopyOp>(user);
               op && op->getBlock() == body && op.getSource() == acc &&
               op.getSourceIndices().empty() && isGlobal(op.getDest())) {
      stores.push_back(op);
    } else if (isa<CopyOp>(user) && user->getBlock() != body) {
      why = "its '" + user->getName().getStringRef().str() +
            "' is not in the block of its clear, and only stores beside the "
            "clear can be split";
      return failure();
    } else {
      why = "'" + user->getName().getStringRef().str() +
            "' uses it, and only a clear, GEMMs into it and stores of the "
            "whole tile into global memory can be split";
      return failure();
    }
  }
  if (gemms.empty() || stores.empty()) {
    why = "it is not cleared, accumulated by tile.gemm and stored into "
          "global memory";
    return failure();
  }
  region.stores = stores;
  // Each part stores its part of every store before the next part does:
  // where two stores may write overlapping, unequal regions of one tensor,
  // a part's first store would land after another part's second.
  for (auto [i, store] : llvm::enumerate(stores)) {
    for (CopyOp other : ArrayRef(stores).drop_front(i + 1)) {
      bool sameTile =
          store.getDest() == other.getDest() &&
          llvm::equal(store.getDestIndices(), other.getDestIndices());
      if (!sameTile && mayShareBuffer(store.getDest(), other.getDest())) {
        why = "two of its stores may write overlapping regions of one "
              "tensor, whose order its parts would not keep";
        return failure();
      }
    }
  }

  // Clear, then GEMMs, then stores, in that block.
  Operation *lastStore = stores.front();
  for (CopyOp store : stores)
    if (lastStore->isBeforeInBlock(store))
      lastStore = store;
  for (GemmOp gemm : gemms) {
    Operation *top = body->findAncestorOpInBlock(*gemm);
    bool ordered = top && clear->isBeforeInBlock(top) &&
                   llvm::all_of(stores, [&](CopyOp store) {
                     return top->isBeforeInBlock(store);
                   });
    if (!ordered) {
      why = "its GEMMs do not all run between its clear and its stores";
      return failure();
    }
  }
  // The ops that compute the accumulator start at its clear, or at a copy
  // into a GEMM's tile before it (a kernel without a reduction loop may
  // fill its tiles first); see `first` below.
  Operation *first = clear;
  auto inSpan = [&](Operation *op) {
    Operation *top = body->findAncestorOpInBlock(*op);
    return top && !top->isBeforeInBlock(first) &&
           !lastStore->isBeforeInBlock(top);
  };

  // The operand tiles, each in one role, allocated in the kernel body
  // before the clear (or the loop over tiles holding it).
  Block *kernelBody = accumulator->getBlock();
  Operation *clearTop = kernelBody->findAncestorOpInBlock(*clear);
  auto addOperand = [&](Value tile, unsigned accumulatorDim,
                        unsigned tileDim) -> LogicalResult {
    auto alloc = tile.getDefiningOp<AllocSharedOp>();
    if (!alloc || alloc->getBlock() != kernelBody ||
        !alloc->isBeforeInBlock(clearTop)) {
      // A version of a tile that tile-software-pipeline multi-buffered.
      auto view = tile.getDefiningOp<memref::SubViewOp>();
      if (!alloc && view && view.getSource().getDefiningOp<AllocSharedOp>())
        why = "a GEMM into it reads a version of a multi-buffered tile (run "
              "tile-split-accumulators before tile-software-pipeline)";
      else
        why = "a GEMM into it reads a tile that is not a shared tile "
              "allocated before its clear";
      return failure();
    }
    for (OperandTile &known : region.operands) {
      if (known.alloc != alloc)
        continue;
      if (known.accumulatorDim == accumulatorDim && known.tileDim == tileDim)
        return success();
      why = "a shared tile is read in two roles by its GEMMs";
      return failure();
    }
    region.operands.push_back({alloc, accumulatorDim, tileDim});
    return success();
  };
  for (GemmOp gemm : gemms) {
    if (failed(addOperand(gemm.getA(), 0, gemm.getTransposeA() ? 1 : 0)) ||
        failed(addOperand(gemm.getB(), 1, gemm.getTransposeB() ? 0 : 1)))
      return failure();
  }

  for (OperandTile &operand : region.operands) {
    for (Operation *user : operand.alloc->getUsers()) {
      Operation *top = body->findAncestorOpInBlock(*user);
      if (isa<CopyOp>(user) && top && top->isBeforeInBlock(first))
        first = top;
    }
  }

  // The operand tiles are read by those GEMMs and written by whole-tile
  // copies from global memory, all between `first` and the stores.
  llvm::SmallPtrSet<Operation *, 8> allowed;
  allowed.insert(clear);
  allowed.insert(gemms.begin(), gemms.end());
  for (CopyOp store : stores)
    allowed.insert(store);
  for (OperandTile &operand : region.operands) {
    for (Operation *user : operand.alloc->getUsers()) {
      if (allowed.contains(user))
        continue;
      auto load = dyn_cast<CopyOp>(user);
      if (!load || load.getDest() != operand.alloc.getResult() ||
          !load.getDestIndices().empty() || !isGlobal(load.getSource()) ||
          !inSpan(load)) {
        why = "'" + user->getName().getStringRef().str() +
              "' uses one of its GEMMs' shared tiles, which only whole-tile "
              "copies from global memory may fill";
        return failure();
      }
      // The same buffer, through whatever views (a memref.cast of the
      // tensor stored into, a second memref.get_global of its global):
      // each part would read what earlier parts stored.
      for (CopyOp store : stores) {
        if (mayShareBuffer(store.getDest(), load.getSource())) {
          why = "the tensor it is stored into is also read into its GEMMs' "
                "tiles";
          return failure();
        }
      }
      allowed.insert(load);
    }
  }

  // Everything else between `first` and the last store either only
  // computes values or holds such ops in its regions, so that each part can
  // repeat it.
  llvm::SmallPtrSet<Operation *, 16> repeated;
  for (Operation *top = first; top != lastStore->getNextNode();
       top = top->getNextNode()) {
    bool stays = isMemoryEffectFree(top) &&
                 llvm::all_of(top->getOperands(), [&](Value operand) {
                   return !repeated.contains(operand.getDefiningOp());
                 });
    if (stays)
      continue;
    WalkResult walk = top->walk([&](Operation *op) {
      if (allowed.contains(op) || isMemoryEffectFree(op) ||
          op->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
        return WalkResult::advance();
      why = "'" + op->getName().getStringRef().str() +
            "' runs between its clear and its stores, and each part would "
            "repeat it";
      return WalkResult::interrupt();
    });
    if (walk.wasInterrupted())
      return failure();
    repeated.insert(top);
    region.repeated.push_back(top);
  }
  for (Operation *op : region.repeated) {
    for (Operation *user : op->getUsers()) {
      if (!repeated.contains(body->findAncestorOpInBlock(*user))) {
        why = "a value computed between its clear and its stores is used "
              "after them";
        return failure();
      }
    }
  }
  return region;
}

/// Where `region`'s parts can each run in a block of their own: the columns'
/// parts along the grid's first dimension, the rows' along its second where
/// that is a constant that CUDA's limit leaves room to grow, else along the
/// first too. Says in `why` why not, where they cannot.
static std::optional<PartBlocks> placeInBlocks(KernelOp kernel,
                                               const AccumulatorRegion &region,
                                               const SplitPlan &plan,
                                               std::string &why) {
  using ::tile::runtime::kMaxGridDim;
  OperandRange grid = kernel.getGridSizes();
  PartBlocks blocks;
  if (plan.computed[1] > 1)
    blocks.gridDim[1] = 0;
  if (plan.computed[0] > 1) {
    // A grid's second dimension holds 65535 blocks at most; a size known
    // only at run time could pass that once multiplied, and stays as it is.
    std::optional<int64_t> rows =
        grid.size() > 1 ? evaluateConstantIndex(grid[1]) : std::nullopt;
    bool inY = rows && *rows * plan.computed[0] <= kMaxGridDim[1];
    blocks.gridDim[0] = inY ? 1 : 0;
  }
  int64_t partsInX = 1;
  for (unsigned cut = 0; cut < 2; ++cut)
    if (blocks.gridDim[cut] == 0u)
      partsInX *= plan.computed[cut];
  std::optional<int64_t> columns = evaluateConstantIndex(grid[0]);
  if (columns && *columns * partsInX > kMaxGridDim[0]) {
    why = "its grid would have " + std::to_string(*columns * partsInX) +
          " blocks in x, above CUDA's limit of " +
          std::to_string(kMaxGridDim[0]);
    return std::nullopt;
  }
  // One block wrote the accumulator's tiles of C in order; the parts' blocks
  // write them in no order with one another. Where two of those tiles may
  // overlap in part, a later store must win over an earlier one: a store in
  // a loop (each iteration stores another tile) whose index along a cut
  // dimension is not a multiple of the tile's extent there keeps the loop
  // over the parts, which runs inside that loop. (analyzeAccumulator refuses
  // two stores that may overlap in part.)
  AllocFragmentOp accumulator = region.accumulator;
  MemRefType accType = accumulator.getType();
  for (CopyOp store : region.stores) {
    // A store outside loops runs once per block (an scf.if around it runs
    // its branch once).
    bool inLoop = false;
    for (Operation *parent = store->getParentOp(); parent != kernel;
         parent = parent->getParentOp())
      inLoop |= isa<LoopLikeOpInterface>(parent);
    if (!inLoop)
      continue;
    // Through a view, the tile's place is the view's offset plus the
    // index: taken as unknown.
    bool throughView = getUnderlyingMemRef(store.getDest()) != store.getDest();
    for (unsigned dim = 0; dim < 2; ++dim) {
      if (plan.parts[dim] == 1)
        continue;
      int64_t divisor = store.getDestIndices().empty()
                            ? (int64_t{1} << 30)
                            : getKnownDivisor(store.getDestIndices()[dim]);
      if (!throughView && divisor % accType.getDimSize(dim) == 0)
        continue;
      std::string what =
          throughView ? std::string("it stores through a view of the tensor")
                      : "its " + std::string(dim == 0 ? "row" : "column") +
                            " is not known to be a multiple of " +
                            std::to_string(accType.getDimSize(dim));
      why = "its store in a loop may write tiles that overlap from one "
            "iteration to the next (" +
            what + "), and blocks of their own would not keep their order";
      return std::nullopt;
    }
  }
  // Every block of a part runs the whole kernel body (the loops over tiles
  // around the accumulator's ops included): what lies outside those ops must
  // not write anything.
  llvm::SmallPtrSet<Operation *, 16> repeated(region.repeated.begin(),
                                              region.repeated.end());
  WalkResult walk =
      kernel.getBody().walk<WalkOrder::PreOrder>([&](Operation *op) {
        if (repeated.contains(op))
          return WalkResult::skip();
        if (isMemoryEffectFree(op) || isa<AllocSharedOp, AllocFragmentOp>(op) ||
            op->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
          return WalkResult::advance();
        why = "'" + op->getName().getStringRef().str() +
              "' runs outside its clear and stores, and each block would "
              "repeat it";
        return WalkResult::interrupt();
      });
  if (walk.wasInterrupted())
    return std::nullopt;
  return blocks;
}

/// `indices` (none: all zero) with `offset` added in dimension `dim`, for a
/// copy inside `partOp`, a part's op (in the loop over the parts, or in the
/// kernel body where the parts are blocks). A sum goes right after its index
/// where that is computed beside `partOp` or inside it, else before
/// `partOp`, so that it stays out of the loops that the index does not vary
/// in.
static SmallVector<Value> shiftIndices(ValueRange indices, unsigned rank,
                                       unsigned dim, Value offset,
                                       Operation *partOp, Location loc) {
  OpBuilder builder(partOp);
  if (indices.empty()) {
    SmallVector<Value> shifted(rank,
                               arith::ConstantIndexOp::create(builder, loc, 0));
    shifted[dim] = offset;
    return shifted;
  }
  SmallVector<Value> shifted(indices);
  Value index = shifted[dim];
  Block *partBody = partOp->getBlock();
  if (partBody->findAncestorOpInBlock(*index.getParentBlock()->getParentOp()) ||
      index.getParentBlock() == partBody) {
    if (Operation *def = index.getDefiningOp())
      builder.setInsertionPointAfter(def);
    else
      builder.setInsertionPointToStart(index.getParentBlock());
    // And after the offset, where that comes later in the same block: the
    // block offsets are built at the top of the kernel body, after a block
    // index (a block argument) or the tile index made from it.
    Operation *offsetDef = offset.getDefiningOp();
    Block::iterator point = builder.getInsertionPoint();
    if (offsetDef && offsetDef->getBlock() == builder.getInsertionBlock() &&
        point != builder.getInsertionBlock()->end() &&
        !offsetDef->isBeforeInBlock(&*point))
      builder.setInsertionPointAfter(offsetDef);
  }
  shifted[dim] = arith::AddIOp::create(builder, loc, index, offset);
  return shifted;
}

/// Makes `kernel`'s grid `parts` times larger in dimension `dim`: the block
/// index `b` becomes the tile `b / parts` for the kernel body, and the part
/// `b % parts` is returned, both built at `inside`.
static Value makePartIndex(KernelOp kernel, unsigned dim, int64_t parts,
                           OpBuilder &inside, Location loc) {
  OpBuilder outside(kernel);
  Value size = kernel.getGridSizes()[dim];
  Value grown;
  if (std::optional<int64_t> constant = evaluateConstantIndex(size)) {
    grown = arith::ConstantIndexOp::create(outside, loc, *constant * parts);
  } else {
    Value factor = arith::ConstantIndexOp::create(outside, loc, parts);
    grown = arith::MulIOp::create(outside, loc, size, factor);
  }
  kernel.getGridSizesMutable().slice(dim, 1).assign(grown);
  BlockArgument index = kernel.getBody().front().getArgument(dim);
  Value count = arith::ConstantIndexOp::create(inside, loc, parts);
  auto tile = arith::DivUIOp::create(inside, loc, index, count);
  auto part = arith::RemUIOp::create(inside, loc, index, count);
  index.replaceAllUsesExcept(
      tile,
      SmallPtrSet<Operation *, 2>{tile.getOperation(), part.getOperation()});
  return part;
}

/// The row and column offsets of the part that each of `kernel`'s blocks
/// computes, with its grid grown for `blocks`; built at the top of the
/// kernel body. A dimension that is not cut has no offset.
static std::array<Value, 2> makeBlockOffsets(KernelOp kernel,
                                             const SplitPlan &plan,
                                             const PartBlocks &blocks,
                                             Location loc) {
  OpBuilder inside = OpBuilder::atBlockBegin(&kernel.getBody().front());
  std::array<Value, 2> parts;
  for (unsigned dim : {0u, 1u}) {
    bool rows = blocks.gridDim[0] == dim, columns = blocks.gridDim[1] == dim;
    if (!rows && !columns)
      continue;
    int64_t count =
        (rows ? plan.computed[0] : 1) * (columns ? plan.computed[1] : 1);
    Value part = makePartIndex(kernel, dim, count, inside, loc);
    if (!rows || !columns) {
      parts[rows ? 0 : 1] = part;
      continue;
    }
    // Both cuts in one grid dimension: the column part is the minor one.
    Value columnParts =
        arith::ConstantIndexOp::create(inside, loc, plan.computed[1]);
    parts[0] = arith::DivUIOp::create(inside, loc, part, columnParts);
    parts[1] = arith::RemUIOp::create(inside, loc, part, columnParts);
  }
  std::array<Value, 2> offsets;
  for (unsigned cut = 0; cut < 2; ++cut) {
    if (!parts[cut])
      continue;
    Value extent =
        arith::ConstantIndexOp::create(inside, loc, plan.partShape[cut]);
    offsets[cut] = arith::MulIOp::create(inside, loc, parts[cut], extent);
  }
  return offsets;
}

/// Computes `region`'s accumulator in the parts of `plan`: in a block each
/// where `blocks` says so, else one after another in a loop over the parts
/// (one per cut dimension) where its last store was. A loop rather than
/// copies of the ops: the software pipeline multi-buffers a shared tile for
/// one pipelined loop only.
static void splitAccumulator(AccumulatorRegion &region, const SplitPlan &plan,
                             const std::optional<PartBlocks> &blocks) {
  AllocFragmentOp accumulator = region.accumulator;
  Location loc = accumulator.getLoc();
  OpBuilder builder(accumulator);
  auto partType = [&](MemRefType type, unsigned dim, int64_t parts) {
    SmallVector<int64_t> shape(type.getShape());
    shape[dim] /= parts;
    return MemRefType::get(shape, type.getElementType(), type.getLayout(),
                           type.getMemorySpace());
  };
  MemRefType accType = accumulator.getType();
  auto partAcc = AllocFragmentOp::create(
      builder, loc,
      partType(partType(accType, 0, plan.parts[0]), 1, plan.parts[1]));

  // Operand tiles are cut along the accumulator dimension they follow;
  // those along an uncut dimension serve every part whole.
  IRMapping mapping;
  mapping.map(accumulator.getResult(), partAcc.getResult());
  llvm::DenseMap<Value, OperandTile *> cutTiles;
  for (OperandTile &operand : region.operands) {
    int64_t parts = plan.parts[operand.accumulatorDim];
    if (parts == 1)
      continue;
    builder.setInsertionPoint(operand.alloc);
    auto part = AllocSharedOp::create(
        builder, operand.alloc.getLoc(),
        partType(operand.alloc.getType(), operand.tileDim, parts));
    mapping.map(operand.alloc.getResult(), part.getResult());
    cutTiles[part.getResult()] = &operand;
  }

  // Each cut dimension's part index (a block's, or a loop's over the
  // parts), and its offset.
  builder.setInsertionPointAfter(region.repeated.back());
  std::array<Value, 2> offsets;
  if (blocks) {
    // The parts' ops stay where the accumulator's were.
    offsets = makeBlockOffsets(accumulator->getParentOfType<KernelOp>(), plan,
                               *blocks, loc);
  } else {
    // The parts' ops go into the innermost loop.
    auto constant = [&](int64_t value) {
      return arith::ConstantIndexOp::create(builder, loc, value);
    };
    for (unsigned dim = 0; dim < 2; ++dim) {
      if (plan.computed[dim] == 1)
        continue;
      Value lower = constant(0);
      Value upper = constant(plan.computed[dim]);
      Value step = constant(1);
      Value extent = constant(plan.partShape[dim]);
      auto loop = scf::ForOp::create(builder, loc, lower, upper, step);
      builder.setInsertionPointToStart(loop.getBody());
      offsets[dim] =
          arith::MulIOp::create(builder, loc, loop.getInductionVar(), extent);
    }
  }
  for (Operation *op : region.repeated) {
    Operation *part = builder.clone(*op, mapping);
    part->walk([&](CopyOp copy) {
      if (auto it = cutTiles.find(copy.getDest()); it != cutTiles.end()) {
        // A load of an operand tile reads this part's rows of A (or
        // columns of B): the tile's cut dimension is the source's. Where
        // only the first part is computed, it reads from the tile's start.
        OperandTile &operand = *it->second;
        if (!offsets[operand.accumulatorDim])
          return;
        copy.getSourceIndicesMutable().assign(
            shiftIndices(copy.getSourceIndices(),
                         cast<MemRefType>(copy.getSource().getType()).getRank(),
                         operand.tileDim, offsets[operand.accumulatorDim], part,
                         copy.getLoc()));
      } else if (copy.getSource() == partAcc.getResult()) {
        // A store writes this part's block of C (a 2-D tensor: the ranks of
        // a copy's sides match).
        SmallVector<Value> indices(copy.getDestIndices());
        for (unsigned dim = 0; dim < 2; ++dim)
          if (offsets[dim])
            indices = shiftIndices(indices, 2, dim, offsets[dim], part,
                                   copy.getLoc());
        copy.getDestIndicesMutable().assign(indices);
      }
    });
  }

  for (Operation *op : llvm::reverse(region.repeated))
    op->erase();
  for (OperandTile &operand : region.operands)
    if (plan.parts[operand.accumulatorDim] > 1)
      operand.alloc->erase();
  accumulator->erase();
}

namespace {

struct TileSplitAccumulatorsPass
    : mlir::tile::NamedOptionErrors<mlir::tile::impl::TileSplitAccumulatorsBase<
          TileSplitAccumulatorsPass>> {
  using NamedOptionErrors::NamedOptionErrors;

  void runOnOperation() override {
    const ChipInfo *chipInfo =
        lookupChipOrEmitError(getOperation()->getLoc(), chip, getArgument());
    if (!chipInfo)
      return signalPassFailure();
    SmallVector<KernelOp> kernels;
    getOperation()->walk([&](KernelOp kernel) { kernels.push_back(kernel); });
    for (KernelOp kernel : kernels) {
      int64_t threads = kernel.getThreads();
      int64_t limit = getRegisterLimit(*chipInfo, threads);
      auto accumulators =
          llvm::to_vector(kernel.getBody().front().getOps<AllocFragmentOp>());
      for (AllocFragmentOp accumulator : accumulators) {
        MemRefType type = accumulator.getType();
        bool isAccumulator =
            type.getRank() == 2 &&
            llvm::any_of(accumulator->getUsers(), [&](Operation *user) {
              auto gemm = dyn_cast<GemmOp>(user);
              return gemm && gemm.getC() == accumulator.getResult();
            });
        int64_t registers = getRegisters(type, threads);
        if (!isAccumulator || registers + kGemmExtraRegisters <= limit)
          continue;
        // At the location alone: the op's dump adds nothing to the shape.
        InFlightDiagnostic diag = emitRemark(accumulator.getLoc());
        diag << "this " << type.getDimSize(0) << "x" << type.getDimSize(1)
             << " accumulator needs " << registers
             << " registers per thread at " << threads
             << " threads, and a GEMM about " << kGemmExtraRegisters
             << " more; " << chipInfo->name << " gives a thread " << limit;
        std::string why = "no part of at least " +
                          std::to_string(kMinPartExtent) +
                          " rows and columns fits";
        std::optional<SplitPlan> plan = planSplit(type, threads, limit);
        FailureOr<AccumulatorRegion> region = failure();
        if (plan)
          region = analyzeAccumulator(accumulator, why);
        if (failed(region)) {
          diag << "; it stays whole and will spill, because " << why;
          continue;
        }
        dropPartsOutside(*plan, *region);
        int64_t computed = plan->getNumComputed();
        std::string shape = std::to_string(plan->partShape[0]) + "x" +
                            std::to_string(plan->partShape[1]);
        if (computed == plan->getNumParts()) {
          diag << "; it is computed in " << computed << " parts of " << shape;
        } else {
          diag << "; it is cut in " << plan->getNumParts() << " parts of "
               << shape << ", of which " << computed
               << (computed == 1 ? " reaches" : " reach") << " into the "
               << (region->stores.size() == 1 ? "tensor" : "tensors")
               << " it is stored into and " << (computed == 1 ? "is" : "are")
               << " computed";
        }
        std::string whyNotBlocks;
        std::optional<PartBlocks> placed;
        if (computed > 1) {
          if (blocks)
            placed = placeInBlocks(kernel, *region, *plan, whyNotBlocks);
          if (placed) {
            diag << ", each in a block of its own";
          } else {
            diag << ", one after another, each with its own reduction loop";
            if (blocks)
              diag << " (not in blocks of their own: " << whyNotBlocks << ")";
          }
        }
        diag.report();
        splitAccumulator(*region, *plan, placed);
      }
    }
  }
};

} // namespace
