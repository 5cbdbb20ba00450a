# tile_mlir.language: the compiler's diagnostics point at the Python line
# that made the op, and misuse of the module itself raises a Python error
# that says what is wrong.
# RUN: %tile_python %s 2>&1 | FileCheck %s

import tile_mlir
import tile_mlir.language as T


def report(thunk):
    try:
        thunk()
        print("no error")
    except tile_mlir.CompileError as e:
        print(e.diagnostics.strip())
    except (TypeError, ValueError, RuntimeError, ZeroDivisionError) as e:
        print(f"{type(e).__name__}: {e}")


@T.prim_func
def bad_gemm(A: T.Tensor((64, 64), "float16")):
    with T.Kernel(1, threads=128) as bx:
        A_s = T.alloc_shared((64, 32), "float16")
        C_l = T.alloc_fragment((64, 64), "float32")
        T.copy(A[0, bx], A_s)
        # A_s is 64x32, so A_s * A_s has no K that agrees.
        T.gemm(A_s, A_s, C_l)


# The verifier's error is at the T.gemm call: this file, its line, column 9.
# CHECK: language-errors.py:[[@LINE-4]]:9: error: 'tile.gemm' op
report(bad_gemm.verify)


@T.prim_func
def outside(A: T.Tensor((64, 64), "float16")):
    A_s = T.alloc_shared((64, 64), "float16")
    T.copy(A, A_s)


# A tile op outside a kernel: the verifier says so at the op's line.
# CHECK: language-errors.py:[[@LINE-5]]:11: error: 'tile.alloc_shared' op
report(outside.verify)

@T.prim_func
def empty_tensor(A: T.Tensor((0, 64), "float16")):
    with T.Kernel(1, threads=128) as bx:
        A_s = T.alloc_shared((16, 64), "float16")
        T.copy(A, A_s)


# An error about a parameter is at the function's decorator line, not in the
# module text the package writes.
# CHECK: language-errors.py:[[@LINE-9]]:2: error: kernel argument #0 ('memref<0x64xf16>') has a dimension of size 0
report(lambda: empty_tensor.compile_to_ptx(chip="sm_90"))

# Misuse of the module: what, and where it is allowed.
# CHECK: RuntimeError: T.copy is used outside a function decorated with @T.prim_func
report(lambda: T.copy(None, None))


def unannotated(A):
    pass


# CHECK: TypeError: @T.prim_func unannotated: parameter 'A' needs a T.Tensor(shape, dtype) annotation
report(lambda: T.prim_func(unannotated))
# CHECK: ValueError: unknown dtype 'float17'; one of
report(lambda: T.Tensor((4, 4), "float17"))
# CHECK: TypeError: T.Tensor: the shape must be a non-empty tuple of Python ints or None, got (4, 4.0)
report(lambda: T.Tensor((4, 4.0), "float16"))
# CHECK: ValueError: T.ceildiv(4, 0): the divisor must be positive
report(lambda: T.ceildiv(4, 0))
# Numbers that the tile dialect's text cannot hold are Python errors, at the
# Python call, not parse errors in the generated text.
# CHECK: ValueError: T.Tensor: a size must be non-negative and below 2**63 - 1, got -4 in (-4, 4)
report(lambda: T.Tensor((-4, 4), "float16"))
# CHECK: ValueError: T.Tensor: a size must be non-negative and below 2**63 - 1, got 9223372036854775807 in (4, 9223372036854775807)
report(lambda: T.Tensor((4, 2**63 - 1), "float16"))
# CHECK: ValueError: T.Tensor: divisibility must be an int in 1..2**30, got 9223372036854775808
report(lambda: T.Tensor((None, 4), "float16", divisibility=2**63))


def traced(body):
    """Traces `body(A, bx)` inside a one-block kernel."""
    def fn(A: T.Tensor((64, 64), "float16")):
        with T.Kernel(1, threads=128) as bx:
            body(A, bx)
    return lambda: T.prim_func(fn)


