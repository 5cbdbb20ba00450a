"""Writing tile kernels in Python, with TileLang's names.

    import tile_mlir.language as T

    @T.prim_func
    def matmul_auto(A: T.Tensor((4096, 4096), "float16"),
                    B: T.Tensor((4096, 4096), "float16"),
                    C: T.Tensor((4096, 4096), "float16")):
        with T.Kernel(T.ceildiv(4096, 128), T.ceildiv(4096, 128),
                      threads=128) as (bx, by):
            A_s = T.alloc_shared((128, 32), "float16")
            B_s = T.alloc_shared((32, 128), "float16")
            C_l = T.alloc_fragment((128, 128), "float32")
            T.clear(C_l)
            for k in T.Pipelined(T.ceildiv(4096, 32), num_stages=3):
                T.copy(A[by * 128, k * 32], A_s)
                T.copy(B[k * 32, bx * 128], B_s)
                T.gemm(A_s, B_s, C_l)
            T.copy(C_l, C[by * 128, bx * 128])

    print(matmul_auto)                       # the tile dialect, as text
    kernel = matmul_auto.compile_to_ptx(chip="sm_90a")

``T.prim_func`` runs the function once, at definition, with one tensor per
annotated parameter; every ``T.`` call made meanwhile appends its op to the
function, and arithmetic on block indices and loop variables appends index
arithmetic (``arith`` ops). A ``for`` over ``T.Pipelined`` or ``T.serial``
runs its body once, to build the loop's body. What the kernel means is the
tile dialect's (docs/dialect.md): this module only writes it, and the
compiler's verifiers check it, with each op's location set to the Python
line that made it, so diagnostics point there
(``matmul.py:14:17: error: 'tile.gemm' op ...``).

Tensor sizes are Python ints, or None for a size known only at run time
(``A.dim(d)`` reads it; one compiled kernel then serves every size).
"""

from __future__ import annotations

import inspect
import linecache
import re
import sys
import threading
from dataclasses import dataclass, field
from typing import Callable, Sequence, Union

import tile_mlir

__all__ = ["Buffer", "Expr", "Kernel", "Pipelined", "PrimFunc", "Tensor",
           "alloc_fragment", "alloc_shared", "ceildiv", "clear", "copy",
           "gemm", "prim_func", "serial", "bfloat16", "float16", "float32",
           "float64", "int8", "int16", "int32", "int64"]

float16, bfloat16 = "float16", "bfloat16"
float32, float64 = "float32", "float64"
int8, int16, int32, int64 = "int8", "int16", "int32", "int64"

# TileLang's dtype names, and the MLIR names, to MLIR element types.
_DTYPES = {
    "float16": "f16", "bfloat16": "bf16", "float32": "f32", "float64": "f64",
    "int8": "i8", "int16": "i16", "int32": "i32", "int64": "i64",
}
_DTYPES.update({mlir: mlir for mlir in list(_DTYPES.values())})

_SPACES = {"global": "", "shared": ", #gpu.address_space<workgroup>",
           "fragment": ", #gpu.address_space<private>"}


def _element_type(dtype: str) -> str:
    try:
        return _DTYPES[dtype]
    except (KeyError, TypeError):
        raise ValueError(f"unknown dtype {dtype!r}; one of "
                         f"{', '.join(sorted(_DTYPES))}") from None


# The range of MLIR's index and i64 values: what the generated text can
# hold as an integer.
_INT64_MIN, _INT64_MAX = -2**63, 2**63 - 1


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _int64(value: int, what: str) -> int:
    """`value`, checked to be a 64-bit integer (else the generated text
    would not parse, and the error would point at it, not at Python)."""
    if not _INT64_MIN <= value <= _INT64_MAX:
        raise ValueError(f"{what}: {value} does not fit in 64 bits")
    return value


def _shape(shape, what: str, dynamic: bool = False) -> tuple:
    """`shape` as a tuple of Python ints (and, where `dynamic`, None for a
    size known only at run time)."""
    if isinstance(shape, int) or shape is None:
        shape = (shape,)
    if not isinstance(shape, (tuple, list)) or not shape or not all(
            _is_int(d) or (dynamic and d is None) for d in shape):
        kinds = "Python ints or None" if dynamic else "Python ints"
        raise TypeError(f"{what}: the shape must be a non-empty tuple of "
                        f"{kinds}, got {shape!r}")
    for d in shape:
        # A memref's static size is 0 .. 2**63 - 2 (2**63 - 1 is its `?`).
        if d is not None and not 0 <= d < _INT64_MAX:
            raise ValueError(f"{what}: a size must be non-negative and below "
                             f"2**63 - 1, got {d} in {tuple(shape)!r}")
    return tuple(shape)


