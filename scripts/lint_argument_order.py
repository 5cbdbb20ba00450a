#!/usr/bin/env python3
"""Finds calls that build IR in more than one argument.

C++ leaves the order in which a call's arguments are evaluated to the
compiler, so in

    arith::AddIOp::create(b, loc, arith::MulIOp::create(b, loc, x, c4),
                          arith::ConstantIndexOp::create(b, loc, 1));

the multiply and the constant are created in one order by g++ and in the
other by clang: the same tile-opt source emits differently ordered IR, and
lit tests written against one compiler fail with the other. Building each
operand in its own statement fixes the order.

This is a textual check, not a parser. An argument builds IR when it calls
`...::create(`, `create<...>(`, `createOrFold`, a function with an
OpBuilder-like variable of the file among its arguments, or a lambda of the
file whose body does either. Lambda arguments (callbacks, which the callee
runs) and the elements of a braced list (evaluated in order) do not count.

Usage: lint_argument_order.py PATH...  (files, or folders searched for
*.cpp and *.h). Prints one line per call and exits 1 if there is any.
"""

import os
import re
import sys

BUILDER_TYPES = (r"(?:OpBuilder|ImplicitLocOpBuilder|RewriterBase|IRRewriter|"
                 r"PatternRewriter|ConversionPatternRewriter)")
KEYWORDS = {"if", "for", "while", "switch", "return", "sizeof", "assert",
            "catch", "alignof", "decltype", "static_assert"}
CREATES = re.compile(r"::create\s*\(|\bcreate\s*<[^()]*>\s*\(|\bcreateOrFold\b")


def blank(text, pattern):
    """Replaces each match of `pattern` by spaces, keeping line numbers."""
    return re.sub(pattern, lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


def strip(source):
    source = blank(source, r"/\*.*?\*/")
    source = blank(source, r"//[^\n]*")
    source = blank(source, r"'(?:\\.|[^'\\\n])'")
    return blank(source, r'"(?:\\.|[^"\\\n])*"')


def balanced(text, start, open_char, close_char):
    """The index just past the bracket that closes the one at `start`."""
    depth = 0
    for i in range(start, len(text)):
        if text[i] == open_char:
            depth += 1
        elif text[i] == close_char:
            depth -= 1
            if depth == 0:
                return i + 1
    return len(text)


def split_arguments(text, start):
    """The top-level arguments of the call whose '(' is at `start`."""
    arguments, depth, begin = [], 0, start + 1
    for i in range(start, len(text)):
        c = text[i]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                arguments.append(text[begin:i])
                return arguments
        elif c == "," and depth == 1:
            arguments.append(text[begin:i])
            begin = i + 1
    return arguments


def check(path):
    text = strip(open(path, encoding="utf-8").read())
    builders = set(re.findall(BUILDER_TYPES + r"\s*&?\s*(\w+)\s*[(=,;)]", text))
    builder_call = (re.compile(r"\w+\s*\(\s*(?:%s)\s*[,)]" % "|".join(
        sorted(builders))) if builders else None)
    # Lambdas that build IR: a call to one builds too.
    lambdas = set()
    for m in re.finditer(r"\bauto\s+(\w+)\s*=\s*\[[^\]]*\]\s*\(", text):
        body_start = text.find("{", m.end())
        if body_start < 0:
            continue
        body = text[body_start:balanced(text, body_start, "{", "}")]
        if CREATES.search(body) or (builder_call and builder_call.search(body)):
            lambdas.add(m.group(1))
    lambda_call = (re.compile(r"\b(?:%s)\s*\(" % "|".join(sorted(lambdas)))
                   if lambdas else None)

    def builds(argument):
        if argument.lstrip().startswith("["):
            return False
        return bool(CREATES.search(argument) or
                    (builder_call and builder_call.search(argument)) or
                    (lambda_call and lambda_call.search(argument)))

    found = []
    for m in re.finditer(r"\b(\w+)\s*(?:<[\w:, ]*>)?\s*\(", text):
        if m.group(1) in KEYWORDS:
            continue
        arguments = split_arguments(text, m.end() - 1)
        count = sum(1 for a in arguments if builds(a))
        if count >= 2:
            line = text.count("\n", 0, m.start()) + 1
            found.append("%s:%d: %s(...) builds IR in %d arguments, whose "
                         "order of evaluation C++ leaves unspecified; build "
                         "them in named values first" %
                         (path, line, m.group(1), count))
    return found


def sources(paths):
    for path in paths:
        if os.path.isdir(path):
            for root, _, files in sorted(os.walk(path)):
                for name in sorted(files):
                    if name.endswith((".cpp", ".h")):
                        yield os.path.join(root, name)
        else:
            yield path


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    found = [line for path in sources(argv[1:]) for line in check(path)]
    for line in found:
        print(line)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
