//===- Blas.cpp - The cuBLAS reference GEMM -------------------------------===//

#include "tile/Runtime/Blas.h"

#include <cublas_v2.h>

using namespace tile::runtime;

static cudaDataType toCuda(ElemType type) {
  switch (type) {
  case ElemType::F16:
    return CUDA_R_16F;
  case ElemType::BF16:
    return CUDA_R_16BF;
  case ElemType::F32:
    return CUDA_R_32F;
  }
  return CUDA_R_32F;
}

static bool checkBlas(cublasStatus_t status, const std::string &what,
                      std::string &error) {
  if (status == CUBLAS_STATUS_SUCCESS)
    return true;
  error = what + ": " + cublasGetStatusName(status) + " (" +
          cublasGetStatusString(status) + ")";
  return false;
}

std::unique_ptr<Blas> Blas::create(const Gpu &gpu, std::string &error) {
  std::unique_ptr<Blas> blas(new Blas());
  cublasHandle_t handle = nullptr;
  if (!checkBlas(cublasCreate(&handle), "cannot create a cuBLAS handle", error))
    return nullptr;
  blas->handle = handle;
  if (!checkBlas(cublasSetStream(handle, gpu.stream), "cublasSetStream", error))
    return nullptr;
  return blas;
}

Blas::~Blas() {
  if (handle)
    cublasDestroy(static_cast<cublasHandle_t>(handle));
}

bool Blas::supports(ElemType abType, ElemType cType) {
  return abType != ElemType::F32 && (cType == abType || cType == ElemType::F32);
}

bool Blas::gemm(int64_t m, int64_t n, int64_t k, CUdeviceptr a, CUdeviceptr b,
                ElemType abType, CUdeviceptr c, ElemType cType,
                std::string &error, bool transposeA, bool transposeB) const {
  if (!supports(abType, cType)) {
    error = std::string("cuBLAS reference: unsupported types A/B ") +
            elemTypeName(abType) + ", C " + elemTypeName(cType);
    return false;
  }
  float alpha = 1.0f, beta = 0.0f;
  // cuBLAS is column-major: a row-major MxN C is a column-major NxM C^T, and
  // C^T = B^T A^T, so pass B first with the dimensions swapped. A row-major
  // KxN B is the column-major B^T cuBLAS wants as is; a row-major NxK B (the
  // transposed storage) is a column-major B, so cuBLAS transposes it. The
  // same holds for A.
  cublasOperation_t opB = transposeB ? CUBLAS_OP_T : CUBLAS_OP_N;
  cublasOperation_t opA = transposeA ? CUBLAS_OP_T : CUBLAS_OP_N;
  return checkBlas(
      cublasGemmEx(static_cast<cublasHandle_t>(handle), opB, opA, int(n),
                   int(m), int(k), &alpha, reinterpret_cast<const void *>(b),
                   toCuda(abType), int(transposeB ? k : n),
                   reinterpret_cast<const void *>(a), toCuda(abType),
                   int(transposeA ? m : k), &beta, reinterpret_cast<void *>(c),
                   toCuda(cType), int(n), CUBLAS_COMPUTE_32F,
                   CUBLAS_GEMM_DEFAULT),
      "cublasGemmEx", error);
}