def _caller():
    """The frame of the innermost caller outside this module."""
    frame = sys._getframe(1)
    while frame is not None and frame.f_code.co_filename == __file__:
        frame = frame.f_back
    return frame


# What MLIR takes as an SSA value or symbol name without quotes.
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")

# The variables a line assigns: `A_s` in `A_s = T.alloc_shared(...)`,
# `row, col` in `row, col = by * bm, bx * bn`, and (group 1 set) `k` in
# `for k in T.Pipelined(...)`.
_ASSIGNMENT = re.compile(r"\s*(for\s+)?([A-Za-z_][A-Za-z0-9_]*"
                         r"(?:\s*,\s*[A-Za-z_][A-Za-z0-9_]*)*)"
                         r"\s*(?:=[^=]|in\s)")

# The targets of `with T.Kernel(...) as (bx, by):`, in the text that follows
# the call: ` as (bx, by):`, which may go on over the next lines.
_WITH_TARGETS = re.compile(
    r"\s*as\s*\(?\s*([A-Za-z_][A-Za-z0-9_,\s]*?)\s*\)?\s*:")

# How many lines after a call's end its `as` targets may reach.
_WITH_TARGET_LINES = 8


def _line_of(frame) -> tuple[str, int]:
    return frame.f_code.co_filename, frame.f_lineno


def _assigned(file: str, line: int, loops: bool) -> list[str]:
    """The variables that line `line` of `file` assigns (ASCII names only,
    as MLIR's), a `for` statement's among them only if `loops`."""
    match = _ASSIGNMENT.match(linecache.getline(file, line))
    if not match or (match.group(1) is not None and not loops):
        return []
    return [name.strip() for name in match.group(2).split(",")]


def _source_name(default: str) -> str:
    """The variable that the caller's line assigns to, to name the SSA value
    it makes (a tile, a loop variable) after it; else `default`."""
    frame = _caller()
    names = _assigned(*_line_of(frame), loops=True) if frame else []
    return names[0] if len(names) == 1 else default


def _call_end() -> tuple[str, int, int] | None:
    """Where the caller's current call ends: file, line and the column (in
    characters) after its closing parenthesis; None before Python 3.11."""
    frame = _caller()
    positions = getattr(inspect.getframeinfo(frame), "positions", None) \
        if frame else None
    if positions is None or positions.end_lineno is None or \
            positions.end_col_offset is None:
        return None
    file = frame.f_code.co_filename
    # Python counts the column in UTF-8 bytes.
    line = linecache.getline(file, positions.end_lineno).encode()
    return file, positions.end_lineno, \
        len(line[:positions.end_col_offset].decode(errors="replace"))


def _source_targets(call_end: tuple[str, int, int] | None,
                    defaults: list[str]) -> list[str]:
    """The names after `as` that follow the call ending at `call_end`
    (`with T.Kernel(...) as (bx, by):`, over one line or several), where
    there are as many as `defaults`; else `defaults`."""
    if call_end is None:
        return defaults
    file, line, column = call_end
    text = linecache.getline(file, line)[column:]
    for next_line in range(line + 1, line + 1 + _WITH_TARGET_LINES):
        if ":" in text:
            break
        text = text.rstrip().removesuffix("\\") + " " + \
            linecache.getline(file, next_line)
    match = _WITH_TARGETS.match(text)
    names = [n.strip() for n in match.group(1).split(",")] if match else []
    return names if len(names) == len(defaults) and all(names) else defaults


def _name_index_values(function: "_Function") -> None:
    """Renames the index values of `function` after the variables that hold
    them: on a line `row = by * bm + 1` the last value the line computed
    becomes %row; on `row, col = by * bm, bx * bn`, with one value per
    target, the values become %row and %col in order. That needs each value
    to be a target's own: none of them may use another (`row, col = by * 64
    + 1, bx` computes two values for `row` alone). Other values (a `for`
    line's bounds among them) keep their %i names."""
    renames = {}
    for (file, line), values in function.line_values.items():
        targets = _assigned(file, line, loops=False)
        independent = not any(operand in values for value in values
                              for operand in function.operands[value])
        if len(targets) == 1:
            renames[values[-1]] = function.fresh(targets[0])
        elif 1 < len(targets) == len(values) and independent:
            for value, target in zip(values, targets):
                renames[value] = function.fresh(target)
    if not renames:
        return
    pattern = re.compile("|".join(re.escape(old) + r"\b" for old in renames))
    function.body = [pattern.sub(lambda m: renames[m.group(0)], line)
                     for line in function.body]


