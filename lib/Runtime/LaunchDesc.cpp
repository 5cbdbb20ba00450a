//===- LaunchDesc.cpp - Parse the compiler's launch description -----------===//

#include "tile/Runtime/LaunchDesc.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

using namespace tile::runtime;

const char *tile::runtime::elemTypeName(ElemType type) {
  switch (type) {
  case ElemType::F16:
    return "f16";
  case ElemType::BF16:
    return "bf16";
  case ElemType::F32:
    return "f32";
  }
  return "?";
}

std::optional<ElemType> tile::runtime::parseElemType(const std::string &name) {
  if (name == "f16")
    return ElemType::F16;
  if (name == "bf16")
    return ElemType::BF16;
  if (name == "f32")
    return ElemType::F32;
  return std::nullopt;
}

unsigned tile::runtime::elemTypeBytes(ElemType type) {
  return type == ElemType::F32 ? 4 : 2;
}

int64_t ArgDesc::numElements() const {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

/// "128x64", `?` for an extent not known yet.
static std::string shapeText(const std::vector<int64_t> &shape) {
  std::string s;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i)
      s += 'x';
    s += shape[i] < 0 ? "?" : std::to_string(shape[i]);
  }
  return s;
}

std::string ArgDesc::str() const {
  return std::string(elemTypeName(type)) + " " + shapeText(shape);
}

std::string TensorMapDesc::str() const {
  return argName + " " + std::to_string(boxRows) + "x" +
         std::to_string(boxCols) + " swizzle " +
         (swizzleBytes ? std::to_string(swizzleBytes) : std::string("none"));
}

std::optional<int64_t> tile::runtime::parseDecimal(const std::string &s) {
  if (s.empty())
    return std::nullopt;
  int64_t value = 0;
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  for (char c : s) {
    if (c < '0' || c > '9')
      return std::nullopt;
    int digit = c - '0';
    value = value > (kMax - digit) / 10 ? kMax : value * 10 + digit;
  }
  return value;
}

