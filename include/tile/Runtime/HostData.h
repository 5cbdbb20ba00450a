//===- HostData.h - Host-side conversion, fill and check --------*- C++ -*-===//
//
// What tile-run does to buffers on the host: portable seeded random inputs,
// fp16/bf16 <-> fp32 conversion, and the seed's allclose criterion. No CUDA
// here, so it is unit-tested without a GPU.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_HOSTDATA_H
#define TILE_RUNTIME_HOSTDATA_H

#include "tile/Runtime/LaunchDesc.h"

#include <cstdint>
#include <vector>

namespace tile::runtime {

/// IEEE binary16 / bfloat16 bits from a float, rounding to nearest even
/// (NaN stays NaN, overflow gives infinity).
uint16_t floatToHalfBits(float value);
float halfBitsToFloat(uint16_t bits);
uint16_t floatToBF16Bits(float value);
float bf16BitsToFloat(uint16_t bits);

/// Encodes `values` as `type` into raw little-endian bytes, and back.
std::vector<uint8_t> encode(const std::vector<float> &values, ElemType type);
std::vector<float> decode(const std::vector<uint8_t> &bytes, ElemType type);

/// `count` values uniform in [-1, 1), already rounded to `type`, from a
/// SplitMix64 stream: the same seed gives the same inputs on every platform
/// (std::uniform_real_distribution does not promise that).
std::vector<float> randomValues(int64_t count, uint64_t seed, ElemType type);

/// The seed's criterion, as numpy/torch allclose:
/// |out - ref| <= atol + rtol * |ref|, and NaN never passes.
struct CheckResult {
  int64_t numElements = 0;
  int64_t numBad = 0;
  /// The element that violates the bound most (largest |out-ref| relative
  /// to its allowance); when all pass, the one closest to failing.
  int64_t worstIndex = -1;
  float worstOut = 0, worstRef = 0;
  double maxAbsErr = 0;
  bool pass() const { return numElements > 0 && numBad == 0; }
};
CheckResult compareAllClose(const std::vector<float> &out,
                            const std::vector<float> &ref, double rtol,
                            double atol);

} // namespace tile::runtime

#endif // TILE_RUNTIME_HOSTDATA_H
