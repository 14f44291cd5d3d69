#!/usr/bin/env python3
"""Runs the MLIR-generated matmul kernels on a GPU and compares them with torch (fp32, TF32 off).

The PTX comes from the .layout schedules, lowered ahead of time on a machine with mlir-22-tools:
    node --import tsx bench/gpu/mlir/build-artifacts.ts     # writes bench/gpu/out/mlir_matmul.*
On the GPU machine (CuPy + torch):
    python3 bench/gpu/mlir_matmul.py [--reps 20] [--only NAME]
For every variant in bench/gpu/out/mlir_matmul.json: load the PTX with cupy.RawModule, launch it on
A, B and C (C starts as 7s, so a kernel that skips the zero fill fails), check allclose against
torch.matmul, then time both with CUDA events (median of --reps runs after warm-up). Prints one line
per variant and writes bench/results/gpu-mlir.json (and $OUT/gpu-mlir.json when OUT is set).
"""
import argparse
import json
import os
import shutil
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
OUT_DIR = os.path.join(HERE, "out")
MANIFEST = os.path.join(OUT_DIR, "mlir_matmul.json")
RESULT = os.path.join(ROOT, "bench", "results", "gpu-mlir.json")


def time_ms(torch, fn, reps, warmup=3):
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return statistics.median(times), min(times)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--only", help="run only this variant")
    args = ap.parse_args()

    with open(MANIFEST, encoding="utf-8") as f:
        manifest = json.load(f)
    import cupy as cp
    import torch

    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    torch.manual_seed(0)
    device = torch.cuda.get_device_name()
    results = {"device": device, "torch": torch.__version__, "cupy": cp.__version__,
               "timing": f"CUDA events, median of {args.reps} runs after 3 warm-up runs",
               "reference": "torch.matmul fp32 (TF32 off)", "source": manifest["source"], "variants": []}
    failures = 0
    for v in manifest["variants"]:
        if args.only and v["name"] != args.only:
            continue
        if v["element_type"] != "f32":
            print(f"{v['name']}: skipped ({v['element_type']} not handled here)")
            continue
        M, N, K = v["sizes"]["M"], v["sizes"]["N"], v["sizes"]["K"]
        mod = cp.RawModule(path=os.path.join(OUT_DIR, v["ptx"]))
        kernel = mod.get_function(v["kernel"])
        tensors = {
            "A": torch.randn(M, K, device="cuda", dtype=torch.float32),
            "B": torch.randn(K, N, device="cuda", dtype=torch.float32),
            "C": torch.full((M, N), 7.0, device="cuda", dtype=torch.float32),
        }
        ptrs = tuple(tensors[name].data_ptr() for name in v["args"])
        grid, block = tuple(v["grid"]), tuple(v["block"])

        def launch():
            kernel(grid, block, ptrs)

        launch()
        torch.cuda.synchronize()
        ref = tensors["A"] @ tensors["B"]
        C = tensors["C"]
        max_abs_err = (C - ref).abs().max().item()
        ok = bool(torch.allclose(C, ref, rtol=1e-3, atol=1e-3))
        t_mlir, t_mlir_min = time_ms(torch, launch, args.reps)
        t_torch, t_torch_min = time_ms(torch, lambda: torch.matmul(tensors["A"], tensors["B"]), args.reps)
        flops = 2.0 * M * N * K
        row = {
            "name": v["name"], "sizes": v["sizes"], "schedule": v["schedule"], "grid": v["grid"], "block": v["block"],
            "shared_bytes": v["shared_bytes"], "ptxas": v.get("ptxas"),
            "allclose": ok, "max_abs_err": max_abs_err,
            "mlir_ms": t_mlir, "mlir_ms_min": t_mlir_min, "torch_ms": t_torch, "torch_ms_min": t_torch_min,
            "mlir_tflops": flops / t_mlir / 1e9, "torch_tflops": flops / t_torch / 1e9,
            "mlir_over_torch": t_torch / t_mlir,
        }
        results["variants"].append(row)
        failures += 0 if ok else 1
        print(f"{v['name']}: {'OK' if ok else 'MISMATCH'} max_abs_err={max_abs_err:.3g}  "
              f"mlir {t_mlir:.3f} ms ({row['mlir_tflops']:.1f} TFLOP/s)  torch {t_torch:.3f} ms ({row['torch_tflops']:.1f} TFLOP/s)  "
              f"ratio mlir/torch speed = {row['mlir_over_torch']:.3f}")

    os.makedirs(os.path.dirname(RESULT), exist_ok=True)
    with open(RESULT, "w", encoding="utf-8") as f:
        json.dump(results, f, indent=1)
        f.write("\n")
    print(f"wrote {RESULT}")
    out = os.environ.get("OUT")
    if out:
        os.makedirs(out, exist_ok=True)
        shutil.copy(RESULT, os.path.join(out, "gpu-mlir.json"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
