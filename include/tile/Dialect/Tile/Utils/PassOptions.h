//===- PassOptions.h - Pass options that say what is wrong ------*- C++ -*-===//
//
// Part of tile-mlir. Pass::initializeOptions for the tile passes, with a
// diagnostic that names the option whose value does not parse.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_UTILS_PASSOPTIONS_H
#define TILE_DIALECT_TILE_UTILS_PASSOPTIONS_H

#include "mlir/Pass/Pass.h"

namespace mlir {
namespace tile {

/// Initializes `pass`'s options from `options` as Pass::initializeOptions
/// does, one `key[=value]` at a time, so that a failure can name its option.
/// Upstream, a value that llvm::cl cannot parse ('maybe' for a bool, 'abc'
/// for an integer) gets its message printed to stderr by llvm::cl, and
/// Pass::initializeOptions passes `errorHandler` an empty string: the user
/// (or the C API's caller, who never sees stderr) gets "error: " and
/// nothing else. Here that case reports "invalid value 'V' for option 'K'
/// of PASS"; other failures ("no such option") keep MLIR's own message.
LogicalResult
initializePassOptions(Pass &pass, StringRef options,
                      function_ref<LogicalResult(const Twine &)> errorHandler);

/// The generated base of a tile pass (`impl::FooBase<FooPass>`) with its
/// options initialized by initializePassOptions:
///   struct FooPass : NamedOptionErrors<impl::FooBase<FooPass>> {
///     using NamedOptionErrors::NamedOptionErrors;
template <typename PassBase> struct NamedOptionErrors : PassBase {
  using PassBase::PassBase;

  LogicalResult initializeOptions(
      StringRef options,
      function_ref<LogicalResult(const Twine &)> errorHandler) override {
    return initializePassOptions(*this, options, errorHandler);
  }
};

} // namespace tile
} // namespace mlir

#endif // TILE_DIALECT_TILE_UTILS_PASSOPTIONS_H
