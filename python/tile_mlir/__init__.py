"""Python access to the tile-mlir compiler.

A thin ctypes layer over the C API in ``include/tile-c/Compiler.h``
(``libTileCAPI.so``): no build of MLIR's own Python bindings is needed.

    import tile_mlir
    planned = tile_mlir.compile(source, "builtin.module(tile-pipeline-planning)")
    kernel = tile_mlir.compile_to_ptx(source, chip="sm_90a", tma=True)
    kernel.write("out", "gemm")   # out/gemm.ptx + out/gemm.launch for tile-run

A failure raises CompileError; the warnings and remarks of a compilation
that succeeds are issued as CompileWarning (Python's ``warnings``), and a
Kernel keeps them in ``diagnostics``.

Kernels can also be written in Python with TileLang's names
(``tile_mlir.language``, ``import tile_mlir.language as T``).

The library is looked up in ``$TILE_MLIR_CAPI`` (a path to ``libTileCAPI.so``),
then in ``build/lib`` of the source tree this package sits in.
"""

from __future__ import annotations

import ctypes
import os
import sys
import threading
import warnings
from dataclasses import dataclass
from pathlib import Path

__all__ = ["CompileError", "CompileWarning", "Kernel", "compile",
           "compile_to_ptx", "emit_launch", "emit_ptx", "library_path",
           "parse_launch", "verify"]


class CompileError(Exception):
    """Parsing, verification or a pass failed; ``diagnostics`` holds the
    compiler's messages as tile-opt prints them."""

    def __init__(self, diagnostics: str):
        super().__init__(diagnostics.strip() or "compilation failed")
        self.diagnostics = diagnostics


class CompileWarning(UserWarning):
    """A warning or remark of a compilation that succeeded (a copy that
    stays cp.async under ``tma=True``, registers that will spill, a
    ``num_stages`` with nothing to overlap): the message is one diagnostic,
    with its notes, as tile-opt prints it. ``warnings.simplefilter("error",
    CompileWarning)`` makes them errors."""


class _StringRef(ctypes.Structure):
    # c_void_p, not c_char_p: the C API's strings are not NUL-terminated, and
    # ctypes would read a c_char_p field only up to the first NUL.
    _fields_ = [("data", ctypes.c_void_p), ("length", ctypes.c_size_t)]


class _LogicalResult(ctypes.Structure):
    _fields_ = [("value", ctypes.c_int8)]


_Callback = ctypes.CFUNCTYPE(None, _StringRef, ctypes.c_void_p)


def library_path() -> Path:
    """Where libTileCAPI.so is loaded from."""
    explicit = os.environ.get("TILE_MLIR_CAPI")
    if explicit:
        return Path(explicit)
    root = Path(__file__).resolve().parents[2]
    return root / "build" / "lib" / "libTileCAPI.so"


_lib = None
_lib_lock = threading.Lock()


def _library():
    global _lib
    with _lib_lock:
        if _lib is None:
            path = library_path()
            if not path.exists():
                raise OSError(
                    f"libTileCAPI.so not found at {path}: build tile-mlir "
                    "(scripts/test.sh) or set TILE_MLIR_CAPI")
            # An absolute path: dlopen looks a bare or relative name up in
            # the system's library path, not in the current directory.
            lib = ctypes.CDLL(str(path.resolve()))
            lib.tileCompile.argtypes = [_StringRef, _StringRef, _Callback,
                                        _Callback, ctypes.c_void_p]
            lib.tileCompile.restype = _LogicalResult
            for emit in (lib.tileEmitPTX, lib.tileEmitLaunch):
                emit.argtypes = [_StringRef, _Callback, _Callback,
                                 ctypes.c_void_p]
                emit.restype = _LogicalResult
            # Published only once configured: another thread must not call
            # it with ctypes' default argument conversions.
            _lib = lib
        return _lib


def _ref(text: str) -> tuple[_StringRef, bytes]:
    if not isinstance(text, str):
        raise TypeError(f"expected a str, got {type(text).__name__}")
    data = text.encode()
    return _StringRef(ctypes.cast(data, ctypes.c_void_p), len(data)), data


