//===- PtxInfo.cpp - What a PTX text declares -----------------------------===//

#include "tile/Runtime/PtxInfo.h"

#include <algorithm>
#include <cctype>
#include <sstream>
#include <utility>

using namespace tile::runtime;

bool tile::runtime::looksLikePtx(const std::string &image) {
  // ELF images (cubin) and fatbins start with binary magic; PTX is text
  // that declares its version.
  return image.compare(0, 4,
                       "\x7f"
                       "ELF") != 0 &&
         image.find(".version") != std::string::npos;
}

/// `ptx` with its comments (`// ...` to the end of the line, `/* ... */`)
/// made spaces, newlines kept, so that a declaration in a comment or a
/// parenthesis in one does not count. String literals (a `.file`
/// directive's path) are kept as they are.
static std::string withoutComments(const std::string &ptx) {
  std::string text = ptx;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '"') {
      for (++i; i < text.size() && text[i] != '"'; ++i)
        if (text[i] == '\\')
          ++i;
    } else if (text.compare(i, 2, "//") == 0) {
      for (; i < text.size() && text[i] != '\n'; ++i)
        text[i] = ' ';
    } else if (text.compare(i, 2, "/*") == 0) {
      size_t end = text.find("*/", i + 2);
      end = end == std::string::npos ? text.size() : end + 2;
      for (; i < end; ++i)
        if (text[i] != '\n')
          text[i] = ' ';
      --i;
    }
  }
  return text;
}

/// Position just past the entry's name when `pos` starts `.entry`, with the
/// name in `name`.
static size_t readEntryName(const std::string &ptx, size_t pos,
                            std::string &name) {
  pos += 6; // ".entry"
  while (pos < ptx.size() && std::isspace(static_cast<unsigned char>(ptx[pos])))
    ++pos;
  size_t end = pos;
  while (end < ptx.size() &&
         !std::isspace(static_cast<unsigned char>(ptx[end])) && ptx[end] != '(')
    ++end;
  name = ptx.substr(pos, end - pos);
  return end;
}

static bool isEntryKeyword(const std::string &ptx, size_t pos) {
  // `.entry` as a directive, not as part of a longer identifier.
  size_t after = pos + 6;
  return after < ptx.size() &&
         (std::isspace(static_cast<unsigned char>(ptx[after])));
}

std::vector<std::string>
tile::runtime::listPtxEntries(const std::string &text) {
  std::string ptx = withoutComments(text);
  std::vector<std::string> entries;
  for (size_t pos = ptx.find(".entry"); pos != std::string::npos;
       pos = ptx.find(".entry", pos + 6)) {
    if (!isEntryKeyword(ptx, pos))
      continue;
    std::string name;
    readEntryName(ptx, pos, name);
    if (!name.empty())
      entries.push_back(name);
  }
  return entries;
}

/// Position just past the name of the entry `name` declares, or nullopt.
static std::optional<size_t> findEntry(const std::string &ptx,
                                       const std::string &name) {
  for (size_t pos = ptx.find(".entry"); pos != std::string::npos;
       pos = ptx.find(".entry", pos + 6)) {
    if (!isEntryKeyword(ptx, pos))
      continue;
    std::string entry;
    size_t end = readEntryName(ptx, pos, entry);
    if (entry == name)
      return end;
  }
  return std::nullopt;
}

/// The text of the parameter list that follows an entry's name (ending at
/// `nameEnd`), without its parentheses, and the position just past it:
/// empty text where no list follows, the rest of the text where it is not
/// closed.
static std::pair<std::string, size_t> readParamList(const std::string &ptx,
                                                    size_t nameEnd) {
  size_t open = ptx.find_first_not_of(" \t\r\n", nameEnd);
  if (open == std::string::npos || ptx[open] != '(')
    return {"", nameEnd};
  size_t close = std::min(ptx.find(')', open), ptx.size());
  return {ptx.substr(open + 1, close - open - 1),
          std::min(close + 1, ptx.size())};
}

std::optional<std::vector<std::string>>
tile::runtime::ptxEntryParamTypes(const std::string &text,
                                  const std::string &entry) {
  std::string ptx = withoutComments(text);
  std::optional<size_t> end = findEntry(ptx, entry);
  if (!end)
    return std::nullopt;
  std::vector<std::string> types;
  std::istringstream params(readParamList(ptx, *end).first);
  for (std::string param; std::getline(params, param, ',');) {
    std::istringstream words(param);
    std::string word;
    while (words >> word && word != ".param")
      ;
    // The type is the first word after the state-space and alignment
    // qualifiers; an array's extent follows the name.
    std::string type;
    while (words >> word) {
      if (word == ".align") {
        words >> word;
        continue;
      }
      if (word == ".ptr" || word == ".global" || word == ".const" ||
          word == ".local" || word == ".shared")
        continue;
      type = word;
      break;
    }
    if (type.empty())
      continue;
    // The name and an array's extent, spaces dropped (`p [128]`).
    std::string rest;
    while (words >> word)
      rest += word;
    size_t bracket = rest.find('[');
    if (bracket != std::string::npos)
      type += rest.substr(bracket);
    types.push_back(type);
  }
  return types;
}

