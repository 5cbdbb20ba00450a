//===- CudaDriver.cpp - The CUDA driver API, loaded at run time -----------===//

#include "tile/Runtime/CudaDriver.h"

#include <dlfcn.h>

using namespace tile::runtime;

#define TILE_STRINGIFY_EXPANDED(x) TILE_STRINGIFY(x)
#define TILE_STRINGIFY(x) #x

static DriverApi driverApi;
static bool driverLoaded = false;

const DriverApi *tile::runtime::loadDriver(std::string &error) {
  if (driverLoaded)
    return &driverApi;
  void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char *why = dlerror();
    error = std::string("cannot load the CUDA driver (libcuda.so.1): ") +
            (why ? why : "unknown dlopen error") +
            "; is an NVIDIA driver installed on this machine?";
    return nullptr;
  }
#define TILE_RESOLVE(fn)                                                       \
  driverApi.fn = reinterpret_cast<decltype(driverApi.fn)>(                     \
      dlsym(lib, TILE_STRINGIFY_EXPANDED(fn)));                                \
  if (!driverApi.fn) {                                                         \
    error = "the CUDA driver (libcuda.so.1) lacks " TILE_STRINGIFY_EXPANDED(   \
        fn) "; the driver is older than the CUDA headers tile-run was built "  \
            "with";                                                            \
    return nullptr;                                                            \
  }
  TILE_CUDA_DRIVER_FUNCTIONS(TILE_RESOLVE)
#undef TILE_RESOLVE
#define TILE_RESOLVE_OPTIONAL(fn)                                              \
  driverApi.fn = reinterpret_cast<decltype(driverApi.fn)>(                     \
      dlsym(lib, TILE_STRINGIFY_EXPANDED(fn)));
  TILE_CUDA_DRIVER_OPTIONAL_FUNCTIONS(TILE_RESOLVE_OPTIONAL)
#undef TILE_RESOLVE_OPTIONAL
  driverLoaded = true;
  return &driverApi;
}

std::string tile::runtime::describeResult(const DriverApi &api,
                                          CUresult result) {
  const char *name = nullptr, *text = nullptr;
  if (api.cuGetErrorName(result, &name) != CUDA_SUCCESS || !name)
    return "unknown CUDA error " + std::to_string(int(result));
  std::string s = name;
  if (api.cuGetErrorString(result, &text) == CUDA_SUCCESS && text)
    s += std::string(" (") + text + ")";
  return s;
}
