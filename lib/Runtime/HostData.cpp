//===- HostData.cpp - Host-side element conversion, fill and check --------===//

#include "tile/Runtime/HostData.h"

#include <cmath>
#include <cstring>
#include <limits>

using namespace tile::runtime;

static uint32_t floatBits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

static float bitsFloat(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

uint16_t tile::runtime::floatToHalfBits(float value) {
  uint32_t x = floatBits(value);
  uint16_t sign = uint16_t((x >> 16) & 0x8000);
  uint32_t absBits = x & 0x7fffffff;
  if (absBits > 0x7f800000) // NaN: keep it quiet
    return sign | 0x7e00;
  if (absBits >= 0x477ff000) // rounds to >= 65536 -> infinity
    return sign | 0x7c00;
  if (absBits < 0x38800000) {
    // Subnormal half (or zero): scale so that the integer part is the
    // mantissa; rint rounds to nearest even in the default mode.
    float mag = bitsFloat(absBits) * 16777216.0f; // 2^24
    return sign | uint16_t(std::nearbyint(mag));
  }
  uint32_t mantissa = absBits & 0x7fffff;
  uint32_t exponent = (absBits >> 23) - 127 + 15;
  uint32_t half = (exponent << 10) | (mantissa >> 13);
  uint32_t rest = mantissa & 0x1fff;
  if (rest > 0x1000 || (rest == 0x1000 && (half & 1)))
    ++half; // carries into the exponent correctly, up to infinity
  return sign | uint16_t(half);
}

float tile::runtime::halfBitsToFloat(uint16_t bits) {
  uint32_t sign = uint32_t(bits & 0x8000) << 16;
  uint32_t exponent = (bits >> 10) & 0x1f;
  uint32_t mantissa = bits & 0x3ff;
  if (exponent == 0) {
    float mag = float(mantissa) / 16777216.0f; // mantissa * 2^-24
    return bitsFloat(floatBits(mag) | sign);
  }
  if (exponent == 31)
    return bitsFloat(sign | 0x7f800000 | (mantissa << 13));
  return bitsFloat(sign | ((exponent - 15 + 127) << 23) | (mantissa << 13));
}

uint16_t tile::runtime::floatToBF16Bits(float value) {
  uint32_t x = floatBits(value);
  if ((x & 0x7fffffff) > 0x7f800000)
    return uint16_t((x >> 16) | 0x40);
  uint32_t lsb = (x >> 16) & 1;
  return uint16_t((x + 0x7fff + lsb) >> 16);
}

float tile::runtime::bf16BitsToFloat(uint16_t bits) {
  return bitsFloat(uint32_t(bits) << 16);
}

std::vector<uint8_t> tile::runtime::encode(const std::vector<float> &values,
                                           ElemType type) {
  std::vector<uint8_t> bytes(values.size() * elemTypeBytes(type));
  for (size_t i = 0; i < values.size(); ++i) {
    if (type == ElemType::F32) {
      std::memcpy(&bytes[4 * i], &values[i], 4);
      continue;
    }
    uint16_t h = type == ElemType::F16 ? floatToHalfBits(values[i])
                                       : floatToBF16Bits(values[i]);
    std::memcpy(&bytes[2 * i], &h, 2);
  }
  return bytes;
}

std::vector<float> tile::runtime::decode(const std::vector<uint8_t> &bytes,
                                         ElemType type) {
  unsigned width = elemTypeBytes(type);
  std::vector<float> values(bytes.size() / width);
  for (size_t i = 0; i < values.size(); ++i) {
    if (type == ElemType::F32) {
      std::memcpy(&values[i], &bytes[4 * i], 4);
      continue;
    }
    uint16_t h;
    std::memcpy(&h, &bytes[2 * i], 2);
    values[i] = type == ElemType::F16 ? halfBitsToFloat(h) : bf16BitsToFloat(h);
  }
  return values;
}

std::vector<float> tile::runtime::randomValues(int64_t count, uint64_t seed,
                                               ElemType type) {
  std::vector<float> values(count);
  uint64_t state = seed;
  for (int64_t i = 0; i < count; ++i) {
    uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    // 24 random bits -> [-1, 1) exactly representable in float.
    float v = float(int64_t(z >> 40) - (1 << 23)) / float(1 << 23);
    if (type == ElemType::F16)
      v = halfBitsToFloat(floatToHalfBits(v));
    else if (type == ElemType::BF16)
      v = bf16BitsToFloat(floatToBF16Bits(v));
    values[i] = v;
  }
  return values;
}

CheckResult tile::runtime::compareAllClose(const std::vector<float> &out,
                                           const std::vector<float> &ref,
                                           double rtol, double atol) {
  CheckResult r;
  r.numElements = int64_t(std::min(out.size(), ref.size()));
  if (out.size() != ref.size())
    r.numBad = int64_t(std::max(out.size(), ref.size())) - r.numElements;
  double worstRatio = -1;
  for (int64_t i = 0; i < r.numElements; ++i) {
    double o = out[i], f = ref[i];
    // As numpy's isclose: an infinity is close only to itself (inf - inf
    // is NaN, and an infinite reference would allow any error).
    bool infinite = std::isinf(o) || std::isinf(f);
    double err = infinite
                     ? (o == f ? 0 : std::numeric_limits<double>::infinity())
                     : std::fabs(o - f);
    double allowed = atol + rtol * std::fabs(f);
    // NaN compares false everywhere: count it bad and worst of all.
    bool ok = infinite ? o == f : err <= allowed;
    // An exact element is 0 however tight the tolerance (0 / 0 is NaN, and
    // would never be the worst, even where every element is exact).
    // An infinity that is not the reference's is as bad as NaN (inf / inf
    // would be NaN, never the worst).
    double ratio = std::isnan(err) || std::isinf(err)
                       ? std::numeric_limits<double>::infinity()
                   : err == 0 ? 0
                              : err / allowed;
    if (!ok)
      ++r.numBad;
    // A NaN element makes the largest error infinite, not the largest of
    // the others.
    if (std::isnan(err))
      r.maxAbsErr = std::numeric_limits<double>::infinity();
    else if (err > r.maxAbsErr)
      r.maxAbsErr = err;
    if (ratio > worstRatio) {
      worstRatio = ratio;
      r.worstIndex = i;
      r.worstOut = out[i];
      r.worstRef = ref[i];
    }
  }
  return r;
}
