// mma_peak: what mma.sync m16n8k16 (f16 in, f32 accumulate) can reach on
// this GPU, without global memory, to put the GEMM kernels' figures in
// context. Each warp owns a TM x TN grid of m16n8 accumulator tiles (TM=4,
// TN=8 is the 64x64 warp tile of a 128x128 block with 4 warps) and runs:
//   reg:     the mma.sync chain alone, fragments held in registers;
//   lds:     per k16 step, ldmatrix the A and B fragments from shared memory
//            (x4, B with .trans, as the GEMM kernels do), then the mma chain;
//   bar:     lds plus a __syncthreads every two k-steps (one BK=32 stage);
//   bar4:    the same every four k-steps (one BK=64 stage);
//   pf+bar, pf+bar4: step s + 1's ldmatrix issued before step s's mma.sync
//            (after the barrier that starts s + 1), as tile-prefetch-fragments
//            does across steady-state steps.
// Blocks per SM and warps per block vary, so the table shows how many warps
// per scheduler mma.sync needs. Build and run on the GPU machine:
//   nvcc -O3 -arch=sm_90 -o mma_peak bench/perf/mma_peak.cu && ./mma_peak
#include <cstdint>
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK(x)                                                               \
  do {                                                                         \
    cudaError_t e = (x);                                                       \
    if (e != cudaSuccess) {                                                    \
      fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e));                  \
      return 1;                                                                \
    }                                                                          \
  } while (0)

// REG: fragments stay in registers. Otherwise x4 ldmatrix every k-step,
// with a __syncthreads every BAR k-steps (0: none); PF loads step s + 1's
// fragments before step s's mma.sync (after the barrier that precedes s + 1),
// as tile-prefetch-fragments does across steady-state steps.
#define REG true, 0, false
#define LDS false, 0, false
#define BAR false, 2, false
#define BAR4 false, 4, false
#define PF_BAR false, 2, true
#define PF_BAR4 false, 4, true

__device__ __forceinline__ void mma(float *d, const uint32_t *a,
                                    const uint32_t *b) {
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
               "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]),
                 "r"(b[1]));
}

__device__ __forceinline__ void ldsm(uint32_t *r, uint32_t addr, bool trans) {
  if (trans)
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 "
                 "{%0,%1,%2,%3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(addr));
  else
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 "
                 "{%0,%1,%2,%3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(addr));
}

template <int TM, int TN, bool Reg, int Bar, bool Pf>
__global__ void peak(float *out, int steps) {
  __shared__ __align__(128) uint16_t tile[2][64 * 64];
  for (int i = threadIdx.x; i < 2 * 64 * 64; i += blockDim.x)
    (&tile[0][0])[i] = uint16_t(0x3c00 + (i & 7)); // ~1.0 in f16
  __syncthreads();
  uint32_t a[2][TM][4], b[2][TN][2];
  for (int f = 0; f < 2; ++f) {
    for (int i = 0; i < TM; ++i)
      for (int r = 0; r < 4; ++r)
        a[f][i][r] = 0x3c003c00u ^ (threadIdx.x + i + r);
    for (int j = 0; j < TN; ++j)
      for (int r = 0; r < 2; ++r)
        b[f][j][r] = 0x3c003c00u ^ (threadIdx.x * 3 + j + r);
  }
  float acc[TM][TN][4] = {};
  uint32_t base = uint32_t(__cvta_generic_to_shared(&tile[0][0]));
  int lane = threadIdx.x & 31;
  // 64 rows of 128 bytes per operand, 16-byte chunks XOR-swizzled by
  // row % 8 so that the 8 rows of each 8x8 matrix hit 8 bank groups.
  auto at = [&](int row, int chunk) {
    row &= 63;
    return uint32_t(row * 128 + (((chunk ^ row) & 7) << 4));
  };
  auto load = [&](int s, uint32_t (&fa)[TM][4], uint32_t (&fb)[TN][2]) {
    int row = lane & 15, chunk = (lane >> 4) + 2 * (s & 3);
    for (int i = 0; i < TM; ++i)
      ldsm(fa[i], base + at(row + 16 * i, chunk), false);
    for (int j = 0; j < TN; j += 2) {
      uint32_t r[4];
      ldsm(r, base + 8192 + at(row + 16 * (s & 3), (lane >> 4) + j), true);
      fb[j][0] = r[0], fb[j][1] = r[1], fb[j + 1][0] = r[2], fb[j + 1][1] = r[3];
    }
  };
  auto compute = [&](uint32_t (&fa)[TM][4], uint32_t (&fb)[TN][2]) {
    for (int i = 0; i < TM; ++i)
      for (int j = 0; j < TN; ++j)
        mma(acc[i][j], fa[i], fb[j]);
  };
  // One step: the barrier that ends a stage, then (with Pf) the next step's
  // loads into the other buffer before this step's mma.sync.
  auto step = [&](int s, uint32_t (&ca)[TM][4], uint32_t (&cb)[TN][2],
                  uint32_t (&na)[TM][4], uint32_t (&nb)[TN][2]) {
    if (Pf) {
      if (Bar && (s + 1) % Bar == 0)
        __syncthreads();
      load(s + 1, na, nb);
    } else if (!Reg) {
      load(s, ca, cb);
    }
    compute(ca, cb);
    if (!Pf && Bar && (s + 1) % Bar == 0)
      __syncthreads();
  };
  if (Pf)
    load(0, a[0], b[0]);
  for (int s = 0; s < steps; s += 2) {
    step(s, a[0], b[0], a[1], b[1]);
    step(s + 1, Pf ? a[1] : a[0], Pf ? b[1] : b[0], a[0], b[0]);
  }
  float sum = 0;
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j)
      for (int r = 0; r < 4; ++r)
        sum += acc[i][j][r];
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

