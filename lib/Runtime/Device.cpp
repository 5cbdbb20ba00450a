//===- Device.cpp - A GPU, its buffers and a loaded kernel ----------------===//

#include "tile/Runtime/Device.h"
#include "tile/Runtime/PtxInfo.h"

#include <sstream>

using namespace tile::runtime;

bool Gpu::check(CUresult result, const std::string &what,
                std::string &error) const {
  if (result == CUDA_SUCCESS)
    return true;
  error = what + ": " + describeResult(api, result);
  return false;
}

std::unique_ptr<Gpu> Gpu::open(std::string &error) {
  const DriverApi *api = loadDriver(error);
  if (!api)
    return nullptr;
  std::unique_ptr<Gpu> gpu(new Gpu(*api));
  // cuInit is where a machine without a usable GPU answers
  // (CUDA_ERROR_NO_DEVICE, CUDA_ERROR_NOT_INITIALIZED, ...).
  if (!gpu->check(api->cuInit(0), "cannot initialise CUDA (cuInit)", error))
    return nullptr;
  int count = 0;
  if (!gpu->check(api->cuDeviceGetCount(&count), "cuDeviceGetCount", error))
    return nullptr;
  if (count == 0) {
    error = "no CUDA device found";
    return nullptr;
  }
  if (!gpu->check(api->cuDeviceGet(&gpu->device, 0), "cuDeviceGet", error))
    return nullptr;
  char name[256] = {0};
  if (!gpu->check(api->cuDeviceGetName(name, sizeof(name) - 1, gpu->device),
                  "cuDeviceGetName", error))
    return nullptr;
  gpu->name = name;
  struct {
    CUdevice_attribute attr;
    int *value;
  } attrs[] = {
      {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, &gpu->ccMajor},
      {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, &gpu->ccMinor},
      {CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, &gpu->smCount},
      {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
       &gpu->optinSharedBytes},
      {CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, &gpu->l2Bytes},
  };
  for (auto &a : attrs)
    if (!gpu->check(api->cuDeviceGetAttribute(a.value, a.attr, gpu->device),
                    "cuDeviceGetAttribute", error))
      return nullptr;
  api->cuDriverGetVersion(&gpu->driverVersion);
  if (!gpu->check(api->cuDevicePrimaryCtxRetain(&gpu->context, gpu->device),
                  "cannot create the CUDA context", error))
    return nullptr;
  if (!gpu->check(api->cuCtxSetCurrent(gpu->context), "cuCtxSetCurrent", error))
    return nullptr;
  // A blocking stream: it orders after the synchronous copies that
  // DeviceBuffer::upload issues on the legacy default stream, whose DMA may
  // still be in flight when they return.
  if (!gpu->check(api->cuStreamCreate(&gpu->stream, CU_STREAM_DEFAULT),
                  "cuStreamCreate", error))
    return nullptr;
  return gpu;
}

Gpu::~Gpu() {
  if (stream)
    api.cuStreamDestroy(stream);
  if (context)
    api.cuDevicePrimaryCtxRelease(device);
}

DeviceBuffer::~DeviceBuffer() {
  if (ptr)
    gpu.api.cuMemFree(ptr);
}

bool DeviceBuffer::allocate(size_t size, const std::string &name,
                            std::string &error) {
  what = name;
  bytes = size;
  return gpu.check(
      gpu.api.cuMemAlloc(&ptr, size),
      "cannot allocate " + std::to_string(size) + " bytes for " + what, error);
}

bool DeviceBuffer::upload(const std::vector<uint8_t> &data,
                          std::string &error) {
  if (data.size() != bytes) {
    error = "internal: upload of " + std::to_string(data.size()) +
            " bytes into " + what + " of " + std::to_string(bytes);
    return false;
  }
  return gpu.check(gpu.api.cuMemcpyHtoD(ptr, data.data(), bytes),
                   "cannot copy " + what + " to the GPU", error);
}

bool DeviceBuffer::download(std::vector<uint8_t> &data,
                            std::string &error) const {
  data.resize(bytes);
  return gpu.check(gpu.api.cuMemcpyDtoH(data.data(), ptr, bytes),
                   "cannot copy " + what + " from the GPU", error);
}

bool DeviceBuffer::fill(uint8_t value, std::string &error) {
  return gpu.check(gpu.api.cuMemsetD8Async(ptr, value, bytes, gpu.stream),
                   "cannot fill " + what, error);
}