_PACKAGE = os.path.dirname(__file__)


def _warn(diagnostics: tuple[str, ...]) -> None:
    """Issues each of ``diagnostics`` as a CompileWarning at the innermost
    call from outside this package (the user's, not compile_to_ptx's or a
    PrimFunc method's)."""
    # stacklevel 1 is this function.
    level, frame = 1, sys._getframe()
    while frame is not None and \
            os.path.dirname(frame.f_code.co_filename) == _PACKAGE:
        level, frame = level + 1, frame.f_back
    for diagnostic in diagnostics:
        warnings.warn(diagnostic, CompileWarning, stacklevel=level)


def _call(function, *texts: str) -> tuple[str, tuple[str, ...]]:
    """Calls a C API function that takes ``texts`` and hands its result and
    diagnostics to two callbacks (one call per diagnostic, its notes
    included). Returns the result and the diagnostics, one string each,
    having issued them as CompileWarnings; raises CompileError on failure."""
    output: list[bytes] = []
    diagnostics: list[bytes] = []
    on_output = _Callback(lambda s, _: output.append(ctypes.string_at(s.data, s.length)))
    on_diagnostic = _Callback(
        lambda s, _: diagnostics.append(ctypes.string_at(s.data, s.length)))
    refs = [_ref(text) for text in texts]  # keeps the bytes alive
    result = function(*(ref for ref, _ in refs), on_output, on_diagnostic, None)
    # Diagnostics quote the source's bytes, which need not be UTF-8 where a
    # message cuts a character or names a symbol like @"\FF".
    messages = tuple(
        diagnostic.decode("utf-8", errors="backslashreplace").rstrip("\n")
        for diagnostic in diagnostics)
    if not result.value:
        raise CompileError("".join(message + "\n" for message in messages))
    _warn(messages)
    return (b"".join(output).decode("utf-8", errors="backslashreplace"),
            messages)


def compile(source: str, pipeline: str = "") -> str:
    """Parses ``source``, runs the textual pass ``pipeline`` (anchored, as
    ``tile-opt --pass-pipeline`` takes it: ``builtin.module(...)``) and
    returns the printed module. Raises CompileError with the diagnostics on
    failure, and issues the warnings and remarks of a success as
    CompileWarnings."""
    return _call(_library().tileCompile, source, pipeline)[0]


def verify(source: str) -> str:
    """Parses and verifies ``source``; returns it printed back. Diagnostics
    as compile's."""
    return compile(source, "")


def emit_ptx(module: str) -> str:
    """The PTX of ``module``, the output of the tile-to-ptx pipeline (what
    ``tile-translate --tile-emit-ptx`` writes)."""
    return _call(_library().tileEmitPTX, module)[0]


def emit_launch(module: str) -> str:
    """The launch description of ``module``, the output of the tile-to-ptx
    pipeline (what ``tile-translate --tile-emit-launch`` writes and tile-run
    reads next to the PTX)."""
    return _call(_library().tileEmitLaunch, module)[0]


def _option(name: str, value) -> str:
    if isinstance(value, bool):
        value = "true" if value else "false"
    text = str(value)
    # The value goes into a textual pipeline, where a space, a comma or a
    # brace would start another option or end the pipeline's.
    if not text or any(c in text for c in " \t\n,{}'\"="):
        raise ValueError(f"option {name}={value!r}: not a single value")
    return f"{name.replace('_', '-')}={text}"


