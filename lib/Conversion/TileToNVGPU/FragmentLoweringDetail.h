//===- FragmentLoweringDetail.h - Fragment lowering state -------*- C++ -*-===//
//
// Part of tile-mlir. Private to lib/Conversion/TileToNVGPU: the per-kernel
// state that the gemm and copy lowerings share.
//
//===----------------------------------------------------------------------===//

#ifndef LIB_CONVERSION_TILETONVGPU_FRAGMENTLOWERINGDETAIL_H
#define LIB_CONVERSION_TILETONVGPU_FRAGMENTLOWERINGDETAIL_H

#include "mlir/IR/Builders.h"
#include "tile/Conversion/TileToNVGPU/FragmentLayout.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Target/Chip.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <string>

namespace mlir {
namespace tile {
namespace fragment {

/// One fragment tile after lowering: its layout and this thread's registers.
struct FragmentRegisters {
  FragmentLayout layout;
  /// memref<N x elem>: register r of FragmentLayout lives at index r.
  Value registers;
  /// Row and column of register 0 for this thread; register r is at
  /// (rowBase + dRow(r), colBase + dCol(r)) with constant deltas.
  Value rowBase, colBase;
  /// The same for the warp's sub-tile origin (no lane part).
  Value warpRow, warpCol;

  Type getElementType() const {
    return cast<MemRefType>(registers.getType()).getElementType();
  }
};

struct FragmentState {
  explicit FragmentState(const ChipInfo &chip) : chip(chip) {}

  const ChipInfo &chip;
  Value threadId, warpId, laneId;
  llvm::DenseMap<Value, FragmentRegisters> fragments;
  /// The block's thread count.
  int64_t threads = 0;
  /// wgmma gemms that may leave their group in flight (scheduleWgmmaGemms).
  llvm::SmallPtrSet<Operation *, 8> deferredGemms;
  /// wgmma gemms whose accumulator holds a tile.clear's zeros
  /// (getGemmsAfterClear).
  llvm::SmallPtrSet<Operation *, 8> gemmsAfterClear;

  const FragmentRegisters *lookup(Value tile) const {
    auto it = fragments.find(tile);
    return it == fragments.end() ? nullptr : &it->second;
  }
};

/// The constant (row, col) offsets of register `reg` from (rowBase, colBase).
std::pair<int64_t, int64_t> getRegisterDelta(const FragmentLayout &layout,
                                             int64_t reg);

/// Byte width of a memref element.
int64_t getElementBytes(Type type);

/// Why `op` cannot run as wgmma.mma_async with its accumulator in the
/// warpgroup layout `layout` when a thread has `registerLimit` registers
/// (getRegisterLimit), or an empty string when it can.
std::string whyNotWgmma(GemmOp op, const FragmentLayout &layout,
                        int64_t registerLimit);

/// In the steady-state loops of a kernel whose GEMMs use wgmma, moves each
/// gemm in front of the copies that precede it in its pipeline step (they
/// fill other versions of the multi-buffered tiles) and returns the gemms so
/// moved: each may leave its wgmma group in flight until the next gemm's
/// wait, overlapping the copies, the next wait and barrier. Only loops whose
/// body holds nothing else that could touch the registers or buffers in
/// flight qualify. Adds a `wgmma.wait_group 0` after each such loop.
llvm::SmallPtrSet<Operation *, 8> scheduleWgmmaGemms(KernelOp kernel);

/// The gemms that are the next op after a tile.clear of their accumulator
/// to touch it, in the clear's block: they may ignore the accumulator's
/// registers (wgmma's scale-d = 0 in the first k-step) instead of adding to
/// zeros.
llvm::SmallPtrSet<Operation *, 8> getGemmsAfterClear(KernelOp kernel);

/// Lowers `op` to wgmma.mma_async (whyNotWgmma must be empty) and erases
/// nothing: lowerFragmentGemm erases it.
void emitWgmmaGemm(GemmOp op, const FragmentRegisters &acc,
                   FragmentState &state);

/// Each rewrites `op` (which must have passed the checks in
/// FragmentLowering.cpp) and erases it.
void lowerFragmentGemm(GemmOp op, FragmentState &state);
void lowerFragmentClear(ClearOp op, FragmentState &state);
void lowerFragmentCopy(CopyOp op, FragmentState &state);

} // namespace fragment
} // namespace tile
} // namespace mlir

#endif // LIB_CONVERSION_TILETONVGPU_FRAGMENTLOWERINGDETAIL_H
