//===- LaunchDesc.h - The compiler's launch description ---------*- C++ -*-===//
//
// The text file `<name>.launch` that the compiler writes next to the PTX:
// the entry name, grid, block, dynamic shared bytes, one `arg` line per
// buffer parameter and one `tensormap` line per TMA tensor-map parameter.
// The kernel's parameters: one pointer per `arg`, then one 64-bit integer
// per `?` extent of the args (in arg order, then dimension order), then the
// tensor maps in the order of their lines. A kernel whose args have `?`
// extents has them bound at run time (bindShapes), and a grid extent `?` is
// computed then from `grid_expr`. This header needs
// neither CUDA nor LLVM, so the parser is unit-tested on machines without a GPU
// and builds where MLIR is absent.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_LAUNCHDESC_H
#define TILE_RUNTIME_LAUNCHDESC_H

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tile::runtime {

/// CUDA's largest grid (blocks in x, y, z) and block (threads in x, y, z, and
/// in all), which the compiler checks before writing a description and the
/// parser checks again.
inline constexpr std::array<int64_t, 3> kMaxGridDim = {0x7fffffff, 0xffff,
                                                       0xffff};
inline constexpr std::array<int64_t, 3> kMaxBlockDim = {1024, 1024, 64};
inline constexpr int64_t kMaxBlockThreads = 1024;
/// The bytes of a kernel's parameters that CUDA 12.1 and later accept
/// (4 KiB before).
inline constexpr int64_t kMaxParamBytes = 32764;
/// The largest extent of a tensor the TMA copies: the tensor map's encoding
/// takes 2^32, but the copies address a box by signed 32-bit coordinates
/// (cp.async.bulk.tensor's .s32 operands). The compiler keeps cp.async for
/// a larger static extent; tile-run refuses one given at run time.
inline constexpr int64_t kMaxTensorMapExtent = 0x7fffffff;
/// The most operations the compiler spells out in a grid formula (`ceildiv`,
/// `min`, `+ - * /` and the signed `ceildivs`, `mins`, `divs`, each a level
/// of nesting at most), which the parser must read.
inline constexpr int kMaxGridFormulaOps = 200;

enum class ElemType { F16, BF16, F32 };

/// The launch-description spelling (`f16`, `bf16`, `f32`).
const char *elemTypeName(ElemType type);
std::optional<ElemType> parseElemType(const std::string &name);
/// Size in bytes of one element.
unsigned elemTypeBytes(ElemType type);

/// One kernel parameter: a bare pointer to a dense row-major buffer.
struct ArgDesc {
  std::string name;
  ElemType type = ElemType::F16;
  /// -1 for a `?` extent until bindShapes gives it.
  std::vector<int64_t> shape;
  /// The dimensions that were `?`, in order: each is one more kernel
  /// parameter (the extent, 64 bits) after all the pointers.
  std::vector<unsigned> dynamicDims;
  /// `divisible <n>` after the shape: the kernel was compiled for `?`
  /// extents that are multiples of n (tile.divisibility), which bindShapes
  /// checks.
  int64_t divisor = 1;

  int64_t numElements() const;
  int64_t numBytes() const { return numElements() * elemTypeBytes(type); }
  /// "f16 128x64".
  std::string str() const;
};

/// `tensormap <arg> <rows>x<cols> swizzle <none|32|64|128>`: one more kernel
/// parameter after all the `arg` pointers, the 128-byte CUtensorMap
/// (cuTensorMapEncodeTiled) over the rank-2 arg's buffer by value (a grid
/// constant, `.param .align 128 .b8 p[128]`), whose box is `boxRows` rows of
/// `boxCols` elements.
struct TensorMapDesc {
  std::string argName;
  /// Index into LaunchDesc::args of the arg named `argName`.
  size_t argIndex = 0;
  unsigned boxRows = 0, boxCols = 0;
  /// 0 (none), 32, 64 or 128.
  unsigned swizzleBytes = 0;
  /// The line of the launch description it came from.
  unsigned line = 0;

  /// "A 64x32 swizzle none".
  std::string str() const;
};

struct LaunchDesc {
  std::string kernel;
  std::string chip;
  /// 0 for a `?` extent until bindShapes computes it from gridExpr.
  std::array<unsigned, 3> grid = {1, 1, 1};
  std::array<unsigned, 3> block = {1, 1, 1};
  uint64_t sharedBytes = 0;
  std::vector<ArgDesc> args;
  std::string gridExpr;
  /// `gemm_transpose <a> <b>`: the kernel's tile.gemm reads A stored KxM
  /// (transposeA) and B stored NxK (transposeB). Absent: both false.
  bool transposeA = false, transposeB = false;
  /// `cluster <x> <y> <z>`: blocks per thread-block cluster, which the PTX
  /// requires (`.reqnctapercluster`); checked to tile the grid. Absent: 1.
  std::array<unsigned, 3> cluster = {1, 1, 1};
  /// The last kernel parameters, after the pointers and the sizes,
  /// validated against their args (rank 2, box, swizzle span, row pitch;
  /// over an arg with `?` extents the row pitch once bindShapes gives them).
  std::vector<TensorMapDesc> tensorMaps;
  /// Non-fatal remarks (unknown keys), "line N: ..." each.
  std::vector<std::string> warnings;

  /// The `?` extents of the args, one kernel parameter each.
  size_t numSizeParams() const;
  /// The kernel's parameter count: one pointer per arg, one integer per `?`
  /// extent, then one per tensor map.
  size_t numParams() const {
    return args.size() + numSizeParams() + tensorMaps.size();
  }
  /// The values of the size parameters, in order (after bindShapes).
  std::vector<int64_t> sizeParams() const;
};

/// Parses the text of a launch description. On failure returns nullopt and
/// sets `error` to "line N: <what is wrong>" (or a message about a missing
/// required key). A `tensormap` line is checked against its arg once the
/// whole file is read (it may come before the arg), so that every TMA
/// constraint that depends only on the description fails here, without a
/// GPU. Unknown keys are ignored with a warning, so that newer
/// compilers can add informational lines without breaking older runtimes;
/// where the description fails, those warnings end `error` as notes.
std::optional<LaunchDesc> parseLaunchDesc(const std::string &text,
                                          std::string &error);

/// The value of a string of decimal digits, saturated at INT64_MAX (a
/// number too large for a field reads as out of its range, not as no
/// number); std::nullopt for anything else (a sign, a point, hex).
std::optional<int64_t> parseDecimal(const std::string &s);

/// `<d0>x<d1>x...`, each extent a positive decimal integer (saturated at
/// INT64_MAX: the callers bound the number of elements), or `?` (-1) where
/// `allowUnknown`; false for anything else.
bool parseExtents(const std::string &s, std::vector<int64_t> &shape,
                  bool allowUnknown);

/// Gives the `?` extents of the args their values: `shapes` holds, per arg
/// name, its whole shape (the extents the description fixes must agree).
/// Then computes each `?` grid extent from `grid_expr` (integers,
/// `dim(<arg>,<d>)`, `(a+b)`, `(a-b)`, `(a*b)`, unsigned `min(a,b)`,
/// `(a/b)`, `ceildiv(a,b)`, signed `mins(a,b)`, `divs(a,b)`,
/// `ceildivs(a,b)`; 64-bit values that wrap as the kernel's index ops do; at
/// most 256 levels deep) and checks it against CUDA's limits and the cluster
/// shape. Fails, with
/// `error` saying why, for an unknown arg, a disagreeing or missing extent
/// or a grid extent it cannot compute.
bool bindShapes(
    LaunchDesc &desc,
    const std::vector<std::pair<std::string, std::vector<int64_t>>> &shapes,
    std::string &error);

/// Reads a whole file; returns false and sets `error` naming the file and
/// the system's reason when it cannot be read, or when it holds more than
/// `limit` bytes (a device such as /dev/zero never ends).
bool readFile(const std::string &path, std::string &contents,
              std::string &error, size_t limit = size_t(1) << 30);

} // namespace tile::runtime

#endif // TILE_RUNTIME_LAUNCHDESC_H
