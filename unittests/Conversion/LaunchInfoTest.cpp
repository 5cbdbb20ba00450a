//===- LaunchInfoTest.cpp - The launch description, compiler to runtime ---===//
//
// Part of tile-mlir. The compiler writes the `.launch` text and the runtime
// parses it; this lowers a kernel, writes its description and reads it back
// with the runtime's parser, so the two sides cannot drift apart.
//
//===----------------------------------------------------------------------===//

#include "tile/Conversion/TileToNVGPU/LaunchInfo.h"
#include "tile/Conversion/Passes.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"
#include "tile/Runtime/LaunchDesc.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include "gtest/gtest.h"

using namespace mlir;

namespace {

constexpr const char *kKernel = R"mlir(
func.func @gemm(%A: memref<1000x72xf16>, %B: memref<72x300xbf16>,
                %C: memref<1000x300xf32>) {
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c300 = arith.constant 300 : index
  %c1000 = arith.constant 1000 : index
  %gx = arith.ceildivui %c300, %c64 : index
  %gy = arith.ceildivui %c1000, %c128 : index
  tile.kernel grid(%gx, %gy) threads(256) as (%bx, %by) {
    %a = tile.alloc_shared : memref<2x128x32xf16, #gpu.address_space<workgroup>>
    %b = tile.alloc_shared : memref<32x64xbf16, #gpu.address_space<workgroup>>
    tile.clear %a : memref<2x128x32xf16, #gpu.address_space<workgroup>>
    tile.clear %b : memref<32x64xbf16, #gpu.address_space<workgroup>>
  }
  return
}
)mlir";

TEST(LaunchInfo, RuntimeParsesWhatTheLoweringWrites) {
  DialectRegistry registry;
  registry.insert<arith::ArithDialect, func::FuncDialect, gpu::GPUDialect,
                  memref::MemRefDialect, mlir::tile::TileDialect>();
  MLIRContext context(registry);
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(kKernel, &context);
  ASSERT_TRUE(module);

  PassManager pm(&context);
  mlir::tile::TileLowerToNVGPUOptions options;
  options.chip = "sm_80";
  pm.addPass(mlir::tile::createTileLowerToNVGPU(options));
  ASSERT_TRUE(succeeded(pm.run(*module)));

  gpu::LaunchFuncOp launch;
  module->walk([&](gpu::LaunchFuncOp op) { launch = op; });
  ASSERT_TRUE(launch);
  std::string text;
  llvm::raw_string_ostream os(text);
  ASSERT_TRUE(succeeded(mlir::tile::writeLaunchDescription(launch, os)));

  std::string error;
  std::optional<::tile::runtime::LaunchDesc> desc =
      ::tile::runtime::parseLaunchDesc(text, error);
  ASSERT_TRUE(desc) << error << "\n" << text;
  EXPECT_TRUE(desc->warnings.empty()) << text;
  EXPECT_EQ(desc->kernel, "gemm_kernel");
  EXPECT_EQ(desc->chip, "sm_80");
  EXPECT_EQ(desc->grid, (std::array<unsigned, 3>{5, 8, 1}));
  EXPECT_EQ(desc->block, (std::array<unsigned, 3>{256, 1, 1}));
  // 2x128x32 f16 = 16384 B at 0, then 32x64 bf16 = 4096 B at 16384.
  EXPECT_EQ(desc->sharedBytes, 20480u);
  ASSERT_EQ(desc->args.size(), 3u);
  EXPECT_EQ(desc->args[0].str(), "f16 1000x72");
  EXPECT_EQ(desc->args[1].str(), "bf16 72x300");
  EXPECT_EQ(desc->args[2].str(), "f32 1000x300");
  EXPECT_EQ(desc->args[2].name, "C");
}

} // namespace
