//===- LaunchInfo.cpp - The host-side launch description ------------------===//
//
// Part of tile-mlir.
//
//===----------------------------------------------------------------------===//

#include "tile/Conversion/TileToNVGPU/LaunchInfo.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "tile/Dialect/Tile/Utils/IndexFacts.h"
#include "tile/Dialect/Tile/Utils/LoopUtils.h"
#include "tile/Runtime/LaunchDesc.h"
#include "llvm/ADT/StringMap.h"

using namespace mlir;
using namespace mlir::tile;

std::string mlir::tile::getKernelArgName(BlockArgument arg,
                                         ArrayRef<BlockArgument> memrefArgs) {
  if (auto func = dyn_cast<FunctionOpInterface>(arg.getOwner()->getParentOp()))
    if (auto attr = func.getArgAttrOfType<StringAttr>(arg.getArgNumber(),
                                                      kArgNameAttrName))
      return attr.str();
  int64_t position = llvm::find(memrefArgs, arg) - memrefArgs.begin();
  if (position < 26)
    return std::string(1, char('A' + position));
  return "arg" + std::to_string(position);
}

bool mlir::tile::isFunctionArgument(BlockArgument arg) {
  return arg.getOwner()->isEntryBlock() &&
         isa<FunctionOpInterface>(arg.getOwner()->getParentOp());
}

InFlightDiagnostic mlir::tile::emitKernelArgError(KernelOp kernel,
                                                  BlockArgument arg) {
  InFlightDiagnostic diag = emitError(arg.getLoc(), "kernel argument #")
                            << arg.getArgNumber();
  diag.attachNote(kernel.getLoc()) << "the kernel";
  return diag;
}

LogicalResult
mlir::tile::checkKernelArgNames(KernelOp kernel,
                                ArrayRef<BlockArgument> memrefArgs) {
  auto isNameChar = [](char c) { return llvm::isAlnum(c) || c == '_'; };
  llvm::StringMap<BlockArgument> named;
  for (BlockArgument arg : memrefArgs) {
    auto func = cast<FunctionOpInterface>(arg.getOwner()->getParentOp());
    if (Attribute attr =
            func.getArgAttr(arg.getArgNumber(), kArgNameAttrName)) {
      auto text = dyn_cast<StringAttr>(attr);
      if (!text || text.getValue().empty() ||
          llvm::isDigit(text.getValue().front()) ||
          !llvm::all_of(text.getValue(), isNameChar))
        return emitKernelArgError(kernel, arg)
               << " has " << kArgNameAttrName << " = " << attr
               << ", which cannot name it in the launch description: a name "
                  "is a string of ASCII letters, digits and '_', not "
                  "starting with a digit";
    }
    std::string name = getKernelArgName(arg, memrefArgs);
    auto [it, inserted] = named.try_emplace(name, arg);
    if (!inserted) {
      InFlightDiagnostic diag = emitError(arg.getLoc(), "kernel arguments #")
                                << it->second.getArgNumber() << " and #"
                                << arg.getArgNumber() << " are both named '"
                                << name
                                << "' in the launch description (the name is "
                                   "the argument's "
                                << kArgNameAttrName
                                << ", else A, B, C, ... by its place among "
                                   "the memrefs)";
      diag.attachNote(it->second.getLoc())
          << "argument #" << it->second.getArgNumber();
      diag.attachNote(kernel.getLoc()) << "the kernel";
      return diag;
    }
  }
  return success();
}

