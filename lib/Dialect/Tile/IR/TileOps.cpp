//===- TileOps.cpp - Tile dialect operations ------------------------------===//
//
// Part of tile-mlir.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Runtime/LaunchDesc.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/Support/MathExtras.h"

#include <limits>

using namespace mlir;
using namespace mlir::tile;

//===----------------------------------------------------------------------===//
// Memory spaces
//===----------------------------------------------------------------------===//

bool mlir::tile::isOrHoldsTileOp(Operation *op) {
  return op
      ->walk([](Operation *nested) {
        return isa_and_nonnull<TileDialect>(nested->getDialect())
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

std::optional<MemorySpace> mlir::tile::getMemorySpace(BaseMemRefType type) {
  Attribute space = type.getMemorySpace();
  if (!space)
    return MemorySpace::Global;
  auto gpuSpace = dyn_cast<gpu::AddressSpaceAttr>(space);
  if (!gpuSpace)
    return std::nullopt;
  switch (gpuSpace.getValue()) {
  case gpu::AddressSpace::Global:
    return MemorySpace::Global;
  case gpu::AddressSpace::Workgroup:
    return MemorySpace::Shared;
  case gpu::AddressSpace::Private:
    return MemorySpace::Fragment;
  }
  return std::nullopt;
}

StringRef mlir::tile::stringifyMemorySpace(MemorySpace space) {
  switch (space) {
  case MemorySpace::Global:
    return "global";
  case MemorySpace::Shared:
    return "shared";
  case MemorySpace::Fragment:
    return "fragment";
  }
  llvm_unreachable("unknown memory space");
}

Attribute mlir::tile::getMemorySpaceAttr(MLIRContext *context,
                                         MemorySpace space) {
  switch (space) {
  case MemorySpace::Global:
    return gpu::AddressSpaceAttr::get(context, gpu::AddressSpace::Global);
  case MemorySpace::Shared:
    return gpu::AddressSpaceAttr::get(context, gpu::AddressSpace::Workgroup);
  case MemorySpace::Fragment:
    return gpu::AddressSpaceAttr::get(context, gpu::AddressSpace::Private);
  }
  llvm_unreachable("unknown memory space");
}

//===----------------------------------------------------------------------===//
// Shared verification helpers
//===----------------------------------------------------------------------===//

/// Every tile op but `tile.kernel` describes work of one thread block, so it
/// must sit inside a kernel.
static LogicalResult verifyInsideKernel(Operation *op) {
  if (!op->getParentOfType<KernelOp>())
    return op->emitOpError("must be nested inside a 'tile.kernel'");
  return success();
}

/// Returns the memory space of `value`'s memref type, or emits an error that
/// names the operand `what`.
static FailureOr<MemorySpace> getSpaceOrError(Operation *op, Value value,
                                              StringRef what) {
  auto type = cast<MemRefType>(value.getType());
  std::optional<MemorySpace> space = getMemorySpace(type);
  if (!space)
    return op->emitOpError() << what << " is in unsupported memory space "
                             << type.getMemorySpace()
                             << "; expected none or #gpu.address_space<"
                                "global|workgroup|private>";
  return *space;
}

static bool isTileSpace(MemorySpace space) {
  return space == MemorySpace::Shared || space == MemorySpace::Fragment;
}

static std::string shapeToString(ArrayRef<int64_t> shape) {
  std::string result;
  llvm::raw_string_ostream os(result);
  llvm::interleave(
      shape, os,
      [&](int64_t d) {
        if (ShapedType::isDynamic(d))
          os << "?";
        else
          os << d;
      },
      "x");
  return result;
}

//===----------------------------------------------------------------------===//
// Custom directive: `(%a, %b) { region }` with index block arguments
//===----------------------------------------------------------------------===//

static ParseResult parseIndexRegion(OpAsmParser &parser, Region &region) {
  SmallVector<OpAsmParser::Argument> args;
  if (parser.parseArgumentList(args, OpAsmParser::Delimiter::Paren,
                               /*allowType=*/false))
    return failure();
  Type index = parser.getBuilder().getIndexType();
  for (OpAsmParser::Argument &arg : args)
    arg.type = index;
  if (parser.parseRegion(region, args))
    return failure();
  if (region.empty())
    region.emplaceBlock();
  return success();
}

static void printIndexRegion(OpAsmPrinter &p, Operation *, Region &region) {
  p << "(";
  llvm::interleaveComma(region.getArguments(), p,
                        [&](BlockArgument arg) { p.printOperand(arg); });
  p << ") ";
  p.printRegion(region, /*printEntryBlockArgs=*/false,
                /*printBlockTerminators=*/false);
}

/// Region arguments must be exactly `count` values of index type.
static LogicalResult verifyIndexArguments(Operation *op, Region &region,
                                          unsigned count, StringRef what) {
  Block &block = region.front();
  if (block.getNumArguments() != count)
    return op->emitOpError()
           << "expects " << count << " " << what << " as region arguments, got "
           << block.getNumArguments();
  for (BlockArgument arg : block.getArguments())
    if (!arg.getType().isIndex())
      return op->emitOpError()
             << "region argument #" << arg.getArgNumber()
             << " must be of index type, got " << arg.getType();
  return success();
}

//===----------------------------------------------------------------------===//
// KernelOp
//===----------------------------------------------------------------------===//

LogicalResult KernelOp::verify() {
  if (getOperation()->getParentOfType<KernelOp>())
    return emitOpError("cannot be nested inside another 'tile.kernel'");
  // The host side of a kernel (its grid, the memrefs it reads) is the code of
  // a function, which both lowerings rewrite: the GPU's into a launch, the
  // CPU's into loops, which a module body cannot hold once they are blocks.
  if (!getOperation()->getParentOfType<FunctionOpInterface>())
    return emitOpError("must be inside a function: its memref arguments are "
                       "the kernel's");
  // The GPU lowering makes a kernel a launch, which device code cannot hold.
  if (getOperation()->getParentOfType<gpu::GPUModuleOp>())
    return emitOpError("cannot be inside a 'gpu.module': a kernel is launched "
                       "from host code");
  size_t rank = getGridSizes().size();
  if (rank < 1 || rank > 3)
    return emitOpError() << "expects 1 to 3 grid sizes, got " << rank;
  for (auto [i, size] : llvm::enumerate(getGridSizes())) {
    APInt value;
    if (matchPattern(size, m_ConstantInt(&value)) &&
        !value.isStrictlyPositive())
      return emitOpError() << "grid size #" << i << " must be positive, got "
                           << value.getSExtValue();
  }
  int64_t threads = getThreadsAttr().getInt();
  if (threads <= 0 || threads % 32 != 0)
    return emitOpError() << "threads must be a positive multiple of 32 (the "
                            "warp size), got "
                         << threads;
  // Every CUDA GPU caps a block at 1024 threads.
  if (threads > ::tile::runtime::kMaxBlockThreads)
    return emitOpError() << "threads must be at most 1024 (the most a block "
                            "can have), got "
                         << threads;
  return success();
}

void KernelOp::getAsmBlockArgumentNames(Region &region,
                                        OpAsmSetValueNameFn setNameFn) {
  static constexpr StringLiteral names[] = {"bx", "by", "bz"};
  for (auto [arg, name] : llvm::zip(region.getArguments(), names))
    setNameFn(arg, name);
}

/// A tile op that may use `buffer`, or null when none does. The buffer is
/// followed into every memref that an op makes from it (a view, a cast, an
/// arith.select), that a region yields (to the results and region arguments
/// of the op that holds it) and that an op with regions takes (to its
/// regions' memref arguments and its memref results: an scf.for's iteration
/// arguments).
static Operation *findTileUser(Value buffer) {
  SmallVector<Value> worklist{buffer};
  DenseSet<Value> seen{buffer};
  auto follow = [&](ValueRange values) {
    for (Value value : values)
      if (isa<BaseMemRefType>(value.getType()) && seen.insert(value).second)
        worklist.push_back(value);
  };
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    for (Operation *user : value.getUsers()) {
      if (isa_and_nonnull<TileDialect>(user->getDialect()))
        return user;
      follow(user->getResults());
      // A yield hands its operands to its parent's results, or back to the
      // arguments of a region the parent runs again (an scf.for's next
      // iteration, an scf.while's other region).
      if (Operation *parent = user->getParentOp();
          user->hasTrait<OpTrait::IsTerminator>() && parent) {
        follow(parent->getResults());
        for (Region &region : parent->getRegions())
          for (Block &block : region)
            follow(block.getArguments());
      }
      for (Region &region : user->getRegions())
        for (Block &block : region)
          follow(block.getArguments());
    }
  }
  return nullptr;
}

static bool isShared(Type type) {
  auto memref = dyn_cast<BaseMemRefType>(type);
  return memref && getMemorySpace(memref) == MemorySpace::Shared;
}

/// Whether `type` is a memref in a memory space that the tile dialect does
/// not know (an integer one: 3 is shared memory to NVPTX).
static bool isInUnknownSpace(Type type) {
  auto memref = dyn_cast<BaseMemRefType>(type);
  return memref && !getMemorySpace(memref);
}

/// A non-tile op of a kernel body runs in every thread on the GPU and once
/// per block on the CPU, so a buffer that `memref.alloc` or `memref.alloca`
/// allocates there is one per thread on the GPU: right for a thread's own
/// scratch values, wrong for anything the block shares. Shared memory and
/// tiles that tile ops work on come from `tile.alloc_shared` and
/// `tile.alloc_fragment`, which the lowerings give one slot per block; the
/// GPU lowering lays out the block's shared memory for those tiles alone, so
/// shared memory from anywhere else (`gpu.dynamic_shared_memory`, which
/// holds the tiles, or a `memref.get_global`) is refused too.
static LogicalResult verifyBodyAllocations(KernelOp kernel) {
  WalkResult result = kernel.getBody().walk([](Operation *op) {
    if (isa_and_nonnull<TileDialect>(op->getDialect()))
      return WalkResult::advance();
    for (Value value : op->getResults()) {
      auto type = dyn_cast<MemRefType>(value.getType());
      if (!type)
        continue;
      bool allocates = hasEffect<MemoryEffects::Allocate>(op, value);
      if (allocates && isInUnknownSpace(type)) {
        op->emitOpError()
            << "allocates memory in memory space " << type.getMemorySpace()
            << " inside a 'tile.kernel', which the lowerings do not know: a "
               "kernel's memrefs are in no space or a '#gpu.address_space'";
        return WalkResult::interrupt();
      }
      if (allocates && isShared(type)) {
        op->emitOpError()
            << "allocates shared memory inside a 'tile.kernel', where it runs "
               "in every thread (one buffer per thread on the GPU); allocate "
               "shared tiles with 'tile.alloc_shared'";
        return WalkResult::interrupt();
      }
      // Views, casts and selects of shared memory take it as an operand, and
      // ops with regions yield it from them.
      if (isShared(type) && op->getNumRegions() == 0 &&
          llvm::none_of(op->getOperandTypes(), isShared)) {
        op->emitOpError()
            << "gives shared memory inside a 'tile.kernel' that is not a "
               "'tile.alloc_shared' tile: the lowering lays out the block's "
               "shared memory for those tiles alone";
        return WalkResult::interrupt();
      }
      if (!allocates)
        continue;
      if (Operation *user = findTileUser(value)) {
        InFlightDiagnostic diag =
            op->emitOpError()
            << "allocates a buffer that '" << user->getName()
            << "' uses, inside a 'tile.kernel', where it runs in every thread "
               "(one buffer per thread on the GPU); tile ops work on tiles "
               "of 'tile.alloc_shared' or 'tile.alloc_fragment' and on the "
               "kernel's tensors";
        diag.attachNote(user->getLoc()) << "used here";
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

LogicalResult KernelOp::verifyRegions() {
  if (failed(verifyIndexArguments(*this, getBody(), getGridSizes().size(),
                                  "block indices (one per grid dimension)")))
    return failure();
  return verifyBodyAllocations(*this);
}

//===----------------------------------------------------------------------===//
// PipelinedOp
//===----------------------------------------------------------------------===//

void PipelinedOp::getAsmBlockArgumentNames(Region &region,
                                           OpAsmSetValueNameFn setNameFn) {
  if (region.getNumArguments() == 1)
    setNameFn(region.getArgument(0), "k");
}

SmallVector<Operation *> PipelinedOp::getStatements() {
  SmallVector<Operation *> statements;
  for (Operation &op : getBody().front())
    if (!isMemoryEffectFree(&op))
      statements.push_back(&op);
  return statements;
}

/// Why a 'stage' or 'order' list of `size` entries does not have one entry
/// per statement, or std::nullopt when it does.
static std::optional<std::string> checkListLength(StringRef name, size_t size,
                                                  size_t numStatements) {
  if (size == numStatements)
    return std::nullopt;
  return ("'" + name + "' has " + Twine(size) + " entries but the body has " +
          Twine(numStatements) + " statements (one entry per statement)")
      .str();
}

int64_t mlir::tile::getStageListDepth(ArrayRef<int64_t> stage) {
  int64_t maxStage = 0;
  for (int64_t s : stage)
    maxStage = std::max(maxStage, s);
  return maxStage + 1;
}

std::optional<std::string> mlir::tile::checkStageList(ArrayRef<int64_t> stage,
                                                      size_t numStatements) {
  if (std::optional<std::string> error =
          checkListLength("stage", stage.size(), numStatements))
    return error;
  for (auto [i, s] : llvm::enumerate(stage)) {
    if (s < 0)
      return ("stage of statement #" + Twine(i) + " is negative (" + Twine(s) +
              ")")
          .str();
    if (s >= kMaxPipelineDepth)
      return ("stage of statement #" + Twine(i) + " is " + Twine(s) +
              "; the depth (max(stage) + 1) must be at most " +
              Twine(kMaxPipelineDepth))
          .str();
  }
  return std::nullopt;
}

std::optional<std::string> mlir::tile::checkOrderList(ArrayRef<int64_t> order,
                                                      size_t numStatements) {
  if (std::optional<std::string> error =
          checkListLength("order", order.size(), numStatements))
    return error;
  std::string notPermutation = "'order' is not a permutation of 0.." +
                               std::to_string(numStatements - 1) + ": ";
  llvm::SmallBitVector seen(numStatements);
  for (auto [i, o] : llvm::enumerate(order)) {
    if (o < 0 || o >= static_cast<int64_t>(numStatements))
      return (notPermutation + "entry #" + Twine(i) + " is " + Twine(o)).str();
    if (seen.test(o))
      return (notPermutation + Twine(o) + " appears twice").str();
    seen.set(o);
  }
  return std::nullopt;
}

LogicalResult PipelinedOp::verify() {
  if (failed(verifyInsideKernel(*this)))
    return failure();
  if (auto parent = getOperation()->getParentOfType<PipelinedOp>()) {
    InFlightDiagnostic diag =
        emitOpError("cannot be nested inside another 'tile.pipelined'");
    diag.attachNote(parent.getLoc()) << "enclosing 'tile.pipelined' is here";
    return diag;
  }
  if (std::optional<int64_t> numStages = getNumStages()) {
    if (*numStages < 0)
      return emitOpError() << "num_stages must be non-negative, got "
                           << *numStages;
    if (*numStages > kMaxPipelineDepth)
      return emitOpError() << "num_stages must be at most " << kMaxPipelineDepth
                           << " (the rewrite emits a prologue and an epilogue "
                              "step per stage), got "
                           << *numStages;
  }
  APInt step;
  if (matchPattern(getStep(), m_ConstantInt(&step)) &&
      !step.isStrictlyPositive())
    return emitOpError() << "step must be positive, got "
                         << step.getSExtValue();
  if (getOrder() && !getStage())
    return emitOpError("'order' requires 'stage': give the stage of every "
                       "statement, or only 'num_stages'");
  return success();
}

LogicalResult PipelinedOp::verifyRegions() {
  if (failed(verifyIndexArguments(*this, getBody(), 1, "induction variable")))
    return failure();

  size_t numStatements = getStatements().size();
  if (std::optional<ArrayRef<int64_t>> stage = getStage()) {
    if (std::optional<std::string> error =
            checkStageList(*stage, numStatements))
      return emitOpError() << *error;
    int64_t depth = getStageListDepth(*stage);
    if (std::optional<int64_t> numStages = getNumStages();
        numStages && *numStages != depth)
      return emitOpError() << "num_stages = " << *numStages
                           << " but 'stage' gives depth " << depth
                           << " (max(stage) + 1); give one of them, or make "
                              "them agree";
  }
  if (std::optional<ArrayRef<int64_t>> order = getOrder())
    if (std::optional<std::string> error =
            checkOrderList(*order, numStatements))
      return emitOpError() << *error;
  return success();
}

//===----------------------------------------------------------------------===//
// AllocSharedOp / AllocFragmentOp
//===----------------------------------------------------------------------===//

/// Tile ops move and compute signless integers, indices and floats: both
/// lowerings build their zeros, conversions and chunks with arith ops, which
/// take signless integers only (as everywhere in MLIR, signedness lives in
/// the ops, not the type).
static LogicalResult verifyTileElement(Operation *op, MemRefType type) {
  Type element = type.getElementType();
  if (element.isInteger(0))
    return op->emitOpError() << "has " << element
                             << " elements; a tile element has at least one "
                                "bit";
  if (element.isSignlessIntOrIndexOrFloat())
    return success();
  if (element.isInteger())
    return op->emitOpError()
           << "has " << element
           << " elements; tile integers are signless (i8, i16, ...), as "
              "arith's are";
  return op->emitOpError() << "has " << element
                           << " elements; tiles and the tensors that tile "
                              "copies read and write hold integer, index or "
                              "float elements";
}

static LogicalResult verifyTileAlloc(Operation *op, MemRefType type,
                                     MemorySpace expected) {
  if (failed(verifyInsideKernel(op)))
    return failure();
  std::optional<MemorySpace> space = getMemorySpace(type);
  if (space != expected) {
    InFlightDiagnostic diag = op->emitOpError()
                              << "must allocate in "
                              << getMemorySpaceAttr(op->getContext(), expected)
                              << ", got ";
    // An unsupported space is named as written: a bare 3, CUDA's number for
    // shared memory, is not the tile dialect's spelling of it.
    if (space)
      diag << stringifyMemorySpace(*space) << " memory";
    else
      diag << "unsupported memory space " << type.getMemorySpace();
    return diag;
  }
  for (auto [i, dim] : llvm::enumerate(type.getShape()))
    if (dim <= 0)
      return op->emitOpError()
             << "tile dimension #" << i << " must be positive, got " << dim;
  if (!type.getLayout().isIdentity())
    return op->emitOpError("tiles must have the identity layout");
  if (failed(verifyTileElement(op, type)))
    return failure();
  // Passes size tiles in int64_t bytes (shared memory offsets, the budget),
  // so a tile is at most kMaxTileBytes. verifyTileElement allows integers of
  // at least one bit, index (64 bits here) and floats.
  Type element = type.getElementType();
  int64_t bytes = llvm::divideCeil(
      element.isIndex() ? 64 : element.getIntOrFloatBitWidth(), int64_t(8));
  for (int64_t dim : type.getShape()) {
    if (dim > kMaxTileBytes / bytes)
      return op->emitOpError() << "tile of type " << type
                               << " is too large: a tile holds at most 2^32 "
                                  "bytes";
    bytes *= dim;
  }
  return success();
}

LogicalResult AllocSharedOp::verify() {
  return verifyTileAlloc(*this, getType(), MemorySpace::Shared);
}

LogicalResult AllocFragmentOp::verify() {
  return verifyTileAlloc(*this, getType(), MemorySpace::Fragment);
}

//===----------------------------------------------------------------------===//
// ClearOp
//===----------------------------------------------------------------------===//

LogicalResult ClearOp::verify() {
  if (failed(verifyInsideKernel(*this)))
    return failure();
  FailureOr<MemorySpace> space = getSpaceOrError(*this, getTile(), "tile");
  if (failed(space))
    return failure();
  if (!isTileSpace(*space))
    return emitOpError() << "expects a shared or fragment tile, got "
                         << stringifyMemorySpace(*space) << " memory";
  if (failed(verifyTileElement(*this, getTile().getType())))
    return failure();
  for (auto [i, dim] : llvm::enumerate(getTile().getType().getShape()))
    if (dim == 0)
      return emitOpError() << "clears an empty part of a tile (dimension #" << i
                           << " is 0)";
  // Both lowerings write the bit pattern 0, which is not a zero in a format
  // without one (f8E8M0FNU's 0x00 is 2^-127).
  if (auto element = dyn_cast<FloatType>(getTile().getType().getElementType());
      element && !llvm::APFloat::semanticsHasZero(element.getFloatSemantics()))
    return emitOpError() << "clears a tile of " << element
                         << " elements, which have no zero";
  return success();
}

//===----------------------------------------------------------------------===//
// CopyOp / CopyAsyncOp
//===----------------------------------------------------------------------===//

/// The copied extent. Between a tile and a global tensor it is the tile's
/// shape, whatever the tensor's size: the parts of the tile that fall
/// outside the tensor are zero-filled (or not stored), so a tensor smaller
/// than the tile (K = 20 with 32-wide tiles) still fills the whole tile.
/// Between two tiles (or two tensors, which the verifier rejects) it is the
/// smaller static size per dimension; a dynamic size counts as unbounded.
static SmallVector<int64_t> getCopyExtent(MemRefType source, MemRefType dest) {
  std::optional<MemorySpace> sourceSpace = getMemorySpace(source);
  std::optional<MemorySpace> destSpace = getMemorySpace(dest);
  bool sourceIsTile = sourceSpace && isTileSpace(*sourceSpace);
  bool destIsTile = destSpace && isTileSpace(*destSpace);
  if (sourceIsTile != destIsTile)
    return llvm::to_vector(sourceIsTile ? source.getShape() : dest.getShape());
  SmallVector<int64_t> extent;
  for (auto [s, d] : llvm::zip_equal(source.getShape(), dest.getShape())) {
    if (ShapedType::isDynamic(s))
      extent.push_back(d);
    else if (ShapedType::isDynamic(d))
      extent.push_back(s);
    else
      extent.push_back(std::min(s, d));
  }
  return extent;
}

/// Checks that the elements a copy writes go to places of their own: where
/// two land on one place, different threads write it at once on the GPU (the
/// CPU keeps the last). Along each dimension the copy writes min(extent,
/// size) elements (a global destination clips the tile), so a dimension of
/// one element is free to have any stride. With the strides sorted by
/// magnitude, each must step past all the places the smaller ones reach;
/// that proves the places distinct (and refuses a few layouts whose places
/// interleave without meeting). Dimensions of dynamic stride are left out:
/// where the others meet, so do two elements.
static LogicalResult verifyDistinctPlaces(Operation *op, MemRefType dest,
                                          ArrayRef<int64_t> extents) {
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(dest.getStridesAndOffset(strides, offset)))
    return success();
  struct Dim {
    unsigned index;
    int64_t count;
    uint64_t stride;
  };
  SmallVector<Dim> dims;
  for (auto [i, extent] : llvm::enumerate(extents)) {
    // A dynamic size may be smaller than the extent (a view of a tensor's
    // ragged edge): counted as 2 elements, the fewest that can meet.
    int64_t size = dest.getDimSize(i);
    int64_t count = std::min(extent, ShapedType::isDynamic(size) ? 2 : size);
    if (count == 0)
      return success(); // Nothing is written.
    if (count == 1)
      continue;
    if (ShapedType::isDynamic(strides[i]))
      continue;
    if (strides[i] == 0)
      return op->emitOpError()
             << "destination has stride 0 in dimension #" << i
             << ", along which the copy writes " << count
             << (ShapedType::isDynamic(size) ? " or more" : "")
             << " elements: several elements would be written to one place";
    dims.push_back(
        {unsigned(i), count,
         strides[i] < 0 ? 0 - uint64_t(strides[i]) : uint64_t(strides[i])});
  }
  llvm::stable_sort(
      dims, [](const Dim &a, const Dim &b) { return a.stride < b.stride; });
  // The farthest place the dimensions so far reach from the first
  // (saturated: no stride goes past 2^63).
  uint64_t reach = 0;
  for (const Dim &dim : dims) {
    if (dim.stride <= reach)
      return op->emitOpError()
             << "destination has stride " << dim.stride << " in dimension #"
             << dim.index << ", no more than the " << reach
             << " places that the dimensions of smaller strides reach: two "
                "elements may be written to one place";
    reach =
        llvm::SaturatingMultiplyAdd(dim.stride, uint64_t(dim.count - 1), reach);
  }
  return success();
}

/// Checks what `tile.copy` and `tile.copy_async` share and returns the memory
/// spaces of source and destination.
static FailureOr<std::pair<MemorySpace, MemorySpace>>
verifyCopyLike(Operation *op, Value source, ValueRange sourceIndices,
               Value dest, ValueRange destIndices, bool allowFloatConversion) {
  if (failed(verifyInsideKernel(op)))
    return failure();
  auto sourceType = cast<MemRefType>(source.getType());
  auto destType = cast<MemRefType>(dest.getType());
  if (failed(verifyTileElement(op, sourceType)) ||
      failed(verifyTileElement(op, destType)))
    return failure();
  FailureOr<MemorySpace> sourceSpace = getSpaceOrError(op, source, "source");
  FailureOr<MemorySpace> destSpace = getSpaceOrError(op, dest, "destination");
  if (failed(sourceSpace) || failed(destSpace))
    return failure();

  Type sourceElem = sourceType.getElementType();
  Type destElem = destType.getElementType();
  // The float types every backend converts between (arith.extf / truncf
  // reach LLVM's fpext / fptrunc); an f8 or tf32 conversion does not lower.
  auto convertible = [](Type type) {
    return type.isF16() || type.isBF16() || type.isF32() || type.isF64();
  };
  bool floatConversion =
      allowFloatConversion && convertible(sourceElem) && convertible(destElem);
  if (sourceElem != destElem && !floatConversion)
    return op->emitOpError()
           << "element type mismatch: source has " << sourceElem
           << ", destination has " << destElem
           << (allowFloatConversion
                   ? " (only f16, bf16, f32 and f64 convert into each other)"
                   : "");
  if (sourceType.getRank() != destType.getRank())
    return op->emitOpError()
           << "rank mismatch: source has rank " << sourceType.getRank()
           << ", destination has rank " << destType.getRank();
  if (!sourceIndices.empty() &&
      sourceIndices.size() != static_cast<size_t>(sourceType.getRank()))
    return op->emitOpError() << "expects " << sourceType.getRank()
                             << " source offsets (one per dimension), got "
                             << sourceIndices.size();
  if (!destIndices.empty() &&
      destIndices.size() != static_cast<size_t>(destType.getRank()))
    return op->emitOpError() << "expects " << destType.getRank()
                             << " destination offsets (one per dimension), got "
                             << destIndices.size();
  if (!isTileSpace(*sourceSpace) && !isTileSpace(*destSpace))
    return op->emitOpError("copies between two global tensors are not tile "
                           "copies: one side must be a shared or fragment "
                           "tile");
  SmallVector<int64_t> extents = getCopyExtent(sourceType, destType);
  for (auto [i, extent] : llvm::enumerate(extents)) {
    if (ShapedType::isDynamic(extent))
      return op->emitOpError()
             << "copy extent of dimension #" << i
             << " is unknown: the tile must have a static size there";
    // As a tile's own dimensions are (verifyTileAlloc); an empty part of
    // one is a mistake the GPU lowering's chunk plans cannot divide by.
    if (extent == 0)
      return op->emitOpError() << "copy extent of dimension #" << i
                               << " is 0: a tile copy copies a non-empty part "
                                  "of a tile";
  }
  if (failed(verifyDistinctPlaces(op, destType, extents)))
    return failure();
  return std::make_pair(*sourceSpace, *destSpace);
}

SmallVector<int64_t> CopyOp::getExtent() {
  return getCopyExtent(getSource().getType(), getDest().getType());
}

SmallVector<int64_t> CopyAsyncOp::getExtent() {
  return getCopyExtent(getSource().getType(), getDest().getType());
}

LogicalResult CopyOp::verify() {
  return verifyCopyLike(*this, getSource(), getSourceIndices(), getDest(),
                        getDestIndices(), /*allowFloatConversion=*/true);
}

LogicalResult CopyAsyncOp::verify() {
  auto spaces = verifyCopyLike(*this, getSource(), getSourceIndices(),
                               getDest(), getDestIndices(),
                               /*allowFloatConversion=*/false);
  if (failed(spaces))
    return failure();
  if (spaces->first != MemorySpace::Global ||
      spaces->second != MemorySpace::Shared)
    return emitOpError() << "copies global memory into a shared tile, got "
                         << stringifyMemorySpace(spaces->first) << " -> "
                         << stringifyMemorySpace(spaces->second);
  return success();
}

//===----------------------------------------------------------------------===//
// GemmOp
//===----------------------------------------------------------------------===//

LogicalResult GemmOp::verify() {
  if (failed(verifyInsideKernel(*this)))
    return failure();
  auto aType = cast<MemRefType>(getA().getType());
  auto bType = cast<MemRefType>(getB().getType());
  auto cType = cast<MemRefType>(getC().getType());
  for (auto [name, type] : {std::pair<StringRef, MemRefType>{"A", aType},
                            {"B", bType},
                            {"C", cType}}) {
    if (type.getRank() != 2)
      return emitOpError() << name << " must be a 2-D tile, got rank "
                           << type.getRank();
    if (!type.hasStaticShape())
      return emitOpError() << name << " must have a static shape, got " << type;
  }

  FailureOr<MemorySpace> aSpace = getSpaceOrError(*this, getA(), "A");
  FailureOr<MemorySpace> bSpace = getSpaceOrError(*this, getB(), "B");
  FailureOr<MemorySpace> cSpace = getSpaceOrError(*this, getC(), "C");
  if (failed(aSpace) || failed(bSpace) || failed(cSpace))
    return failure();
  if (!isTileSpace(*aSpace))
    return emitOpError() << "A must be a shared or fragment tile, got "
                         << stringifyMemorySpace(*aSpace) << " memory";
  if (!isTileSpace(*bSpace))
    return emitOpError() << "B must be a shared or fragment tile, got "
                         << stringifyMemorySpace(*bSpace) << " memory";
  if (*cSpace != MemorySpace::Fragment)
    return emitOpError() << "C (the accumulator) must be a fragment tile, got "
                         << stringifyMemorySpace(*cSpace) << " memory";

  Type aElem = aType.getElementType(), bElem = bType.getElementType();
  if (aElem != bElem)
    return emitOpError() << "A and B element types differ: " << aElem << " vs "
                         << bElem;
  if (!aElem.isF16() && !aElem.isBF16() && !aElem.isF32())
    return emitOpError() << "A and B must be f16, bf16 or f32, got " << aElem;
  if (!cType.getElementType().isF32())
    return emitOpError() << "C (the accumulator) must be f32, got "
                         << cType.getElementType();

  ArrayRef<int64_t> a = aType.getShape(), b = bType.getShape(),
                    c = cType.getShape();
  int64_t m = getTransposeA() ? a[1] : a[0];
  int64_t ka = getTransposeA() ? a[0] : a[1];
  int64_t kb = getTransposeB() ? b[1] : b[0];
  int64_t n = getTransposeB() ? b[0] : b[1];
  if (ka != kb)
    return emitOpError() << "shape mismatch: op(A) is "
                         << shapeToString({m, ka}) << " and op(B) is "
                         << shapeToString({kb, n})
                         << ", their K extents differ (" << ka << " vs " << kb
                         << ")";
  if (c[0] != m || c[1] != n)
    return emitOpError() << "shape mismatch: C is " << shapeToString(c)
                         << " but op(A) * op(B) is " << shapeToString({m, n});
  return success();
}

//===----------------------------------------------------------------------===//
// Synchronization ops
//===----------------------------------------------------------------------===//

LogicalResult CommitGroupOp::verify() { return verifyInsideKernel(*this); }

LogicalResult WaitGroupOp::verify() {
  if (failed(verifyInsideKernel(*this)))
    return failure();
  int64_t pending = getPendingAttr().getInt();
  if (pending < 0)
    return emitOpError() << "pending group count must be non-negative, got "
                         << pending;
  // cp.async.wait_group's count is a 32-bit immediate.
  if (pending > std::numeric_limits<int32_t>::max())
    return emitOpError() << "pending group count must be at most "
                         << std::numeric_limits<int32_t>::max() << ", got "
                         << pending;
  return success();
}

LogicalResult BarrierOp::verify() { return verifyInsideKernel(*this); }

#define GET_OP_CLASSES
#include "tile/Dialect/Tile/IR/TileOps.cpp.inc"
