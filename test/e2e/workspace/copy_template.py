# Generated from kernel.layout by "Layout: Emit Triton".
import triton
import triton.language as tl


@triton.jit
def offsets(pid_m, k, BM: tl.constexpr, BK: tl.constexpr):
    return {{ offs }}
