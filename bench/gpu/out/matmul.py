"""Grouped-order fp16 matmul, C = A @ B (the LEGO paper's Figure 1 kernel).

The program-id remapping (pid_m, pid_n) and the A, B and C tile offsets are generated from the
layouts of the .layout file named above; the rest is the classic hand-written Triton kernel
(tl.dot over K tiles, fp32 accumulation, fp16 result). The tile sizes must divide the matrix
sizes: the layouts say so and the launcher checks it.

Run it: python3 THIS_FILE [--size M N K] [--bench] [--warps W] [--stages S]
"""
import argparse
import sys

import torch
import triton
import triton.language as tl

# Values of the .layout file's params (defaults of the launcher below).
M_DEFAULT, N_DEFAULT, K_DEFAULT = 4096, 4096, 4096
BM_DEFAULT, BN_DEFAULT, BK_DEFAULT, GM_DEFAULT = 128, 256, 64, 8


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                  BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GM: tl.constexpr):
    pid = tl.program_id(0)
    num_pid_m = M // BM
    num_pid_n = N // BN
    # LEGO: program id -> (pid_m, pid_n) through the grouped thread-block layout.
    pid_m = pid % min(GM, num_pid_m) + (((pid)//(num_pid_n*min(GM, num_pid_m))) % max(1, ((num_pid_m)//(GM))))*min(GM, num_pid_m)
    pid_n = ((pid % (num_pid_n*min(GM, num_pid_m)))//(min(GM, num_pid_m)))
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K // BK):
        # LEGO: offsets of the k-th A and B tiles.
        a = tl.load(a_ptr + (BK*k + K*(BM*pid_m + ((tl.arange(0, BM))[:, None])) + ((tl.arange(0, BK))[None, :])))
        b = tl.load(b_ptr + (BN*pid_n + N*(BK*k + ((tl.arange(0, BK))[:, None])) + ((tl.arange(0, BN))[None, :])))
        acc = tl.dot(a, b, acc)
    c = acc.to(tl.float16)
    # LEGO: offsets of the C tile.
    tl.store(c_ptr + (BN*pid_n + N*(BM*pid_m + ((tl.arange(0, BM))[:, None])) + ((tl.arange(0, BN))[None, :])), c)


def matmul(a, b, BM=BM_DEFAULT, BN=BN_DEFAULT, BK=BK_DEFAULT, GM=GM_DEFAULT, num_warps=8, num_stages=3):
    """C = A @ B for contiguous row-major fp16 CUDA tensors whose sizes the tiles divide."""
    M, K = a.shape
    K2, N = b.shape
    if K != K2:
        raise ValueError(f"inner sizes differ: A is {M}x{K}, B is {K2}x{N}")
    if M % BM or N % BN or K % BK:
        raise ValueError(f"tiles {BM}x{BN}x{BK} do not divide the sizes {M}x{N}x{K}")
    a = a.contiguous()
    b = b.contiguous()
    c = torch.empty((M, N), device=a.device, dtype=torch.float16)
    grid = ((M // BM) * (N // BN),)
    matmul_kernel[grid](a, b, c, M, N, K, BM=BM, BN=BN, BK=BK, GM=GM,
                        num_warps=num_warps, num_stages=num_stages)
    return c


def _main(argv):
    p = argparse.ArgumentParser(description="check the generated matmul against torch.matmul; time it with --bench")
    p.add_argument("--size", nargs=3, type=int, metavar=("M", "N", "K"), default=[M_DEFAULT, N_DEFAULT, K_DEFAULT])
    p.add_argument("--bench", action="store_true", help="time the kernel and torch.matmul with triton.testing.do_bench")
    p.add_argument("--warps", type=int, default=8)
    p.add_argument("--stages", type=int, default=3)
    args = p.parse_args(argv)
    m, n, k = args.size
    torch.manual_seed(0)
    a = torch.randn((m, k), device="cuda", dtype=torch.float16)
    b = torch.randn((k, n), device="cuda", dtype=torch.float16)
    run = lambda: matmul(a, b, num_warps=args.warps, num_stages=args.stages)
    c = run()
    ref = torch.matmul(a, b)
    ok = torch.allclose(c, ref, atol=1e-1, rtol=1e-2)
    print(f"matmul {m}x{n}x{k}: {'matches' if ok else 'DIFFERS FROM'} torch.matmul "
          f"(max abs error {(c.float() - ref.float()).abs().max().item():.4g})")
    if args.bench:
        flops = 2.0 * m * n * k
        ms = triton.testing.do_bench(run, return_mode="median")
        ms_ref = triton.testing.do_bench(lambda: torch.matmul(a, b), return_mode="median")
        print(f"generated kernel: {ms:.4f} ms, {flops / ms / 1e9:.1f} TFLOP/s")
        print(f"torch.matmul:     {ms_ref:.4f} ms, {flops / ms_ref / 1e9:.1f} TFLOP/s")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
