//===- tile-run.cpp - Launch a compiled tile kernel on the GPU ------------===//
//
// Loads the PTX (or cubin) and the launch description that the compiler
// wrote, fills the inputs with seeded random values, encodes the TMA tensor
// maps its `tensormap` lines describe, launches, and with --check compares a
// GEMM against cuBLAS, with --bench times both with CUDA events. Needs only the
// CUDA driver (loaded at run time) and cuBLAS.
//
//===----------------------------------------------------------------------===//

#include "tile/Runtime/Blas.h"
#include "tile/Runtime/Device.h"
#include "tile/Runtime/HostData.h"
#include "tile/Runtime/LaunchDesc.h"
#include "tile/Runtime/PtxInfo.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <limits>
#include <new>
#include <string>
#include <vector>

using namespace tile::runtime;

namespace {

struct Options {
  std::string ptxPath, launchPath;
  bool check = false, bench = false, json = false;
  uint64_t seed = 0;
  int iters = 100, warmup = 10;
  double rtol = 1e-2, atol = 1e-2;
  /// --shape NAME=D0xD1: the extents of an arg that the launch description
  /// gives as `?`.
  std::vector<std::pair<std::string, std::vector<int64_t>>> shapes;
};

const char *usage =
    "usage: tile-run --ptx FILE [--launch FILE] [--check] [--bench]\n"
    "                [--seed N] [--iters N] [--warmup N] [--rtol X] [--atol "
    "X]\n"
    "                [--shape NAME=D0xD1 ...] [--json]\n"
    "  --ptx FILE     PTX text (or a cubin) holding the kernel\n"
    "  --launch FILE  launch description (default: the PTX path with .launch)\n"
    "  --check        compare a GEMM's C with cuBLAS (rtol/atol default 1e-2)\n"
    "  --bench        median time of --iters launches after --warmup, L2\n"
    "                 flushed before each, for the kernel and for cuBLAS\n"
    "  --seed N       seed of the random inputs (default 0)\n"
    "  --shape NAME=D0xD1\n"
    "                 the shape of arg NAME, for a kernel compiled with sizes\n"
    "                 known only at run time ('?' in its launch description)\n"
    "  --json         print one JSON object on stdout (text goes to stderr)\n";

int fail(const std::string &msg) {
  std::fprintf(stderr, "tile-run: error: %s\n", msg.c_str());
  return 1;
}

bool parseOptions(int argc, char **argv, Options &opts, std::string &error) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&](std::string &out) {
      if (i + 1 >= argc) {
        error = "option '" + arg + "' needs a value";
        return false;
      }
      out = argv[++i];
      return true;
    };
    // A decimal integer in [lo, hi]; the bounds keep --iters + --warmup
    // within an int.
    auto integer = [&](int64_t &out, int64_t lo, int64_t hi) {
      std::string v;
      if (!value(v))
        return false;
      std::optional<int64_t> parsed = parseDecimal(v);
      if (!parsed || *parsed < lo || *parsed > hi) {
        error = "option '" + arg + "' needs an integer from " +
                std::to_string(lo) + " to " + std::to_string(hi) + ", got '" +
                v + "'";
        return false;
      }
      out = *parsed;
      return true;
    };
    // A real number in [lo, hi].
    auto real = [&](double &out, double lo, double hi) {
      std::string v;
      if (!value(v))
        return false;
      char *end = nullptr;
      out = std::strtod(v.c_str(), &end);
      if (v.empty() || *end || !(out >= lo && out <= hi)) {
        char range[64];
        std::snprintf(range, sizeof(range), "from %g to %g", lo, hi);
        error = "option '" + arg + "' needs a number " + range + ", got '" + v +
                "'";
        return false;
      }
      return true;
    };
    constexpr int64_t kMaxRuns = 1000000;
    constexpr int64_t kMaxSeed = int64_t(1) << 53;
    constexpr double kMaxTolerance = 1e30;
    int64_t n;
    if (arg == "--ptx") {
      if (!value(opts.ptxPath))
        return false;
    } else if (arg == "--launch") {
      if (!value(opts.launchPath))
        return false;
    } else if (arg == "--check") {
      opts.check = true;
    } else if (arg == "--bench") {
      opts.bench = true;
    } else if (arg == "--json") {
      opts.json = true;
    } else if (arg == "--seed") {
      if (!integer(n, 0, kMaxSeed))
        return false;
      opts.seed = uint64_t(n);
    } else if (arg == "--iters") {
      if (!integer(n, 1, kMaxRuns))
        return false;
      opts.iters = int(n);
    } else if (arg == "--warmup") {
      if (!integer(n, 0, kMaxRuns))
        return false;
      opts.warmup = int(n);
    } else if (arg == "--rtol") {
      if (!real(opts.rtol, 0, kMaxTolerance))
        return false;
    } else if (arg == "--atol") {
      if (!real(opts.atol, 0, kMaxTolerance))
        return false;
    } else if (arg == "--shape") {
      std::string v;
      if (!value(v))
        return false;
      size_t eq = v.find('=');
      std::vector<int64_t> shape;
      if (eq == std::string::npos || eq == 0 ||
          !parseExtents(v.substr(eq + 1), shape, /*allowUnknown=*/false)) {
        error = "option '--shape' needs NAME=D0xD1 with positive extents, "
                "got '" +
                v + "'";
        return false;
      }
      std::string name = v.substr(0, eq);
      for (const auto &given : opts.shapes)
        if (given.first == name) {
          error = "option '--shape' is given twice for arg '" + name + "'";
          return false;
        }
      opts.shapes.emplace_back(name, shape);
    } else if (arg == "-h" || arg == "--help") {
      std::fputs(usage, stdout);
      std::exit(0);
    } else {
      error = "unknown option '" + arg + "'\n" + usage;
      return false;
    }
  }
  if (opts.ptxPath.empty()) {
    error = std::string("missing --ptx FILE\n") + usage;
    return false;
  }
  if (opts.launchPath.empty()) {
    std::string base = opts.ptxPath;
    size_t dot = base.rfind('.');
    if (dot != std::string::npos && base.find('/', dot) == std::string::npos)
      base.resize(dot);
    opts.launchPath = base + ".launch";
  }
  return true;
}

