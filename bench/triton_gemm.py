"""A Triton GEMM in the style of Triton's matmul tutorial, parameterised by
the same tiles, threads (num_warps = threads / 32) and num_stages as our
kernels, for the benchmark's comparison. fp16 in, fp32 accumulation, fp16
out; row-major A (MxK), B (KxN), C (MxN). Blocks are visited in the
tutorial's grouped order (GROUP_M = 8) for L2 reuse."""

import argparse
import json
import os
import sys

import torch
import triton
import triton.language as tl

GROUP_M = 8


@triton.jit
def _matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                   stride_am, stride_ak, stride_bk, stride_bn,
                   stride_cm, stride_cn,
                   BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                   BLOCK_K: tl.constexpr, GROUP: tl.constexpr):
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_pid_in_group = GROUP * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP
    group_size_m = min(num_pid_m - first_pid_m, GROUP)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m

    offs_am = (pid_m * BLOCK_M + tl.arange(0, BLOCK_M)) % M
    offs_bn = (pid_n * BLOCK_N + tl.arange(0, BLOCK_N)) % N
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_K, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_K, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    c = acc.to(tl.float16)
    offs_cm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_cn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
    mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
    tl.store(c_ptrs, c, mask=mask)


def matmul(a, b, c, bm, bn, bk, threads, stages):
    M, K = a.shape
    _, N = b.shape
    grid = (triton.cdiv(M, bm) * triton.cdiv(N, bn),)
    return _matmul_kernel[grid](a, b, c, M, N, K,
                         a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                         c.stride(0), c.stride(1),
                         BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, GROUP=GROUP_M,
                         num_warps=threads // 32, num_stages=stages)


def instruction(compiled):
    """The tensor-core instruction in a compiled kernel's PTX: "wgmma"
    (Hopper warpgroup MMA), "mma.sync" or "?"."""
    ptx = compiled.asm.get("ptx", "") if compiled is not None else ""
    if "wgmma.mma_async" in ptx:
        return "wgmma"
    if "mma.sync" in ptx:
        return "mma.sync"
    return "?"


def check_and_time(M, N, K, bm, bn, bk, threads, stages, seed=0,
                   rtol=1e-2, atol=1e-2):
    """Returns dict(ms, tflops, check, max_abs_err, instruction): checked
    against an fp32
    torch reference with the seed's allclose criterion, timed as the median
    of triton.testing.do_bench (which flushes the L2 between runs)."""
    g = torch.Generator(device="cuda").manual_seed(seed)
    a = (torch.rand((M, K), device="cuda", generator=g) * 2 - 1).half()
    b = (torch.rand((K, N), device="cuda", generator=g) * 2 - 1).half()
    c = torch.full((M, N), float("nan"), device="cuda", dtype=torch.float16)
    compiled = matmul(a, b, c, bm, bn, bk, threads, stages)
    torch.cuda.synchronize()
    ref = a.float() @ b.float()
    err = (c.float() - ref).abs()
    ok = bool(torch.all(err <= atol + rtol * ref.abs()).item())
    ms = triton.testing.do_bench(
        lambda: matmul(a, b, c, bm, bn, bk, threads, stages),
        warmup=25, rep=100, return_mode="median")
    max_err = float(torch.nan_to_num(err, nan=float("inf")).max().item())
    return dict(ms=ms, tflops=2.0 * M * N * K / (ms * 1e-3) / 1e12,
                check="pass" if ok else "fail", max_abs_err=max_err,
                instruction=instruction(compiled))


def cublas_time(M, N, K, seed=0):
    """torch.matmul on fp16 (cuBLAS), median of do_bench."""
    g = torch.Generator(device="cuda").manual_seed(seed)
    a = (torch.rand((M, K), device="cuda", generator=g) * 2 - 1).half()
    b = (torch.rand((K, N), device="cuda", generator=g) * 2 - 1).half()
    ms = triton.testing.do_bench(lambda: torch.matmul(a, b), warmup=25,
                                 rep=100, return_mode="median")
    return dict(ms=ms, tflops=2.0 * M * N * K / (ms * 1e-3) / 1e12)


def main():
    """Runs configurations given as JSON (bench/configs.py dicts) and prints
    one JSON result per line. --mma-sync sets DISABLE_MMA_V3=1 before
    anything compiles, so Triton emits mma.sync instead of wgmma on sm_90;
    it is a separate process because Triton reads the setting when it
    compiles."""
    ap = argparse.ArgumentParser(description=main.__doc__.split("\n")[0])
    ap.add_argument("--configs", required=True, help="a JSON list of configs")
    ap.add_argument("--mma-sync", action="store_true")
    ap.add_argument("--seed", type=int, default=0)
    opts = ap.parse_args()
    if opts.mma_sync:
        os.environ["DISABLE_MMA_V3"] = "1"
    for c in json.loads(opts.configs):
        try:
            r = check_and_time(c["M"], c["N"], c["K"], c["bm"], c["bn"],
                               c["bk"], c["threads"], c["stages"],
                               seed=opts.seed)
        except Exception as e:  # OutOfResources for too many stages
            msg = str(e).strip().splitlines()
            r = dict(error=(type(e).__name__ + ": " +
                            (msg[0] if msg else ""))[:200])
        print(json.dumps(dict(name=c["name"], **r)), flush=True)


if __name__ == "__main__":
    sys.exit(main())
