// A hand-written CUDA GEMM that loads its tiles through TMA tensor maps, the
// way tile-run passes them: after the buffer pointers (A MxK, B KxN, C MxN,
// row-major f16) come the two 128-byte CUtensorMaps that the launch
// description's `tensormap` lines describe (A's box BM x BK, B's box BK x BN,
// no swizzle), by value: __grid_constant__ parameters, which the TMA reads in
// parameter space without a proxy fence. It tests tile-run's tensor
// maps, not speed: one thread issues both bulk tensor copies of a k-step onto
// one mbarrier, every thread waits on the barrier's phase, then plain fp32
// FMAs. Sizes that are not tile multiples exercise the zero fill of the
// boxes' out-of-bounds elements, which the K loop relies on.
//
// Regenerate the PTX with make-inputs.sh next to this file (-arch=sm_90:
// cp.async.bulk.tensor needs sm_90, not sm_90a).
#include <cuda.h>
#include <cuda_fp16.h>
#include <stdint.h>

#ifndef GEMM_M
#define GEMM_M 200
#define GEMM_N 136
#define GEMM_K 72
#endif

constexpr int M = GEMM_M, N = GEMM_N, K = GEMM_K;
constexpr int BM = 64, BN = 64, BK = 32, THREADS = 256;
constexpr int PER_THREAD = BM * BN / THREADS;
// The bytes each k-step's two boxes deliver, out-of-bounds zeros included:
// what the mbarrier expects.
constexpr unsigned STEP_BYTES = (BM * BK + BK * BN) * sizeof(half);
static_assert(BM * BN % THREADS == 0, "whole outputs per thread");

__device__ __forceinline__ unsigned smemAddr(const void *p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

// `box` lands row-major in shared memory: [rows][cols], with the
// coordinates {column, row} of its first element (innermost first).
__device__ __forceinline__ void tmaLoad2d(void *dst, const void *tensorMap,
                                          int col, int row, uint64_t *bar) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::"
      "complete_tx::bytes [%0], [%1, {%2, %3}], [%4];\n" ::"r"(smemAddr(dst)),
      "l"(tensorMap), "r"(col), "r"(row), "r"(smemAddr(bar))
      : "memory");
}

__device__ __forceinline__ void waitPhase(uint64_t *bar, unsigned parity) {
  unsigned done = 0;
  while (!done)
    asm volatile("{\n"
                 ".reg .pred p;\n"
                 "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
                 "selp.u32 %0, 1, 0, p;\n"
                 "}\n"
                 : "=r"(done)
                 : "r"(smemAddr(bar)), "r"(parity)
                 : "memory");
}

extern "C" __global__ void __launch_bounds__(THREADS)
    gemm_tma_f16(const half *A, const half *B, half *C,
                 const __grid_constant__ CUtensorMap tmapA,
                 const __grid_constant__ CUtensorMap tmapB) {
  __shared__ alignas(128) half As[BM][BK];
  __shared__ alignas(128) half Bs[BK][BN];
  __shared__ alignas(8) uint64_t bar;

  const int tid = threadIdx.x;
  const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;

  if (tid == 0) {
    asm volatile(
        "mbarrier.init.shared::cta.b64 [%0], 1;\n" ::"r"(smemAddr(&bar))
        : "memory");
    // Make the initialised barrier visible to the copy engine.
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
  }
  __syncthreads();

  float acc[PER_THREAD];
#pragma unroll
  for (int i = 0; i < PER_THREAD; ++i)
    acc[i] = 0.0f;

  const int kSteps = (K + BK - 1) / BK;
  for (int step = 0; step < kSteps; ++step) {
    const int k0 = step * BK;
    if (tid == 0) {
      asm volatile(
          "{\n"
          ".reg .b64 state;\n"
          "mbarrier.arrive.expect_tx.shared::cta.b64 state, [%0], %1;\n"
          "}\n" ::"r"(smemAddr(&bar)),
          "r"(STEP_BYTES)
          : "memory");
      tmaLoad2d(&As[0][0], &tmapA, k0, m0, &bar); // A[m0.., k0..]
      tmaLoad2d(&Bs[0][0], &tmapB, n0, k0, &bar); // B[k0.., n0..]
    }
    // One arrival and STEP_BYTES per step: the phase flips once per step.
    waitPhase(&bar, step & 1);

#pragma unroll
    for (int i = 0; i < PER_THREAD; ++i) {
      int e = tid + i * THREADS;
      int r = e / BN, c = e % BN;
      float sum = acc[i];
      for (int kk = 0; kk < BK; ++kk)
        sum = fmaf(__half2float(As[r][kk]), __half2float(Bs[kk][c]), sum);
      acc[i] = sum;
    }
    // Every thread is done reading before the next step's copies overwrite
    // the tiles.
    __syncthreads();
  }

#pragma unroll
  for (int i = 0; i < PER_THREAD; ++i) {
    int e = tid + i * THREADS;
    int r = e / BN, c = e % BN;
    int gr = m0 + r, gc = n0 + c;
    if (gr < M && gc < N)
      C[(size_t)gr * N + gc] = __float2half(acc[i]);
  }
}