/// The GEMM the first three arguments describe, if they do: A MxK (KxM with
/// gemm_transpose A), B KxN (NxK with gemm_transpose B), C MxN.
struct GemmShape {
  int64_t m = 0, n = 0, k = 0;
  bool transposeA = false, transposeB = false;
};
bool gemmShape(const LaunchDesc &desc, GemmShape &s, std::string &why) {
  if (desc.args.size() < 3) {
    why = "it has " + std::to_string(desc.args.size()) + " args, not 3";
    return false;
  }
  const ArgDesc &a = desc.args[0], &b = desc.args[1], &c = desc.args[2];
  if (a.shape.size() != 2 || b.shape.size() != 2 || c.shape.size() != 2) {
    why = "A, B and C must be 2-D";
    return false;
  }
  bool ta = desc.transposeA, tb = desc.transposeB;
  s.m = ta ? a.shape[1] : a.shape[0];
  s.k = ta ? a.shape[0] : a.shape[1];
  s.n = tb ? b.shape[0] : b.shape[1];
  s.transposeA = ta;
  s.transposeB = tb;
  int64_t bk = tb ? b.shape[1] : b.shape[0];
  if (bk != s.k || c.shape[0] != s.m || c.shape[1] != s.n) {
    why = "shapes A " + a.str() + ", B " + b.str() + ", C " + c.str() +
          " are not " + (ta ? "KxM" : "MxK") + ", " + (tb ? "NxK" : "KxN") +
          ", MxN";
    return false;
  }
  if (a.type != b.type || a.type == ElemType::F32) {
    why = "A and B must both be f16 or both bf16";
    return false;
  }
  return true;
}

double median(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (double(v[n / 2 - 1]) + v[n / 2]);
}