namespace {

std::vector<std::string> splitWords(const std::string &line) {
  std::istringstream in(line);
  std::vector<std::string> words;
  for (std::string w; in >> w;)
    words.push_back(w);
  return words;
}

/// A decimal integer in [minValue, maxValue], nothing else.
bool parseInt(const std::string &s, int64_t minValue, int64_t maxValue,
              int64_t &value) {
  std::optional<int64_t> digits = parseDecimal(s);
  if (!digits)
    return false;
  value = *digits;
  return value >= minValue && value <= maxValue;
}

/// An `arg` line's shape: parseExtents with `?`, whose dimensions go into
/// `arg.dynamicDims`.
bool parseShape(const std::string &s, ArgDesc &arg) {
  arg.dynamicDims.clear();
  if (!parseExtents(s, arg.shape, /*allowUnknown=*/true))
    return false;
  for (unsigned d = 0; d < arg.shape.size(); ++d)
    if (arg.shape[d] < 0)
      arg.dynamicDims.push_back(d);
  return true;
}

/// `<rows>x<cols>`, two decimal integers (range-checked by the caller).
bool parseBox(const std::string &s, int64_t &rows, int64_t &cols) {
  size_t x = s.find('x');
  if (x == std::string::npos)
    return false;
  return parseInt(s.substr(0, x), 0, int64_t(1) << 40, rows) &&
         parseInt(s.substr(x + 1), 0, int64_t(1) << 40, cols);
}

/// How an error names tensor map `map` over `arg`.
std::string tensorMapText(const ArgDesc &arg, const TensorMapDesc &map) {
  return "tensormap of arg '" + arg.name + "' (" + arg.str() + ", box " +
         std::to_string(map.boxRows) + "x" + std::to_string(map.boxCols) +
         ", swizzle " +
         (map.swizzleBytes ? std::to_string(map.swizzleBytes) : "none") + ")";
}

/// The TMA constraints on the extents of `map`'s arg, once they are known:
/// a row pitch that is a multiple of 16 bytes, extents within the TMA's.
bool checkTensorMapExtents(const ArgDesc &arg, const TensorMapDesc &map,
                           std::string &error) {
  uint64_t pitch = uint64_t(arg.shape[1]) * elemTypeBytes(arg.type);
  if (pitch % 16 != 0) {
    error = tensorMapText(arg, map) + ": its row pitch of " +
            std::to_string(arg.shape[1]) + " elements is " +
            std::to_string(pitch) +
            " bytes, not a multiple of 16 (TMA needs 16-byte aligned global "
            "strides)";
    return false;
  }
  if (arg.shape[0] > kMaxTensorMapExtent ||
      arg.shape[1] > kMaxTensorMapExtent || pitch >= (uint64_t(1) << 40)) {
    error = tensorMapText(arg, map) +
            ": too large for a tensor map (extents below 2^31, which the "
            "TMA's signed 32-bit coordinates reach; row pitch below 2^40 "
            "bytes)";
    return false;
  }
  return true;
}

/// The TMA constraints of cuTensorMapEncodeTiled (rank 2, no interleave)
/// that the description alone decides. Resolves `map.argIndex`. Over an arg
/// with `?` extents, those that depend on the extents wait for bindShapes.
bool checkTensorMap(const std::vector<ArgDesc> &args, TensorMapDesc &map,
                    std::string &error) {
  size_t i = 0;
  while (i < args.size() && args[i].name != map.argName)
    ++i;
  if (i == args.size()) {
    error = "tensormap names arg '" + map.argName + "', but no 'arg " +
            map.argName + " ...' line declares it";
    return false;
  }
  map.argIndex = i;
  const ArgDesc &arg = args[i];
  std::string what = tensorMapText(arg, map);
  if (arg.shape.size() != 2) {
    error = what + ": the arg has rank " + std::to_string(arg.shape.size()) +
            ", but a tensor map needs a rank-2 arg";
    return false;
  }
  unsigned elemBytes = elemTypeBytes(arg.type);
  uint64_t boxRowBytes = uint64_t(map.boxCols) * elemBytes;
  if (boxRowBytes % 16 != 0) {
    error = what + ": a box row of " + std::to_string(map.boxCols) +
            " elements is " + std::to_string(boxRowBytes) +
            " bytes, not a multiple of 16 (TMA needs the box's inner extent "
            "in bytes to be one)";
    return false;
  }
  if (map.swizzleBytes && boxRowBytes > map.swizzleBytes) {
    error = what + ": a box row of " + std::to_string(map.boxCols) +
            " elements is " + std::to_string(boxRowBytes) +
            " bytes, more than the " + std::to_string(map.swizzleBytes) +
            "-byte swizzle span";
    return false;
  }
  return !arg.dynamicDims.empty() || checkTensorMapExtents(arg, map, error);
}

/// Whether the clusters tile the grid's known extents (the driver would
/// refuse the launch); `where` prefixes the error.
bool checkClusters(const LaunchDesc &desc, const std::string &where,
                   std::string &error) {
  for (int d = 0; d < 3; ++d) {
    if (desc.grid[d] && desc.grid[d] % desc.cluster[d] != 0) {
      error = where + "the grid (" + std::to_string(desc.grid[0]) + " " +
              std::to_string(desc.grid[1]) + " " +
              std::to_string(desc.grid[2]) +
              ") is not a whole number of clusters of " +
              std::to_string(desc.cluster[0]) + " " +
              std::to_string(desc.cluster[1]) + " " +
              std::to_string(desc.cluster[2]);
      return false;
    }
  }
  return true;
}

/// Evaluates one formula of `grid_expr` over the args' (bound) extents. A
/// formula computes what the kernel's index ops compute: its values are
/// 64-bit integers, `+ - *` wrap around, `min`, `/` and `ceildiv` read their
/// operands as unsigned (arith.minui, divui, ceildivui) and `mins`, `divs`
/// and `ceildivs` as signed (arith.minsi, divsi, ceildivsi). Only what the
/// arith ops leave undefined fails: a quotient by zero, or of the least
/// signed value by -1.
class GridFormula {
public:
  GridFormula(const std::string &text, const LaunchDesc &desc)
      : text(text), desc(desc) {}

