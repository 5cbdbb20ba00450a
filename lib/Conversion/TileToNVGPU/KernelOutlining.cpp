//===- KernelOutlining.cpp - tile.kernel to gpu.func + launch -------------===//
//
// Part of tile-mlir.
//
//===----------------------------------------------------------------------===//

#include "tile/Conversion/TileToNVGPU/KernelOutlining.h"

#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "tile/Conversion/TileToNVGPU/BlockOrder.h"
#include "tile/Conversion/TileToNVGPU/LaunchInfo.h"
#include "tile/Conversion/TileToNVGPU/SharedCarving.h"
#include "tile/Conversion/TileToNVGPU/TmaCopies.h"
#include "tile/Dialect/Tile/Utils/IndexFacts.h"
#include "tile/Dialect/Tile/Utils/LoopUtils.h"

using namespace mlir;
using namespace mlir::tile;

// Upstream gpu-kernel-outlining would pass every captured value (loop trip
// counts, offsets computed on the host) as an extra kernel parameter; the
// runtime ABI is one pointer per memref (and per TMA tensor map) and the
// memrefs' dynamic sizes, nothing else, so captured scalars are recomputed
// on the device instead (a memref.dim of an argument from the rebuilt
// memref, which holds its sizes).
// On failure, `culprit` is the value the device cannot compute: a block
// argument (of the function, or of a loop on the host), or the result of an
// op that is not pure, has regions or refers to a symbol of the host module
// (a memref.get_global, a func.constant). An arith op need not be
// speculatable (a division by a size): the host ran it on the same operands
// before the launch, so the device's copy computes the same value. (Other
// ops that are only free of memory effects, such as an llvm.inline_asm, may
// be the host's own code.)
static bool isRecomputable(Operation *op) {
  if (op->getNumRegions() != 0 || findSymbolReference(op))
    return false;
  return isPure(op) ||
         (isa<arith::ArithDialect>(op->getDialect()) && isMemoryEffectFree(op));
}

static LogicalResult materializeOnDevice(Value value, OpBuilder &builder,
                                         IRMapping &mapping, Value &culprit) {
  if (mapping.contains(value))
    return success();
  Operation *op = value.getDefiningOp();
  if (!op || !isRecomputable(op)) {
    culprit = value;
    return failure();
  }
  for (Value operand : op->getOperands())
    if (failed(materializeOnDevice(operand, builder, mapping, culprit)))
      return failure();
  builder.clone(*op, mapping);
  return success();
}

/// Reports that `kernel` uses `captured`, which the device cannot compute
/// because of `culprit`: at the first op of the kernel that uses it, with a
/// note at `culprit`.
static void reportHostValue(KernelOp kernel, Value captured, Value culprit) {
  Operation *user = nullptr;
  kernel.getBody().walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (!llvm::is_contained(op->getOperands(), captured))
      return WalkResult::advance();
    user = op;
    return WalkResult::interrupt();
  });
  InFlightDiagnostic diag =
      emitError(user ? user->getLoc() : kernel.getLoc(),
                "kernel uses a host value that is neither a memref argument "
                "nor computable from constants and the memref arguments' "
                "sizes (the kernel ABI passes only memrefs and their dynamic "
                "sizes)");
  auto arg = dyn_cast<BlockArgument>(culprit);
  if (arg && isFunctionArgument(arg)) {
    diag.attachNote(arg.getLoc()) << "from argument #" << arg.getArgNumber();
  } else if (arg) {
    Operation *owner = arg.getOwner()->getParentOp();
    diag.attachNote(owner->getLoc())
        << "from a block argument of this '" << owner->getName() << "'";
  } else if (SymbolRefAttr symbol =
                 findSymbolReference(culprit.getDefiningOp())) {
    diag.attachNote(culprit.getLoc())
        << "from this '" << culprit.getDefiningOp()->getName()
        << "', which refers to the symbol " << symbol
        << " of the host module; the GPU module holds the kernel alone";
  } else {
    diag.attachNote(culprit.getLoc())
        << "from this '" << culprit.getDefiningOp()->getName()
        << "': the kernel recomputes only pure ops without regions (and "
           "arith's divisions)";
  }
}

SymbolRefAttr mlir::tile::findSymbolReference(Operation *op) {
  SymbolRefAttr symbol;
  for (NamedAttribute attr : op->getAttrs())
    if (!symbol)
      attr.getValue().walk([&](SymbolRefAttr ref) { symbol = ref; });
  return symbol;
}

