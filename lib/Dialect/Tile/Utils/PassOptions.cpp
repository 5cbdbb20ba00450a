//===- PassOptions.cpp - Pass options that say what is wrong --------------===//
//
// Part of tile-mlir.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/Utils/PassOptions.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir;

/// The whitespace-separated `key[=value]` items of a pass's option string.
/// A value may hold spaces inside quotes or braces (`list={a, b}`), as
/// MLIR's option parser allows; an unbalanced quote or brace runs to the end
/// and the parser reports it.
static SmallVector<StringRef> splitOptions(StringRef options) {
  SmallVector<StringRef> items;
  size_t start = StringRef::npos;
  int depth = 0;
  char quote = 0;
  for (size_t i = 0, e = options.size(); i != e; ++i) {
    char c = options[i];
    if (start == StringRef::npos) {
      if (llvm::isSpace(c))
        continue;
      start = i;
    }
    if (quote) {
      if (c == quote)
        quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '{') {
      ++depth;
    } else if (c == '}') {
      depth = std::max(depth - 1, 0);
    } else if (llvm::isSpace(c) && depth == 0) {
      items.push_back(options.slice(start, i));
      start = StringRef::npos;
    }
  }
  if (start != StringRef::npos)
    items.push_back(options.drop_front(start));
  return items;
}

LogicalResult tile::initializePassOptions(
    Pass &pass, StringRef options,
    function_ref<LogicalResult(const Twine &)> errorHandler) {
  for (StringRef item : splitOptions(options)) {
    std::string message;
    auto keep = [&](const Twine &text) {
      message = text.str();
      return failure();
    };
    if (succeeded(pass.Pass::initializeOptions(item, keep)))
      continue;
    // MLIR's own messages end in a newline.
    if (StringRef trimmed = StringRef(message).trim(); !trimmed.empty())
      return errorHandler(trimmed);
    auto [key, value] = item.split('=');
    return errorHandler("invalid value '" + value + "' for option '" + key +
                        "' of " + pass.getArgument());
  }
  return success();
}