def _location() -> str:
    """The location of the innermost caller outside this module, as an MLIR
    `loc(...)`: file, line and (1-based) column."""
    frame = _caller()
    if frame is None:
        return "loc(unknown)"
    # Columns come with Python 3.11's `positions`; before it, the line.
    positions = getattr(inspect.getframeinfo(frame), "positions", None)
    line = positions.lineno if positions and positions.lineno else \
        frame.f_lineno
    column = positions.col_offset + 1 if positions and \
        positions.col_offset is not None else 1
    name = frame.f_code.co_filename.replace("\\", "\\\\").replace('"', '\\"')
    return f'loc("{name}":{line}:{column})'


class _Function:
    """The text of the function being traced: constants first (every region
    of a kernel may use them, none is isolated from above), then the body,
    indented by nesting."""

    def __init__(self):
        self.constants: dict[int, str] = {}
        self.body: list[str] = []
        self.depth = 1
        self.used: set[str] = set()
        # The index values each source line computed, in order, to name
        # them after the variables the line assigns (name_index_values).
        self.line_values: dict[tuple[str, int], list[str]] = {}
        # The operands of each index value that arithmetic made.
        self.operands: dict[str, tuple[str, ...]] = {}
        # The regions (kernels, loops) being traced, outermost first: a
        # value made inside one is not defined once it has ended.
        self.open_regions: list["_Scope"] = []
        # Why the trace does not say what the Python said (a loop left by
        # `break`), found where prim_func cannot raise it at once.
        self.errors: list[str] = []

    def innermost_region(self) -> "_Scope | None":
        return self.open_regions[-1] if self.open_regions else None

    def check_defined(self, value: "Expr | Buffer", what: str) -> None:
        """Raises where `value` is used after the region that made it has
        ended (the generated text would not define it)."""
        region = value._region
        if region is not None and not any(
                region is open_region for open_region in self.open_regions):
            raise ValueError(f"{what}: {value} was made inside a T.Kernel or "
                             "a loop that has ended, and is not defined "
                             "here")

    def fresh(self, stem: str) -> str:
        """An SSA name not used yet: %stem, else %stem_1, %stem_2, ..."""
        name, count = f"%{stem}", 0
        while name in self.used:
            count += 1
            name = f"%{stem}_{count}"
        self.used.add(name)
        return name

    def note_line(self, value: str, operands: tuple[str, ...] = ()) -> None:
        """Records that the caller's line computed index value `value`
        from `operands` (_name_index_values)."""
        self.operands[value] = operands
        frame = _caller()
        if frame is not None:
            self.line_values.setdefault(_line_of(frame), []).append(value)

    def emit(self, text: str) -> None:
        self.body.append("  " * self.depth + text)

    def constant(self, value: int) -> str:
        if value not in self.constants:
            self.constants[value] = self.fresh(
                f"c{value}" if value >= 0 else f"c_neg{-value}")
        return self.constants[value]

    def index(self, value: "IndexLike", what: str) -> str:
        """The SSA name of an index operand."""
        if isinstance(value, Expr):
            if value._function is not self:
                raise ValueError(f"{what}: {value} belongs to another "
                                 "T.prim_func")
            self.check_defined(value, what)
            return value._name
        if _is_int(value):
            return self.constant(_int64(value, what))
        raise TypeError(f"{what}: expected a Python int or an index value "
                        f"of the kernel, got {value!r}")


_state = threading.local()


def _current(what: str) -> _Function:
    function = getattr(_state, "function", None)
    if function is None:
        raise RuntimeError(f"{what} is used outside a function decorated "
                           "with @T.prim_func")
    return function


