//===- TestFragmentLowering.cpp - Run the fragment lowering alone ---------===//
//
// Part of tile-mlir. The fragment lowering is the first step of
// --tile-lower-to-nvgpu; this pass runs only that step so that its output
// (ldmatrix / mma.sync selection, masks, registers) can be tested by itself.
//
//===----------------------------------------------------------------------===//

#include "tile/Conversion/Passes.h"
#include "tile/Conversion/TileToNVGPU/FragmentLowering.h"
#include "tile/Dialect/Tile/Utils/LoopUtils.h"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_TESTTILELOWERFRAGMENTS
#include "tile/Conversion/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;
using namespace mlir::tile;

namespace {
struct TestTileLowerFragments
    : tile::impl::TestTileLowerFragmentsBase<TestTileLowerFragments> {
  using Base::Base;

  void getDependentDialects(DialectRegistry &registry) const override {
    getFragmentLoweringDialects(registry);
  }

  void runOnOperation() override {
    const ChipInfo *chipInfo =
        lookupChipOrEmitError(getOperation()->getLoc(), chip, getArgument());
    if (!chipInfo)
      return signalPassFailure();
    // tile-lower-to-nvgpu makes loops that no pipelining pass rewrote serial
    // before the pass ends; here they are made serial first, since the
    // fragment lowering grows a loop's statements past its 'stage' list.
    SmallVector<PipelinedOp> loops;
    getOperation()->walk([&](PipelinedOp loop) { loops.push_back(loop); });
    IRRewriter rewriter(&getContext());
    for (PipelinedOp loop : loops)
      convertToSerialLoop(rewriter, loop);
    SmallVector<KernelOp> kernels;
    getOperation()->walk([&](KernelOp kernel) { kernels.push_back(kernel); });
    for (KernelOp kernel : kernels)
      if (failed(checkGPUElementTypes(kernel)) ||
          failed(lowerFragmentOps(kernel, *chipInfo)))
        return signalPassFailure();
  }
};
} // namespace