/// Median milliseconds of `iters` runs of `body`, each after an L2 flush.
bool timeMedian(const Gpu &gpu, DeviceBuffer &flush, int warmup, int iters,
                const std::function<bool(std::string &)> &body, double &ms,
                std::string &error) {
  const DriverApi &api = gpu.api;
  CUevent start = nullptr, stop = nullptr;
  if (!gpu.check(api.cuEventCreate(&start, CU_EVENT_DEFAULT), "cuEventCreate",
                 error) ||
      !gpu.check(api.cuEventCreate(&stop, CU_EVENT_DEFAULT), "cuEventCreate",
                 error))
    return false;
  std::vector<float> times;
  bool ok = true;
  for (int i = 0; ok && i < warmup + iters; ++i) {
    float t = 0;
    ok = flush.fill(uint8_t(i), error) &&
         gpu.check(api.cuEventRecord(start, gpu.stream), "cuEventRecord",
                   error) &&
         body(error) &&
         gpu.check(api.cuEventRecord(stop, gpu.stream), "cuEventRecord",
                   error) &&
         gpu.check(api.cuEventSynchronize(stop), "the timed launch failed",
                   error) &&
         gpu.check(api.cuEventElapsedTime(&t, start, stop),
                   "cuEventElapsedTime", error);
    if (ok && i >= warmup)
      times.push_back(t);
  }
  api.cuEventDestroy(start);
  api.cuEventDestroy(stop);
  if (ok)
    ms = median(times);
  return ok;
}

std::string jsonNumber(double v) {
  if (!std::isfinite(v))
    return "null";
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.6g", v);
  return buf;
}

std::string jsonString(const std::string &s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\')
      out += '\\';
    if (static_cast<unsigned char>(c) < 0x20)
      continue;
    out += c;
  }
  return out + "\"";
}

} // namespace