  std::optional<uint64_t> evaluate(std::string &error) {
    std::optional<uint64_t> value = expr();
    if (value && pos != text.size())
      fail("unexpected '" + text.substr(pos) + "'");
    if (!value || !why.empty()) {
      error = "cannot compute the grid from grid_expr '" + text + "': " + why;
      return std::nullopt;
    }
    return value;
  }

private:
  std::optional<uint64_t> fail(const std::string &what) {
    if (why.empty())
      why = what;
    return std::nullopt;
  }
  bool eat(const char *token) {
    size_t n = std::strlen(token);
    if (text.compare(pos, n, token) != 0)
      return false;
    pos += n;
    return true;
  }
  std::optional<uint64_t> number() {
    size_t start = pos;
    uint64_t value = 0;
    constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();
    for (; pos < text.size() && text[pos] >= '0' && text[pos] <= '9'; ++pos) {
      unsigned digit = text[pos] - '0';
      if (value > (kMax - digit) / 10) {
        while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9')
          ++pos;
        return fail("the number " + text.substr(start, pos - start) +
                    " does not fit 64 bits");
      }
      value = value * 10 + digit;
    }
    if (pos == start)
      return fail("expected a number at '" + text.substr(start) + "'");
    return value;
  }
  /// After `<function>(`: the two arguments and the closing parenthesis.
  bool arguments(const char *function, uint64_t &a, uint64_t &b) {
    std::optional<uint64_t> first, second;
    if ((first = expr()) && eat(",") && (second = expr()) && eat(")")) {
      a = *first;
      b = *second;
      return true;
    }
    fail(std::string("expected '") + function + "(a,b)'");
    return false;
  }
  /// A quotient of `a` by `b`, rounded up where `up`, else toward zero.
  std::optional<uint64_t> divideUnsigned(uint64_t a, uint64_t b, bool up) {
    if (b == 0)
      return fail("division by 0");
    return a / b + (up && a % b != 0 ? 1 : 0);
  }
  std::optional<uint64_t> divideSigned(uint64_t a, uint64_t b, bool up) {
    auto sa = int64_t(a), sb = int64_t(b);
    if (sb == 0)
      return fail("division by 0");
    if (sa == std::numeric_limits<int64_t>::min() && sb == -1)
      return fail("a signed quotient overflows");
    // Rounded up only where the exact quotient is positive.
    int64_t q = sa / sb + (up && sa % sb != 0 && (sa < 0) == (sb < 0) ? 1 : 0);
    return uint64_t(q);
  }
  /// The compiler writes formulas of at most kMaxGridFormulaOps operations,
  /// each a level deeper at most; each level is a frame of recursion here,
  /// so a deeper one (in a hand-written file) is refused before it exhausts
  /// the stack.
  static constexpr unsigned kMaxDepth = 256;
  static_assert(kMaxDepth > kMaxGridFormulaOps,
                "the parser must read every formula the compiler writes");

  std::optional<uint64_t> expr() {
    if (depth == kMaxDepth)
      return fail("the formula is nested more than " +
                  std::to_string(kMaxDepth) + " levels deep");
    ++depth;
    std::optional<uint64_t> value = term();
    --depth;
    return value;
  }

  std::optional<uint64_t> term() {
    if (eat("dim(")) {
      size_t comma = text.find(',', pos);
      if (comma == std::string::npos)
        return fail("expected 'dim(<arg>,<dimension>)'");
      std::string name = text.substr(pos, comma - pos);
      pos = comma + 1;
      std::optional<uint64_t> d = number();
      if (!d || !eat(")"))
        return fail("expected 'dim(<arg>,<dimension>)'");
      for (const ArgDesc &arg : desc.args)
        if (arg.name == name) {
          if (*d >= arg.shape.size())
            return fail("arg '" + name + "' has no dimension " +
                        std::to_string(*d));
          return uint64_t(arg.shape[*d]);
        }
      return fail("no arg '" + name + "'");
    }
    uint64_t a, b;
    if (eat("min(")) {
      if (!arguments("min", a, b))
        return std::nullopt;
      return std::min(a, b);
    }
    if (eat("mins(")) {
      if (!arguments("mins", a, b))
        return std::nullopt;
      return uint64_t(std::min(int64_t(a), int64_t(b)));
    }
    if (eat("ceildiv(")) {
      if (!arguments("ceildiv", a, b))
        return std::nullopt;
      return divideUnsigned(a, b, /*up=*/true);
    }
    if (eat("ceildivs(")) {
      if (!arguments("ceildivs", a, b))
        return std::nullopt;
      return divideSigned(a, b, /*up=*/true);
    }
    if (eat("divs(")) {
      if (!arguments("divs", a, b))
        return std::nullopt;
      return divideSigned(a, b, /*up=*/false);
    }
    if (eat("(")) {
      std::optional<uint64_t> lhs = expr();
      if (!lhs || pos >= text.size())
        return fail("expected '(a<op>b)'");
      char op = text[pos++];
      std::optional<uint64_t> rhs = expr();
      if (!rhs || !eat(")"))
        return fail("expected '(a<op>b)'");
      switch (op) {
      case '+':
        return *lhs + *rhs;
      case '-':
        return *lhs - *rhs;
      case '*':
        return *lhs * *rhs;
      case '/':
        return divideUnsigned(*lhs, *rhs, /*up=*/false);
      default:
        return fail(std::string("unknown operator '") + op + "'");
      }
    }
    if (pos < text.size() && text[pos] == '?')
      return fail("the compiler could not describe it ('?')");
    return number();
  }

