// Registers every tile dialect and pass through the installed C++ libraries
// (TileMLIR::TileMLIR) and lists the tile passes: links every library the
// package names.
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassRegistry.h"
#include "tile/InitAll.h"

#include <cstdio>
#include <cstring>

int main() {
  mlir::DialectRegistry registry;
  mlir::tile::registerAllTileDialects(registry);
  mlir::tile::registerAllTilePasses();
  for (const char *flag :
       {"tile-lower-to-cpu", "tile-lower-to-nvgpu", "tile-software-pipeline"})
    std::printf("%s: %s\n", flag,
                mlir::PassInfo::lookup(flag) ? "registered" : "missing");
  return 0;
}
