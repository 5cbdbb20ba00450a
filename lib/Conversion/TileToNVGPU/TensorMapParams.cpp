//===- TensorMapParams.cpp - The tile-tensormap-params pass ---------------===//
//
// Part of tile-mlir. Makes the tensor-map parameters that the kernel
// outlining marked (kTensorMapParamsAttrName) by-value grid constants. See
// the pass description in Passes.td.
//
//===----------------------------------------------------------------------===//

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "tile/Conversion/Passes.h"
#include "tile/Conversion/TileToNVGPU/KernelOutlining.h"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_TILETENSORMAPPARAMS
#include "tile/Conversion/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;
using namespace mlir::tile;

/// The size and alignment of a CUtensorMap: 128 bytes, aligned as CUDA 13's
/// cuda.h declares it (alignas(128); the TMA itself needs 64), so the PTX
/// parameter matches nvcc's for a __grid_constant__ CUtensorMap.
constexpr int64_t kTensorMapBytes = 128;
constexpr int64_t kTensorMapAlign = 128;

/// Marks the parameters `func` lists as tensor maps; fails, with an error at
/// the function, where the list names a parameter that cannot be one.
static LogicalResult markTensorMapParams(LLVM::LLVMFuncOp func) {
  Attribute attr = func->getAttr(kTensorMapParamsAttrName);
  if (!attr)
    return success();
  auto indices = dyn_cast<DenseI64ArrayAttr>(attr);
  if (!indices)
    return func.emitError("'")
           << kTensorMapParamsAttrName
           << "' must be an array of parameter indices (i64)";
  if (!func->hasAttr(NVVM::NVVMDialect::getKernelFuncAttrName()))
    return func.emitError("'")
           << kTensorMapParamsAttrName
           << "' on a function that is not an NVVM kernel: only kernel "
              "parameters can be grid constants";
  MLIRContext *ctx = func.getContext();
  Builder b(ctx);
  auto map =
      LLVM::LLVMArrayType::get(IntegerType::get(ctx, 8), kTensorMapBytes);
  unsigned numParams = func.getNumArguments();
  for (int64_t index : indices.asArrayRef()) {
    if (index < 0 || index >= numParams)
      return func.emitError("tensor map parameter #")
             << index << " out of range: the kernel has " << numParams
             << " parameters";
    if (!isa<LLVM::LLVMPointerType>(func.getArgument(index).getType()))
      return func.emitError("tensor map parameter #")
             << index << " is " << func.getArgument(index).getType()
             << ", not a pointer";
    func.setArgAttr(index, LLVM::LLVMDialect::getByValAttrName(),
                    TypeAttr::get(map));
    func.setArgAttr(index, LLVM::LLVMDialect::getAlignAttrName(),
                    b.getI64IntegerAttr(kTensorMapAlign));
    func.setArgAttr(index, NVVM::NVVMDialect::getGridConstantAttrName(),
                    b.getUnitAttr());
  }
  func->removeAttr(kTensorMapParamsAttrName);
  return success();
}

namespace {
struct TileTensorMapParamsPass
    : tile::impl::TileTensorMapParamsBase<TileTensorMapParamsPass> {
  void runOnOperation() override {
    WalkResult result = getOperation()->walk([](LLVM::LLVMFuncOp func) {
      return failed(markTensorMapParams(func)) ? WalkResult::interrupt()
                                               : WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