// The grouped order of BlockOrder.h over the hardware block ids.
static std::pair<Value, Value> remapBlockIndices(OpBuilder &b, Location loc,
                                                 int64_t group,
                                                 ClusterShape cluster) {
  Value bx = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value by = gpu::BlockIdOp::create(b, loc, gpu::Dimension::y);
  Value gx = gpu::GridDimOp::create(b, loc, gpu::Dimension::x);
  Value gy = gpu::GridDimOp::create(b, loc, gpu::Dimension::y);
  Value id =
      arith::AddIOp::create(b, loc, arith::MulIOp::create(b, loc, by, gx), bx);
  return buildGroupedBlockOrder(b, loc, id, gx, gy, group, cluster);
}

FailureOr<ClusterShape> mlir::tile::getClusterShape(KernelOp kernel,
                                                    int64_t blockGroup,
                                                    int64_t size, int64_t cols,
                                                    std::string &why) {
  SmallVector<int64_t> grid;
  for (Value extent : kernel.getGridSizes()) {
    std::optional<int64_t> value = evaluateConstantIndex(extent);
    if (!value) {
      why = "the grid size is not computable from constants";
      return failure();
    }
    grid.push_back(*value);
  }
  std::string n = std::to_string(size);
  if (grid[0] % size != 0) {
    why = "the grid's x size, " + std::to_string(grid[0]) +
          ", is not a multiple of " + n + ": clusters of " + n +
          " blocks along x must tile it";
    return failure();
  }
  // Without the grouped order, hardware blocks kN .. kN + N - 1 are
  // neighbours in x. With it, consecutive linear ids walk up one column of
  // a group (remapBlockIndices): neighbours in y, when every group's rows
  // are a multiple of N; or, with more than one column, a patch of the
  // grid (BlockOrder.h), when the patches tile the grid and every group's
  // rows are a multiple of the patch's.
  bool grouped = grid.size() == 2 && blockGroup > 1;
  if (!grouped && cols == 1)
    return ClusterShape{1, size};
  if (!grouped) {
    why = "clusters of more than one column (cluster-cols=" +
          std::to_string(cols) +
          ") need a two-dimensional grid in the grouped block order";
    return failure();
  }
  int64_t rows = size / cols;
  if (blockGroup % rows != 0 || grid[1] % rows != 0) {
    std::string which = cols == 1
                            ? "the " + n + " blocks of a cluster share a column"
                            : "the " + std::to_string(rows) +
                                  " rows of a cluster lie in one group";
    why = "in the grouped block order (block-group=" +
          std::to_string(blockGroup) + ") " + which +
          " only when the group and the grid's y size (" +
          std::to_string(grid[1]) + ") are multiples of " +
          std::to_string(rows);
    return failure();
  }
  // The patches tile the grid: its x size is a multiple of `size` already.
  return ClusterShape{rows, cols};
}

/// The memref arguments of `func`, the kernel's parameters, in order: each
/// must be in global memory and have the identity layout, no empty
/// dimension and an element type that the NVVM lowering can pass. Sizes may
/// be dynamic (see outlineKernel).
static FailureOr<SmallVector<BlockArgument>>
getMemrefArguments(KernelOp kernel, FunctionOpInterface func) {
  SmallVector<BlockArgument> memrefArgs;
  // The converter convert-gpu-to-nvvm lowers the kernel's signature with.
  LLVMTypeConverter llvmTypes(kernel.getContext());
  configureGpuToNVVMTypeConverter(llvmTypes);
  for (BlockArgument arg : func.getArguments()) {
    auto type = dyn_cast<MemRefType>(arg.getType());
    if (!type)
      continue;
    // The host passes a global pointer for every argument, used or not.
    if (getMemorySpace(type) != MemorySpace::Global)
      return emitKernelArgError(kernel, arg)
             << " (" << type
             << ") must be in global memory (no memory space or "
                "#gpu.address_space<global>): the host passes a global "
                "pointer for each";
    if (!type.getLayout().isIdentity())
      return emitKernelArgError(kernel, arg)
             << " (" << type
             << ") must have the identity layout (the kernel ABI passes one "
                "pointer per memref, and its sizes where they are dynamic)";
    // The LLVM lowering of gpu.func cannot pass such a memref as a bare
    // pointer (it fails to legalize the function).
    if (llvm::is_contained(type.getShape(), 0))
      return emitKernelArgError(kernel, arg)
             << " (" << type
             << ") has a dimension of size 0, which the GPU lowering does not "
                "support";
    Attribute divisibility =
        func.getArgAttr(arg.getArgNumber(), kDivisibilityAttrName);
    auto divisor = dyn_cast_if_present<IntegerAttr>(divisibility);
    // The launch description's `divisible` takes 1..2^30 (LaunchDesc.h).
    if (divisibility && (!divisor || divisor.getInt() < 1 ||
                         divisor.getInt() > (int64_t(1) << 30)))
      return emitKernelArgError(kernel, arg)
             << " has " << kDivisibilityAttrName << " = " << divisibility
             << ", not an integer in 1..2^30";
    // The LLVM lowering of gpu.func fails to legalize the function when an
    // element type has no LLVM counterpart (tf32).
    if (!llvmTypes.convertType(type.getElementType()))
      return emitKernelArgError(kernel, arg)
             << " (" << type << ") has element type " << type.getElementType()
             << ", which has no LLVM type to pass it as";
    memrefArgs.push_back(arg);
  }
  if (failed(checkKernelArgNames(kernel, memrefArgs)))
    return failure();
  return memrefArgs;
}