/// A formula for a grid size, over constants and the sizes of the memref
/// arguments (`dim(A,0)`): `ceildiv(4096,128)`, `ceildiv(dim(C,1),128)`,
/// `min(264,(ceildiv(dim(B,1),128)*ceildiv(dim(A,0),128)))`;
/// `?` for what it cannot say. tile-run evaluates it where the grid is not a
/// constant (LaunchDesc.h). `budget` is the number of ops still to be spelled
/// out, negative once one more was asked for: a formula is a tree, and an SSA
/// value used twice is spelled twice, so a chain of shared values would
/// otherwise grow exponentially. `unspelled` becomes the first value spelled
/// `?` for a reason other than the budget.
static std::string describe(Value value, ArrayRef<BlockArgument> memrefArgs,
                            int &budget, Value &unspelled) {
  auto unknown = [&] {
    if (!unspelled)
      unspelled = value;
    return std::string("?");
  };
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant))) {
    // The formulas' numbers are written unsigned: -64 is (0-64).
    int64_t number = constant.getSExtValue();
    // The magnitude as unsigned: -INT64_MIN does not fit int64_t.
    return number < 0 ? "(0-" + std::to_string(0 - uint64_t(number)) + ")"
                      : std::to_string(number);
  }
  Operation *op = value.getDefiningOp();
  if (!op)
    return unknown();
  if (budget-- <= 0)
    return "?";
  if (auto dim = dyn_cast<memref::DimOp>(op)) {
    auto arg = dyn_cast<BlockArgument>(dim.getSource());
    std::optional<int64_t> index = dim.getConstantIndex();
    if (!arg || !index || !llvm::is_contained(memrefArgs, arg))
      return unknown();
    return "dim(" + getKernelArgName(arg, memrefArgs) + "," +
           std::to_string(*index) + ")";
  }
  auto binary = [&](StringRef fmtPrefix, StringRef sep, StringRef suffix) {
    std::string lhs =
        describe(op->getOperand(0), memrefArgs, budget, unspelled);
    std::string rhs =
        describe(op->getOperand(1), memrefArgs, budget, unspelled);
    return (fmtPrefix + lhs + sep + rhs + suffix).str();
  };
  // The formulas' values are 64-bit and wrap as these ops do; the plain
  // spellings read them as unsigned, the ones ending in `s` as signed.
  if (isa<arith::CeilDivUIOp>(op))
    return binary("ceildiv(", ",", ")");
  if (isa<arith::CeilDivSIOp>(op))
    return binary("ceildivs(", ",", ")");
  if (isa<arith::MinUIOp>(op))
    return binary("min(", ",", ")");
  if (isa<arith::MinSIOp>(op))
    return binary("mins(", ",", ")");
  if (isa<arith::DivUIOp>(op))
    return binary("(", "/", ")");
  if (isa<arith::DivSIOp>(op))
    return binary("divs(", ",", ")");
  if (isa<arith::MulIOp>(op))
    return binary("(", "*", ")");
  if (isa<arith::AddIOp>(op))
    return binary("(", "+", ")");
  if (isa<arith::SubIOp>(op))
    return binary("(", "-", ")");
  return unknown();
}

/// Says why `value`, a part of a grid size, has no formula.
static void noteUnspelled(InFlightDiagnostic &diag, Value value) {
  Operation *op = value.getDefiningOp();
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    Operation *owner = arg.getOwner()->getParentOp();
    if (isFunctionArgument(arg))
      diag.attachNote(arg.getLoc()) << "a scalar argument, which the launch "
                                       "description does not pass";
    else
      diag.attachNote(owner->getLoc())
          << "a block argument of this '" << owner->getName()
          << "', which a formula cannot hold";
    return;
  }
  if (isa<memref::DimOp>(op)) {
    diag.attachNote(op->getLoc())
        << "the size of a memref that is not an argument of the kernel's "
           "function, or of a dimension that is not a constant";
    return;
  }
  diag.attachNote(op->getLoc())
      << "'" << op->getName() << "', which a formula cannot hold";
}

static std::string typeName(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return text;
}

std::optional<GemmTranspose> mlir::tile::getGemmTranspose(KernelOp kernel) {
  std::optional<GemmTranspose> found;
  bool agree = true;
  kernel.walk([&](GemmOp gemm) {
    GemmTranspose t{gemm.getTransposeA(), gemm.getTransposeB()};
    if (found && (found->a != t.a || found->b != t.b))
      agree = false;
    found = t;
  });
  return agree ? found : std::nullopt;
}

static StringRef swizzleName(nvgpu::TensorMapSwizzleKind kind) {
  switch (kind) {
  case nvgpu::TensorMapSwizzleKind::SWIZZLE_NONE:
    return "none";
  case nvgpu::TensorMapSwizzleKind::SWIZZLE_32B:
    return "32";
  case nvgpu::TensorMapSwizzleKind::SWIZZLE_64B:
    return "64";
  case nvgpu::TensorMapSwizzleKind::SWIZZLE_128B:
    return "128";
  }
  return "?";
}