static bool isIdentifierChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' ||
         c == '%';
}

/// The names declared `.extern .shared ... name[]` at module scope.
static std::vector<std::string> externSharedArrays(const std::string &ptx) {
  std::vector<std::string> names;
  std::istringstream lines(ptx);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::string first, second;
    if (!(words >> first >> second) || first != ".extern" ||
        second != ".shared")
      continue;
    // The name is the identifier before the last `[`, spaces allowed
    // between them (`smem [];`).
    size_t bracket = line.rfind('[');
    if (bracket == std::string::npos)
      continue;
    size_t end = bracket;
    while (end > 0 && std::isspace(static_cast<unsigned char>(line[end - 1])))
      --end;
    size_t begin = end;
    while (begin > 0 && isIdentifierChar(line[begin - 1]))
      --begin;
    if (begin < end)
      names.push_back(line.substr(begin, end - begin));
  }
  return names;
}

/// The text between the braces of entry `name`'s body, or nullopt.
static std::optional<std::string> entryBody(const std::string &ptx,
                                            const std::string &name) {
  std::optional<size_t> end = findEntry(ptx, name);
  if (!end)
    return std::nullopt;
  // The parameter list holds no braces; performance directives may follow
  // it.
  size_t open = ptx.find('{', *end);
  if (open == std::string::npos)
    return std::nullopt;
  int depth = 0;
  for (size_t i = open; i < ptx.size(); ++i) {
    if (ptx[i] == '{')
      ++depth;
    else if (ptx[i] == '}' && --depth == 0)
      return ptx.substr(open + 1, i - open - 1);
  }
  return ptx.substr(open + 1);
}

std::vector<std::string>
tile::runtime::ptxEntryDynamicShared(const std::string &text,
                                     const std::string &name) {
  std::string ptx = withoutComments(text);
  std::vector<std::string> used;
  std::optional<std::string> body = entryBody(ptx, name);
  if (!body)
    return used;
  for (const std::string &array : externSharedArrays(ptx)) {
    for (size_t at = body->find(array); at != std::string::npos;
         at = body->find(array, at + 1)) {
      size_t after = at + array.size();
      if ((at == 0 || !isIdentifierChar((*body)[at - 1])) &&
          (after == body->size() || !isIdentifierChar((*body)[after]))) {
        used.push_back(array);
        break;
      }
    }
  }
  return used;
}

/// The extents after performance directive `directive` (".reqntid") of entry
/// `name`, omitted ones 1; nullopt where the entry has no such directive.
static std::optional<std::array<int64_t, 3>>
entryDirective(const std::string &ptx, const std::string &name,
               const std::string &directive) {
  std::optional<size_t> end = findEntry(ptx, name);
  if (!end)
    return std::nullopt;
  // The performance directives sit between the parameter list and the body.
  size_t from = readParamList(ptx, *end).second;
  size_t body = ptx.find('{', from);
  std::string directives = ptx.substr(from, body - from);
  // A whole word: ".maxnreg" is not ".maxn".
  size_t at = directives.find(directive);
  while (at != std::string::npos && at + directive.size() < directives.size() &&
         isIdentifierChar(directives[at + directive.size()]))
    at = directives.find(directive, at + 1);
  if (at == std::string::npos)
    return std::nullopt;
  std::array<int64_t, 3> dims = {1, 1, 1};
  std::istringstream extents(directives.substr(at + directive.size()));
  for (int64_t &dim : dims) {
    int64_t extent;
    if (!(extents >> extent))
      break;
    dim = extent;
    char comma;
    if (!(extents >> comma) || comma != ',')
      break;
  }
  return dims;
}

std::optional<PtxThreadLimit>
tile::runtime::ptxEntryThreadLimit(const std::string &text,
                                   const std::string &name) {
  std::string ptx = withoutComments(text);
  for (const char *directive : {".reqntid", ".maxntid"})
    if (std::optional<std::array<int64_t, 3>> dims =
            entryDirective(ptx, name, directive))
      return PtxThreadLimit{directive == std::string(".reqntid"), *dims};
  return std::nullopt;
}

std::optional<std::array<int64_t, 3>>
tile::runtime::ptxEntryClusterShape(const std::string &text,
                                    const std::string &name) {
  return entryDirective(withoutComments(text), name, ".reqnctapercluster");
}
