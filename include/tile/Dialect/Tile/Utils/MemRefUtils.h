//===- MemRefUtils.h - The memory a memref value names ----------*- C++ -*-===//
//
// Part of tile-mlir. Which buffer a memref value is a view of, for the
// passes that must tell whether two accesses may touch the same memory.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_UTILS_MEMREFUTILS_H
#define TILE_DIALECT_TILE_UTILS_MEMREFUTILS_H

#include "mlir/IR/Value.h"

namespace mlir {
namespace tile {

/// The memref that `value` is a view of, through every op that implements
/// ViewLikeOpInterface (memref.subview, memref.cast, memref.view, ...);
/// `value` itself if it is no view. Two accesses through values with
/// different underlying memrefs may still alias (two function arguments of
/// one buffer); with the same one, they access one buffer.
Value getUnderlyingMemRef(Value value);

/// Whether `buffer` (an underlying memref, getUnderlyingMemRef) names a
/// buffer of its own: an allocation, a global, or a function's argument; not
/// a memref of unknown origin (an scf.if or arith.select result, an
/// iter_arg, a call's result), which may be any buffer.
bool isKnownBuffer(Value buffer);

/// Whether `a` and `b` may be views of one buffer: the same underlying
/// memref (getUnderlyingMemRef), two memref.get_global of one global, or a
/// memref of unknown origin (an scf.if or arith.select result, an iter_arg,
/// a call's result) on either side. Distinct allocations, distinct globals
/// and distinct function arguments are distinct buffers (a kernel's tensor
/// arguments do not alias one another: docs/dialect.md).
bool mayShareBuffer(Value a, Value b);

} // namespace tile
} // namespace mlir

#endif // TILE_DIALECT_TILE_UTILS_MEMREFUTILS_H