class Expr:
    """An index value of the kernel being traced: a block index, a loop
    variable, or arithmetic on them. It has no Python value: `bool(e)` and
    `int(e)` are errors, since the function runs once, at definition."""

    def __init__(self, function: _Function, name: str,
                 nonnegative: bool = False):
        self._function = function
        self._name = name
        self._region = function.innermost_region()
        # Known to be >= 0: block indices, tensor sizes, loop variables
        # from a non-negative start, and sums, products and quotients of
        # them. Differences are not.
        self._nonnegative = nonnegative

    def __repr__(self) -> str:
        return f"<index {self._name}>"

    def _binary(self, op: str, lhs, rhs,
                nonnegative: bool = False) -> "Expr":
        function = _current(f"arith.{op}")
        a = function.index(lhs, f"arith.{op}")
        b = function.index(rhs, f"arith.{op}")
        result = function.fresh("i")
        function.emit(f"{result} = arith.{op} {a}, {b} : index {_location()}")
        function.note_line(result, (a, b))
        return Expr(function, result, nonnegative)

    def _closed(self, op: str, lhs, rhs) -> "Expr":
        """`op` (addi, muli), non-negative where both operands are."""
        return self._binary(op, lhs, rhs,
                            _nonnegative(lhs) and _nonnegative(rhs))

    @staticmethod
    def _check_divisor(lhs, op: str, rhs) -> None:
        """Refuses the divisor 0 at the call, as Python does: the division
        it would emit is undefined, and the compiler folds the code that
        depends on it away (the kernel compiles, and does nothing)."""
        if _is_int(rhs) and rhs == 0:
            raise ZeroDivisionError(f"{lhs} {op} 0: integer division or "
                                    "modulo by zero")

    # Python's floor division and modulo. Unsigned division and remainder
    # give them where both operands are known to be non-negative (what the
    # GPU passes' index analysis reads: block tiling, `b // 3` and `b % 3`);
    # else floor division is arith.floordivsi, and `a % b` is
    # `a - (a // b) * b`, with the divisor's sign as in Python.
    def _floordiv(self, lhs, rhs) -> "Expr":
        self._check_divisor(lhs, "//", rhs)
        if _nonnegative(lhs) and _nonnegative(rhs):
            return self._binary("divui", lhs, rhs, True)
        return self._binary("floordivsi", lhs, rhs)

    def _mod(self, lhs, rhs) -> "Expr":
        self._check_divisor(lhs, "%", rhs)
        if _nonnegative(lhs) and _nonnegative(rhs):
            return self._binary("remui", lhs, rhs, True)
        quotient = self._binary("floordivsi", lhs, rhs)
        return self._binary("subi", lhs, quotient._binary(
            "muli", quotient, rhs), _is_int(rhs) and rhs > 0)

    def __add__(self, other): return self._closed("addi", self, other)
    def __radd__(self, other): return self._closed("addi", other, self)
    def __sub__(self, other): return self._binary("subi", self, other)
    def __rsub__(self, other): return self._binary("subi", other, self)
    def __mul__(self, other): return self._closed("muli", self, other)
    def __rmul__(self, other): return self._closed("muli", other, self)
    def __floordiv__(self, other): return self._floordiv(self, other)
    def __rfloordiv__(self, other): return self._floordiv(other, self)
    def __mod__(self, other): return self._mod(self, other)
    def __rmod__(self, other): return self._mod(other, self)
    def __neg__(self): return self._binary("subi", 0, self)
    def __pos__(self): return self

    def _compare(self, other):
        raise TypeError(f"{self} cannot be compared: the kernel is traced "
                        "once, so Python control flow cannot depend on block "
                        "indices or loop variables")

    __eq__ = __ne__ = __lt__ = __le__ = __gt__ = __ge__ = _compare
    __hash__ = object.__hash__

    def __bool__(self):
        raise TypeError(f"{self} has no Python truth value: the kernel is "
                        "traced once, so Python control flow cannot depend "
                        "on block indices or loop variables")

    def __index__(self):
        raise TypeError(f"{self} has no Python integer value: the kernel is "
                        "traced once")

    __int__ = __index__


IndexLike = Union[int, Expr]


def _nonnegative(value: IndexLike) -> bool:
    """Whether `value` is known to be >= 0 (False for what is not an index,
    which Expr._binary then refuses)."""
    if isinstance(value, Expr):
        return value._nonnegative
    return _is_int(value) and value >= 0


