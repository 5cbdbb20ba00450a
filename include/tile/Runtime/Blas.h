//===- Blas.h - The cuBLAS reference GEMM -----------------------*- C++ -*-===//

#ifndef TILE_RUNTIME_BLAS_H
#define TILE_RUNTIME_BLAS_H

#include "tile/Runtime/Device.h"

#include <memory>

namespace tile::runtime {

/// A cuBLAS handle on the GPU's stream; the Gpu must outlive it.
class Blas {
public:
  static std::unique_ptr<Blas> create(const Gpu &gpu, std::string &error);
  ~Blas();

  /// C (MxN) = A (MxK) * B (KxN), all row-major and dense, with cublasGemmEx
  /// (fp32 compute). A and B share one element type; C is that type or f32.
  /// transposeA: A is stored KxM; transposeB: B is stored NxK.
  bool gemm(int64_t m, int64_t n, int64_t k, CUdeviceptr a, CUdeviceptr b,
            ElemType abType, CUdeviceptr c, ElemType cType, std::string &error,
            bool transposeA = false, bool transposeB = false) const;

  /// Whether cublasGemmEx supports this A/B and C type pair.
  static bool supports(ElemType abType, ElemType cType);

private:
  Blas() = default;
  void *handle = nullptr;
};

} // namespace tile::runtime

#endif // TILE_RUNTIME_BLAS_H
