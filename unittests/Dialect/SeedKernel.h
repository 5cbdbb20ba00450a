//===- SeedKernel.h - The seed GEMM as IR text for unit tests ---*- C++ -*-===//
//
// Part of tile-mlir. One kernel text shared by the schedule unit tests: a
// pipelined loop over the seed GEMM's statements at a small size.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_UNITTESTS_DIALECT_SEEDKERNEL_H
#define TILE_UNITTESTS_DIALECT_SEEDKERNEL_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlir {
namespace tile {
namespace testing {

/// A kernel whose pipelined loop has `schedule` and the statements `body`
/// (which may use %A, %B, %A_s, %B_s, %C_l, %ko).
inline std::string makeLoop(StringRef schedule, StringRef body) {
  return (R"mlir(
    func.func @f(%A: memref<256x256xf16>, %B: memref<256x256xf16>) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      tile.kernel grid(%c1) threads(128) as (%bx) {
        %A_s = tile.alloc_shared : memref<64x32xf16, #gpu.address_space<workgroup>>
        %B_s = tile.alloc_shared : memref<32x64xf16, #gpu.address_space<workgroup>>
        %C_l = tile.alloc_fragment : memref<64x64xf32, #gpu.address_space<private>>
        tile.pipelined %c0 to %c8 step %c1 )mlir" +
          schedule + R"mlir( as (%k) {
          %ko = arith.muli %k, %c32 : index
)mlir" + body +
          R"mlir(
        }
      }
      return
    })mlir")
      .str();
}

constexpr StringLiteral kCopyA =
    "tile.copy %A[%c0, %ko] to %A_s : memref<256x256xf16> to "
    "memref<64x32xf16, #gpu.address_space<workgroup>>\n";
constexpr StringLiteral kCopyB =
    "tile.copy %B[%ko, %c0] to %B_s : memref<256x256xf16> to "
    "memref<32x64xf16, #gpu.address_space<workgroup>>\n";
constexpr StringLiteral kGemm =
    "tile.gemm %A_s, %B_s, %C_l : memref<64x32xf16, "
    "#gpu.address_space<workgroup>>, memref<32x64xf16, "
    "#gpu.address_space<workgroup>>, memref<64x64xf32, "
    "#gpu.address_space<private>>\n";

/// The seed body (copy A, copy B, gemm) under `schedule`.
inline std::string makeSeedLoop(StringRef schedule) {
  return makeLoop(schedule, (kCopyA + kCopyB + kGemm).str());
}

} // namespace testing
} // namespace tile
} // namespace mlir

#endif // TILE_UNITTESTS_DIALECT_SEEDKERNEL_H
