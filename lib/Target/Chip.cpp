//===- Chip.cpp - Per-chip facts: the one table ---------------------------===//
//
// Part of tile-mlir.
//
//===----------------------------------------------------------------------===//

#include "tile/Target/Chip.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace mlir::tile;

// Shared memory per block with opt-in, from the CUDA C Programming Guide's
// table of compute-capability features (228 KB per SM on sm_90, 1 KB of which
// the system reserves per block: 227 KB = 232448 bytes). Registers from the
// same table: 255 per thread, 64K per block and per SM.
static const ChipInfo kChips[] = {
    // name cc opt-in smem default regs/thread regs/block PTX features
    //   unroll prefetch wgmma
    {"sm_80", 80, 166912, 49152, 255, 65536, "+ptx80", false, false, false},
    {"sm_86", 86, 101376, 49152, 255, 65536, "+ptx80", false, false, false},
    {"sm_89", 89, 101376, 49152, 255, 65536, "+ptx80", false, false, false},
    {"sm_90", 90, 232448, 49152, 255, 65536, "+ptx80", true, true, false},
    {"sm_90a", 90, 232448, 49152, 255, 65536, "+ptx80", true, true, true},
};

int64_t mlir::tile::getTileBytes(MemRefType type) {
  Type element = type.getElementType();
  int64_t bits = element.isIndex() ? 64 : element.getIntOrFloatBitWidth();
  return type.getNumElements() * llvm::divideCeil(bits, 8);
}

int64_t mlir::tile::appendSharedTile(int64_t end, int64_t tileBytes) {
  return llvm::alignTo(end, kSharedTileAlignment) + tileBytes;
}

int64_t mlir::tile::getRegisterLimit(const ChipInfo &chip, int64_t threads) {
  int64_t warpThreads = llvm::alignTo(std::max<int64_t>(threads, 1), 32);
  int64_t perThread = chip.maxRegistersPerBlock / warpThreads / 8 * 8;
  return std::min(chip.maxRegistersPerThread, perThread);
}

llvm::ArrayRef<ChipInfo> mlir::tile::getKnownChips() { return kChips; }

const ChipInfo *mlir::tile::lookupChip(llvm::StringRef name) {
  const ChipInfo *it = llvm::find_if(
      kChips, [&](const ChipInfo &chip) { return chip.name == name; });
  return it == std::end(kChips) ? nullptr : it;
}

std::string mlir::tile::getKnownChipNames() {
  std::string names;
  llvm::raw_string_ostream os(names);
  llvm::interleaveComma(kChips, os,
                        [&](const ChipInfo &chip) { os << chip.name; });
  return names;
}

const ChipInfo *
mlir::tile::lookupChipOrEmitError(mlir::Location loc, llvm::StringRef name,
                                  llvm::StringRef passArgument) {
  if (const ChipInfo *chip = lookupChip(name))
    return chip;
  mlir::emitError(loc) << "unknown chip '" << name << "' for --" << passArgument
                       << "; known chips: " << getKnownChipNames();
  return nullptr;
}