def compile_to_ptx(source: str, chip: str = "sm_90a", **options) -> "Kernel":
    """Compiles the tile kernels of ``source`` for ``chip`` with the
    tile-to-ptx pipeline. Keyword options are the pipeline's
    (``tile-opt --tile-to-ptx`` documents them), with ``_`` for ``-``:
    ``tma=True``, ``persistent_blocks=132``, ``cluster=4, cluster_cols=2``.
    The shared-memory table is not printed (``print_budget=True`` prints it
    on stderr, as tile-opt does); an over-budget kernel is still a
    CompileError. The pipeline's warnings and remarks are issued as
    CompileWarnings and kept in the Kernel's ``diagnostics``.
    """
    options.setdefault("print_budget", False)
    settings = " ".join([_option("chip", chip)] +
                        [_option(name, value) for name, value in options.items()])
    lib = _library()
    module, diagnostics = _call(
        lib.tileCompile, source, f"builtin.module(tile-to-ptx{{{settings}}})")
    if "gpu.binary" not in module:
        # emit_ptx would say to run tile-to-ptx, which just ran.
        raise CompileError("the source has no tile.kernel: there is no PTX "
                           "to write")
    ptx, ptx_diagnostics = _call(lib.tileEmitPTX, module)
    launch, launch_diagnostics = _call(lib.tileEmitLaunch, module)
    return Kernel(ptx=ptx, launch=launch,
                  diagnostics=diagnostics + ptx_diagnostics +
                  launch_diagnostics)


def _count(text: str, least: int) -> int:
    """``text`` as tile-run reads a count: decimal digits (no sign, no '_'),
    at least ``least``."""
    if not text.isascii() or not text.isdigit() or int(text) < least:
        raise ValueError(f"'{text}' is not an integer of at least {least}")
    return int(text)


# CUDA's limits, as tile-run checks them (include/tile/Runtime/LaunchDesc.h):
# blocks of a grid and threads of a block in x, y and z, threads of a block
# in all, and the largest cluster every sm_90 GPU runs.
_MAX_EXTENTS = {"grid": (2**31 - 1, 65535, 65535), "block": (1024, 1024, 64),
                "cluster": (8, 8, 8)}
_MAX_PRODUCT = {"block": (1024, "threads"), "cluster": (8, "blocks")}


def _check_extents(key: str, extents: tuple) -> None:
    """Refuses what tile-run refuses of a grid, block or cluster line's
    ``extents`` (None: a grid extent known at run time)."""
    for axis, (extent, most) in enumerate(zip(extents, _MAX_EXTENTS[key])):
        if extent is not None and extent > most:
            raise ValueError(f"'{key}' extent {extent} in {'xyz'[axis]} is "
                             f"above CUDA's limit of {most}")
    if key in _MAX_PRODUCT:
        most, what = _MAX_PRODUCT[key]
        product = 1
        for extent in extents:
            product *= extent
        if product > most:
            raise ValueError(f"'{key}' of {product} {what} is above "
                             f"CUDA's limit of {most}")


def _read_launch_line(launch: dict, key: str, fields: list[str]) -> None:
    """Adds one line of a launch description (``key`` and the words after
    it) to ``launch``."""
    # The field counts and values tile-run accepts (lib/Runtime/LaunchDesc.cpp).
    if key in launch and key not in ("args", "tensormaps"):
        raise ValueError(f"a second '{key}' line")
    if key in ("kernel", "chip"):
        if len(fields) != 1:
            raise ValueError(f"expected '{key} <name>'")
        launch[key] = fields[0]
    elif key in ("grid", "block", "cluster"):
        counts = (3,) if key == "cluster" else (1, 2, 3)
        if len(fields) not in counts:
            raise ValueError(f"expected {' or '.join(map(str, counts))} "
                             f"extents, got {len(fields)}")
        # "?": a grid extent computed at run time from grid_expr.
        extents = tuple(None if f == "?" and key == "grid" else
                        _count(f, 1) for f in fields)
        _check_extents(key, extents)
        launch[key] = extents
    elif key == "shared_bytes":
        if len(fields) != 1:
            raise ValueError("expected 'shared_bytes <bytes>'")
        launch[key] = _count(fields[0], 0)
        if launch[key] > 0xFFFFFFFF:
            raise ValueError(f"'shared_bytes' value {launch[key]} does not fit "
                             "the driver's 32-bit size")
    elif key == "gemm_transpose":
        if len(fields) != 2 or any(f not in ("0", "1") for f in fields):
            raise ValueError("expected 'gemm_transpose <0|1> <0|1>'")
        launch[key] = tuple(f == "1" for f in fields)
    elif key == "grid_expr":
        launch[key] = fields
    elif key == "arg":
        if len(fields) != 3 and not (len(fields) == 5 and
                                     fields[3] == "divisible"):
            raise ValueError("expected 'arg <name> <dtype> <d0>x<d1>... "
                             "[divisible <n>]'")
        name, dtype, shape = fields[:3]
        if any(arg["name"] == name for arg in launch["args"]):
            raise ValueError(f"a second arg '{name}'")
        arg = {"name": name, "dtype": dtype,
               "shape": tuple(None if d == "?" else _count(d, 1)
                              for d in shape.split("x"))}
        if len(fields) == 5:
            arg["divisible"] = _count(fields[4], 1)
        launch["args"].append(arg)
    elif key == "tensormap":
        if len(fields) != 4:
            raise ValueError("expected 'tensormap <arg> <rows>x<cols> "
                             "swizzle <kind>'")
        arg, box, word, swizzle = fields
        if word != "swizzle" or swizzle not in ("none", "32", "64", "128"):
            raise ValueError("expected 'tensormap <arg> <rows>x<cols> "
                             "swizzle <none|32|64|128>'")
        rows_cols = box.split("x")
        if len(rows_cols) != 2:
            raise ValueError(f"box '{box}' is not <rows>x<cols>")
        launch["tensormaps"].append({
            "arg": arg, "box": tuple(_count(d, 1) for d in rows_cols),
            "swizzle": swizzle})
    else:
        warnings.warn(f"unknown launch description key {key!r} ignored",
                      stacklevel=3)


