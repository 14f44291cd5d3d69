#!/usr/bin/env python3
"""Run the tensor-core GEMM cubins that bench/gpu/tensorcore/build.sh made from
examples/gemm-tensorcore.layout (`layout emit ... --target mlir`, mlir-opt-22, ptxas) on the GPU
through CuPy, check them against an fp32 reference and time them against torch.matmul (cuBLAS).
Modelled on the runner of the hand-written schedule this one reproduces (docs/schedules.md).

C(f32) = A(f16) @ B(f16).  Correctness: relative Frobenius error against the fp32 product of the
same fp16 inputs (TF32 off), on two fresh random input sets, with C poisoned (NaN) before each
launch so that unwritten elements fail.  Timing: triton.testing.do_bench median (CUDA events),
same buffers for every kernel of a size.
Usage: run.py CUBIN_DIR [name-prefix ...]   (writes $OUT/gpu-tensorcore.json, or CUBIN_DIR's)"""
import glob, json, os, sys, time
import torch, triton, cupy as cp

torch.backends.cuda.matmul.allow_tf32 = False
here = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".")
out_dir = os.environ.get("OUT", here)
metas = [json.load(open(p)) for p in sorted(glob.glob(os.path.join(here, "*.json"))) if not p.endswith("gpu-tensorcore.json")]
if len(sys.argv) > 2:
    metas = [m for m in metas if any(m["name"].startswith(p) for p in sys.argv[2:])]
dev = torch.cuda.get_device_name()
res = {"device": dev, "torch": torch.__version__, "cupy": cp.__version__, "triton": triton.__version__,
       "cuda_runtime": torch.version.cuda, "date_utc": time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime()),
       "source": "examples/gemm-tensorcore.layout, schedule gemm_tc; V = 0: 128x128x32, 2x2 warps, 3 stages; V = 1: 128x64x64, 2x2 warps, 2 stages",
       "timing": "triton.testing.do_bench(warmup=50 ms, rep=200 ms), median of CUDA-event timings",
       "reference_check": "||C - ref||_F / ||ref||_F, ref = fp32 matmul of the same fp16 inputs (TF32 off); C poisoned with NaN before launch",
       "sizes": {}, "kernels": []}

def bench(fn):
    return triton.testing.do_bench(fn, warmup=50, rep=200, return_mode="median")

sizes = sorted({(m["M"], m["N"], m["K"]) for m in metas})
for (M, N, K) in sizes:
    g = torch.Generator(device="cuda").manual_seed(M)
    A = torch.randn(M, K, device="cuda", dtype=torch.float16, generator=g)
    B = torch.randn(K, N, device="cuda", dtype=torch.float16, generator=g)
    C = torch.empty(M, N, device="cuda", dtype=torch.float32)
    flops = 2.0 * M * N * K
    t16 = bench(lambda: torch.matmul(A, B))
    entry = {"torch_fp16_ms": t16, "torch_fp16_tflops": flops / t16 / 1e9}
    try:  # cuBLAS with an fp32 output, the same output type as the MLIR kernel
        torch.mm(A, B, out_dtype=torch.float32)
        t32 = bench(lambda: torch.mm(A, B, out_dtype=torch.float32))
        entry.update(torch_fp16_in_fp32_out_ms=t32, torch_fp16_in_fp32_out_tflops=flops / t32 / 1e9)
    except Exception as e:  # noqa
        entry["torch_fp32_out_error"] = repr(e)[:200]
    res["sizes"][f"{M}x{N}x{K}"] = entry
    print(f"== {M}x{N}x{K}: torch fp16 {entry['torch_fp16_tflops']:.1f} TFLOP/s"
          + (f", fp32-out {entry['torch_fp16_in_fp32_out_tflops']:.1f}" if 'torch_fp16_in_fp32_out_tflops' in entry else ""), flush=True)
    for m in [m for m in metas if (m["M"], m["N"], m["K"]) == (M, N, K)]:
        r = dict(m)
        try:
            mod = cp.RawModule(path=os.path.join(here, m["cubin"]))
            fn = mod.get_function(m["kernel"])
            bufs = {"A": A, "B": B, "C": C}
            args = tuple(cp.uint64(bufs[x].data_ptr()) for x in m["arg_order"])
            grid, block = tuple(m["grid"]), tuple(m["block"])
            launch = lambda: fn(grid, block, args)
            errs = []
            for trial in range(2):
                A.copy_(torch.randn(M, K, device="cuda", dtype=torch.float16, generator=g))
                B.copy_(torch.randn(K, N, device="cuda", dtype=torch.float16, generator=g))
                C.fill_(float("nan"))
                launch(); torch.cuda.synchronize()
                ref = torch.matmul(A.float(), B.float())
                finite = bool(torch.isfinite(C).all())
                errs.append(float((C - ref).norm() / ref.norm()) if finite else float("nan"))
            r["rel_err"] = errs
            r["correct"] = all(e == e and e < 1e-3 for e in errs)
            t = bench(launch)
            t2 = bench(launch)
            r.update(ms=t, ms_repeat=t2, tflops=flops / t / 1e9,
                     ratio_vs_torch_fp16=entry["torch_fp16_ms"] / t)
            if "torch_fp16_in_fp32_out_ms" in entry:
                r["ratio_vs_torch_fp32_out"] = entry["torch_fp16_in_fp32_out_ms"] / t
            print(f"{m['name']:>14} V={m['variant']} "
                  f"regs {m['ptxas']['registers']} smem {m['ptxas']['smem_bytes']}: err {errs[0]:.2e}/{errs[1]:.2e} "
                  f"{'OK ' if r['correct'] else 'BAD'} {t:.3f} ms ({t2:.3f}) {r['tflops']:.1f} TFLOP/s  x{r['ratio_vs_torch_fp16']:.2f} of torch", flush=True)
        except Exception as e:  # noqa
            r["error"] = repr(e)[:500]
            print(m["name"], "ERROR", r["error"], flush=True)
        res["kernels"].append(r)
json.dump(res, open(os.path.join(out_dir, "gpu-tensorcore.json"), "w"), indent=1)
print("== best per size (ratio of torch.matmul fp16):")
for key in res["sizes"]:
    ks = [k for k in res["kernels"] if f"{k['M']}x{k['N']}x{k['K']}" == key and k.get("correct")]
    if ks:
        b = max(ks, key=lambda k: k["tflops"])
        print(f"  {key}: {b['name']} {b['tflops']:.1f} TFLOP/s, x{b['ratio_vs_torch_fp16']:.3f} of torch fp16 ({res['sizes'][key]['torch_fp16_tflops']:.1f})")
