"""Python access to the tile-mlir compiler.

A thin ctypes layer over the C API in ``include/tile-c/Compiler.h``
(``libTileCAPI.so``): no build of MLIR's own Python bindings is needed.

    import tile_mlir
    planned = tile_mlir.compile(source, "builtin.module(tile-pipeline-planning)")

The library is looked up in ``$TILE_MLIR_CAPI`` (a path to ``libTileCAPI.so``),
then in ``build/lib`` of the source tree this package sits in.
"""

from __future__ import annotations

import ctypes
import os
from pathlib import Path

__all__ = ["CompileError", "compile", "verify", "library_path"]


class CompileError(Exception):
    """Parsing, verification or a pass failed; ``diagnostics`` holds the
    compiler's messages as tile-opt prints them."""

    def __init__(self, diagnostics: str):
        super().__init__(diagnostics.strip() or "compilation failed")
        self.diagnostics = diagnostics


class _StringRef(ctypes.Structure):
    _fields_ = [("data", ctypes.c_char_p), ("length", ctypes.c_size_t)]


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


def _library():
    global _lib
    if _lib is None:
        path = library_path()
        if not path.exists():
            raise OSError(
                f"libTileCAPI.so not found at {path}: build tile-mlir "
                "(scripts/test.sh) or set TILE_MLIR_CAPI")
        _lib = ctypes.CDLL(str(path))
        _lib.tileCompile.argtypes = [_StringRef, _StringRef, _Callback,
                                     _Callback, ctypes.c_void_p]
        _lib.tileCompile.restype = _LogicalResult
    return _lib


def _ref(text: str) -> tuple[_StringRef, bytes]:
    data = text.encode()
    return _StringRef(data, len(data)), data


def compile(source: str, pipeline: str = "") -> str:
    """Parses ``source``, runs the textual pass ``pipeline`` (as
    ``tile-opt --pass-pipeline`` takes it) and returns the printed module.
    Raises CompileError with the diagnostics on failure."""
    output: list[bytes] = []
    diagnostics: list[bytes] = []
    on_output = _Callback(lambda s, _: output.append(ctypes.string_at(s.data, s.length)))
    on_diagnostic = _Callback(
        lambda s, _: diagnostics.append(ctypes.string_at(s.data, s.length)))
    src, _keep_src = _ref(source)
    pipe, _keep_pipe = _ref(pipeline)
    result = _library().tileCompile(src, pipe, on_output, on_diagnostic, None)
    if not result.value:
        raise CompileError(b"".join(diagnostics).decode())
    return b"".join(output).decode()


def verify(source: str) -> str:
    """Parses and verifies ``source``; returns it printed back."""
    return compile(source, "")