static int run(int argc, char **argv) {
  Options opts;
  std::string error;
  if (!parseOptions(argc, argv, opts, error))
    return fail(error);
  FILE *text = opts.json ? stderr : stdout;

  // Everything that can be wrong with the inputs is reported before CUDA is
  // touched, so these errors read the same on machines without a GPU.
  std::string launchText, image;
  if (!readFile(opts.ptxPath, image, error) ||
      !readFile(opts.launchPath, launchText, error))
    return fail(error);
  std::optional<LaunchDesc> parsed = parseLaunchDesc(launchText, error);
  if (!parsed)
    return fail(opts.launchPath + ": " + error);
  // Before binding the shapes: a misspelt key may be why that fails.
  for (const std::string &w : parsed->warnings)
    std::fprintf(stderr, "tile-run: warning: %s: %s\n", opts.launchPath.c_str(),
                 w.c_str());
  if (!bindShapes(*parsed, opts.shapes, error))
    return fail(opts.launchPath + ": " + error);
  const LaunchDesc &desc = *parsed;
  // The ABI is one 64-bit pointer per launch-description arg, one 64-bit
  // integer per `?` extent of the args, then one 128-byte CUtensorMap by
  // value per tensormap line. A mismatch would
  // launch with garbage parameters, so it is refused here; a missing entry
  // is left to the driver, which names it.
  if (looksLikePtx(image)) {
    if (std::optional<std::vector<std::string>> params =
            ptxEntryParamTypes(image, desc.kernel)) {
      if (params->size() != desc.numParams())
        return fail(
            "PTX entry '" + desc.kernel + "' in " + opts.ptxPath + " takes " +
            std::to_string(params->size()) + " parameters, but " +
            opts.launchPath + " lists " + std::to_string(desc.args.size()) +
            " args" +
            (desc.numSizeParams()
                 ? " with " + std::to_string(desc.numSizeParams()) +
                       " extents given at run time"
                 : std::string()) +
            (desc.tensorMaps.empty()
                 ? std::string()
                 : " and " + std::to_string(desc.tensorMaps.size()) +
                       " tensormaps") +
            " (the ABI is one pointer per buffer" +
            (desc.numSizeParams() ? ", then one integer per '?' extent" : "") +
            (desc.tensorMaps.empty()
                 ? ")"
                 : ", then one tensor map per tensormap line)"));
      for (size_t i = 0; i < params->size(); ++i) {
        const std::string &t = (*params)[i];
        bool isMap = i >= desc.args.size() + desc.numSizeParams();
        if (isMap && t != ".b8[128]")
          return fail("parameter " + std::to_string(i) + " of PTX entry '" +
                      desc.kernel + "' is " + t +
                      ", not a 128-byte tensor map (the ABI passes each "
                      "tensor map by value: .param .b8 p[128])");
        if (!isMap && t != ".u64" && t != ".b64" && t != ".s64")
          return fail("parameter " + std::to_string(i) + " of PTX entry '" +
                      desc.kernel + "' is " + t +
                      (i < desc.args.size()
                           ? ", not a 64-bit pointer (the ABI passes bare "
                             "pointers)"
                           : ", not a 64-bit integer (the ABI passes each "
                             "'?' extent as one)"));
      }
    }
  }
  GemmShape gemm;
  std::string notGemm;
  bool isGemm = gemmShape(desc, gemm, notGemm);
  std::string mode = opts.check ? "--check" : "--bench";
  if ((opts.check || opts.bench) && !isGemm)
    return fail(mode +
                " needs a GEMM (args A MxK, B KxN, C MxN, or as gemm_transpose "
                "says) but " +
                opts.launchPath + " does not describe one: " + notGemm);
  // cublasGemmEx takes int sizes: a larger one would silently give cuBLAS
  // another GEMM.
  if ((opts.check || opts.bench) &&
      std::max({gemm.m, gemm.n, gemm.k}) > std::numeric_limits<int>::max())
    return fail(
        mode + " runs cuBLAS, whose sizes are at most 2^31 - 1, but " +
        opts.launchPath + " describes a GEMM with M=" + std::to_string(gemm.m) +
        " N=" + std::to_string(gemm.n) + " K=" + std::to_string(gemm.k));
  // Launched without dynamic shared memory, a kernel that addresses it
  // faults at its first access, with a driver error that names no cause.
  if (looksLikePtx(image)) {
    std::vector<std::string> dynamicShared =
        ptxEntryDynamicShared(image, desc.kernel);
    if (!dynamicShared.empty() && desc.sharedBytes == 0)
      return fail("PTX entry '" + desc.kernel + "' in " + opts.ptxPath +
                  " uses dynamic shared memory ('" + dynamicShared.front() +
                  "'), but " + opts.launchPath +
                  " gives it none (no 'shared_bytes <bytes>' line, or 0)");
    auto text = [](const auto &dims) {
      return std::to_string(dims[0]) + "x" + std::to_string(dims[1]) + "x" +
             std::to_string(dims[2]);
    };
    // The driver refuses such a launch as an invalid value, naming no cause.
    if (std::optional<PtxThreadLimit> limit =
            ptxEntryThreadLimit(image, desc.kernel)) {
      int64_t threads = int64_t(desc.block[0]) * desc.block[1] * desc.block[2];
      int64_t allowed = limit->dims[0] * limit->dims[1] * limit->dims[2];
      bool fits = limit->exact
                      ? std::equal(limit->dims.begin(), limit->dims.end(),
                                   desc.block.begin())
                      : threads <= allowed;
      if (!fits)
        return fail("PTX entry '" + desc.kernel + "' in " + opts.ptxPath +
                    (limit->exact
                         ? " runs with blocks of exactly " + text(limit->dims) +
                               " threads (.reqntid)"
                         : " runs with at most " + std::to_string(allowed) +
                               " threads per block (.maxntid)") +
                    ", but " + opts.launchPath + " gives blocks of " +
                    text(desc.block));
    }
    // tile-run launches in the clusters the entry requires
    // (.reqnctapercluster, which the compiler writes for a clustered
    // kernel; none is 1x1x1): a description that says otherwise describes
    // another kernel. (The driver would refuse a grid the entry's clusters
    // do not tile as an invalid value, naming no cause.)
    std::array<int64_t, 3> cluster =
        ptxEntryClusterShape(image, desc.kernel)
            .value_or(std::array<int64_t, 3>{1, 1, 1});
    if (!std::equal(cluster.begin(), cluster.end(), desc.cluster.begin()))
      return fail("PTX entry '" + desc.kernel + "' in " + opts.ptxPath +
                  " runs in clusters of exactly " + text(cluster) +
                  " blocks (.reqnctapercluster" +
                  (cluster == std::array<int64_t, 3>{1, 1, 1} ? ": none" : "") +
                  "), but " + opts.launchPath + " gives clusters of " +
                  text(desc.cluster));
  }

  std::unique_ptr<Gpu> gpu = Gpu::open(error);
  if (!gpu)
    return fail(error);
  // PTX for an older chip JIT-compiles for a newer one; PTX for a newer chip
  // or for another chip's arch-specific features ("sm_90a") does not.
  // "sm_<digits>", then an 'a' for arch-specific features.
  std::string chipDigits =
      desc.chip.rfind("sm_", 0) == 0
          ? desc.chip.substr(3,
                             desc.chip.find_first_not_of("0123456789", 3) - 3)
          : std::string();
  if (std::optional<int64_t> compiledFor = parseDecimal(chipDigits)) {
    bool archSpecific = desc.chip.back() == 'a';
    int64_t device = gpu->ccMajor * 10 + gpu->ccMinor;
    if (*compiledFor > device || (archSpecific && *compiledFor != device))
      std::fprintf(stderr,
                   "tile-run: warning: compiled for %s, which %s (%s) cannot "
                   "run\n",
                   desc.chip.c_str(), gpu->name.c_str(),
                   gpu->chipName().c_str());
  }
  std::unique_ptr<Kernel> kernel =
      Kernel::load(*gpu, image, opts.ptxPath, desc, error);
  if (!kernel)
    return fail(error);
  std::string clusters;
  if (desc.cluster != std::array<unsigned, 3>{1, 1, 1})
    clusters = " in clusters of " + std::to_string(desc.cluster[0]) + "x" +
               std::to_string(desc.cluster[1]) + "x" +
               std::to_string(desc.cluster[2]);
  std::fprintf(text,
               "kernel %s on %s (%s, %d SMs): grid %ux%ux%u%s, block %ux%ux%u, "
               "%llu B dynamic shared, %d registers, %d B local\n",
               desc.kernel.c_str(), gpu->name.c_str(), gpu->chipName().c_str(),
               gpu->smCount, desc.grid[0], desc.grid[1], desc.grid[2],
               clusters.c_str(), desc.block[0], desc.block[1], desc.block[2],
               (unsigned long long)desc.sharedBytes, kernel->numRegs,
               kernel->localBytes);

  // Inputs get random values; a GEMM's C starts as all-ones bytes (NaN in
  // every float type), so an element the kernel never writes fails --check.
  std::vector<std::unique_ptr<DeviceBuffer>> buffers;
  std::vector<CUdeviceptr> ptrs;
  for (size_t i = 0; i < desc.args.size(); ++i) {
    const ArgDesc &arg = desc.args[i];
    buffers.push_back(std::make_unique<DeviceBuffer>(*gpu));
    DeviceBuffer &buf = *buffers.back();
    if (!buf.allocate(arg.numBytes(), "arg '" + arg.name + "'", error))
      return fail(error);
    ptrs.push_back(buf.ptr);
    bool isOutput = isGemm && i == 2;
    if (isOutput ? !buf.fill(0xff, error)
                 : !buf.upload(
                       encode(randomValues(arg.numElements(),
                                           opts.seed * 1000003 + i, arg.type),
                              arg.type),
                       error))
      return fail(error);
  }
  // The tensor maps follow the buffers as kernel parameters, by value;
  // every launch below passes `ptrs` and `tensorMaps`.
  std::vector<CUtensorMap> tensorMaps(desc.tensorMaps.size());
  for (size_t i = 0; i < desc.tensorMaps.size(); ++i) {
    const TensorMapDesc &map = desc.tensorMaps[i];
    const ArgDesc &arg = desc.args[map.argIndex];
    if (!makeTensorMap(*gpu, arg, map, ptrs[map.argIndex], tensorMaps[i],
                       error))
      return fail(error);
    std::fprintf(text,
                 "tensor map %zu (parameter %zu): arg %s %s, box %ux%u, "
                 "swizzle %s\n",
                 i, desc.args.size() + desc.numSizeParams() + i,
                 arg.name.c_str(), arg.str().c_str(), map.boxRows, map.boxCols,
                 map.swizzleBytes ? std::to_string(map.swizzleBytes).c_str()
                                  : "none");
  }
  // The extents given at run time follow the pointers, 8 bytes each.
  for (int64_t size : desc.sizeParams())
    ptrs.push_back(CUdeviceptr(size));
  if (!kernel->launch(ptrs, tensorMaps, error))
    return fail(error);
  if (!gpu->check(gpu->api.cuStreamSynchronize(gpu->stream),
                  "kernel '" + desc.kernel + "' failed while running", error))
    return fail(error);
  if (isGemm)
    std::fprintf(text, "GEMM M=%lld N=%lld K=%lld, A/B %s, C %s%s%s\n",
                 (long long)gemm.m, (long long)gemm.n, (long long)gemm.k,
                 elemTypeName(desc.args[0].type),
                 elemTypeName(desc.args[2].type),
                 gemm.transposeA ? ", A stored KxM" : "",
                 gemm.transposeB ? ", B stored NxK" : "");

  std::string json =
      "{\"kernel\": " + jsonString(desc.kernel) +
      ", \"ptx\": " + jsonString(opts.ptxPath) +
      ", \"gpu\": " + jsonString(gpu->name) +
      ", \"chip\": " + jsonString(gpu->chipName()) +
      ", \"cuda_driver\": " + std::to_string(gpu->driverVersion) +
      ", \"grid\": [" + std::to_string(desc.grid[0]) + ", " +
      std::to_string(desc.grid[1]) + ", " + std::to_string(desc.grid[2]) +
      "], \"threads\": " +
      std::to_string(desc.block[0] * desc.block[1] * desc.block[2]) +
      ", \"shared_bytes\": " + std::to_string(desc.sharedBytes) +
      ", \"registers\": " + std::to_string(kernel->numRegs);
  if (isGemm)
    json += ", \"M\": " + std::to_string(gemm.m) +
            ", \"N\": " + std::to_string(gemm.n) +
            ", \"K\": " + std::to_string(gemm.k);

  std::unique_ptr<Blas> blas;
  if (opts.check || opts.bench) {
    blas = Blas::create(*gpu, error);
    if (!blas)
      return fail(error);
  }
  ElemType abType = isGemm ? desc.args[0].type : ElemType::F16;
  ElemType cType = isGemm ? desc.args[2].type : ElemType::F32;

  bool passed = true;
  if (opts.check) {
    DeviceBuffer ref(*gpu);
    std::vector<uint8_t> outBytes, refBytes;
    if (!ref.allocate(gemm.m * gemm.n * 4, "the cuBLAS reference", error) ||
        !blas->gemm(gemm.m, gemm.n, gemm.k, ptrs[0], ptrs[1], abType, ref.ptr,
                    ElemType::F32, error, gemm.transposeA, gemm.transposeB) ||
        !gpu->check(gpu->api.cuStreamSynchronize(gpu->stream),
                    "cuBLAS reference GEMM", error) ||
        !buffers[2]->download(outBytes, error) ||
        !ref.download(refBytes, error))
      return fail(error);
    CheckResult r =
        compareAllClose(decode(outBytes, cType),
                        decode(refBytes, ElemType::F32), opts.rtol, opts.atol);
    passed = r.pass();
    long long wi = r.worstIndex / gemm.n, wj = r.worstIndex % gemm.n;
    std::fprintf(text,
                 "check vs cuBLAS (rtol=%g, atol=%g): max |out-ref| = %g; "
                 "worst C[%lld, %lld] = %g (ref %g); %lld of %lld outside: "
                 "%s\n",
                 opts.rtol, opts.atol, r.maxAbsErr, wi, wj, r.worstOut,
                 r.worstRef, (long long)r.numBad, (long long)r.numElements,
                 passed ? "PASS" : "FAIL");
    json +=
        ", \"check\": {\"pass\": " + std::string(passed ? "true" : "false") +
        ", \"rtol\": " + jsonNumber(opts.rtol) +
        ", \"atol\": " + jsonNumber(opts.atol) +
        ", \"max_abs_err\": " + jsonNumber(r.maxAbsErr) +
        ", \"bad\": " + std::to_string(r.numBad) + ", \"worst\": [" +
        std::to_string(wi) + ", " + std::to_string(wj) +
        "], \"worst_out\": " + jsonNumber(r.worstOut) +
        ", \"worst_ref\": " + jsonNumber(r.worstRef) + "}";
  }

  if (opts.bench) {
    // Flush the L2 between runs by writing a buffer several times its size
    // (H200: 60 MiB of L2, 256 MiB written), so that every run reads its
    // inputs from HBM as a large GEMM does.
    size_t flushBytes =
        std::max<size_t>(size_t(256) << 20, size_t(gpu->l2Bytes) * 4);
    DeviceBuffer flush(*gpu), blasC(*gpu);
    ElemType blasCType = Blas::supports(abType, cType) ? cType : ElemType::F32;
    double kernelMs = 0, blasMs = 0;
    if (!flush.allocate(flushBytes, "the L2 flush buffer", error) ||
        !blasC.allocate(gemm.m * gemm.n * elemTypeBytes(blasCType),
                        "the cuBLAS output", error) ||
        !timeMedian(
            *gpu, flush, opts.warmup, opts.iters,
            [&](std::string &err) {
              return kernel->launch(ptrs, tensorMaps, err);
            },
            kernelMs, error) ||
        !timeMedian(
            *gpu, flush, opts.warmup, opts.iters,
            [&](std::string &err) {
              return blas->gemm(gemm.m, gemm.n, gemm.k, ptrs[0], ptrs[1],
                                abType, blasC.ptr, blasCType, err,
                                gemm.transposeA, gemm.transposeB);
            },
            blasMs, error))
      return fail(error);
    double flops = 2.0 * double(gemm.m) * double(gemm.n) * double(gemm.k);
    double kernelTflops = flops / (kernelMs * 1e-3) / 1e12;
    double blasTflops = flops / (blasMs * 1e-3) / 1e12;
    std::fprintf(text,
                 "bench (median of %d after %d warm-up, L2 flushed): kernel "
                 "%.4f ms = %.1f TFLOP/s; cuBLAS %.4f ms = %.1f TFLOP/s; "
                 "kernel/cuBLAS = %.3f\n",
                 opts.iters, opts.warmup, kernelMs, kernelTflops, blasMs,
                 blasTflops, kernelTflops / blasTflops);
    json += ", \"bench\": {\"iters\": " + std::to_string(opts.iters) +
            ", \"warmup\": " + std::to_string(opts.warmup) +
            ", \"kernel_ms\": " + jsonNumber(kernelMs) +
            ", \"kernel_tflops\": " + jsonNumber(kernelTflops) +
            ", \"cublas_ms\": " + jsonNumber(blasMs) +
            ", \"cublas_tflops\": " + jsonNumber(blasTflops) +
            ", \"ratio\": " + jsonNumber(kernelTflops / blasTflops) + "}";
  }
  if (opts.json)
    std::printf("%s}\n", json.c_str());
  return passed ? 0 : 1;
}

int main(int argc, char **argv) {
  // The host holds each input as floats and as its encoding (6 bytes an f16
  // element, 2 on the GPU): an arg the GPU has room for may not fit here.
  try {
    return run(argc, argv);
  } catch (const std::bad_alloc &) {
    return fail("out of host memory: tile-run keeps each arg on the host "
                "too, as floats and as its element type");
  }
}
