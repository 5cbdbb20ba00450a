// Registers every tile dialect and pass through the installed C++ libraries
// (TileMLIR::TileMLIR), lists the tile passes, compiles the kernel file
// given as the first argument to PTX with tile-to-ptx in a context of its
// own, and reads an element type as a launch description names it: links
// every library the package names, and needs no registration beyond
// tile/InitAll.h.
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "tile/InitAll.h"
#include "tile/Runtime/LaunchDesc.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <cstring>

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::tile::registerAllTileDialects(registry);
  mlir::tile::registerAllTilePasses();
  for (const char *flag :
       {"tile-lower-to-cpu", "tile-lower-to-nvgpu", "tile-software-pipeline"})
    std::printf("%s: %s\n", flag,
                mlir::PassInfo::lookup(flag) ? "registered" : "missing");

  if (argc > 1) {
    mlir::MLIRContext context(registry);
    mlir::OwningOpRef<mlir::ModuleOp> module =
        mlir::parseSourceFile<mlir::ModuleOp>(argv[1], &context);
    if (!module)
      return 1;
    mlir::PassManager pm(&context);
    if (mlir::failed(mlir::parsePassPipeline(
            "tile-to-ptx{chip=sm_90 print-budget=false}", pm, llvm::errs())) ||
        mlir::failed(pm.run(*module)))
      return 1;
    std::string text;
    llvm::raw_string_ostream os(text);
    module->print(os);
    std::printf("tile-to-ptx: %s\n",
                text.find(".entry matmul_auto_kernel") != std::string::npos
                    ? "PTX with .entry matmul_auto_kernel"
                    : "no PTX entry");
  }

  auto f16 = tile::runtime::parseElemType("f16");
  std::printf("f16: %u bytes\n", f16 ? tile::runtime::elemTypeBytes(*f16) : 0);
  return 0;
}
