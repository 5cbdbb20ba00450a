//===- LoweringApiErrorsTest.cpp - Errors of the C++ entry points ---------===//
//
// Part of tile-mlir. tile-lower-to-nvgpu calls these functions in an order
// that rules the errors below out, so no tile-opt input reaches them; a
// library user who calls them directly can. Each must then fail with its
// diagnostic and leave the IR as it was.
//
//===----------------------------------------------------------------------===//

#include "tile/Conversion/TileToNVGPU/CopyLowering.h"
#include "tile/Conversion/TileToNVGPU/LaunchInfo.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace mlir;

namespace {

class LoweringApiErrors : public ::testing::Test {
protected:
  LoweringApiErrors() {
    registry.insert<arith::ArithDialect, func::FuncDialect, gpu::GPUDialect,
                    memref::MemRefDialect, nvgpu::NVGPUDialect,
                    mlir::tile::TileDialect>();
    context = std::make_unique<MLIRContext>(registry);
  }

  OwningOpRef<ModuleOp> parse(const char *source) {
    return parseSourceString<ModuleOp>(source, context.get());
  }

  struct Outcome {
    bool failed;
    /// The errors it emitted, one per line.
    std::string errors;
  };

  /// Runs `fn`, collecting the errors it emits.
  Outcome run(llvm::function_ref<LogicalResult()> fn) {
    std::string errors;
    ScopedDiagnosticHandler handler(context.get(), [&](Diagnostic &diag) {
      if (diag.getSeverity() == DiagnosticSeverity::Error)
        errors += diag.str() + "\n";
      return success();
    });
    bool failed = mlir::failed(fn());
    return {failed, errors};
  }

  DialectRegistry registry;
  std::unique_ptr<MLIRContext> context;
};

template <typename OpT> OpT findOp(ModuleOp module) {
  OpT found;
  module.walk([&](OpT op) { found = op; });
  return found;
}

TEST_F(LoweringApiErrors, LaunchWithBlockSizeNotConstant) {
  OwningOpRef<ModuleOp> module = parse(R"mlir(
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%A: memref<16xf16>) kernel { gpu.return }
  }
  func.func @f(%A: memref<16xf16>, %threads: index) {
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : i32
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%threads, %c1, %c1) dynamic_shared_memory_size %c0 args(%A : memref<16xf16>)
    return
  }
}
)mlir");
  ASSERT_TRUE(module);
  auto launch = findOp<gpu::LaunchFuncOp>(*module);
  auto func = findOp<func::FuncOp>(*module);
  BlockArgument args[] = {func.getArgument(0)};
  Outcome outcome = run([&] {
    return mlir::tile::attachLaunchInfo(launch, "sm_90", 0, args, {},
                                        std::nullopt);
  });
  EXPECT_TRUE(outcome.failed);
  EXPECT_EQ(outcome.errors, "block size must be a constant\n");
  EXPECT_FALSE(launch->hasAttr("tile.launch"));
}

TEST_F(LoweringApiErrors, TensorMapNotOfAnArgument) {
  OwningOpRef<ModuleOp> module = parse(R"mlir(
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%A: memref<64x64xf16>) kernel { gpu.return }
  }
  func.func @f(%A: memref<64x64xf16>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c0 = arith.constant 0 : i32
    %local = memref.alloc() : memref<64x64xf16>
    %unranked = memref.cast %local : memref<64x64xf16> to memref<*xf16>
    %map = nvgpu.tma.create.descriptor %unranked box[%c64, %c64] : memref<*xf16> -> !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) dynamic_shared_memory_size %c0 args(%A : memref<64x64xf16>)
    return
  }
}
)mlir");
  ASSERT_TRUE(module);
  auto launch = findOp<gpu::LaunchFuncOp>(*module);
  auto func = findOp<func::FuncOp>(*module);
  auto map = findOp<nvgpu::TmaCreateDescriptorOp>(*module);
  BlockArgument args[] = {func.getArgument(0)};
  Value maps[] = {map.getResult()};
  Outcome outcome = run([&] {
    return mlir::tile::attachLaunchInfo(launch, "sm_90", 0, args, maps,
                                        std::nullopt);
  });
  EXPECT_TRUE(outcome.failed);
  EXPECT_EQ(outcome.errors,
            "a tensor map parameter must be created from a memref "
            "argument of the function\n");
  EXPECT_FALSE(launch->hasAttr("tile.launch"));
}

TEST_F(LoweringApiErrors, MemoryOpsBeforeFragmentOps) {
  // lowerTileMemoryOps expects lowerFragmentOps to have run first.
  OwningOpRef<ModuleOp> module = parse(R"mlir(
func.func @f() {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %acc = tile.alloc_fragment : memref<64x64xf32, #gpu.address_space<private>>
    tile.clear %acc : memref<64x64xf32, #gpu.address_space<private>>
  }
  return
}
)mlir");
  ASSERT_TRUE(module);
  auto kernel = findOp<mlir::tile::KernelOp>(*module);
  std::string before;
  llvm::raw_string_ostream(before) << *module;
  Outcome outcome = run([&] { return mlir::tile::lowerTileMemoryOps(kernel); });
  EXPECT_TRUE(outcome.failed);
  EXPECT_EQ(outcome.errors,
            "fragment op was not lowered by the fragment lowering\n");
  std::string after;
  llvm::raw_string_ostream(after) << *module;
  EXPECT_EQ(before, after);
}

} // namespace
