"""Row-wise softmax of an fp32 matrix, one program per row.

The input and output offsets are generated from the layouts of the .layout file named above;
the rest is the classic Triton softmax (max-subtracted exponentials over one row held in
registers). Rows up to BLOCK_SIZE = next_power_of_2(n_cols) wide are masked.

Run it: python3 THIS_FILE [--size ROWS COLS] [--bench]
"""
import argparse
import sys

import torch
import triton
import triton.language as tl

# Values of the .layout file's params (defaults of the launcher below).
N_ROWS_DEFAULT, N_COLS_DEFAULT = 4096, 1000


@triton.jit
def softmax_kernel(output_ptr, input_ptr, n_rows, n_cols, BLOCK_SIZE: tl.constexpr):
    row_idx = tl.program_id(0)
    mask = tl.arange(0, BLOCK_SIZE) < n_cols
    # LEGO: offsets of this row's elements.
    row = tl.load(input_ptr + (n_cols*row_idx + tl.arange(0, BLOCK_SIZE)), mask=mask, other=-float("inf"))
    row_minus_max = row - tl.max(row, axis=-1, keep_dims=True)
    numerator = tl.exp(row_minus_max)
    denominator = tl.sum(numerator, axis=-1, keep_dims=True)
    tl.store(output_ptr + (n_cols*row_idx + tl.arange(0, BLOCK_SIZE)), numerator / denominator, mask=mask)


def softmax(x):
    """Softmax over the last dimension of a contiguous 2-D fp32 CUDA tensor."""
    n_rows, n_cols = x.shape
    x = x.contiguous()
    y = torch.empty_like(x)
    BLOCK_SIZE = triton.next_power_of_2(n_cols)
    num_warps = 4 if BLOCK_SIZE < 2048 else (8 if BLOCK_SIZE < 4096 else 16)
    softmax_kernel[(n_rows,)](y, x, n_rows, n_cols, BLOCK_SIZE=BLOCK_SIZE, num_warps=num_warps)
    return y


def _main(argv):
    p = argparse.ArgumentParser(description="check the generated softmax against torch.softmax; time it with --bench")
    p.add_argument("--size", nargs=2, type=int, metavar=("ROWS", "COLS"), default=[N_ROWS_DEFAULT, N_COLS_DEFAULT])
    p.add_argument("--bench", action="store_true", help="time the kernel and torch.softmax with triton.testing.do_bench")
    args = p.parse_args(argv)
    rows, cols = args.size
    torch.manual_seed(0)
    x = torch.randn((rows, cols), device="cuda", dtype=torch.float32)
    y = softmax(x)
    ref = torch.softmax(x, dim=-1)
    ok = torch.allclose(y, ref, atol=1e-6, rtol=1e-5)
    print(f"softmax {rows}x{cols}: {'matches' if ok else 'DIFFERS FROM'} torch.softmax "
          f"(max abs error {(y - ref).abs().max().item():.3g})")
    if args.bench:
        gbytes = 2.0 * rows * cols * 4 / 1e9
        ms = triton.testing.do_bench(lambda: softmax(x), return_mode="median")
        ms_ref = triton.testing.do_bench(lambda: torch.softmax(x, dim=-1), return_mode="median")
        print(f"generated kernel: {ms:.4f} ms, {gbytes / ms * 1e3:.1f} GB/s")
        print(f"torch.softmax:    {ms_ref:.4f} ms, {gbytes / ms_ref * 1e3:.1f} GB/s")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