bool tile::runtime::makeTensorMap(const Gpu &gpu, const ArgDesc &arg,
                                  const TensorMapDesc &map, CUdeviceptr global,
                                  CUtensorMap &out, std::string &error) {
  std::string what = "the tensor map of arg '" + arg.name + "' (line " +
                     std::to_string(map.line) + ": tensormap " + map.str() +
                     ")";
  if (!gpu.api.cuTensorMapEncodeTiled) {
    error = "cannot encode " + what +
            ": the CUDA driver (libcuda.so.1) lacks cuTensorMapEncodeTiled; "
            "tensor maps need a CUDA 12 driver or later";
    return false;
  }
  if (arg.shape.size() != 2) {
    error = "internal: " + what + " over an arg of rank " +
            std::to_string(arg.shape.size());
    return false;
  }
  CUtensorMapDataType dataType = CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
  switch (arg.type) {
  case ElemType::F16:
    dataType = CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
    break;
  case ElemType::BF16:
    dataType = CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
    break;
  case ElemType::F32:
    dataType = CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
    break;
  }
  CUtensorMapSwizzle swizzle = CU_TENSOR_MAP_SWIZZLE_NONE;
  switch (map.swizzleBytes) {
  case 32:
    swizzle = CU_TENSOR_MAP_SWIZZLE_32B;
    break;
  case 64:
    swizzle = CU_TENSOR_MAP_SWIZZLE_64B;
    break;
  case 128:
    swizzle = CU_TENSOR_MAP_SWIZZLE_128B;
    break;
  }
  // Dimension 0 is the innermost: the columns of the row-major [R][C] arg.
  uint64_t rows = uint64_t(arg.shape[0]), cols = uint64_t(arg.shape[1]);
  cuuint64_t globalDim[2] = {cols, rows};
  // Byte strides of the dimensions above the innermost.
  cuuint64_t globalStrides[1] = {cols * elemTypeBytes(arg.type)};
  cuuint32_t boxDim[2] = {map.boxCols, map.boxRows};
  cuuint32_t elementStrides[2] = {1, 1};
  return gpu.check(gpu.api.cuTensorMapEncodeTiled(
                       &out, dataType, 2, reinterpret_cast<void *>(global),
                       globalDim, globalStrides, boxDim, elementStrides,
                       CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle,
                       CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
                       CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
                   "cuTensorMapEncodeTiled failed for " + what, error);
}

std::unique_ptr<Kernel> Kernel::load(const Gpu &gpu, std::string image,
                                     const std::string &imageName,
                                     const LaunchDesc &desc,
                                     std::string &error) {
  const DriverApi &api = gpu.api;
  std::unique_ptr<Kernel> kernel(new Kernel(gpu, desc));
  bool isPtx = looksLikePtx(image);
  if (isPtx)
    image.push_back('\0');

  // The JIT writes ptxas' diagnostics into these buffers; without them a bad
  // PTX only says CUDA_ERROR_INVALID_PTX.
  std::vector<char> errorLog(16384, '\0'), infoLog(16384, '\0');
  CUjit_option options[] = {
      CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
      CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES};
  void *values[] = {
      errorLog.data(), reinterpret_cast<void *>(uintptr_t(errorLog.size() - 1)),
      infoLog.data(), reinterpret_cast<void *>(uintptr_t(infoLog.size() - 1))};
  CUresult result =
      api.cuModuleLoadDataEx(&kernel->module, image.data(), 4, options, values);
  if (result != CUDA_SUCCESS) {
    error = "cannot load '" + imageName + "' for " + gpu.chipName() + ": " +
            describeResult(api, result);
    std::string log(errorLog.data());
    if (!log.empty())
      error += "\nJIT error log:\n" + log;
    kernel->module = nullptr;
    return nullptr;
  }

  result = api.cuModuleGetFunction(&kernel->function, kernel->module,
                                   desc.kernel.c_str());
  if (result != CUDA_SUCCESS) {
    error = "kernel '" + desc.kernel + "' not found in '" + imageName +
            "': " + describeResult(api, result);
    if (isPtx) {
      std::vector<std::string> entries = listPtxEntries(image);
      error += "; its entries are:";
      for (const std::string &e : entries)
        error += " " + e;
      if (entries.empty())
        error += " (none)";
    }
    return nullptr;
  }

  api.cuFuncGetAttribute(&kernel->numRegs, CU_FUNC_ATTRIBUTE_NUM_REGS,
                         kernel->function);
  api.cuFuncGetAttribute(&kernel->staticSharedBytes,
                         CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, kernel->function);
  api.cuFuncGetAttribute(&kernel->localBytes,
                         CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, kernel->function);

  uint64_t total = desc.sharedBytes + uint64_t(kernel->staticSharedBytes);
  if (total > uint64_t(gpu.optinSharedBytes)) {
    error = "kernel '" + desc.kernel + "' needs " + std::to_string(total) +
            " bytes of shared memory per block (" +
            std::to_string(desc.sharedBytes) + " dynamic + " +
            std::to_string(kernel->staticSharedBytes) + " static), but " +
            gpu.name + " (" + gpu.chipName() + ") allows at most " +
            std::to_string(gpu.optinSharedBytes) +
            " (CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)";
    return nullptr;
  }
  // Shared memory beyond 48 KiB in all, static included, is opt-in per
  // function (a kernel with 48 KiB of tiles and an mbarrier needs it).
  if (total > 48 * 1024 &&
      !gpu.check(
          api.cuFuncSetAttribute(
              kernel->function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
              int(desc.sharedBytes)),
          "cannot raise the dynamic shared-memory limit of '" + desc.kernel +
              "' to " + std::to_string(desc.sharedBytes) + " bytes",
          error))
    return nullptr;
  return kernel;
}

Kernel::~Kernel() {
  if (module)
    gpu.api.cuModuleUnload(module);
}

bool Kernel::launch(const std::vector<CUdeviceptr> &args,
                    const std::vector<CUtensorMap> &tensorMaps,
                    std::string &error) const {
  if (args.size() + tensorMaps.size() != desc.numParams()) {
    error = "internal: " + std::to_string(args.size()) + " arguments and " +
            std::to_string(tensorMaps.size()) +
            " tensor maps for a kernel with " +
            std::to_string(desc.numParams()) + " parameters";
    return false;
  }
  // cuLaunchKernel copies each parameter's bytes from these addresses: 8
  // for a pointer, 128 for a tensor map.
  std::vector<CUdeviceptr> argValues(args);
  std::vector<CUtensorMap> mapValues(tensorMaps);
  std::vector<void *> params;
  for (CUdeviceptr &p : argValues)
    params.push_back(&p);
  for (CUtensorMap &map : mapValues)
    params.push_back(&map);
  return gpu.check(gpu.api.cuLaunchKernel(function, desc.grid[0], desc.grid[1],
                                          desc.grid[2], desc.block[0],
                                          desc.block[1], desc.block[2],
                                          unsigned(desc.sharedBytes),
                                          gpu.stream, params.data(), nullptr),
                   "cannot launch kernel '" + desc.kernel + "'", error);
}
