#!/usr/bin/env python3
"""Finds references into the repository and its documentation that lead nowhere.

Three kinds of reference are checked:

- Markdown links with a relative target, `[text](file.md#anchor)`,
  `[text](#anchor)` or `[text](../bench/run_h200.py)`: the file must exist
  and, for a Markdown file, the anchor must be one of its headings (GitHub's
  rule: lower case, punctuation other than `-` and `_` dropped, spaces made
  `-`).
- Repository paths in backquotes in Markdown, `bench/perf/ncu_clock.sh`:
  a path that starts with one of the repository's top-level folders must
  exist under ROOT, as a file or folder or the prefix of one
  (`test/Runtime/gpu-check-`), or lie in a folder that a `.gitignore` of the
  repository ignores (`/ptx/` in bench/.gitignore: generated). A path with a
  placeholder, `<prefix>/lib/...` or `DIR/NAME.ptx`, is left alone.
- Citations in prose, comments and tests, `docs/<name>.md, "<title>"`
  (also broken across comment lines): the file must exist under docs/ and
  some heading, bold run-in title (`**Title.** ...`) or italic list title
  (`- *Title.* ...`) of it must start with the title. Code cites the
  measurements behind its choices this way, and a reorganized document must
  not leave them pointing at nothing.

Usage: lint_doc_links.py ROOT [--exclude PATH]... PATH...  (ROOT: the
repository, whose docs/ the citations name; PATH: files, or folders searched
for *.md, *.cpp, *.h, *.td, *.py, *.sh, *.mlir and *.test, except under an
excluded folder). Prints one line per broken reference and exits 1 if there
is any.
"""

import fnmatch
import glob
import os
import re
import sys

SUFFIXES = (".md", ".cpp", ".h", ".td", ".py", ".sh", ".mlir", ".test")
TOP_LEVEL = ("bench", "cmake", "docs", "examples", "include", "lib", "python",
             "scripts", "test", "tools", "unittests")
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
QUOTED_PATH = re.compile(r"`((?:%s)/[\w./-]*)`" % "|".join(TOP_LEVEL))
CITATION = re.compile(r"(?:docs/)?([\w-]+\.md),\s*\"([^\"]+)\"")
COMMENT = re.compile(r"^\s*(?:///?|#|;|\*)?\s?")


def prose(lines):
    """(line number, line) for the lines outside ``` code blocks."""
    in_code = False
    for number, line in enumerate(lines, 1):
        if line.startswith("```"):
            in_code = not in_code
        elif not in_code:
            yield number, line


def github_anchor(title):
    anchor = re.sub(r"[^\w\- ]", "", title.strip().lower())
    return anchor.replace(" ", "-")


class Document:
    """The heading anchors and the titles of one Markdown file."""

    def __init__(self, path):
        self.anchors, self.titles = set(), []
        seen = {}
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
        for _, line in prose(lines):
            heading = re.match(r"^#+\s+(.*?)\s*$", line)
            if heading:
                anchor = github_anchor(heading.group(1))
                count = seen.get(anchor, 0)
                seen[anchor] = count + 1
                self.anchors.add(anchor if count == 0 else
                                 "%s-%d" % (anchor, count))
                self.titles.append(heading.group(1))
                continue
            bold = re.match(r"^\s*(?:[-*]\s+)?\*\*([^*]+?)\*\*", line)
            italic = re.match(r"^\s*[-*]\s+\*([^*]+?)\*", line)
            if bold or italic:
                self.titles.append((bold or italic).group(1))

    def has_title(self, title):
        return any(t.startswith(title) for t in self.titles)