template <int TM, int TN, bool Reg, int Bar, bool Pf>
static int run(const char *name, int warpsPerBlock, int blocksPerSM, int sms,
               float *out) {
  auto kernel = peak<TM, TN, Reg, Bar, Pf>;
  cudaFuncAttributes attr;
  CHECK(cudaFuncGetAttributes(&attr, kernel));
  int threads = warpsPerBlock * 32, fit = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, kernel, threads, 0));
  if (fit < blocksPerSM) {
    printf("%-7s %dx%d tiles  %2d warps x %d blocks/SM: only %d blocks fit "
           "(%d registers)\n",
           name, TM, TN, warpsPerBlock, blocksPerSM, fit, attr.numRegs);
    return 0;
  }
  int steps = 4096;
  int grid = sms * blocksPerSM;
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  kernel<<<grid, threads>>>(out, steps);
  CHECK(cudaDeviceSynchronize());
  float best = 1e30f;
  for (int rep = 0; rep < 5; ++rep) {
    CHECK(cudaEventRecord(start));
    kernel<<<grid, threads>>>(out, steps);
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    float ms;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    best = ms < best ? ms : best;
  }
  double flops = 2.0 * 16 * 8 * 16 * TM * TN * double(steps) *
                 warpsPerBlock * grid;
  printf("%-7s %dx%d tiles  %2d warps x %d blocks/SM = %2d warps/SM  %3d regs  "
         "%6.1f TFLOP/s\n",
         name, TM, TN, warpsPerBlock, blocksPerSM,
         warpsPerBlock * blocksPerSM, attr.numRegs, flops / best / 1e9);
  return 0;
}

int main() {
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  int sms = prop.multiProcessorCount;
  printf("%s, %d SMs\n", prop.name, sms);
  float *out;
  CHECK(cudaMalloc(&out, sizeof(float) * sms * 4 * 1024));
  int rc = 0;
  const int shapes[][2] = {{4, 1}, {4, 2}, {8, 1}, {4, 3}, {4, 4}, {8, 2}};
  for (auto [w, bl] : shapes) {
    rc |= run<4, 8, REG>("reg", w, bl, sms, out);
    rc |= run<4, 8, LDS>("lds", w, bl, sms, out);
    rc |= run<4, 8, BAR>("bar", w, bl, sms, out);
    rc |= run<4, 8, PF_BAR>("pf+bar", w, bl, sms, out);
    rc |= run<4, 8, BAR4>("bar4", w, bl, sms, out);
    rc |= run<4, 8, PF_BAR4>("pf+bar4", w, bl, sms, out);
    rc |= run<4, 4, REG>("reg", w, bl, sms, out);
    rc |= run<4, 4, LDS>("lds", w, bl, sms, out);
    rc |= run<4, 4, BAR>("bar", w, bl, sms, out);
    rc |= run<4, 4, PF_BAR>("pf+bar", w, bl, sms, out);
  }
  return rc;
}
