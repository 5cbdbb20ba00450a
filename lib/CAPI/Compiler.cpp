//===- Compiler.cpp - Embedding the tile-mlir compiler --------------------===//
//
// Part of tile-mlir.
//
//===----------------------------------------------------------------------===//

#include "tile-c/Compiler.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "tile/InitAll.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;

void tileRegisterAllDialects(MlirDialectRegistry registry) {
  DialectRegistry &r = *unwrap(registry);
  registerAllDialects(r);
  registerAllExtensions(r);
  registerAllToLLVMIRTranslations(r);
  tile::registerAllTileDialects(r);
}

void tileRegisterAllPasses() {
  // Pass registration is global and not idempotent-safe under races; do it
  // once per process.
  static bool registered = [] {
    registerAllPasses();
    tile::registerAllTilePasses();
    return true;
  }();
  (void)registered;
}

namespace {
/// Forwards a stream's bytes to a C callback.
class CallbackStream : public llvm::raw_ostream {
public:
  CallbackStream(MlirStringCallback callback, void *userData)
      : callback(callback), userData(userData) {
    SetUnbuffered();
  }

private:
  void write_impl(const char *ptr, size_t size) override {
    if (callback)
      callback(mlirStringRefCreate(ptr, size), userData);
    position += size;
  }
  uint64_t current_pos() const override { return position; }

  MlirStringCallback callback;
  void *userData;
  uint64_t position = 0;
};
} // namespace

MlirLogicalResult tileCompile(MlirStringRef source, MlirStringRef pipeline,
                              MlirStringCallback output,
                              MlirStringCallback diagnostic, void *userData) {
  tileRegisterAllPasses();
  DialectRegistry registry;
  tileRegisterAllDialects(wrap(&registry));
  MLIRContext context(registry);

  CallbackStream diagnostics(diagnostic, userData);
  auto buffer = llvm::MemoryBuffer::getMemBufferCopy(unwrap(source), "<input>");
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  SourceMgrDiagnosticHandler handler(sourceMgr, &context, diagnostics);

  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return mlirLogicalResultFailure();

  PassManager pm(&context, ModuleOp::getOperationName());
  StringRef pipelineText = unwrap(pipeline);
  if (!pipelineText.trim().empty() &&
      failed(parsePassPipeline(pipelineText, pm, diagnostics)))
    return mlirLogicalResultFailure();
  if (failed(pm.run(*module)))
    return mlirLogicalResultFailure();

  CallbackStream out(output, userData);
  module->print(out);
  out << "\n";
  return mlirLogicalResultSuccess();
}
