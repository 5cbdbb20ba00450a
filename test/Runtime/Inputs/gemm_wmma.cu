// A hand-written CUDA GEMM that follows the compiler's kernel ABI: one bare
// pointer per buffer (A MxK, B KxN, C MxN, row-major f16), sizes baked in at
// compile time, dynamic shared memory. It stands in for the compiler's PTX
// while testing tile-run and the benchmark harness: a STAGES-deep cp.async
// pipeline (the default 3 stages need 56832 bytes, above the 48 KiB that
// needs opt-in), WMMA tensor-core tiles, bounds-checked edges.
//
// Regenerate the PTX with make-inputs.sh next to this file.
#include <cuda_fp16.h>
#include <mma.h>

#ifndef GEMM_M
#define GEMM_M 256
#define GEMM_N 512
#define GEMM_K 128
#endif
#ifndef STAGES
#define STAGES 3
#endif

using namespace nvcuda;

constexpr int M = GEMM_M, N = GEMM_N, K = GEMM_K;
constexpr int BM = 128, BN = 128, BK = 32, THREADS = 256;
// Row padding of 8 halves (16 bytes) staggers shared-memory banks between
// rows while keeping 16-byte cp.async and 32-byte WMMA alignment.
constexpr int LDA = BK + 8, LDB = BN + 8;
constexpr int A_STAGE = BM * LDA, B_STAGE = BK * LDB;
// 16-byte vector copies need every row start 16-byte aligned.
constexpr bool VECTOR = (K % 8 == 0) && (N % 8 == 0);
static_assert(STAGES >= 2, "the pipeline below needs at least 2 stages");

__device__ __forceinline__ void copy16(half *dst, const half *src,
                                       bool inBounds) {
  unsigned d = static_cast<unsigned>(__cvta_generic_to_shared(dst));
  int bytes = inBounds ? 16 : 0; // 0: zero-fill, nothing read
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(d),
               "l"(src), "r"(bytes));
}

__device__ __forceinline__ void loadTiles(half *As, half *Bs, const half *A,
                                          const half *B, int m0, int n0,
                                          int k0, int tid) {
  for (int c = tid; c < BM * BK / 8; c += THREADS) {
    int r = c / (BK / 8), col = (c % (BK / 8)) * 8;
    int gr = m0 + r, gc = k0 + col;
    half *dst = As + r * LDA + col;
    if (VECTOR) {
      bool in = gr < M && gc < K;
      copy16(dst, in ? A + (size_t)gr * K + gc : A, in);
    } else {
      for (int e = 0; e < 8; ++e)
        dst[e] = (gr < M && gc + e < K) ? A[(size_t)gr * K + gc + e]
                                        : __float2half(0.0f);
    }
  }
  for (int c = tid; c < BK * BN / 8; c += THREADS) {
    int r = c / (BN / 8), col = (c % (BN / 8)) * 8;
    int gr = k0 + r, gc = n0 + col;
    half *dst = Bs + r * LDB + col;
    if (VECTOR) {
      bool in = gr < K && gc < N;
      copy16(dst, in ? B + (size_t)gr * N + gc : B, in);
    } else {
      for (int e = 0; e < 8; ++e)
        dst[e] = (gr < K && gc + e < N) ? B[(size_t)gr * N + gc + e]
                                        : __float2half(0.0f);
    }
  }
}

extern "C" __global__ void __launch_bounds__(THREADS)
    gemm_f16(const half *__restrict__ A, const half *__restrict__ B,
             half *__restrict__ C) {
  extern __shared__ __align__(128) unsigned char smem[];
  half *As = reinterpret_cast<half *>(smem);
  half *Bs = As + STAGES * A_STAGE;
  int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  int wm = warp / 4, wn = warp % 4; // 2 x 4 warps, 64 x 32 each
  int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
  constexpr int KTILES = (K + BK - 1) / BK;

  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[4][2];
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 2; ++j)
      wmma::fill_fragment(acc[i][j], 0.0f);

  // Prologue: one commit group per stage, empty past the last tile, so the
  // wait count below is the same in every iteration.
  for (int s = 0; s < STAGES - 1; ++s) {
    if (s < KTILES)
      loadTiles(As + s * A_STAGE, Bs + s * B_STAGE, A, B, m0, n0, s * BK, tid);
    asm volatile("cp.async.commit_group;\n" ::);
  }
  for (int kt = 0; kt < KTILES; ++kt) {
    asm volatile("cp.async.wait_group %0;\n" ::"n"(STAGES - 2));
    // Makes tile kt visible to all warps, and ends every warp's reads of the
    // stage that the prefetch below overwrites (read in iteration kt-1).
    __syncthreads();
    int next = kt + STAGES - 1;
    if (next < KTILES)
      loadTiles(As + (next % STAGES) * A_STAGE, Bs + (next % STAGES) * B_STAGE,
                A, B, m0, n0, next * BK, tid);
    asm volatile("cp.async.commit_group;\n" ::);

    const half *a = As + (kt % STAGES) * A_STAGE;
    const half *b = Bs + (kt % STAGES) * B_STAGE;
    for (int kk = 0; kk < BK; kk += 16) {
      wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa[4];
      wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> fb[2];
      for (int i = 0; i < 4; ++i)
        wmma::load_matrix_sync(fa[i], a + (wm * 64 + i * 16) * LDA + kk, LDA);
      for (int j = 0; j < 2; ++j)
        wmma::load_matrix_sync(fb[j], b + kk * LDB + wn * 32 + j * 16, LDB);
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 2; ++j)
          wmma::mma_sync(acc[i][j], fa[i], fb[j], acc[i][j]);
    }
  }
  asm volatile("cp.async.wait_group 0;\n" ::);
  __syncthreads();

  // Epilogue through a per-warp 16x16 fp32 scratch in the (now free) shared
  // memory, so that stores are bounds-checked per element.
  float *scratch = reinterpret_cast<float *>(smem) + warp * 256;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 2; ++j) {
      wmma::store_matrix_sync(scratch, acc[i][j], 16, wmma::mem_row_major);
      __syncwarp();
      int r = lane / 2, c0 = (lane % 2) * 8;
      int gr = m0 + wm * 64 + i * 16 + r;
      for (int e = 0; e < 8; ++e) {
        int gc = n0 + wn * 32 + j * 16 + c0 + e;
        if (gr < M && gc < N)
          C[(size_t)gr * N + gc] = __float2half(scratch[r * 16 + c0 + e]);
      }
      __syncwarp();
    }
}