def ceildiv(a: IndexLike, b: IndexLike) -> IndexLike:
    """``(a + b - 1) // b``: a Python int when both are, else
    ``arith.ceildivui`` where both are known to be non-negative and
    ``arith.ceildivsi`` where not. A Python int divisor must be positive."""
    # A Python int divisor below 1 is refused whether or not the dividend is
    # traced: by 0 the division emitted would be undefined, and the compiler
    # would fold the code that depends on it away.
    if isinstance(b, int) and b <= 0:
        raise ValueError(f"T.ceildiv({a}, {b}): the divisor must be "
                         "positive")
    if isinstance(a, int) and isinstance(b, int):
        return -(-a // b)
    traced = a if isinstance(a, Expr) else b
    if not isinstance(traced, Expr):
        raise TypeError(f"T.ceildiv({a!r}, {b!r}): expected Python ints or "
                        "index values of the kernel")
    if _nonnegative(a) and _nonnegative(b):
        return traced._binary("ceildivui", a, b, True)
    return traced._binary("ceildivsi", a, b)


@dataclass(frozen=True)
class Buffer:
    """A tensor (a parameter), a shared tile or a fragment. Indexing one,
    ``A[row, col]``, names the tile of a copy that starts there."""

    _function: _Function
    _name: str
    shape: tuple[int, ...]
    dtype: str
    scope: str
    # The region (a kernel, a loop) whose body made it; None for a
    # parameter.
    _region: "_Scope | None" = field(default=None, compare=False,
                                     repr=False)

    @property
    def _type(self) -> str:
        dims = "x".join("?" if d is None else str(d) for d in self.shape)
        element = _element_type(self.dtype)
        return f"memref<{dims}x{element}{_SPACES[self.scope]}>"

    def __getitem__(self, indices) -> "_Region":
        if not isinstance(indices, tuple):
            indices = (indices,)
        if any(isinstance(i, slice) for i in indices):
            raise TypeError(f"{self._name[1:]}[...]: give the first element "
                            "of the tile (A[row, col]), not slices; the "
                            "tile's shape is the other operand's")
        return _Region(self, tuple(indices))

    def dim(self, d: int) -> IndexLike:
        """The size of dimension `d`: a Python int where the shape says it,
        else the size at run time (``memref.dim``)."""
        if not isinstance(d, int) or not 0 <= d < len(self.shape):
            raise ValueError(f"{self._name[1:]}.dim({d!r}): the tensor has "
                             f"{len(self.shape)} dimensions")
        if self.shape[d] is not None:
            return self.shape[d]
        function = _current(f"{self._name[1:]}.dim")
        if self._function is not function:
            raise ValueError(f"{self._name[1:]}.dim: {self} belongs to "
                             "another T.prim_func")
        result = function.fresh("i")
        function.emit(f"{result} = memref.dim {self._name}, "
                      f"{function.constant(d)} : {self._type} {_location()}")
        function.note_line(result)
        return Expr(function, result, nonnegative=True)

    def __repr__(self) -> str:
        return f"<{self.scope} {self._name}: {self._type}>"


@dataclass(frozen=True)
class _Region:
    buffer: Buffer
    indices: tuple

    def __repr__(self) -> str:
        return f"<the tile of {self.buffer._name[1:]} at {self.indices}>"


@dataclass(frozen=True)
class Tensor:
    """A parameter's annotation: ``A: T.Tensor((M, K), "float16")``; the
    dtype is "float32" where not given, as in TileLang. A size
    None is known only at run time (``A.dim(0)`` in the kernel reads it):
    one compiled kernel then serves every size, and ``divisibility=D``
    promises that every such size is a multiple of D (tile.divisibility),
    which lets its copies use cp.async."""

    shape: tuple
    dtype: str = "float32"
    divisibility: int | None = None

    def __post_init__(self):
        object.__setattr__(self, "shape",
                           _shape(self.shape, "T.Tensor", dynamic=True))
        _element_type(self.dtype)
        # The launch description's `divisible` takes 1..2^30, as the
        # compiler checks.
        if self.divisibility is not None and (
                not _is_int(self.divisibility) or
                not 1 <= self.divisibility <= 2**30):
            raise ValueError("T.Tensor: divisibility must be an int in "
                             f"1..2**30, got {self.divisibility!r}")


class PrimFunc:
    """A traced function: its tile-dialect text, and the compiler on it."""

    def __init__(self, name: str, text: str):
        self.name = name
        self.text = text

    def __str__(self) -> str:
        return self.text

    def script(self) -> str:
        """The function as the tile dialect's text: one ``func.func``,
        which parses as a module that holds it."""
        return self.text

    def verify(self) -> str:
        """Parses and verifies the text (tile_mlir.verify)."""
        return tile_mlir.verify(self.text)

    def compile(self, pipeline: str = "") -> str:
        """Runs a textual pass pipeline on it (tile_mlir.compile)."""
        return tile_mlir.compile(self.text, pipeline)

    def compile_to_ptx(self, chip: str = "sm_90a", **options):
        """PTX and launch description (tile_mlir.compile_to_ptx)."""
        return tile_mlir.compile_to_ptx(self.text, chip, **options)


def prim_func(fn: Callable) -> PrimFunc:
    """Traces ``fn`` into a ``func.func`` of the same name whose arguments
    are its parameters, each annotated with a ``T.Tensor``; the parameter
    names become the tensors' names in the launch description."""
    location = _location()
    try:
        parameters = inspect.signature(fn, eval_str=True).parameters.values()
    except NameError as e:
        # Under `from __future__ import annotations` the annotations are
        # strings, evaluated here in the function's module: a shape named
        # by a local variable of an enclosing function is not found.
        raise TypeError(f"@T.prim_func {fn.__name__}: its annotations "
                        f"cannot be evaluated ({e}); with `from __future__ "
                        "import annotations` the shapes must be module-level "
                        "names or literals") from None
    if getattr(_state, "function", None) is not None:
        raise RuntimeError(f"@T.prim_func {fn.__name__} is defined while "
                           "another function is traced")
    function = _Function()
    tensors, arguments = [], []
    for p in parameters:
        if not isinstance(p.annotation, Tensor):
            raise TypeError(f"@T.prim_func {fn.__name__}: parameter "
                            f"'{p.name}' needs a T.Tensor(shape, dtype) "
                            "annotation")
        name = function.fresh(p.name if _NAME.fullmatch(p.name) else "arg")
        tensor = Buffer(function, name, p.annotation.shape,
                        p.annotation.dtype, "global")
        tensors.append(tensor)
        attributes = f'tile.name = "{p.name}"'
        if p.annotation.divisibility is not None:
            attributes += (f", tile.divisibility = "
                           f"{p.annotation.divisibility} : i64")
        # At the function's line, as every error about a parameter is.
        arguments.append(f"{name}: {tensor._type} {{{attributes}}} "
                         f"{location}")
    _state.function = function
    try:
        fn(*tensors)
    finally:
        _state.function = None
    if function.errors:
        raise RuntimeError(f"@T.prim_func {fn.__name__}: " +
                           "; ".join(function.errors))
    if function.open_regions:
        raise RuntimeError(f"@T.prim_func {fn.__name__}: a T.serial or "
                           "T.Pipelined loop begun in it was not finished "
                           "(its iterator was kept past the function)")
    _name_index_values(function)
    constants = [f"  {name} = arith.constant {value} : index"
                 for value, name in sorted(function.constants.items())]
    symbol = fn.__name__ if _NAME.fullmatch(fn.__name__) else \
        '"' + fn.__name__.replace("\\", "\\\\").replace('"', '\\"') + '"'
    lines = ([f"func.func @{symbol}({', '.join(arguments)}) {{"] +
             constants + function.body + ["  return", f"}} {location}", ""])
    return PrimFunc(fn.__name__, "\n".join(lines))


class _Scope:
    """Emits an op with a region: its header now, its closing brace (and
    the op's location) when the region's body has been traced."""

    def __init__(self, function: _Function, header: str, location: str):
        self.function = function
        self.location = location
        function.emit(header + " {")
        function.depth += 1
        function.open_regions.append(self)

    def close(self) -> None:
        if self.function.innermost_region() is not self:
            raise RuntimeError("T.serial/T.Pipelined loops and T.Kernel "
                               "blocks must end in the order they began "
                               "(innermost first), as nested Python "
                               "statements do")
        self.function.open_regions.pop()
        self.function.depth -= 1
        self.function.emit(f"}} {self.location}")


class Kernel:
    """``with T.Kernel(gx, gy, threads=128) as (bx, by):`` a grid of 1 to 3
    dimensions; the body runs once per block (``tile.kernel``). One grid
    size gives one block index, more give a tuple."""

    def __init__(self, *grid: IndexLike, threads: int = 128):
        self.function = _current("T.Kernel")
        self.grid = [self.function.index(g, "T.Kernel grid size")
                     for g in grid]
        if not _is_int(threads):
            raise TypeError(f"T.Kernel: threads must be a Python int, got "
                            f"{threads!r}")
        self.threads = _int64(threads, "T.Kernel threads")
        self.location = _location()
        self.call_end = _call_end()
        self.scope = None

    def __enter__(self):
        defaults = ["bx", "by", "bz", "b"][:len(self.grid)]
        defaults += ["b"] * (len(self.grid) - len(defaults))
        names = [self.function.fresh(n)
                 for n in _source_targets(self.call_end, defaults)]
        self.scope = _Scope(
            self.function,
            f"tile.kernel grid({', '.join(self.grid)}) threads({self.threads})"
            f" as ({', '.join(names)})", self.location)
        indices = tuple(Expr(self.function, n, nonnegative=True)
                        for n in names)
        return indices[0] if len(indices) == 1 else indices

    def __exit__(self, *exc) -> bool:
        self.scope.close()
        return False


def _range(what: str, bounds: Sequence[IndexLike]):
    if not 1 <= len(bounds) <= 3:
        raise TypeError(f"{what} takes 1 to 3 bounds, as range does, got "
                        f"{len(bounds)}")
    lower, upper, step = ((0, bounds[0], 1) if len(bounds) == 1 else
                          (bounds[0], bounds[1],
                           bounds[2] if len(bounds) == 3 else 1))
    # scf.for and tile.pipelined count upward: range(2, -1, -1) would run
    # no step at all, silently.
    if _is_int(step) and step <= 0:
        raise ValueError(f"{what}: the step must be positive, got {step}: "
                         "loops count upward (for a downward loop, count "
                         "i upward and use n - 1 - i)")
    function = _current(what)
    names = [function.index(v, what) for v in (lower, upper, step)]
    # The loop variable is never below its start.
    return function, names, _nonnegative(lower)


def _int_list(name: str, values) -> str:
    if not isinstance(values, (list, tuple)) or not all(
            _is_int(v) for v in values):
        raise TypeError(f"T.Pipelined: {name} must be a list of Python ints, "
                        f"got {values!r}")
    for v in values:
        _int64(v, f"T.Pipelined {name}")
    return f" {name} = [{', '.join(str(v) for v in values)}]"


def Pipelined(start: IndexLike, stop: IndexLike | None = None,
              num_stages: int | None = None,
              order: Sequence[int] | None = None,
              stage: Sequence[int] | None = None, *,
              step: IndexLike = 1) -> "_Loop":
    """``for k in T.Pipelined(n, num_stages=3):`` a reduction loop that the
    compiler software-pipelines (``tile.pipelined``): ``num_stages`` alone
    lets tile-pipeline-planning schedule it, ``stage`` (and ``order``) give
    one entry per statement of the body by hand. The loop runs over
    ``range(start)``, or ``range(start, stop, step)``. The arguments are
    TileLang's, in its order: ``T.Pipelined(0, n, 3)`` is 3 stages, and a
    step is given only by name."""
    bounds = (0, start, step) if stop is None else (start, stop, step)
    _range("T.Pipelined", bounds)
    attributes = ""
    if num_stages is not None:
        if not _is_int(num_stages):
            raise TypeError("T.Pipelined: num_stages must be a Python int, "
                            f"got {num_stages!r}")
        _int64(num_stages, "T.Pipelined num_stages")
        attributes += f" num_stages = {num_stages}"
    if stage is not None:
        attributes += _int_list("stage", stage)
    if order is not None:
        attributes += _int_list("order", order)
    return _Loop("T.Pipelined", bounds, lambda lower, upper, step, k: (
        f"tile.pipelined {lower} to {upper} step {step}{attributes} "
        f"as ({k})"))


def serial(*bounds: IndexLike) -> "_Loop":
    """``for k in T.serial(n):`` a plain loop (``scf.for``). Bounds as for
    range."""
    _range("T.serial", bounds)
    return _Loop("T.serial", bounds, lambda lower, upper, step, k: (
        f"scf.for {k} = {lower} to {upper} step {step}"))


class _Loop:
    """What T.serial and T.Pipelined return: like a range, each `for` over
    it is a loop of its own (the bounds checked again where it starts)."""

    def __init__(self, what: str, bounds: Sequence[IndexLike],
                 header: Callable[[str, str, str, str], str]):
        self.what = what
        self.bounds = bounds
        self.header = header

    def __iter__(self) -> "_LoopTrace":
        return _LoopTrace(self)


class _LoopTrace:
    """One `for` over a _Loop: the first next() opens the loop (the `for`
    statement calls it, so the caller's line is `for k in ...`, which names
    the loop variable and locates the loop) and gives its variable; the
    second, once the body has been traced, closes it. The body is traced
    once and stands for every iteration, so a `for` left early (`break`,
    `return`) would trace a loop that runs every iteration: an error."""

    def __init__(self, loop: _Loop):
        self.loop = loop
        self.scope: _Scope | None = None
        self.done = False

    def __iter__(self) -> "_LoopTrace":
        return self

    def __next__(self) -> Expr:
        if self.done:
            raise StopIteration
        if self.scope is None:
            function, (lower, upper, step), nonnegative = _range(
                self.loop.what, self.loop.bounds)
            variable = function.fresh(_source_name("k"))
            self.scope = _Scope(function,
                                self.loop.header(lower, upper, step, variable),
                                _location())
            return Expr(function, variable, nonnegative)
        self.done = True
        self.scope.close()
        raise StopIteration

    def __del__(self) -> None:
        # A `for` left during its body drops its iterator here (CPython
        # frees it at once); exceptions raised here would be lost.
        if self.scope is None or self.done:
            return
        self.done = True
        function = self.scope.function
        where = re.sub(r'^loc\("(.*)":(\d+):\d+\)$', r"\1:\2",
                       self.scope.location)
        function.errors.append(
            f"the {self.loop.what} loop at {where} was left during its body "
            "(break, return or an exception): its body is traced once for "
            "all iterations, so the loop cannot end early (give it the "
            "bounds of the iterations it should run)")
        if function.innermost_region() is self.scope:
            self.scope.close()


def _alloc(op: str, scope: str, shape, dtype: str) -> Buffer:
    function = _current(f"T.{op}")
    shape = _shape(shape, f"T.{op}")
    _element_type(dtype)
    name = function.fresh(_source_name(
        "shared" if scope == "shared" else "frag"))
    buffer = Buffer(function, name, shape, dtype, scope,
                    function.innermost_region())
    function.emit(f"{buffer._name} = tile.{op} : {buffer._type} "
                  f"{_location()}")
    return buffer


def alloc_shared(shape, dtype: str) -> Buffer:
    """A tile in shared memory (``tile.alloc_shared``)."""
    return _alloc("alloc_shared", "shared", shape, dtype)


def alloc_fragment(shape, dtype: str) -> Buffer:
    """A tile spread over the block's registers (``tile.alloc_fragment``)."""
    return _alloc("alloc_fragment", "fragment", shape, dtype)


def _buffer(function: _Function, value, what: str) -> Buffer:
    if not isinstance(value, Buffer):
        raise TypeError(f"{what}: expected a tensor or a tile, got {value!r}")
    if value._function is not function:
        raise ValueError(f"{what}: {value} belongs to another T.prim_func")
    function.check_defined(value, what)
    return value


def clear(buffer: Buffer) -> None:
    """Zeroes a tile (``tile.clear``)."""
    function = _current("T.clear")
    buffer = _buffer(function, buffer, "T.clear")
    function.emit(f"tile.clear {buffer._name} : {buffer._type} {_location()}")


def _operand(function: _Function, value, what: str) -> tuple[str, Buffer]:
    """`%A[%i, %j]` (or `%A`) and the buffer of a copy's operand."""
    buffer = _buffer(function, value.buffer if isinstance(value, _Region)
                     else value, what)
    if isinstance(value, _Region):
        indices = [function.index(i, what) for i in value.indices]
        return f"{buffer._name}[{', '.join(indices)}]", buffer
    return buffer._name, buffer


def copy(source, dest) -> None:
    """Copies a tile (``tile.copy``): ``T.copy(A[row, col], A_s)`` reads
    the tile of A that starts at (row, col), as large as A_s; elements past
    A's edge read as zero, and a copy into a tensor writes none past its
    edge."""
    function = _current("T.copy")
    src, src_buffer = _operand(function, source, "T.copy source")
    dst, dst_buffer = _operand(function, dest, "T.copy destination")
    function.emit(f"tile.copy {src} to {dst} : {src_buffer._type} to "
                  f"{dst_buffer._type} {_location()}")


def gemm(A: Buffer, B: Buffer, C: Buffer, transpose_A: bool = False,
         transpose_B: bool = False) -> None:
    """``C += op(A) * op(B)`` on tiles (``tile.gemm``), ``op`` transposing
    under ``transpose_A`` / ``transpose_B``."""
    function = _current("T.gemm")
    a, b, c = (_buffer(function, x, f"T.gemm operand {n}")
               for x, n in ((A, "A"), (B, "B"), (C, "C")))
    flags = (" transpose_a" if transpose_A else "") + \
        (" transpose_b" if transpose_B else "")
    function.emit(f"tile.gemm {a._name}, {b._name}, {c._name}{flags} : "
                  f"{a._type}, {b._type}, {c._type} {_location()}")
