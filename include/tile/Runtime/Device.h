//===- Device.h - A GPU, its buffers and a loaded kernel --------*- C++ -*-===//
//
// Thin RAII owners over the driver API. Every failure comes back as `false`
// / null with `error` naming what was attempted and the driver's own
// CUDA_ERROR_* name and description.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_DEVICE_H
#define TILE_RUNTIME_DEVICE_H

#include "tile/Runtime/CudaDriver.h"
#include "tile/Runtime/LaunchDesc.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace tile::runtime {

/// Device 0 with its primary context current and one stream. The primary
/// context (not cuCtxCreate) because cuBLAS goes through the runtime API,
/// which binds to the primary context: both must see the same allocations.
class Gpu {
public:
  static std::unique_ptr<Gpu> open(std::string &error);
  ~Gpu();

  /// Sets `error` to "<what>: CUDA_ERROR_X (description)" and returns false
  /// unless `result` is CUDA_SUCCESS.
  bool check(CUresult result, const std::string &what,
             std::string &error) const;

  const DriverApi &api;
  CUdevice device = 0;
  CUcontext context = nullptr;
  CUstream stream = nullptr;
  std::string name;
  int ccMajor = 0, ccMinor = 0, smCount = 0, driverVersion = 0;
  int optinSharedBytes = 0, l2Bytes = 0;

  std::string chipName() const {
    return "sm_" + std::to_string(ccMajor * 10 + ccMinor);
  }

private:
  explicit Gpu(const DriverApi &api) : api(api) {}
};

class DeviceBuffer {
public:
  DeviceBuffer(const Gpu &gpu) : gpu(gpu) {}
  ~DeviceBuffer();
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;

  bool allocate(size_t bytes, const std::string &what, std::string &error);
  bool upload(const std::vector<uint8_t> &bytes, std::string &error);
  bool download(std::vector<uint8_t> &bytes, std::string &error) const;
  /// Asynchronous byte fill on the GPU's stream.
  bool fill(uint8_t value, std::string &error);

  CUdeviceptr ptr = 0;
  size_t bytes = 0;

private:
  const Gpu &gpu;
  std::string what;
};

/// Encodes the tensor map of `map` (a `tensormap` line, already checked
/// against `arg` by the parser) over `global`, the device buffer of `arg`,
/// into `out` with cuTensorMapEncodeTiled. The kernel takes the 128-byte
/// CUtensorMap by value. The box's elements outside the arg read as zero.
bool makeTensorMap(const Gpu &gpu, const ArgDesc &arg, const TensorMapDesc &map,
                   CUdeviceptr global, CUtensorMap &out, std::string &error);

/// A kernel loaded from PTX text or a cubin image, ready to launch with the
/// launch description's grid, block and dynamic shared memory.
class Kernel {
public:
  /// `image` is the file's contents; PTX gets the terminating NUL the driver
  /// needs. A PTX that does not assemble reports the JIT's error log; an
  /// entry that is not there lists the entries the PTX does have; shared
  /// memory beyond the device's opt-in limit fails here, before any launch.
  static std::unique_ptr<Kernel> load(const Gpu &gpu, std::string image,
                                      const std::string &imageName,
                                      const LaunchDesc &desc,
                                      std::string &error);
  ~Kernel();

  /// Enqueues one launch on the GPU's stream: the kernel's parameters are
  /// `args`, 8 bytes each (one device pointer per arg, then the extents of
  /// LaunchDesc::sizeParams()), then the tensor maps by value
  /// (LaunchDesc::numParams() in all).
  bool launch(const std::vector<CUdeviceptr> &args,
              const std::vector<CUtensorMap> &tensorMaps,
              std::string &error) const;

  int numRegs = 0, staticSharedBytes = 0, localBytes = 0;

private:
  Kernel(const Gpu &gpu, const LaunchDesc &desc) : gpu(gpu), desc(desc) {}
  const Gpu &gpu;
  LaunchDesc desc;
  CUmodule module = nullptr;
  CUfunction function = nullptr;
};

} // namespace tile::runtime

#endif // TILE_RUNTIME_DEVICE_H