/// The kernel parameter type of a memref argument with dynamic sizes: a
/// memref<1xT> in its memory space, which the bare-pointer convention
/// passes as a pointer.
static MemRefType carrierType(MemRefType type) {
  return MemRefType::get({1}, type.getElementType(),
                         MemRefLayoutAttrInterface(), type.getMemorySpace());
}

/// The memref of `type` (identity layout, some sizes dynamic) at the
/// pointer of `carrier`, whose dynamic sizes are `sizes`, in order; the
/// strides of a row-major layout follow from them.
static Value rebuildDynamicMemref(OpBuilder &b, Location loc, MemRefType type,
                                  Value carrier, ValueRange sizes) {
  int64_t rank = type.getRank();
  SmallVector<OpFoldResult> extents, strides(rank);
  auto nextSize = sizes.begin();
  for (int64_t d = 0; d < rank; ++d)
    extents.push_back(type.isDynamicDim(d)
                          ? OpFoldResult(*nextSize++)
                          : OpFoldResult(b.getIndexAttr(type.getDimSize(d))));
  // Row-major: the last stride is 1, each other the next one times the next
  // extent (a constant where both are).
  OpFoldResult stride = b.getIndexAttr(1);
  for (int64_t d = rank - 1; d >= 0; --d) {
    strides[d] = stride;
    if (d == 0)
      break;
    std::optional<int64_t> s = getConstantIntValue(stride);
    std::optional<int64_t> e = getConstantIntValue(extents[d]);
    if (s && e) {
      stride = b.getIndexAttr(*s * *e);
      continue;
    }
    if (s && *s == 1) {
      stride = extents[d];
      continue;
    }
    Value inner = getValueOrCreateConstantIndexOp(b, loc, stride);
    Value extent = getValueOrCreateConstantIndexOp(b, loc, extents[d]);
    stride = arith::MulIOp::create(b, loc, inner, extent).getResult();
  }
  return memref::ReinterpretCastOp::create(b, loc, type, carrier,
                                           b.getIndexAttr(0), extents, strides);
}

/// Carves the shared tiles of `gpuFunc` out of its dynamic shared region and
/// returns the region's bytes; an error at `kernel` if they and the static
/// mbarriers of TMA copies exceed what `chip` allows a block.
static FailureOr<int64_t> carveAndCheckSharedMemory(KernelOp kernel,
                                                    gpu::GPUFuncOp gpuFunc,
                                                    const ChipInfo &chip) {
  int64_t sharedBytes = carveSharedMemory(gpuFunc);
  // mbarriers (TmaCopies.h) are static shared memory, which comes first; the
  // dynamic region follows at its alignment.
  int64_t staticBytes = 0;
  gpuFunc.walk([&](nvgpu::MBarrierCreateOp op) {
    staticBytes += 8 * op.getBarriers().getType().getNumBarriers();
  });
  int64_t totalBytes =
      sharedBytes +
      (staticBytes ? llvm::alignTo(staticBytes, kSharedTileAlignment) : 0);
  if (totalBytes <= chip.maxSharedBytesPerBlock)
    return sharedBytes;
  InFlightDiagnostic diag = kernel.emitError("kernel needs ")
                            << totalBytes << " bytes of shared memory but "
                            << chip.name << " allows "
                            << chip.maxSharedBytesPerBlock << " per block";
  // tile-smem-budget counts the tiles alone.
  if (staticBytes)
    diag << " (" << sharedBytes << " for its tiles, "
         << totalBytes - sharedBytes << " for the mbarriers of its TMA copies)";
  return diag;
}

