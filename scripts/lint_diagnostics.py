#!/usr/bin/env python3
"""Finds compiler diagnostics that no test makes happen.

Every diagnostic of the compiler should have a test that provokes it: a lit
test run with `-verify-diagnostics`, or, for the messages of a C++ API that
no input reaches, a unit test. This is a textual check, not a parser. The
statements it looks at are the `emitError`, `emitOpError`, `emitWarning`
and `emitRemark` calls, and the assignments to a `why` or `reason` string
(the reasons such calls report). A statement's message is its first run of
adjacent string literals with at least MIN_CHARS characters; all of it,
with whitespace collapsed, must occur in a lit test that runs
`-verify-diagnostics` (a file under a --tests folder) or in a unit test (a
`.cpp` file under a --unittests folder, its adjacent string literals joined),
whitespace collapsed as well. All of it, not a prefix: two messages that
begin alike (the same complaint about different operands) each need their
own test. A statement whose pieces are all shorter, or that builds its
message from variables alone, is not checked.

A diagnostic that no input can reach (an internal error kept so that a
broken invariant stops the pass rather than the process) carries a comment
`// untested: WHY` on its line or on one of the three lines before it.

Usage: lint_diagnostics.py --tests DIR [--unittests DIR] PATH...  (PATH:
files, or folders searched for *.cpp and *.h; --tests and --unittests may
repeat). Prints one line per untested
diagnostic and exits 1 if there is any.
"""

import argparse
import os
import re
import sys

# The C++ scanning helpers of the other source lint, beside this file.
from lint_argument_order import blank, sources

MIN_CHARS = 10
LITERAL = r'"(?:\\.|[^"\\\n])*"'
LITERAL_RUN = re.compile(r"(?:%s\s*)+" % LITERAL)
STATEMENT = re.compile(
    r"\b(?:emitError|emitOpError|emitWarning|emitRemark)\s*\(|"
    r"\b(?:why|reason)\s*=\s*\"")
MARKER = "// untested:"


def unescape(literal_run):
    text = "".join(l[1:-1] for l in re.findall(LITERAL, literal_run))
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(
        m.group(1), m.group(1)), text)


def collapse(text):
    return " ".join(text.split())


def corpus(test_dirs, unittest_dirs):
    """The text of the lit tests that run -verify-diagnostics and of the unit
    tests, whitespace collapsed."""
    texts = []
    for test_dir, unit in ([(d, False) for d in test_dirs] +
                           [(d, True) for d in unittest_dirs]):
        for root, dirs, files in os.walk(test_dir):
            for name in files:
                path = os.path.join(root, name)
                try:
                    with open(path, encoding="utf-8") as f:
                        text = f.read()
                except (UnicodeDecodeError, OSError):
                    continue
                if unit and name.endswith(".cpp"):
                    # "a message " "split over lines" is one message.
                    texts.append(collapse(re.sub(r'"\s*"', "", text)))
                elif not unit and "-verify-diagnostics" in text:
                    texts.append(collapse(text))
    return "\n".join(texts)


def pieces(path):
    """(line, message) for each statement of `path` whose message needs a
    test."""
    with open(path, encoding="utf-8") as f:
        source = f.read()
    lines = source.split("\n")
    # Comments blanked, literals kept: a statement ends at the first `;`
    # outside a literal.
    code = blank(source, r"(?s)/\*.*?\*/")
    code = blank(code, r"//[^\n]*")
    no_literals = blank(code, LITERAL)
    for match in STATEMENT.finditer(code):
        start = match.start()
        if no_literals[start] != code[start]:
            continue  # The name inside a string literal.
        end = no_literals.find(";", start)
        end = len(code) if end < 0 else end
        line = source.count("\n", 0, start) + 1
        if any(MARKER in lines[l - 1]
               for l in range(max(1, line - 3), line + 1)):
            continue
        for run in LITERAL_RUN.finditer(code, start, end):
            text = collapse(unescape(run.group(0)))
            if len(text) >= MIN_CHARS:
                yield source.count("\n", 0, run.start()) + 1, text
                break


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tests", action="append", required=True,
                        help="a folder of lit tests")
    parser.add_argument("--unittests", action="append", default=[],
                        help="a folder of unit tests")
    parser.add_argument("paths", nargs="+")
    args = parser.parse_args()
    tests = corpus(args.tests, args.unittests)
    untested = 0
    for path in sources(args.paths):
        for line, text in pieces(path):
            if text not in tests:
                untested += 1
                print(f"{path}:{line}: no -verify-diagnostics or unit test "
                      f"expects \"{text}\"")
    return 1 if untested else 0


if __name__ == "__main__":
    sys.exit(main())