LogicalResult mlir::tile::attachLaunchInfo(gpu::LaunchFuncOp launch,
                                           StringRef chip, int64_t sharedBytes,
                                           ArrayRef<BlockArgument> memrefArgs,
                                           ArrayRef<Value> tensorMaps,
                                           std::optional<GemmTranspose> gemm,
                                           ArrayRef<int32_t> cluster) {
  Builder b(launch.getContext());
  gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
  gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
  SmallVector<int64_t> gridSizes, blockSizes;
  SmallVector<std::string> gridExpr;
  using ::tile::runtime::kMaxGridDim;
  Value gridSize[3] = {grid.x, grid.y, grid.z};
  for (auto [d, v] : llvm::enumerate(gridSize)) {
    // The description is text: a runtime can evaluate a formula over the
    // arguments' sizes, not SSA values. A grid size that is not a constant
    // is -1 (`?`), and tile-run computes it from grid_expr.
    std::optional<int64_t> size = evaluateConstantIndex(v);
    // tile-run reads formulas of this many ops (LaunchDesc.h).
    using ::tile::runtime::kMaxGridFormulaOps;
    int budget = kMaxGridFormulaOps;
    Value unspelled;
    std::string formula = describe(v, memrefArgs, budget, unspelled);
    if (!size && budget < 0)
      return launch.emitError()
             << "grid size in "
             << "xyz"[d] << " is a formula of more than " << kMaxGridFormulaOps
             << " operations: the launch description "
                "can say no more";
    if (!size && !StringRef(formula).contains('?')) {
      gridSizes.push_back(-1);
      gridExpr.push_back(formula);
      continue;
    }
    if (!size || *size <= 0) {
      InFlightDiagnostic diag =
          launch.emitError()
          << "grid size in "
          << "xyz"[d]
          << " must be a positive constant, or computed from constants and "
             "the sizes of the memref arguments (memref.dim) with arith's "
             "ceildiv, div, min, muli, addi and subi: the launch description "
             "can say no more";
      if (unspelled)
        noteUnspelled(diag, unspelled);
      return diag;
    }
    if (*size > kMaxGridDim[d])
      return launch.emitError() << "grid size " << *size << " in "
                                << "xyz"[d] << " is above CUDA's limit of "
                                << kMaxGridDim[d] << " blocks";
    gridSizes.push_back(*size);
    gridExpr.push_back(formula);
  }
  for (Value v : {block.x, block.y, block.z}) {
    std::optional<int64_t> size = evaluateConstantIndex(v);
    if (!size)
      return launch.emitError("block size must be a constant");
    blockSizes.push_back(*size);
  }

  SmallVector<Attribute> args;
  for (BlockArgument arg : memrefArgs) {
    auto type = cast<MemRefType>(arg.getType());
    std::string name = getKernelArgName(arg, memrefArgs);
    std::string shape;
    llvm::raw_string_ostream os(shape);
    llvm::interleave(
        type.getShape(),
        [&](int64_t extent) {
          if (ShapedType::isDynamic(extent))
            os << '?';
          else
            os << extent;
        },
        [&] { os << 'x'; });
    // A rank-0 memref is one element, passed as a pointer like the others.
    if (type.getRank() == 0)
      os << 1;
    // What the kernel assumed of its dynamic sizes, for the launcher to
    // check.
    std::string divisible;
    if (type.getNumDynamicDims())
      if (auto func =
              dyn_cast<FunctionOpInterface>(arg.getOwner()->getParentOp()))
        if (auto divisor = func.getArgAttrOfType<IntegerAttr>(
                arg.getArgNumber(), kDivisibilityAttrName))
          divisible = " divisible " + std::to_string(divisor.getInt());
    args.push_back(b.getStringAttr(name + " " +
                                   typeName(type.getElementType()) + " " +
                                   shape + divisible));
  }
  SmallVector<Attribute> maps;
  for (Value map : tensorMaps) {
    auto create = map.getDefiningOp<nvgpu::TmaCreateDescriptorOp>();
    auto unranked = create ? create.getTensor().getDefiningOp<memref::CastOp>()
                           : memref::CastOp();
    auto arg = unranked ? dyn_cast<BlockArgument>(unranked.getSource())
                        : BlockArgument();
    if (!arg || !llvm::is_contained(memrefArgs, arg))
      return launch.emitError("a tensor map parameter must be created from "
                              "a memref argument of the function");
    auto type = cast<nvgpu::TensorMapDescriptorType>(map.getType());
    MemRefType box = type.getTensor();
    maps.push_back(b.getStringAttr(getKernelArgName(arg, memrefArgs) + " " +
                                   std::to_string(box.getDimSize(0)) + "x" +
                                   std::to_string(box.getDimSize(1)) +
                                   " swizzle " +
                                   swizzleName(type.getSwizzle()).str()));
  }

  NamedAttrList info;
  info.append("kernel", b.getStringAttr(launch.getKernelName().getValue()));
  info.append("chip", b.getStringAttr(chip));
  info.append("grid", b.getDenseI64ArrayAttr(gridSizes));
  info.append("block", b.getDenseI64ArrayAttr(blockSizes));
  info.append("shared_bytes", b.getI64IntegerAttr(sharedBytes));
  info.append("args", b.getArrayAttr(args));
  if (!maps.empty())
    info.append("tensormaps", b.getArrayAttr(maps));
  info.append("grid_expr", b.getStringAttr(llvm::join(gridExpr, " ")));
  if (gemm)
    info.append("gemm_transpose", b.getDenseBoolArrayAttr({gemm->a, gemm->b}));
  if (!cluster.empty())
    info.append("cluster", b.getDenseI32ArrayAttr(cluster));
  launch->setAttr(kLaunchAttrName, info.getDictionary(launch.getContext()));
  return success();
}

