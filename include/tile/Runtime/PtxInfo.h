//===- PtxInfo.h - What a PTX text declares --------------------*- C++ -*-===//
//
// Just enough PTX reading to check the kernel ABI before touching CUDA: the
// entries a module declares and the parameter types of one of them. No CUDA
// here, so it is unit-tested without a GPU.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_PTXINFO_H
#define TILE_RUNTIME_PTXINFO_H

#include <optional>
#include <string>
#include <vector>

namespace tile::runtime {

/// Whether the bytes look like PTX text rather than a cubin/fatbin image.
bool looksLikePtx(const std::string &image);

/// The `.entry` names the PTX declares, in order.
std::vector<std::string> listPtxEntries(const std::string &ptx);

/// The PTX type of each parameter of entry `name` (".u64", ...), or nullopt
/// when the PTX declares no such entry.
std::optional<std::vector<std::string>>
ptxEntryParamTypes(const std::string &ptx, const std::string &name);

} // namespace tile::runtime

#endif // TILE_RUNTIME_PTXINFO_H