  const std::string &text;
  const LaunchDesc &desc;
  size_t pos = 0;
  unsigned depth = 0;
  std::string why;
};

} // namespace

bool tile::runtime::parseExtents(const std::string &s,
                                 std::vector<int64_t> &shape,
                                 bool allowUnknown) {
  shape.clear();
  size_t start = 0;
  while (true) {
    size_t end = s.find('x', start);
    std::string part = s.substr(
        start, end == std::string::npos ? std::string::npos : end - start);
    // Any positive extent: the callers bound the product.
    int64_t extent = -1;
    if (!(allowUnknown && part == "?") &&
        !parseInt(part, 1, std::numeric_limits<int64_t>::max(), extent))
      return false;
    shape.push_back(extent);
    if (end == std::string::npos)
      return true;
    start = end + 1;
  }
}

size_t LaunchDesc::numSizeParams() const {
  size_t n = 0;
  for (const ArgDesc &arg : args)
    n += arg.dynamicDims.size();
  return n;
}

std::vector<int64_t> LaunchDesc::sizeParams() const {
  std::vector<int64_t> sizes;
  for (const ArgDesc &arg : args)
    for (unsigned d : arg.dynamicDims)
      sizes.push_back(arg.shape[d]);
  return sizes;
}

bool tile::runtime::bindShapes(
    LaunchDesc &desc,
    const std::vector<std::pair<std::string, std::vector<int64_t>>> &shapes,
    std::string &error) {
  for (const auto &[name, shape] : shapes) {
    auto arg = std::find_if(desc.args.begin(), desc.args.end(),
                            [&](const ArgDesc &a) { return a.name == name; });
    if (arg == desc.args.end()) {
      error = "a shape is given for arg '" + name +
              "', which the launch description does not have";
      return false;
    }
    bool agrees = shape.size() == arg->shape.size();
    for (size_t d = 0; agrees && d < shape.size(); ++d)
      agrees =
          shape[d] >= 1 && (arg->shape[d] < 0 || arg->shape[d] == shape[d]);
    if (!agrees) {
      error = "the shape given for arg '" + name + "', " + shapeText(shape) +
              ", does not fit its 'arg' line (" + arg->str() + ")";
      return false;
    }
    for (unsigned d : arg->dynamicDims)
      if (shape[d] % arg->divisor != 0) {
        error = "the shape given for arg '" + name + "', " + shapeText(shape) +
                ", has extent " + std::to_string(shape[d]) + " in dimension " +
                std::to_string(d) +
                ", but the kernel was compiled for '?' "
                "extents that are multiples of " +
                std::to_string(arg->divisor) + " (divisible " +
                std::to_string(arg->divisor) + ")";
        return false;
      }
    arg->shape = shape;
  }
  for (const ArgDesc &arg : desc.args) {
    int64_t elements = 1;
    for (int64_t extent : arg.shape) {
      if (extent < 0) {
        std::string dims;
        for (size_t d = 0; d < arg.shape.size(); ++d)
          dims += (d ? "x<d" : "<d") + std::to_string(d) + ">";
        error = "arg '" + arg.name + "' (" + arg.str() +
                ") has extents known only at run time: give its shape (in "
                "tile-run: --shape " +
                arg.name + "=" + dims + ")";
        return false;
      }
      if (extent > (int64_t(1) << 40) / elements) {
        error = "arg '" + arg.name + "' (" + arg.str() +
                ") has more than 2^40 elements";
        return false;
      }
      elements *= extent;
    }
  }
  // The TMA's constraints on extents given now (checkTensorMap has the
  // others).
  for (const TensorMapDesc &map : desc.tensorMaps) {
    const ArgDesc &arg = desc.args[map.argIndex];
    if (!arg.dynamicDims.empty() && !checkTensorMapExtents(arg, map, error))
      return false;
  }
  std::istringstream formulas(desc.gridExpr);
  std::vector<std::string> gridExpr;
  for (std::string f; formulas >> f;)
    gridExpr.push_back(f);
  for (int d = 0; d < 3; ++d) {
    if (desc.grid[d])
      continue;
    if (size_t(d) >= gridExpr.size()) {
      error = "the grid's extent in " + std::string(1, "xyz"[d]) +
              " is '?' but grid_expr ('" + desc.gridExpr +
              "') has no formula for it";
      return false;
    }
    std::optional<uint64_t> size =
        GridFormula(gridExpr[d], desc).evaluate(error);
    if (!size)
      return false;
    if (*size < 1 || *size > uint64_t(kMaxGridDim[d])) {
      // Shown signed: a size that went below zero reads as one.
      error = "the grid's extent in " + std::string(1, "xyz"[d]) + ", " +
              gridExpr[d] + " = " + std::to_string(int64_t(*size)) +
              ", is not in 1.." + std::to_string(kMaxGridDim[d]);
      return false;
    }
    desc.grid[d] = unsigned(*size);
  }
  return checkClusters(desc, "", error);
}