/// Moves the allocas of `entry` (a fragment's registers) in front of its
/// other ops. LLVM promotes to registers only the allocas of a function's
/// entry block (SROA), and ops in front of them that become control flow
/// later (the masked loads of a synchronous copy, which EarlyLoads may issue
/// first in the kernel) would leave them in another block: the accumulator
/// in local memory, each wgmma waiting for the one before it.
static void hoistAllocas(Block &entry) {
  SmallVector<Operation *> allocas;
  for (auto alloca : entry.getOps<memref::AllocaOp>())
    if (alloca->getNumOperands() == 0)
      allocas.push_back(alloca);
  for (Operation *alloca : llvm::reverse(allocas))
    alloca->moveBefore(&entry, entry.begin());
}

FailureOr<gpu::LaunchFuncOp>
mlir::tile::outlineKernel(KernelOp kernel, gpu::GPUModuleOp module,
                          StringRef name, const ChipInfo &chip,
                          int64_t blockGroup,
                          std::optional<GemmTranspose> gemm) {
  // The verifier puts every kernel inside a function.
  auto func = kernel->getParentOfType<FunctionOpInterface>();
  MLIRContext *ctx = kernel.getContext();
  Location loc = kernel.getLoc();

  FailureOr<SmallVector<BlockArgument>> kernelArgs =
      getMemrefArguments(kernel, func);
  if (failed(kernelArgs))
    return failure();
  SmallVector<BlockArgument> memrefArgs = std::move(*kernelArgs);
  // A memref with dynamic sizes cannot travel as a bare pointer (the NVVM
  // lowering of gpu.func needs a static shape for that): it travels as a
  // pointer to a memref<1xT> "carrier", and each dynamic size as one more
  // index parameter after all the pointers; the kernel rebuilds the memref
  // from them (rebuildDynamicMemref).
  SmallVector<Type> argTypes;
  int64_t numSizes = 0;
  for (BlockArgument arg : memrefArgs) {
    auto type = cast<MemRefType>(arg.getType());
    argTypes.push_back(type.hasStaticShape() ? type : carrierType(type));
    numSizes += type.getNumDynamicDims();
  }
  argTypes.append(numSizes, IndexType::get(ctx));
  int64_t numScalarParams = memrefArgs.size() + numSizes;

  // Tensor maps the host created for the TMA (TmaCopies.h) follow the
  // memrefs as parameters: pointers, which the kernel's nvgpu ops see
  // through a cast to the descriptor type (the NVVM lowering turns the
  // descriptor into that pointer again). tile-tensormap-params later makes
  // them 128-byte by-value grid constants, after the conversion to llvm.func
  // (upstream's gpu.func lowering drops llvm.byval, and nvvm.grid_constant is
  // only valid on an llvm.func kernel); `tile.tensormap_params` says which.
  llvm::SetVector<Value> captured;
  getUsedValuesDefinedAbove(kernel.getBody(), captured);
  SmallVector<Value> tensorMaps;
  for (Value value : captured)
    if (isa<nvgpu::TensorMapDescriptorType>(value.getType()))
      tensorMaps.push_back(value);
  auto pointer = LLVM::LLVMPointerType::get(ctx);
  argTypes.append(tensorMaps.size(), pointer);

  OpBuilder moduleBuilder(ctx);
  moduleBuilder.setInsertionPointToEnd(module.getBody());
  auto gpuFunc = gpu::GPUFuncOp::create(moduleBuilder, loc, name,
                                        FunctionType::get(ctx, argTypes, {}));
  gpuFunc->setAttr(gpu::GPUDialect::getKernelFuncAttrName(),
                   moduleBuilder.getUnitAttr());
  if (!tensorMaps.empty())
    gpuFunc->setAttr(
        kTensorMapParamsAttrName,
        DenseI64ArrayAttr::get(ctx, llvm::to_vector(llvm::seq<int64_t>(
                                        numScalarParams, argTypes.size()))));
  int32_t threads = kernel.getThreads();
  gpuFunc.setKnownBlockSizeAttr(DenseI32ArrayAttr::get(ctx, {threads, 1, 1}));
  auto clusterDims =
      kernel->getAttrOfType<DenseI32ArrayAttr>(kClusterDimsAttrName);
  if (clusterDims)
    gpuFunc->setAttr(NVVM::NVVMDialect::getClusterDimAttrName(), clusterDims);

  Block &entry = gpuFunc.getBody().front();
  OpBuilder builder = OpBuilder::atBlockBegin(&entry);
  IRMapping mapping;
  unsigned sizeParam = memrefArgs.size();
  for (auto [hostArg, deviceArg] :
       llvm::zip(memrefArgs, entry.getArguments())) {
    auto type = cast<MemRefType>(hostArg.getType());
    if (type.hasStaticShape()) {
      mapping.map(hostArg, deviceArg);
      continue;
    }
    int64_t n = type.getNumDynamicDims();
    mapping.map(hostArg,
                rebuildDynamicMemref(builder, loc, type, deviceArg,
                                     entry.getArguments().slice(sizeParam, n)));
    // What the host promised of the sizes, recorded on the parameters.
    if (auto divisor = func.getArgAttrOfType<IntegerAttr>(
            hostArg.getArgNumber(), kDivisibilityAttrName))
      for (int64_t i = 0; i < n; ++i)
        gpuFunc.setArgAttr(sizeParam + i, kDivisibilityAttrName, divisor);
    sizeParam += n;
  }
  for (auto [map, deviceArg] : llvm::zip_equal(
           tensorMaps, entry.getArguments().drop_front(numScalarParams)))
    mapping.map(map, UnrealizedConversionCastOp::create(
                         builder, loc, map.getType(), deviceArg)
                         .getResult(0));
  const gpu::Dimension dims[] = {gpu::Dimension::x, gpu::Dimension::y,
                                 gpu::Dimension::z};
  auto blockIndices = kernel.getBlockIndices();
  if (blockIndices.size() == 2 && blockGroup > 1) {
    ClusterShape cluster;
    if (auto shape =
            kernel->getAttrOfType<DenseI32ArrayAttr>(kClusterShapeAttrName))
      cluster = {shape[0], shape[1]};
    auto [x, y] = remapBlockIndices(builder, loc, blockGroup, cluster);
    mapping.map(blockIndices[0], x);
    mapping.map(blockIndices[1], y);
  } else {
    for (auto [index, blockIndex] : llvm::enumerate(blockIndices))
      mapping.map(blockIndex,
                  gpu::BlockIdOp::create(builder, loc, dims[index]));
  }

  for (Value value : captured) {
    Value culprit;
    if (failed(materializeOnDevice(value, builder, mapping, culprit))) {
      reportHostValue(kernel, value, culprit);
      gpuFunc.erase();
      return failure();
    }
  }
  for (Operation &op : kernel.getBody().front())
    builder.clone(op, mapping);
  gpu::ReturnOp::create(builder, loc);
  hoistAllocas(entry);

  FailureOr<int64_t> carved = carveAndCheckSharedMemory(kernel, gpuFunc, chip);
  if (failed(carved)) {
    gpuFunc.erase();
    return failure();
  }
  int64_t sharedBytes = *carved;

  OpBuilder host(kernel);
  auto constant = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(host, loc, v);
  };
  auto grid = kernel.getGridSizes();
  gpu::KernelDim3 gridSize{grid[0], grid.size() > 1 ? grid[1] : constant(1),
                           grid.size() > 2 ? grid[2] : constant(1)};
  gpu::KernelDim3 blockSize{constant(threads), constant(1), constant(1)};
  Value shared = arith::ConstantIntOp::create(host, loc, sharedBytes, 32);
  SmallVector<Value> operands, sizes;
  for (BlockArgument arg : memrefArgs) {
    auto type = cast<MemRefType>(arg.getType());
    if (type.hasStaticShape()) {
      operands.push_back(arg);
      continue;
    }
    operands.push_back(memref::ReinterpretCastOp::create(
        host, loc, carrierType(type), arg, /*offset=*/0, /*sizes=*/{1},
        /*strides=*/{1}));
    for (int64_t d = 0; d < type.getRank(); ++d)
      if (type.isDynamicDim(d))
        sizes.push_back(memref::DimOp::create(host, loc, arg, d));
  }
  llvm::append_range(operands, sizes);
  for (Value map : tensorMaps)
    operands.push_back(
        UnrealizedConversionCastOp::create(host, loc, pointer, map)
            .getResult(0));
  auto launch = gpu::LaunchFuncOp::create(host, loc, gpuFunc, gridSize,
                                          blockSize, shared, operands);
  if (failed(attachLaunchInfo(
          launch, chip.name, sharedBytes, memrefArgs, tensorMaps, gemm,
          clusterDims ? clusterDims.asArrayRef() : ArrayRef<int32_t>())))
    return failure();
  kernel.erase();
  return launch;
}