# Python control flow on traced values would run once, with a made-up value.
# CHECK: TypeError: <index %bx> has no Python truth value: the kernel is traced once
report(traced(lambda A, bx: bool(bx)))
# CHECK: TypeError: <index %bx> cannot be compared
report(traced(lambda A, bx: bx == 0))
# CHECK: TypeError: <index %bx> has no Python integer value
report(traced(lambda A, bx: range(bx)))
# CHECK: TypeError: A[...]: give the first element of the tile (A[row, col]), not slices
report(traced(lambda A, bx: A[0:32, 0]))
# CHECK: TypeError: arith.muli: expected a Python int or an index value of the kernel, got 2.5
report(traced(lambda A, bx: bx * 2.5))
# CHECK: TypeError: T.serial takes 1 to 3 bounds, as range does, got 4
report(traced(lambda A, bx: T.serial(0, 1, 2, 3)))
# TileLang's order: the fourth argument of T.Pipelined is `order`.
# CHECK: TypeError: T.Pipelined: order must be a list of Python ints, got 3
report(traced(lambda A, bx: T.Pipelined(0, 1, 2, 3)))
# Loops count upward: a step of 0 or less would run no step at all.
# CHECK: ValueError: T.serial: the step must be positive, got -1: loops count upward (for a downward loop, count i upward and use n - 1 - i)
report(traced(lambda A, bx: T.serial(2, -1, -1)))
# CHECK: ValueError: T.serial: the step must be positive, got 0
report(traced(lambda A, bx: T.serial(0, 4, 0)))
# CHECK: ValueError: T.Pipelined: the step must be positive, got -2
report(traced(lambda A, bx: T.Pipelined(8, num_stages=2, step=-2)))
# CHECK: TypeError: T.Pipelined: stage must be a list of Python ints, got [0, 'x']
report(traced(lambda A, bx: T.Pipelined(4, stage=[0, "x"])))
# CHECK: TypeError: T.gemm operand B: expected a tensor or a tile, got <the tile of A at (0, 0)>
report(traced(lambda A, bx: T.gemm(A, A[0, 0], A)))
# CHECK: ValueError: T.alloc_shared: a size must be non-negative and below 2**63 - 1, got -1 in (-1, 32)
report(traced(lambda A, bx: T.alloc_shared((-1, 32), "float16")))
# CHECK: ValueError: arith.addi: 18446744073709551616 does not fit in 64 bits
report(traced(lambda A, bx: bx + 2**64))
# CHECK: ValueError: T.Pipelined stage: -9223372036854775809 does not fit in 64 bits
report(traced(lambda A, bx: next(iter(T.Pipelined(4, stage=[-2**63 - 1])))))
# CHECK: ValueError: T.Pipelined num_stages: 9223372036854775808 does not fit in 64 bits
report(traced(lambda A, bx: T.Pipelined(4, num_stages=2**63)))
# CHECK: ValueError: T.Kernel threads: 18446744073709551616 does not fit in 64 bits
report(traced(lambda A, bx: T.Kernel(1, threads=2**64)))
# A divisor of 0 is an error at the call, as in Python: the division it would
# emit is undefined, and the kernel would compile to one that does nothing.
# T.ceildiv refuses any divisor below 1, as it does for two Python ints.
# CHECK: ZeroDivisionError: <index %bx> // 0: integer division or modulo by zero
report(traced(lambda A, bx: bx // 0))
# CHECK: ZeroDivisionError: <index %bx> % 0: integer division or modulo by zero
report(traced(lambda A, bx: bx % 0))
# CHECK: ZeroDivisionError: <index %i> % 0: integer division or modulo by zero
report(traced(lambda A, bx: (bx - 1) % 0))
# CHECK: ValueError: T.ceildiv(<index %bx>, 0): the divisor must be positive
report(traced(lambda A, bx: T.ceildiv(bx, 0)))
# CHECK: ValueError: T.ceildiv(<index %bx>, -2): the divisor must be positive
report(traced(lambda A, bx: T.ceildiv(bx, -2)))

# A traced loop's body stands for all its iterations, so a loop left early
# (break, return) would run every one: an error, wherever the loop object
# is kept. Loops end innermost first.


def leave_early(A, bx):
    s = T.alloc_shared((16, 16), "float16")
    for k in T.serial(4):
        T.copy(A[k * 16, 0], s)
        break


def leave_kept_loop(A, bx):
    s = T.alloc_shared((16, 16), "float16")
    ks = T.serial(4)
    for k in ks:
        T.copy(A[k * 16, 0], s)
        return


def interleave(A, bx):
    s = T.alloc_shared((16, 16), "float16")
    for k, j in zip(T.serial(2), T.serial(3)):
        T.copy(A[k * 16, j], s)


# CHECK: RuntimeError: @T.prim_func fn: the T.serial loop at {{.*}}language-errors.py:[[@LINE-19]] was left during its body (break, return or an exception): its body is traced once for all iterations, so the loop cannot end early (give it the bounds of the iterations it should run)
report(traced(leave_early))
# CHECK: RuntimeError: @T.prim_func fn: the T.serial loop at {{.*}}language-errors.py:[[@LINE-13]] was left during its body
report(traced(leave_kept_loop))
# CHECK: RuntimeError: T.serial/T.Pipelined loops and T.Kernel blocks must end in the order they began (innermost first), as nested Python statements do
report(traced(interleave))

# Unary minus is 0 - x (it was a TypeError).
def negated_origin(A, bx):
    T.copy(A[-bx + 16, 0], T.alloc_shared((16, 16), "float16"))


# CHECK: negated: True
print("negated:", "arith.subi %c0, %bx" in traced(negated_origin)().script())

# TileLang's dtype names, the integers' too (T.int32 was missing).
# CHECK: dtypes: float16 bfloat16 float32 float64 int8 int16 int32 int64
print("dtypes:", T.float16, T.bfloat16, T.float32, T.float64, T.int8,
      T.int16, T.int32, T.int64)

# A tensor's dtype defaults to TileLang's, float32 (it was float16).
# CHECK: default dtype: float32
print("default dtype:", T.Tensor((4, 4)).dtype)

# Like a range, a loop object gives a loop of its own to each `for` over it
# (the second used to trace nothing).


def loop_twice(A, bx):
    s = T.alloc_shared((16, 16), "float16")
    ks = T.Pipelined(4, num_stages=2)
    for k in ks:
        T.copy(A[k * 16, 0], s)
    for k in ks:
        T.copy(A[0, k * 16], s)


# CHECK: pipelined loops: 2
print("pipelined loops:",
      traced(loop_twice)().script().count("tile.pipelined"))


# An index value lives in the function that traced it.
escaped = []
report(traced(lambda A, bx: escaped.append(bx)))
# CHECK: no error
# CHECK-NEXT: ValueError: arith.addi: <index %bx> belongs to another T.prim_func
report(traced(lambda A, bx: escaped[0] + 1))
# CHECK: ValueError: T.clear: <fragment %frag: memref<32xf32, #gpu.address_space<private>>> belongs to another T.prim_func
tiles = []
report(traced(lambda A, bx: tiles.append(T.alloc_fragment((32,), "float32"))))
report(traced(lambda A, bx: T.clear(tiles[0])))
# CHECK: RuntimeError: @T.prim_func inner is defined while another function is traced


def define_inner(A, bx):
    @T.prim_func
    def inner(B: T.Tensor((4,), "float32")):
        pass


report(traced(define_inner))

# A failed trace leaves nothing behind: the next function traces afresh.
# CHECK: tile.kernel grid(%c1) threads(32) as (%bx)
# CHECK-NOT: error


@T.prim_func
def fine(A: T.Tensor((32,), "float32")):
    with T.Kernel(1, threads=32) as bx:
        A_l = T.alloc_fragment((32,), "float32")
        T.clear(A_l)
        T.copy(A_l, A)


print(fine.verify())

# With `from __future__ import annotations` the annotations are strings,
# which cannot name an enclosing function's locals.
# CHECK: TypeError: @T.prim_func f: its annotations cannot be evaluated (name 'n' is not defined)
future = """
from __future__ import annotations
import tile_mlir.language as T
def make(n):
    def f(A: T.Tensor((n,), "float32")):
        pass
    return T.prim_func(f)
"""
scope = {}
exec(compile(future, "<future>", "exec"), scope)
report(lambda: scope["make"](8))


# A value made inside a kernel or a loop is not defined after it: the error
# is at the Python call that uses it, not in the generated text.
def after_loop(A: T.Tensor((256, 64), "float16")):
    with T.Kernel(4, threads=128) as bx:
        s = T.alloc_shared((64, 64), "float16")
        for k in T.serial(4):
            T.copy(A[bx * 64, k * 64], s)
        T.copy(A[k * 64, 0], s)


def tile_of_another_kernel(A: T.Tensor((256, 64), "float16")):
    with T.Kernel(4, threads=128) as bx:
        s = T.alloc_shared((64, 64), "float16")
    with T.Kernel(4, threads=128) as by:
        T.copy(A[by * 64, 0], s)


# CHECK: ValueError: arith.muli: <index %k> was made inside a T.Kernel or a loop that has ended, and is not defined here
report(lambda: T.prim_func(after_loop))
# CHECK: ValueError: T.copy destination: <shared %s: memref<64x64xf16, #gpu.address_space<workgroup>>> was made inside a T.Kernel or a loop that has ended, and is not defined here
report(lambda: T.prim_func(tile_of_another_kernel))


# TileLang's order, as it should compile: the third argument of
# T.Pipelined is num_stages, not a step.
@T.prim_func
def tilelang_order(A: T.Tensor((64, 64), "float16")):
    with T.Kernel(1, threads=128) as bx:
        A_s = T.alloc_shared((16, 64), "float16")
        for k in T.Pipelined(0, 4, 3):
            T.copy(A[k * 16, 0], A_s)


# CHECK: tile.pipelined %c0 to %c4 step %c1 num_stages = 3 as (%k)
print(tilelang_order)


# SSA names follow the variables: one value per target where each target
# computes one (`r, c = ...`); where one target computes two, the values
# keep their %i names rather than be named after the wrong variables.
@T.prim_func
def names(A: T.Tensor((256, 256), "float16")):
    with T.Kernel(4, 4, threads=128) as (x, y):
        s = T.alloc_shared((64, 64), "float16")
        r, c = y * 64, x * 64
        T.copy(A[r, c], s)
        row, col = y * 64 + 1, x
        T.copy(A[row, col], s)


# CHECK: %r = arith.muli %y, %c64
# CHECK: %c = arith.muli %x, %c64
# CHECK: %[[ROW:i[_0-9]*]] = arith.muli %y, %c64
# CHECK: %[[ROW1:i[_0-9]*]] = arith.addi %[[ROW]], %c1
# CHECK: tile.copy %A[%[[ROW1]], %x] to %s
print(names)


# The names after `as` are found where the `with` statement goes on over
# several lines, after the call or after a backslash.
@T.prim_func
def split_with(A: T.Tensor((256, 256), "float16")):
    with T.Kernel(4,
                  4, threads=128) as (col,
                                      row):
        s = T.alloc_shared((64, 64), "float16")
        T.copy(A[row * 64, col * 64], s)
    with T.Kernel(4, 4, threads=128) \
            as (u, v):
        s = T.alloc_shared((64, 64), "float16")
        T.copy(A[v * 64, u * 64], s)


# CHECK: tile.kernel grid(%c4, %c4) threads(128) as (%col, %row)
# CHECK: arith.muli %row, %c64
# CHECK: tile.kernel grid(%c4, %c4) threads(128) as (%u, %v)
# CHECK: arith.muli %v, %c64
print(split_with)
