// Checks the fragment lowering's GEMM kernels on a GPU against a CPU
// reference. Build: nvcc -O2 -o check check.cu -lcuda
// Run: ./check <dir> with manifest.txt, launch.txt and <kernel>.ptx in <dir>
// (written by gen_kernels.py and extract.py; see run.sh).
#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#define CHECK(x)                                                               \
  do {                                                                         \
    CUresult r = (x);                                                          \
    if (r != CUDA_SUCCESS) {                                                   \
      const char *msg;                                                         \
      cuGetErrorString(r, &msg);                                               \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, msg);   \
      std::exit(2);                                                            \
    }                                                                          \
  } while (0)

struct Config {
  std::string name, dtype;
  int64_t m, n, k, bm, bn, bk, threads;
  bool ta, tb;
};

// Rounds to the element type and returns its bytes.
static float roundTo(const std::string &dtype, float v, std::vector<uint8_t> &out) {
  if (dtype == "f16") {
    __half h = __float2half_rn(v);
    auto *p = reinterpret_cast<uint8_t *>(&h);
    out.insert(out.end(), p, p + 2);
    return __half2float(h);
  }
  if (dtype == "bf16") {
    __nv_bfloat16 h = __float2bfloat16_rn(v);
    auto *p = reinterpret_cast<uint8_t *>(&h);
    out.insert(out.end(), p, p + 2);
    return __bfloat162float(h);
  }
  auto *p = reinterpret_cast<uint8_t *>(&v);
  out.insert(out.end(), p, p + 4);
  return v;
}

int main(int argc, char **argv) {
  std::string dir = argc > 1 ? argv[1] : ".";
  std::map<std::string, Config> configs;
  {
    std::ifstream in(dir + "/manifest.txt");
    Config c;
    int ta, tb;
    while (in >> c.name >> c.m >> c.n >> c.k >> c.bm >> c.bn >> c.bk >> c.threads >>
           c.dtype >> ta >> tb) {
      c.ta = ta;
      c.tb = tb;
      configs[c.name] = c;
    }
  }
  CHECK(cuInit(0));
  CUdevice dev;
  CHECK(cuDeviceGet(&dev, 0));
  CUcontext ctx;
  CHECK(cuDevicePrimaryCtxRetain(&ctx, dev));
  CHECK(cuCtxSetCurrent(ctx));

  std::ifstream launches(dir + "/launch.txt");
  std::string line;
  int failures = 0;
  std::mt19937 rng(42);
  std::uniform_real_distribution<float> dist(-1.f, 1.f);
  while (std::getline(launches, line)) {
    if (line.empty())
      continue;
    std::istringstream ls(line);
    std::string func, module, entry;
    int64_t gx, gy, threads;
    ls >> func >> module >> entry >> gx >> gy >> threads;
    std::vector<std::string> args;
    for (std::string a; ls >> a;)
      args.push_back(a);
    const Config &c = configs.at(func);

    std::ifstream ptxFile(dir + "/" + module + ".ptx");
    std::string ptx((std::istreambuf_iterator<char>(ptxFile)), {});
    CUmodule mod;
    CHECK(cuModuleLoadData(&mod, ptx.c_str()));
    CUfunction fn;
    CHECK(cuModuleGetFunction(&fn, mod, entry.c_str()));

    // A is MxK (KxM if transposed), B KxN (NxK); row-major.
    std::vector<uint8_t> aBytes, bBytes;
    std::vector<float> a(c.m * c.k), b(c.k * c.n);
    for (int64_t i = 0; i < c.m * c.k; ++i)
      a[i] = roundTo(c.dtype, dist(rng), aBytes);
    for (int64_t i = 0; i < c.k * c.n; ++i)
      b[i] = roundTo(c.dtype, dist(rng), bBytes);
    auto aAt = [&](int64_t m, int64_t k) { return c.ta ? a[k * c.m + m] : a[m * c.k + k]; };
    auto bAt = [&](int64_t k, int64_t n) { return c.tb ? b[n * c.k + k] : b[k * c.n + n]; };

    // C gets a guard zone after it: the masked stores must not touch it.
    const int64_t guard = 4096;
    std::vector<uint16_t> cHost(c.m * c.n + guard, 0x7e00); // f16 NaN
    CUdeviceptr dA, dB, dC;
    CHECK(cuMemAlloc(&dA, aBytes.size()));
    CHECK(cuMemAlloc(&dB, bBytes.size()));
    CHECK(cuMemAlloc(&dC, cHost.size() * 2));
    CHECK(cuMemcpyHtoD(dA, aBytes.data(), aBytes.size()));
    CHECK(cuMemcpyHtoD(dB, bBytes.data(), bBytes.size()));
    CHECK(cuMemcpyHtoD(dC, cHost.data(), cHost.size() * 2));

    CUdeviceptr ptrs[3] = {dA, dB, dC};
    std::vector<int64_t> storage(args.size());
    std::vector<void *> params(args.size());
    for (size_t i = 0; i < args.size(); ++i) {
      if (args[i][0] == 'p')
        storage[i] = static_cast<int64_t>(ptrs[std::stoi(args[i].substr(1))]);
      else
        storage[i] = std::stoll(args[i].substr(1));
      params[i] = &storage[i];
    }
    CHECK(cuLaunchKernel(fn, gx, gy, 1, threads, 1, 1, 0, nullptr, params.data(), nullptr));
    CHECK(cuCtxSynchronize());
    CHECK(cuMemcpyDtoH(cHost.data(), dC, cHost.size() * 2));

    double maxErr = 0, maxRef = 0;
    int64_t bad = 0, guardHit = 0;
    for (int64_t m = 0; m < c.m; ++m)
      for (int64_t n = 0; n < c.n; ++n) {
        double ref = 0;
        for (int64_t k = 0; k < c.k; ++k)
          ref += double(aAt(m, k)) * double(bAt(k, n));
        __half_raw raw;
        raw.x = cHost[m * c.n + n];
        double got = __half2float(__half(raw));
        double err = std::fabs(got - ref);
        if (!(err <= 2e-3 * std::fabs(ref) + 1e-2)) {
          if (bad < 5)
            std::printf("  %s: C[%ld][%ld] = %g, expected %g\n", func.c_str(), (long)m,
                        (long)n, got, ref);
          ++bad;
        }
        if (std::isnan(err))
          err = INFINITY;
        maxErr = std::max(maxErr, err);
        maxRef = std::max(maxRef, std::fabs(ref));
      }
    for (int64_t i = c.m * c.n; i < (int64_t)cHost.size(); ++i)
      guardHit += cHost[i] != 0x7e00;
    bool ok = bad == 0 && guardHit == 0;
    failures += !ok;
    std::printf("%-18s %4ldx%4ldx%4ld %-4s ta=%d tb=%d threads=%3ld: max |err| %.3g "
                "(max |ref| %.3g), %ld bad, %ld guard writes: %s\n",
                func.c_str(), (long)c.m, (long)c.n, (long)c.k, c.dtype.c_str(), c.ta,
                c.tb, (long)threads, maxErr, maxRef, (long)bad, (long)guardHit,
                ok ? "PASS" : "FAIL");
    cuMemFree(dA);
    cuMemFree(dB);
    cuMemFree(dC);
    cuModuleUnload(mod);
  }
  std::printf("%s\n", failures ? "SOME FAILED" : "ALL PASSED");
  return failures ? 1 : 0;
}