def parse_launch(text: str) -> list[dict]:
    """Reads launch descriptions (the ``.launch`` format of
    ``include/tile/Conversion/TileToNVGPU/LaunchInfo.h``), one dict per
    kernel launch: ``kernel``, ``chip``, ``grid``, ``block``,
    ``shared_bytes``, ``args`` (name, dtype, shape, and ``divisible`` where
    given), ``tensormaps`` (arg, box, swizzle), ``grid_expr``, and where
    present ``gemm_transpose`` and ``cluster``. An extent known only at run
    time (``?``) is None. As in tile-run, ``#`` starts a comment, words are
    separated by any white space, blank lines do not count, a line with an
    unknown key is ignored with a warning (a newer compiler's), and a
    repeated line is an error. Each ``kernel`` line after the first starts
    the next launch (the compiler writes them one after another, a blank
    line in between; tile-run takes a file of one)."""
    launches: list[dict] = []
    launch: dict = {"args": [], "tensormaps": []}
    for number, raw in enumerate(text.split("\n"), 1):
        line = raw.partition("#")[0]
        words = line.split()
        if not words:
            continue
        key = words[0]
        if key == "kernel" and "kernel" in launch:
            launches.append(launch)
            launch = {"args": [], "tensormaps": []}
        try:
            _read_launch_line(launch, key, words[1:])
        except ValueError as e:
            raise ValueError(f"launch description line {number}: cannot "
                             f"read {line.strip()!r} ({e})") from None
    if len(launch) > 2 or launch["args"] or launch["tensormaps"]:
        launches.append(launch)
    return launches


@dataclass(frozen=True)
class Kernel:
    """A compiled module's two files, as tile-run loads them: the PTX and
    the launch description; and the compiler's warnings and remarks on it,
    one string each, as the CompileWarnings that compile_to_ptx issued say
    them."""

    ptx: str
    launch: str
    diagnostics: tuple[str, ...] = ()

    @property
    def info(self) -> dict:
        """The launch description of the module's one kernel launch
        (parse_launch)."""
        launches = parse_launch(self.launch)
        if len(launches) != 1:
            raise ValueError(f"the module launches {len(launches)} kernels")
        return launches[0]

    def write(self, directory, name: str) -> tuple[Path, Path]:
        """Writes ``directory/name.ptx`` and ``directory/name.launch``
        (``tile-run --ptx directory/name.ptx`` finds the second)."""
        directory = Path(directory)
        directory.mkdir(parents=True, exist_ok=True)
        ptx = directory / f"{name}.ptx"
        launch = directory / f"{name}.launch"
        ptx.write_text(self.ptx)
        launch.write_text(self.launch)
        return ptx, launch
