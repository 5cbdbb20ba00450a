//===- CudaDriver.h - The CUDA driver API, loaded at run time ---*- C++ -*-===//
//
// tile-run reaches the driver through dlopen("libcuda.so.1") instead of
// linking it: CI machines and this project's build machines have the CUDA
// toolkit (and its link-time stub) but no driver, and a binary that links
// libcuda fails in the dynamic loader before main() can say anything. Loaded
// lazily, a missing driver is one clear error like any other.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_CUDADRIVER_H
#define TILE_RUNTIME_CUDADRIVER_H

#include <cuda.h>

#include <string>

namespace tile::runtime {

// Each name goes through cuda.h's own #defines (cuMemAlloc -> cuMemAlloc_v2),
// so the member and the symbol looked up are the versioned ones that the
// headers' prototypes describe.
#define TILE_CUDA_DRIVER_FUNCTIONS(X)                                          \
  X(cuInit)                                                                    \
  X(cuDriverGetVersion)                                                        \
  X(cuGetErrorName)                                                            \
  X(cuGetErrorString)                                                          \
  X(cuDeviceGetCount)                                                          \
  X(cuDeviceGet)                                                               \
  X(cuDeviceGetName)                                                           \
  X(cuDeviceGetAttribute)                                                      \
  X(cuDevicePrimaryCtxRetain)                                                  \
  X(cuDevicePrimaryCtxRelease)                                                 \
  X(cuCtxSetCurrent)                                                           \
  X(cuModuleLoadDataEx)                                                        \
  X(cuModuleUnload)                                                            \
  X(cuModuleGetFunction)                                                       \
  X(cuFuncGetAttribute)                                                        \
  X(cuFuncSetAttribute)                                                        \
  X(cuLaunchKernel)                                                            \
  X(cuMemAlloc)                                                                \
  X(cuMemFree)                                                                 \
  X(cuMemcpyHtoD)                                                              \
  X(cuMemcpyDtoH)                                                              \
  X(cuMemsetD8Async)                                                           \
  X(cuStreamCreate)                                                            \
  X(cuStreamDestroy)                                                           \
  X(cuStreamSynchronize)                                                       \
  X(cuEventCreate)                                                             \
  X(cuEventDestroy)                                                            \
  X(cuEventRecord)                                                             \
  X(cuEventSynchronize)                                                        \
  X(cuEventElapsedTime)

// Functions that only some launches need: resolved when the driver has them
// and left null otherwise, so that an older driver still runs every kernel
// that does not use them (cuTensorMapEncodeTiled: CUDA 12.0 drivers and
// later; only launch descriptions with `tensormap` lines call it).
#define TILE_CUDA_DRIVER_OPTIONAL_FUNCTIONS(X) X(cuTensorMapEncodeTiled)

struct DriverApi {
#define TILE_DECLARE_MEMBER(fn) decltype(&::fn) fn = nullptr;
  TILE_CUDA_DRIVER_FUNCTIONS(TILE_DECLARE_MEMBER)
  TILE_CUDA_DRIVER_OPTIONAL_FUNCTIONS(TILE_DECLARE_MEMBER)
#undef TILE_DECLARE_MEMBER
};

/// Loads libcuda.so.1 once and resolves every function above. Returns null
/// and sets `error` (dlopen's message, or the missing symbol) on failure;
/// a missing optional function is no failure (its member stays null).
const DriverApi *loadDriver(std::string &error);

/// "CUDA_ERROR_X (the driver's description)" for a result code.
std::string describeResult(const DriverApi &api, CUresult result);

} // namespace tile::runtime

#endif // TILE_RUNTIME_CUDADRIVER_H