/// parseLaunchDesc's work; the warnings go to `warnings`, so that they
/// survive a failure.
static std::optional<LaunchDesc>
parseLines(const std::string &text, std::string &error,
           std::vector<std::string> &warnings) {
  LaunchDesc desc;
  bool seenKernel = false, seenGrid = false, seenBlock = false,
       seenShared = false, seenChip = false, seenTranspose = false,
       seenCluster = false, seenGridExpr = false;
  unsigned clusterLine = 0;
  std::istringstream in(text);
  std::string rawLine;
  unsigned lineNo = 0;
  auto fail = [&](const std::string &msg) {
    error = "line " + std::to_string(lineNo) + ": " + msg;
    return std::nullopt;
  };
  while (std::getline(in, rawLine)) {
    ++lineNo;
    std::string line = rawLine.substr(0, rawLine.find('#'));
    std::vector<std::string> words = splitWords(line);
    if (words.empty())
      continue;
    const std::string &key = words[0];
    auto once = [&](bool &seen) {
      if (seen)
        return false;
      seen = true;
      return true;
    };

    if (key == "kernel") {
      if (words.size() != 2)
        return fail("expected 'kernel <entry name>'");
      if (!once(seenKernel))
        return fail("a second 'kernel' line: the description holds more "
                    "than one kernel, and tile-run runs one (compile a "
                    "module with a single tile.kernel)");
      desc.kernel = words[1];
    } else if (key == "chip") {
      if (words.size() != 2)
        return fail("expected 'chip <sm_XX>'");
      if (!once(seenChip))
        return fail("duplicate 'chip' line");
      desc.chip = words[1];
    } else if (key == "grid" || key == "block") {
      std::array<unsigned, 3> &dims = key == "grid" ? desc.grid : desc.block;
      if (words.size() < 2 || words.size() > 4)
        return fail("expected '" + key + " <x> [<y> [<z>]]'");
      if (!once(key == "grid" ? seenGrid : seenBlock))
        return fail("duplicate '" + key + "' line");
      // CUDA's limits, which the driver would otherwise report only at
      // launch as an invalid value.
      const std::array<int64_t, 3> &max =
          key == "grid" ? kMaxGridDim : kMaxBlockDim;
      for (size_t i = 1; i < words.size(); ++i) {
        int64_t v;
        // `?`: computed from grid_expr once the args' shapes are bound.
        if (key == "grid" && words[i] == "?") {
          dims[i - 1] = 0;
          continue;
        }
        if (words[i] == "-1")
          return fail("'" + key + "' extent -1: write '?' for an extent " +
                      "known only at run time" +
                      (key == "grid" ? " (computed from grid_expr)"
                                     : ", which only the grid may have"));
        if (!parseInt(words[i], 1, std::numeric_limits<int64_t>::max(), v))
          return fail("'" + key + "' extent '" + words[i] +
                      "' is not a positive integer");
        if (v > max[i - 1])
          return fail("'" + key + "' extent " + words[i] + " in " +
                      "xyz"[i - 1] + " is above CUDA's limit of " +
                      std::to_string(max[i - 1]));
        dims[i - 1] = unsigned(v);
      }
      uint64_t threads = uint64_t(dims[0]) * dims[1] * dims[2];
      if (key == "block" && threads > uint64_t(kMaxBlockThreads))
        return fail("'block' of " + std::to_string(threads) +
                    " threads is above CUDA's limit of " +
                    std::to_string(kMaxBlockThreads));
    } else if (key == "shared_bytes") {
      int64_t v;
      if (words.size() != 2)
        return fail("expected 'shared_bytes <bytes>'");
      if (!once(seenShared))
        return fail("duplicate 'shared_bytes' line");
      if (!parseInt(words[1], 0, std::numeric_limits<int64_t>::max(), v))
        return fail("'shared_bytes' value '" + words[1] +
                    "' is not a non-negative integer");
      if (v > 0xffffffff)
        return fail("'shared_bytes' value " + words[1] +
                    " does not fit the driver's 32-bit size");
      desc.sharedBytes = uint64_t(v);
    } else if (key == "arg") {
      if (words.size() != 4 && !(words.size() == 6 && words[4] == "divisible"))
        return fail("expected 'arg <name> <f16|bf16|f32> <d0>x<d1> "
                    "[divisible <n>]'");
      ArgDesc arg;
      arg.name = words[1];
      std::optional<ElemType> type = parseElemType(words[2]);
      if (!type)
        return fail("unsupported element type '" + words[2] + "' of arg '" +
                    arg.name + "' (expected f16, bf16 or f32)");
      arg.type = *type;
      // A pointer each, 8 bytes: more than the kernel parameters hold is no
      // kernel's description (and bounds the duplicate checks).
      if (int64_t(desc.args.size() + 1) * 8 > kMaxParamBytes)
        return fail("more args than the " + std::to_string(kMaxParamBytes) +
                    " bytes of a kernel's parameters hold");
      for (const ArgDesc &other : desc.args)
        if (other.name == arg.name)
          return fail("duplicate arg '" + arg.name + "'");
      if (!parseShape(words[3], arg))
        return fail("bad shape '" + words[3] + "' of arg '" + arg.name +
                    "' (expected positive extents like 128x64, or '?' for "
                    "one given at run time)");
      // numElements() and numBytes() multiply the extents: keep the product
      // far from overflow (2^40 elements is 2 TiB of f16).
      int64_t elements = 1;
      for (int64_t extent : arg.shape) {
        if (extent < 0)
          continue;
        if (extent > (int64_t(1) << 40) / elements)
          return fail("arg '" + arg.name + "' of shape '" + words[3] +
                      "' has more than 2^40 elements");
        elements *= extent;
      }
      if (words.size() == 6 &&
          !parseInt(words[5], 1, int64_t(1) << 30, arg.divisor))
        return fail("'divisible' value '" + words[5] + "' of arg '" + arg.name +
                    "' is not an integer in 1..2^30");
      desc.args.push_back(arg);
    } else if (key == "gemm_transpose") {
      auto flag = [](const std::string &w) { return w == "0" || w == "1"; };
      if (words.size() != 3 || !flag(words[1]) || !flag(words[2]))
        return fail("expected 'gemm_transpose <0|1> <0|1>' (A, then B)");
      if (!once(seenTranspose))
        return fail("duplicate 'gemm_transpose' line");
      desc.transposeA = words[1] == "1";
      desc.transposeB = words[2] == "1";
    } else if (key == "tensormap") {
      if (words.size() != 5 || words[3] != "swizzle")
        return fail("expected 'tensormap <arg> <rows>x<cols> swizzle "
                    "<none|32|64|128>'");
      TensorMapDesc map;
      map.argName = words[1];
      map.line = lineNo;
      int64_t rows, cols;
      if (!parseBox(words[2], rows, cols))
        return fail("bad box '" + words[2] + "' of tensormap '" + map.argName +
                    "' (expected <rows>x<cols> like 64x32)");
      if (rows < 1 || rows > 256 || cols < 1 || cols > 256)
        return fail("tensormap box " + words[2] + " of arg '" + map.argName +
                    "' is out of range: rows and columns must be 1..256");
      map.boxRows = unsigned(rows);
      map.boxCols = unsigned(cols);
      const std::string &swizzle = words[4];
      if (swizzle == "none")
        map.swizzleBytes = 0;
      else if (swizzle == "32" || swizzle == "64" || swizzle == "128")
        map.swizzleBytes = unsigned(std::stoul(swizzle));
      else
        return fail("unsupported swizzle '" + swizzle + "' of tensormap '" +
                    map.argName + "' (expected none, 32, 64 or 128)");
      // 128 bytes each, by value.
      if (int64_t(desc.tensorMaps.size() + 1) * 128 > kMaxParamBytes)
        return fail("more tensor maps than the " +
                    std::to_string(kMaxParamBytes) +
                    " bytes of a kernel's parameters hold");
      desc.tensorMaps.push_back(map);
    } else if (key == "cluster") {
      if (words.size() != 4)
        return fail("expected 'cluster <x> <y> <z>'");
      if (!once(seenCluster))
        return fail("duplicate 'cluster' line");
      for (size_t i = 1; i < 4; ++i) {
        int64_t v;
        // 8 blocks is the largest cluster every sm_90 GPU supports.
        if (!parseInt(words[i], 1, 8, v))
          return fail("'cluster' extent '" + words[i] +
                      "' is not an integer in 1..8");
        desc.cluster[i - 1] = unsigned(v);
      }
      if (desc.cluster[0] * desc.cluster[1] * desc.cluster[2] > 8)
        return fail("a cluster of " + words[1] + "x" + words[2] + "x" +
                    words[3] + " blocks is more than 8");
      clusterLine = lineNo;
    } else if (key == "grid_expr") {
      if (!once(seenGridExpr))
        return fail("duplicate 'grid_expr' line");
      size_t pos = line.find("grid_expr") + std::strlen("grid_expr");
      std::string rest = line.substr(pos);
      size_t b = rest.find_first_not_of(" \t");
      size_t e = rest.find_last_not_of(" \t\r");
      desc.gridExpr = b == std::string::npos ? "" : rest.substr(b, e - b + 1);
    } else {
      warnings.push_back("line " + std::to_string(lineNo) + ": unknown key '" +
                         key + "' ignored");
    }
  }
  if (!seenKernel) {
    error = "missing required 'kernel <entry name>' line";
    return std::nullopt;
  }
  if (!seenGrid || !seenBlock) {
    error = std::string("missing required '") + (seenGrid ? "block" : "grid") +
            "' line";
    return std::nullopt;
  }
  // A cluster must tile the grid (the driver would refuse the launch);
  // extents given as `?` are checked once known (bindShapes).
  if (!checkClusters(desc, "line " + std::to_string(clusterLine) + ": ", error))
    return std::nullopt;
  // Checked once every arg is known: a tensormap line may precede its arg.
  for (TensorMapDesc &map : desc.tensorMaps) {
    std::string why;
    if (!checkTensorMap(desc.args, map, why)) {
      error = "line " + std::to_string(map.line) + ": " + why;
      return std::nullopt;
    }
  }
  return desc;
}

