//===- Chip.h - Per-chip facts: the one table -------------------*- C++ -*-===//
//
// Part of tile-mlir. Every number that depends on the GPU (shared memory per
// block, register file limits, PTX features) comes from this table, so the
// budget check, the lowering and the tools cannot disagree.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TARGET_CHIP_H
#define TILE_TARGET_CHIP_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Location.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace mlir {
namespace tile {

struct ChipInfo {
  /// The chip name as users write it: "sm_80", "sm_90a", ...
  llvm::StringRef name;
  /// Compute capability times ten: 80, 86, 89, 90.
  unsigned computeCapability;
  /// Largest shared memory one block may use, in bytes, after the kernel
  /// opts in (cudaFuncAttributeMaxDynamicSharedMemorySize).
  int64_t maxSharedBytesPerBlock;
  /// Shared memory a block may use without opting in.
  int64_t defaultSharedBytesPerBlock;
  /// Largest number of 32-bit registers one thread may use.
  int64_t maxRegistersPerThread;
  /// 32-bit registers of one block: the SM's register file.
  int64_t maxRegistersPerBlock;
  /// PTX ISA features for the NVVM target, new enough for the chip.
  llvm::StringRef ptxFeatures;
  /// Whether tile-to-ptx unrolls pipelined steady states by the number of
  /// buffer versions (docs/performance.md, "Where the time goes"): measured
  /// on the H200 only; on sm_80 it makes the 1000^3 bf16 GEMM spill.
  bool unrollSteadyState;
  /// Whether tile-to-ptx runs tile-prefetch-fragments: measured on the
  /// H200 only (docs/performance.md).
  bool prefetchFragments;
  /// Whether GEMMs use the warpgroup-level wgmma.mma_async (sm_90a only:
  /// the "a" features are not forward compatible) instead of mma.sync.
  bool wgmma;
};

/// Shared tiles start at multiples of this many bytes of the dynamic shared
/// region (the carving places them, the budget counts the padding): the
/// XOR swizzle of SharedLayout.h repeats every 8 rows of 128 bytes, and
/// wgmma applies its 128-byte swizzle to the address bits, so a tile must
/// start where the pattern starts.
constexpr int64_t kSharedTileAlignment = 1024;

/// Bytes of one tile of `type`, shared or fragment (with all its versions
/// when the type has the leading version dimension): each element in whole
/// bytes, an index in 8.
int64_t getTileBytes(MemRefType type);

/// The end of a kernel's shared tiles after one of `tileBytes` is placed
/// behind tiles ending at `end`: at the next multiple of
/// kSharedTileAlignment. The GPU lowering carves tiles in program order this
/// way (SharedCarving.h), and tile-smem-budget counts them the same way.
int64_t appendSharedTile(int64_t end, int64_t tileBytes);

/// Registers a GEMM needs besides its accumulator (operand descriptors or
/// fragments, addresses, counters): a kernel whose accumulator and these do
/// not fit getRegisterLimit spills its accumulator, or is refused by ptxas
/// (GemmToWgmma.cpp has what was measured). tile-split-accumulators computes
/// such an accumulator in parts that fit.
constexpr int64_t kGemmExtraRegisters = 32;

/// The registers a thread of a `threads`-thread block may use on `chip`:
/// the per-thread maximum, or less where the block would not fit the
/// register file otherwise (ptxas caps a kernel at this for its .maxntid;
/// registers go to warps in units of 256, so the cap is a multiple of 8).
int64_t getRegisterLimit(const ChipInfo &chip, int64_t threads);

/// Every chip tile-mlir knows, in ascending compute capability.
llvm::ArrayRef<ChipInfo> getKnownChips();

/// The chip called `name`, or nullptr.
const ChipInfo *lookupChip(llvm::StringRef name);

/// "sm_80, sm_86, ..." for diagnostics that list the valid names.
std::string getKnownChipNames();

/// The chip called `name`; otherwise emits "unknown chip 'X' for --PASS;
/// known chips: ..." at `loc` (without an op dump: passes that take a chip
/// option run on the whole module) and returns nullptr.
const ChipInfo *lookupChipOrEmitError(mlir::Location loc, llvm::StringRef name,
                                      llvm::StringRef passArgument);

} // namespace tile
} // namespace mlir

#endif // TILE_TARGET_CHIP_H
