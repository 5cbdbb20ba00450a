//===- tile-opt.cpp - The tile-mlir optimizer driver ----------------------===//
//
// Part of tile-mlir. An mlir-opt with the tile dialect and passes added: every
// upstream dialect, pass, extension and LLVM IR translation is registered
// (tile/InitAll.h), so one tool runs the whole pipeline down to PTX.
//
//===----------------------------------------------------------------------===//

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "tile/InitAll.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

#ifndef TILE_MLIR_VERSION
#define TILE_MLIR_VERSION "unknown"
#endif

int main(int argc, char **argv) {
  llvm::cl::AddExtraVersionPrinter([](llvm::raw_ostream &os) {
    os << "tile-mlir version " << TILE_MLIR_VERSION << "\n"
       << "  built against LLVM/MLIR " << LLVM_VERSION_STRING << "\n";
  });

  mlir::tile::registerAllTilePasses();
  mlir::DialectRegistry registry;
  mlir::tile::registerAllTileDialects(registry);

  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "tile-mlir optimizer driver\n", registry));
}