LogicalResult mlir::tile::writeLaunchDescription(gpu::LaunchFuncOp launch,
                                                 llvm::raw_ostream &os) {
  auto info = launch->getAttrOfType<DictionaryAttr>(kLaunchAttrName);
  if (!info)
    return launch.emitError("has no '") << kLaunchAttrName << "' attribute";
  auto kernel = info.getAs<StringAttr>("kernel");
  auto chip = info.getAs<StringAttr>("chip");
  auto grid = info.getAs<DenseI64ArrayAttr>("grid");
  auto block = info.getAs<DenseI64ArrayAttr>("block");
  auto shared = info.getAs<IntegerAttr>("shared_bytes");
  auto args = info.getAs<ArrayAttr>("args");
  auto gridExpr = info.getAs<StringAttr>("grid_expr");
  if (!kernel || !chip || !grid || grid.size() != 3 || !block ||
      block.size() != 3 || !shared || !args || !gridExpr)
    return launch.emitError("malformed '") << kLaunchAttrName << "' attribute";
  // Everything is checked before anything is written, so that a malformed
  // attribute leaves no partial description behind.
  auto malformed = [&](StringRef what) {
    return launch.emitError("malformed '")
           << kLaunchAttrName << "' attribute: bad " << what;
  };
  auto isStrings = [](Attribute attr) {
    auto array = dyn_cast<ArrayAttr>(attr);
    return array && llvm::all_of(array, llvm::IsaPred<StringAttr>);
  };
  if (!isStrings(args))
    return malformed("args");
  Attribute maps = info.get("tensormaps");
  if (maps && !isStrings(maps))
    return malformed("tensormaps");
  Attribute transposeAttr = info.get("gemm_transpose");
  auto transpose = dyn_cast_if_present<DenseBoolArrayAttr>(transposeAttr);
  if (transposeAttr && (!transpose || transpose.size() != 2))
    return malformed("gemm_transpose");
  Attribute clusterAttr = info.get("cluster");
  auto cluster = dyn_cast_if_present<DenseI32ArrayAttr>(clusterAttr);
  if (clusterAttr && (!cluster || cluster.size() != 3))
    return malformed("cluster");

  os << "kernel " << kernel.getValue() << "\n";
  os << "chip " << chip.getValue() << "\n";
  os << "grid";
  for (int64_t size : grid.asArrayRef()) {
    os << ' ';
    if (size < 0)
      os << '?';
    else
      os << size;
  }
  os << "\n";
  os << "block " << block[0] << " " << block[1] << " " << block[2] << "\n";
  os << "shared_bytes " << shared.getInt() << "\n";
  for (Attribute arg : args)
    os << "arg " << cast<StringAttr>(arg).getValue() << "\n";
  if (maps)
    for (Attribute map : cast<ArrayAttr>(maps))
      os << "tensormap " << cast<StringAttr>(map).getValue() << "\n";
  os << "grid_expr " << gridExpr.getValue() << "\n";
  if (transpose)
    os << "gemm_transpose " << transpose[0] << " " << transpose[1] << "\n";
  if (cluster)
    os << "cluster " << cluster[0] << " " << cluster[1] << " " << cluster[2]
       << "\n";
  return success();
}
