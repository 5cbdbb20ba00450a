#!/usr/bin/env python3
"""Finds links and citations into the documentation that lead nowhere.

Two kinds of reference are checked:

- Markdown links with a relative target, `[text](file.md#anchor)`,
  `[text](#anchor)` or `[text](../bench/run_h200.py)`: the file must exist
  and, for a Markdown file, the anchor must be one of its headings (GitHub's
  rule: lower case, punctuation other than `-` and `_` dropped, spaces made
  `-`).
- Citations in prose, comments and tests, `docs/<name>.md, "<title>"`
  (also broken across comment lines): the file must exist under docs/ and
  some heading, bold run-in title (`**Title.** ...`) or italic list title
  (`- *Title.* ...`) of it must start with the title. Code cites the measurements behind its choices this way, and a
  reorganized document must not leave them pointing at nothing.

Usage: lint_doc_links.py ROOT [--exclude PATH]... PATH...  (ROOT: the
repository, whose docs/ the citations name; PATH: files, or folders searched
for *.md, *.cpp, *.h, *.td, *.py, *.sh, *.mlir and *.test, except under an
excluded folder). Prints one line per broken reference and exits 1 if there
is any.
"""

import os
import re
import sys

SUFFIXES = (".md", ".cpp", ".h", ".td", ".py", ".sh", ".mlir", ".test")
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
CITATION = re.compile(r"(?:docs/)?([\w-]+\.md),\s*\"([^\"]+)\"")
COMMENT = re.compile(r"^\s*(?:///?|#|;|\*)?\s?")


def github_anchor(title):
    anchor = re.sub(r"[^\w\- ]", "", title.strip().lower())
    return anchor.replace(" ", "-")


class Document:
    """The headings and bold run-in titles of one Markdown file."""

    def __init__(self, path):
        self.anchors, self.titles = set(), []
        seen = {}
        in_code = False
        with open(path, encoding="utf-8") as f:
            for line in f:
                if line.startswith("```"):
                    in_code = not in_code
                if in_code:
                    continue
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
    root, docs_cache, problems = argv[1], {}, []

    def document(path):
        path = os.path.normpath(path)
        if path not in docs_cache:
            docs_cache[path] = Document(path) if os.path.isfile(path) else None
        return docs_cache[path]

    for path in sources(args, excluded):
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.read().split("\n")
        if path.endswith(".md"):
            for number, line in enumerate(lines, 1):
                for match in LINK.finditer(line):
                    target = match.group(1)
                    if re.match(r"^[a-z]+:", target):
                        continue
                    file_part, _, anchor = target.partition("#")
                    full = (os.path.join(os.path.dirname(path), file_part)
                            if file_part else path)
                    if not os.path.exists(full):
                        problems.append("%s:%d: link to missing file %s"
                                        % (path, number, file_part))
                    elif anchor and full.endswith(".md") and \
                            anchor not in document(full).anchors:
                        problems.append("%s:%d: no heading of %s has the "
                                        "anchor #%s" % (path, number,
                                                        file_part or
                                                        os.path.basename(path),
                                                        anchor))
        # Citations may be broken across lines: join the lines, without
        # their comment markers, and map each match back to its first line.
        starts, joined = [], []
        offset = 0
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
            doc = document(os.path.join(root, "docs", name))
            if doc is None:
                problems.append("%s:%d: cites docs/%s, which does not exist"
                                % (path, number, name))
            elif not doc.has_title(title):
                problems.append("%s:%d: docs/%s has no heading or "
                                "title that starts with \"%s\""
                                % (path, number, name, title))
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
