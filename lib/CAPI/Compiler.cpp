//===- Compiler.cpp - Embedding the tile-mlir compiler --------------------===//
//
// Part of tile-mlir.
//
//===----------------------------------------------------------------------===//

#include "tile-c/Compiler.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "tile/Conversion/TileToNVGPU/KernelArtifacts.h"
#include "tile/InitAll.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/VirtualFileSystem.h"

using namespace mlir;

void tileRegisterAllDialects(MlirDialectRegistry registry) {
  tile::registerAllTileDialects(*unwrap(registry));
}

void tileRegisterAllPasses() { tile::registerAllTilePasses(); }

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

/// The text of the diagnostics not yet handed over: a base of
/// WholeDiagnosticHandler, so that it exists before the handler's base class
/// takes its stream.
struct DiagnosticText {
  std::string text;
  llvm::raw_string_ostream stream{text};
};

/// Prints diagnostics as tile-opt does, and hands each one, its notes
/// included, to a C callback in one call, so that a host can tell them
/// apart (the base class writes one in many pieces).
class WholeDiagnosticHandler : private DiagnosticText,
                               public SourceMgrDiagnosticHandler {
public:
  WholeDiagnosticHandler(llvm::SourceMgr &sourceMgr, MLIRContext *context,
                         MlirStringCallback callback, void *userData)
      : SourceMgrDiagnosticHandler(sourceMgr, context, stream),
        callback(callback), userData(userData) {
    setHandler([this](Diagnostic &diag) {
      emitDiagnostic(diag);
      flush();
      return success();
    });
  }

  /// Text written to the diagnostics by other means (a pass pipeline that
  /// does not parse), handed over by the next flush.
  raw_ostream &getStream() { return stream; }

  /// Hands what was written since the last flush over as one call.
  void flush() {
    if (!text.empty())
      CallbackStream(callback, userData) << text;
    text.clear();
  }

private:
  MlirStringCallback callback;
  void *userData;
};
} // namespace

/// Parses `source` in a context with every dialect the pipelines use, with
/// diagnostics going to `diagnostic`, and runs `body` on the module, with a
/// stream for diagnostics and the resources of the source that no dialect
/// claims (printed back as tile-opt does).
static MlirLogicalResult
withModule(MlirStringRef source, MlirStringCallback diagnostic, void *userData,
           llvm::function_ref<LogicalResult(ModuleOp, raw_ostream &,
                                            FallbackAsmResourceMap &)>
               body) {
  DialectRegistry registry;
  tileRegisterAllDialects(wrap(&registry));
  MLIRContext context(registry);
  // Messages with their source lines, without the generic-form dump of the
  // op that tile-opt appends for debugging.
  context.printOpOnDiagnostic(false);

  auto buffer = llvm::MemoryBuffer::getMemBufferCopy(unwrap(source), "<input>");
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  // The handler quotes the source line of a location in a file it can open;
  // a host compiling untrusted text must not have it open any file a
  // `loc("...")` names. An empty file system leaves it <input> alone.
  sourceMgr.setVirtualFileSystem(
      llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>());
  WholeDiagnosticHandler handler(sourceMgr, &context, diagnostic, userData);

  FallbackAsmResourceMap resources;
  ParserConfig config(&context, /*verifyAfterParse=*/true, &resources);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, config);
  bool ok = module && succeeded(body(*module, handler.getStream(), resources));
  handler.flush();
  return ok ? mlirLogicalResultSuccess() : mlirLogicalResultFailure();
}

MlirLogicalResult tileCompile(MlirStringRef source, MlirStringRef pipeline,
                              MlirStringCallback output,
                              MlirStringCallback diagnostic, void *userData) {
  tileRegisterAllPasses();
  return withModule(source, diagnostic, userData,
                    [&](ModuleOp module, raw_ostream &diagnostics,
                        FallbackAsmResourceMap &resources) -> LogicalResult {
                      PassManager pm(module.getContext(),
                                     ModuleOp::getOperationName());
                      StringRef pipelineText = unwrap(pipeline);
                      if (!pipelineText.trim().empty()) {
                        // The anchored form, `builtin.module(...)`, as
                        // `tile-opt --pass-pipeline` takes it. (The overload
                        // that parses into an existing pass manager would nest
                        // it: a pipeline for the modules inside this one,
                        // which runs nothing.)
                        FailureOr<OpPassManager> parsed =
                            parsePassPipeline(pipelineText, diagnostics);
                        if (failed(parsed))
                          return failure();
                        static_cast<OpPassManager &>(pm) = std::move(*parsed);
                      }
                      if (failed(pm.run(module)))
                        return failure();
                      CallbackStream out(output, userData);
                      AsmState state(module, OpPrintingFlags(),
                                     /*locationMap=*/nullptr, &resources);
                      module->print(out, state);
                      out << "\n";
                      return success();
                    });
}

/// Writes one artifact of a compiled module (KernelArtifacts.h) and hands
/// it to `output` whole, only once it is complete.
static MlirLogicalResult
emitArtifact(MlirStringRef module, MlirStringCallback output,
             MlirStringCallback diagnostic, void *userData,
             LogicalResult (*write)(Operation *, raw_ostream &)) {
  return withModule(module, diagnostic, userData,
                    [&](ModuleOp parsed, raw_ostream &,
                        FallbackAsmResourceMap &) -> LogicalResult {
                      std::string text;
                      llvm::raw_string_ostream os(text);
                      if (failed(write(parsed, os)))
                        return failure();
                      CallbackStream(output, userData) << text;
                      return success();
                    });
}

MlirLogicalResult tileEmitPTX(MlirStringRef module, MlirStringCallback output,
                              MlirStringCallback diagnostic, void *userData) {
  return emitArtifact(module, output, diagnostic, userData,
                      tile::writeKernelPTX);
}

MlirLogicalResult tileEmitLaunch(MlirStringRef module,
                                 MlirStringCallback output,
                                 MlirStringCallback diagnostic,
                                 void *userData) {
  return emitArtifact(module, output, diagnostic, userData,
                      tile::writeKernelLaunches);
}