std::optional<LaunchDesc>
tile::runtime::parseLaunchDesc(const std::string &text, std::string &error) {
  std::vector<std::string> warnings;
  std::optional<LaunchDesc> desc = parseLines(text, error, warnings);
  if (desc) {
    desc->warnings = std::move(warnings);
    return desc;
  }
  // A misspelt key is often why a later line fails (`agr A ...`, then
  // `tensormap A ...`).
  for (const std::string &warning : warnings)
    error += "; note: " + warning;
  return std::nullopt;
}

bool tile::runtime::readFile(const std::string &path, std::string &contents,
                             std::string &error, size_t limit) {
  // A directory opens as a stream and reads as empty: say what it is.
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    error = "cannot read '" + path + "': it is a directory";
    return false;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = "cannot open '" + path + "': " + std::strerror(errno);
    return false;
  }
  // In chunks, up to the limit: a device or a pipe may not end, and a
  // stream that runs out of memory fails quietly.
  std::string data;
  char chunk[1 << 16];
  while (in.read(chunk, sizeof chunk) || in.gcount() > 0) {
    if (data.size() + size_t(in.gcount()) > limit) {
      error = "cannot read '" + path + "': it holds more than " +
              std::to_string(limit) + " bytes";
      return false;
    }
    data.append(chunk, size_t(in.gcount()));
  }
  if (in.bad()) {
    error = "cannot read '" + path + "': " + std::strerror(errno);
    return false;
  }
  contents = std::move(data);
  return true;
}