class Checker:
    def __init__(self, root):
        self.root, self.documents, self.problems = root, {}, []

    def document(self, path):
        path = os.path.normpath(path)
        if path not in self.documents:
            self.documents[path] = (Document(path) if os.path.isfile(path)
                                    else None)
        return self.documents[path]

    def is_generated(self, quoted):
        """Whether a folder on the way to `quoted` is one that a .gitignore
        of the repository names as `/folder/` (build output, generated
        files)."""
        parts = quoted.split("/")
        for i, part in enumerate(parts[:-1]):
            ignore = os.path.join(self.root, *parts[:i], ".gitignore")
            if not os.path.isfile(ignore):
                continue
            with open(ignore, encoding="utf-8") as f:
                patterns = [line.strip() for line in f]
            if any(p.startswith("/") and p.endswith("/") and
                   fnmatch.fnmatch(part, p.strip("/")) for p in patterns):
                return True
        return False

    def report(self, path, number, message):
        self.problems.append("%s:%d: %s" % (path, number, message))

    def check_links(self, path, lines):
        for number, line in prose(lines):
            for match in LINK.finditer(line):
                target = match.group(1)
                if re.match(r"^[a-z]+:", target):
                    continue
                file_part, _, anchor = target.partition("#")
                full = (os.path.join(os.path.dirname(path), file_part)
                        if file_part else path)
                if not os.path.exists(full):
                    self.report(path, number,
                                "link to missing file %s" % file_part)
                elif (anchor and full.endswith(".md") and
                      anchor not in self.document(full).anchors):
                    self.report(path, number,
                                "no heading of %s has the anchor #%s"
                                % (file_part or os.path.basename(path),
                                   anchor))

    def check_paths(self, path, lines):
        for number, line in prose(lines):
            for match in QUOTED_PATH.finditer(line):
                # A path with a placeholder (DIR, NAME.ptx) is not one.
                quoted = match.group(1).rstrip(".")
                if any(re.match(r"^[A-Z]+(\.|$)", part)
                       for part in quoted.split("/")):
                    continue
                if (not glob.glob(os.path.join(self.root, quoted) + "*") and
                        not self.is_generated(quoted)):
                    self.report(path, number,
                                "no file or folder %s in the repository"
                                % quoted)

    def check_citations(self, path, lines):
        # Citations may be broken across lines: join the lines, without
        # their comment markers, and map each match back to its first line.
        starts, joined, offset = [], [], 0
        for line in lines:
            text = COMMENT.sub("", line, count=1)
            starts.append(offset)
            joined.append(text)
            offset += len(text) + 1
        flat = " ".join(joined)
        for match in CITATION.finditer(flat):
            name, title = match.group(1), re.sub(r"\s+", " ", match.group(2))
            number = max(i for i, s in enumerate(starts)
                         if s <= match.start()) + 1
            doc = self.document(os.path.join(self.root, "docs", name))
            if doc is None:
                self.report(path, number,
                            "cites docs/%s, which does not exist" % name)
            elif not doc.has_title(title):
                self.report(path, number,
                            "docs/%s has no heading or title that starts "
                            "with \"%s\"" % (name, title))


def sources(paths, excluded):
    for path in paths:
        if not os.path.exists(path):
            sys.exit("lint_doc_links.py: no such file or folder: %s" % path)
        if os.path.isfile(path):
            yield path
            continue
        for folder, dirs, files in os.walk(path):
            dirs[:] = sorted(
                d for d in dirs if not d.startswith(".") and
                os.path.realpath(os.path.join(folder, d)) not in excluded)
            for name in sorted(files):
                if name.endswith(SUFFIXES):
                    yield os.path.join(folder, name)


def main(argv):
    args, excluded = argv[2:], set()
    while len(args) >= 2 and args[0] == "--exclude":
        excluded.add(os.path.realpath(args[1]))
        args = args[2:]
    if len(argv) < 2 or not args:
        sys.stderr.write(__doc__)
        return 2
    checker = Checker(argv[1])
    for path in sources(args, excluded):
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.read().split("\n")
        if path.endswith(".md"):
            checker.check_links(path, lines)
            checker.check_paths(path, lines)
        checker.check_citations(path, lines)
    for problem in checker.problems:
        print(problem)
    return 1 if checker.problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
