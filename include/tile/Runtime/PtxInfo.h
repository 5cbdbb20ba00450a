//===- PtxInfo.h - What a PTX text declares --------------------*- C++ -*-===//
//
// Just enough PTX reading to check the kernel ABI before touching CUDA: the
// entries a module declares, the parameter types of one of them, the
// dynamic shared memory it uses and the block size it allows. No CUDA here, so
// it is unit-tested without a GPU.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_PTXINFO_H
#define TILE_RUNTIME_PTXINFO_H

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tile::runtime {

/// Whether the bytes look like PTX text rather than a cubin/fatbin image.
bool looksLikePtx(const std::string &image);

/// The `.entry` names the PTX declares, in order.
std::vector<std::string> listPtxEntries(const std::string &ptx);

/// The PTX type of each parameter of entry `name`, or nullopt when the PTX
/// declares no such entry: ".u64" for `.param .u64 .ptr .align 1 p`, and the
/// element type with the extent for an array, ".b8[128]" for
/// `.param .align 128 .b8 p[128]` (a by-value struct such as a tensor map).
std::optional<std::vector<std::string>>
ptxEntryParamTypes(const std::string &ptx, const std::string &name);

/// The `.extern .shared` arrays (dynamic shared memory, sized at launch)
/// that the body of entry `name` refers to, in declaration order; empty when
/// it refers to none or the PTX declares no such entry.
std::vector<std::string> ptxEntryDynamicShared(const std::string &ptx,
                                               const std::string &name);

/// The block size entry `name` declares it runs with: `.reqntid x, y, z`
/// (exactly those threads per dimension; `exact`) or `.maxntid x, y, z` (at
/// most their product in all), omitted extents 1.
struct PtxThreadLimit {
  bool exact;
  std::array<int64_t, 3> dims;
};

/// The limit entry `name` declares; nullopt when it declares neither
/// directive or the PTX declares no such entry.
std::optional<PtxThreadLimit> ptxEntryThreadLimit(const std::string &ptx,
                                                  const std::string &name);

/// The cluster shape entry `name` requires (`.reqnctapercluster x, y, z`,
/// omitted extents 1); nullopt when it requires none or the PTX declares no
/// such entry.
std::optional<std::array<int64_t, 3>>
ptxEntryClusterShape(const std::string &ptx, const std::string &name);

} // namespace tile::runtime

#endif // TILE_RUNTIME_PTXINFO_H
