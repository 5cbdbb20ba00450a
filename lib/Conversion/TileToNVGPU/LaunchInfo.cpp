//===- LaunchInfo.cpp - The host-side launch description ------------------===//
//
// Part of tile-mlir.
//
//===----------------------------------------------------------------------===//

#include "tile/Conversion/TileToNVGPU/LaunchInfo.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"
#include "tile/Dialect/Tile/Transforms/Pipelining.h"

using namespace mlir;
using namespace mlir::tile;

/// A readable formula for a grid size: `ceildiv(4096,128)`.
static std::string describe(Value value, unsigned depth = 0) {
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant)))
    return std::to_string(constant.getSExtValue());
  Operation *op = value.getDefiningOp();
  if (!op || depth > 8)
    return "?";
  auto binary = [&](StringRef fmtPrefix, StringRef sep, StringRef suffix) {
    return (fmtPrefix + describe(op->getOperand(0), depth + 1) + sep +
            describe(op->getOperand(1), depth + 1) + suffix)
        .str();
  };
  if (isa<arith::CeilDivUIOp, arith::CeilDivSIOp>(op))
    return binary("ceildiv(", ",", ")");
  if (isa<arith::DivUIOp, arith::DivSIOp>(op))
    return binary("(", "/", ")");
  if (isa<arith::MulIOp>(op))
    return binary("(", "*", ")");
  if (isa<arith::AddIOp>(op))
    return binary("(", "+", ")");
  if (isa<arith::SubIOp>(op))
    return binary("(", "-", ")");
  return "?";
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

LogicalResult mlir::tile::attachLaunchInfo(gpu::LaunchFuncOp launch,
                                           StringRef chip, int64_t sharedBytes,
                                           ArrayRef<BlockArgument> memrefArgs,
                                           std::optional<GemmTranspose> gemm) {
  Builder b(launch.getContext());
  gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
  gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
  SmallVector<int64_t> gridSizes, blockSizes;
  SmallVector<std::string> gridExpr;
  for (Value v : {grid.x, grid.y, grid.z}) {
    // The description is static text: a runtime cannot evaluate SSA values.
    std::optional<int64_t> size = evaluateConstantIndex(v);
    if (!size || *size <= 0)
      return launch.emitError("grid size must be a positive constant (or "
                              "computed from constants): the launch "
                              "description is static");
    gridSizes.push_back(*size);
    gridExpr.push_back(describe(v));
  }
  for (Value v : {block.x, block.y, block.z}) {
    std::optional<int64_t> size = evaluateConstantIndex(v);
    if (!size)
      return launch.emitError("block size must be a constant");
    blockSizes.push_back(*size);
  }

  SmallVector<Attribute> args;
  char defaultName = 'A';
  for (BlockArgument arg : memrefArgs) {
    auto type = cast<MemRefType>(arg.getType());
    std::string name(1, defaultName++);
    if (auto func =
            dyn_cast<FunctionOpInterface>(arg.getOwner()->getParentOp()))
      if (auto attr = func.getArgAttrOfType<StringAttr>(arg.getArgNumber(),
                                                        kArgNameAttrName))
        name = attr.str();
    std::string shape;
    llvm::raw_string_ostream os(shape);
    llvm::interleave(type.getShape(), os, "x");
    args.push_back(b.getStringAttr(
        name + " " + typeName(type.getElementType()) + " " + shape));
  }

  NamedAttrList info;
  info.append("kernel", b.getStringAttr(launch.getKernelName().getValue()));
  info.append("chip", b.getStringAttr(chip));
  info.append("grid", b.getDenseI64ArrayAttr(gridSizes));
  info.append("block", b.getDenseI64ArrayAttr(blockSizes));
  info.append("shared_bytes", b.getI64IntegerAttr(sharedBytes));
  info.append("args", b.getArrayAttr(args));
  info.append("grid_expr", b.getStringAttr(llvm::join(gridExpr, " ")));
  if (gemm)
    info.append("gemm_transpose", b.getDenseBoolArrayAttr({gemm->a, gemm->b}));
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
  os << "kernel " << kernel.getValue() << "\n";
  os << "chip " << chip.getValue() << "\n";
  os << "grid " << grid[0] << " " << grid[1] << " " << grid[2] << "\n";
  os << "block " << block[0] << " " << block[1] << " " << block[2] << "\n";
  os << "shared_bytes " << shared.getInt() << "\n";
  for (Attribute arg : args)
    os << "arg " << cast<StringAttr>(arg).getValue() << "\n";
  os << "grid_expr " << gridExpr.getValue() << "\n";
  if (Attribute attr = info.get("gemm_transpose")) {
    auto transpose = dyn_cast<DenseBoolArrayAttr>(attr);
    if (!transpose || transpose.size() != 2)
      return launch.emitError("malformed '")
             << kLaunchAttrName << "' attribute: bad gemm_transpose";
    os << "gemm_transpose " << transpose[0] << " " << transpose[1] << "\n";
  }
  return success();
}
