# GPU check and benchmark of the kernels `layout emit` generates from examples/*.layout.
#
# On a CUDA machine with torch, triton and cupy (the GPU box has no node toolchain, so the
# kernels are emitted beforehand on the CPU machine: `node --import tsx bench/gpu/emit.ts`
# writes them and a manifest.json into bench/gpu/out/):
#     python3 bench/gpu/run_gpu.py [OUT_DIR]
# Correctness first (every emitted kernel against torch / a host reference, outputs poisoned
# before each run), then timings with triton.testing.do_bench (median, L2 flushed between
# repetitions, every kernel timed twice, interleaved, to show the spread):
#   - emitted Triton matmul vs the same kernel hand-written (as in the shared
#     gpu-anchors-bench.py) vs torch.matmul, fp16, n = 2048, 4096, 8192, config
#     (128, 256, 64, 8 groups, 8 warps, 3 stages);
#   - emitted CUDA transposes (naive, shared memory) vs a device-to-device copy, fp32;
#   - the emitted softmax vs torch.softmax and the emitted NW tiles (correctness, time);
#   - the emitted files' own harnesses (python3 matmul.py, nvcc -DLAYOUT_HOST_MAIN);
#   - bench/gpu/mlir_matmul.py, when it exists (MLIR engineer's), as a subprocess.
# Writes gpu-results.json and gpu-results.md into OUT_DIR ($OUT, else bench/results/).
import datetime
import importlib.util
import json
import math
import os
import re
import subprocess
import sys
import traceback

import torch
import triton
import triton.language as tl

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(HERE, "out")
OUT = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("OUT", os.path.join(HERE, "..", "results"))
os.makedirs(OUT, exist_ok=True)
manifest = json.load(open(os.path.join(SRC, "manifest.json")))
files = {k["builtin"]: os.path.join(SRC, k["file"]) for k in manifest["kernels"]}

res = {
    "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
    "device": torch.cuda.get_device_name(),
    "torch": torch.__version__,
    "triton": triton.__version__,
    "cuda": torch.version.cuda,
    "emitted_from": manifest,
    "checks": {},
    "errors": [],
}
try:
    import cupy as cp
    res["cupy"] = cp.__version__
except Exception as e:  # the CUDA part needs CuPy
    cp = None
    res["errors"].append(f"cupy unavailable: {e}")
try:
    res["nvcc"] = subprocess.run(["nvcc", "--version"], capture_output=True, text=True).stdout.strip().splitlines()[-1]
except Exception as e:
    res["nvcc"] = f"unavailable: {e}"


def bench(fn):
    return triton.testing.do_bench(fn, warmup=100, rep=500, return_mode="median")


def check(name, ok, detail=""):
    res["checks"][name] = {"ok": bool(ok), "detail": detail}
    print(f"[{'ok' if ok else 'FAIL'}] {name} {detail}", flush=True)


def load(path):
    spec = importlib.util.spec_from_file_location(os.path.splitext(os.path.basename(path))[0], path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def define(src, name):
    m = re.search(r"#define\s+%s\s+\((\d+)\)" % name, src)
    return int(m.group(1)) if m else None


# ----------------------------------------------------------------- hand-written baseline
# The hand-written grouped-order kernel of the shared gpu-anchors-bench.py (LEGO Figure 1's
# baseline), restated: explicit strides, pointer increments over K.
@triton.jit
def hand_matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, sam, sak, sbk, sbn, scm, scn,
                       BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP_M: tl.constexpr):
    pid = tl.program_id(0)
    num_pid_m = tl.cdiv(M, BM)
    num_pid_n = tl.cdiv(N, BN)
    num_pid_in_group = GROUP_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m
    offs_am = (pid_m * BM + tl.arange(0, BM)) % M
    offs_bn = (pid_n * BN + tl.arange(0, BN)) % N
    offs_k = tl.arange(0, BK)
    a_ptrs = a_ptr + offs_am[:, None] * sam + offs_k[None, :] * sak
    b_ptrs = b_ptr + offs_k[:, None] * sbk + offs_bn[None, :] * sbn
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = tl.load(a_ptrs)
        b = tl.load(b_ptrs)
        acc = tl.dot(a, b, acc)
        a_ptrs += BK * sak
        b_ptrs += BK * sbk
    c = acc.to(tl.float16)
    offs_cm = pid_m * BM + tl.arange(0, BM)
    offs_cn = pid_n * BN + tl.arange(0, BN)
    tl.store(c_ptr + scm * offs_cm[:, None] + scn * offs_cn[None, :], c)


CFG = dict(BM=128, BN=256, BK=64, GM=8, num_warps=8, num_stages=3)


def matmul_section():
    mod = load(files["matmul"])
    cfg = dict(CFG)
    # The emitted launcher's defaults come from the .layout params; the kernel must be run with them.
    layout_cfg = (mod.BM_DEFAULT, mod.BN_DEFAULT, mod.BK_DEFAULT, mod.GM_DEFAULT)
    res["matmul_layout_config"] = layout_cfg
    if layout_cfg != (cfg["BM"], cfg["BN"], cfg["BK"], cfg["GM"]):
        res["errors"].append(f"matmul.layout tiles {layout_cfg} differ from the bench config {cfg}")
        cfg.update(BM=layout_cfg[0], BN=layout_cfg[1], BK=layout_cfg[2], GM=layout_cfg[3])
    BM, BN, BK, GM, w, s = cfg["BM"], cfg["BN"], cfg["BK"], cfg["GM"], cfg["num_warps"], cfg["num_stages"]
    out = {}
    for n in (2048, 4096, 8192):
        torch.manual_seed(n)
        a = torch.randn(n, n, device="cuda", dtype=torch.float16)
        b = torch.randn(n, n, device="cuda", dtype=torch.float16)
        grid = ((n // BM) * (n // BN),)
        c_emit = torch.full((n, n), float("nan"), device="cuda", dtype=torch.float16)
        c_hand = torch.full((n, n), float("nan"), device="cuda", dtype=torch.float16)
        emit = lambda: mod.matmul_kernel[grid](a, b, c_emit, n, n, n, BM=BM, BN=BN, BK=BK, GM=GM, num_warps=w, num_stages=s)
        hand = lambda: hand_matmul_kernel[grid](a, b, c_hand, n, n, n, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                                                c_hand.stride(0), c_hand.stride(1), BM=BM, BN=BN, BK=BK, GROUP_M=GM,
                                                num_warps=w, num_stages=s)
        emit()
        hand()
        ref = torch.matmul(a.double(), b.double())
        rel = lambda c: ((c.double() - ref).norm() / ref.norm()).item()
        check(f"matmul emitted n={n}", not torch.isnan(c_emit).any().item() and torch.allclose(c_emit, torch.matmul(a, b), atol=1e-1, rtol=1e-2),
              f"rel err {rel(c_emit):.2e}")
        check(f"matmul hand n={n}", torch.allclose(c_hand, torch.matmul(a, b), atol=1e-1, rtol=1e-2), f"rel err {rel(c_hand):.2e}")
        res.setdefault("matmul_bitwise_equal_to_hand", {})[n] = torch.equal(c_emit, c_hand)
        cub = lambda: torch.matmul(a, b)
        t = {"emitted": [], "hand": [], "torch": []}
        for _ in range(2):
            t["emitted"].append(bench(emit))
            t["hand"].append(bench(hand))
            t["torch"].append(bench(cub))
        flops = 2.0 * n ** 3
        best = {k: min(v) for k, v in t.items()}
        out[n] = {
            "ms": t,
            "tflops": {k: flops / v / 1e9 for k, v in best.items()},
            "emitted_vs_hand": best["hand"] / best["emitted"],
            "emitted_vs_torch": best["torch"] / best["emitted"],
            "hand_vs_torch": best["torch"] / best["hand"],
            "spread_emitted": max(t["emitted"]) / min(t["emitted"]) - 1,
            "spread_hand": max(t["hand"]) / min(t["hand"]) - 1,
        }
        print(f"matmul {n}: emitted {out[n]['tflops']['emitted']:.1f} TFLOP/s, hand {out[n]['tflops']['hand']:.1f}, "
              f"torch {out[n]['tflops']['torch']:.1f}; emitted/hand {out[n]['emitted_vs_hand']:.3f}", flush=True)
        del a, b, c_emit, c_hand, ref
    res["matmul_fp16"] = {"config": cfg, "sizes": out}


def softmax_section():
    mod = load(files["softmax"])
    out = {}
    for rows, cols in ((4096, 1000), (8192, 4096)):
        x = torch.randn(rows, cols, device="cuda", dtype=torch.float32)
        y = mod.softmax(x)
        ref = torch.softmax(x.double(), dim=-1)
        rel = ((y.double() - ref).norm() / ref.norm()).item()
        check(f"softmax emitted {rows}x{cols}", rel < 1e-5 and not torch.isnan(y).any().item(), f"rel err {rel:.2e}")
        ms = min(bench(lambda: mod.softmax(x)) for _ in range(2))
        ms_ref = min(bench(lambda: torch.softmax(x, dim=-1)) for _ in range(2))
        gb = 2.0 * rows * cols * 4 / 1e9
        out[f"{rows}x{cols}"] = {"emitted_GBs": gb / ms * 1e3, "torch_GBs": gb / ms_ref * 1e3, "emitted_vs_torch": ms_ref / ms}
        print(f"softmax {rows}x{cols}: emitted {gb / ms * 1e3:.0f} GB/s, torch {gb / ms_ref * 1e3:.0f} GB/s", flush=True)
    res["softmax_fp32"] = out


def transpose_section():
    kernels = {}
    for name in ("transpose_naive", "transpose_smem"):
        src = open(files[name]).read()
        kernels[name] = (cp.RawModule(code=src).get_function(name), define(src, "TILE"), define(src, "ROWS"))
    out = {}
    for n in (2048, 4096, 8192):
        x = cp.random.rand(n, n, dtype=cp.float32)
        y = cp.empty_like(x)
        row = {}
        for name, (k, T, R) in kernels.items():
            y.fill(cp.nan)
            launch = lambda: k((n // T, n // T), (T, R), (x, y, cp.int32(n)))
            launch()
            cp.cuda.runtime.deviceSynchronize()
            check(f"{name} n={n}", bool((y == x.T).all()), f"tile {T}x{T}, block {T}x{R}")
            ms = min(bench(launch) for _ in range(2))
            row[name + "_GBs"] = 2 * n * n * 4 / ms / 1e6
        src_t = torch.empty(n * n, device="cuda", dtype=torch.float32)
        dst_t = torch.empty_like(src_t)
        ms = min(bench(lambda: dst_t.copy_(src_t)) for _ in range(2))
        row["d2d_copy_GBs"] = 2 * n * n * 4 / ms / 1e6
        row["naive_vs_copy"] = row["transpose_naive_GBs"] / row["d2d_copy_GBs"]
        row["smem_vs_copy"] = row["transpose_smem_GBs"] / row["d2d_copy_GBs"]
        out[n] = row
        print(f"transpose {n}: naive {row['transpose_naive_GBs']:.0f} GB/s, smem {row['transpose_smem_GBs']:.0f} GB/s, "
              f"copy {row['d2d_copy_GBs']:.0f} GB/s; smem/copy {row['smem_vs_copy']:.3f}", flush=True)
        del x, y, src_t, dst_t
    res["transpose_fp32"] = out


def nw_section():
    import numpy as np
    src = open(files["nw_antidiag"]).read()
    B = define(src, "BLOCK_SIZE")
    N = B + 1
    k = cp.RawModule(code=src).get_function("nw_tiles")
    tiles, penalty = 4096, 10
    rng = np.random.default_rng(1)
    ref = rng.integers(-8, 8, size=(tiles, B, B), dtype=np.int32)
    border = np.empty((tiles, 2, N), dtype=np.int32)
    border[:, 0, :] = -penalty * np.arange(N) + rng.integers(0, 5, size=(tiles, 1))
    border[:, 1, :] = border[:, 0, :]
    want = np.zeros((tiles, N, N), dtype=np.int32)
    want[:, 0, :] = border[:, 0, :]
    want[:, :, 0] = border[:, 1, :]
    for i in range(1, N):
        for j in range(1, N):
            want[:, i, j] = np.maximum(want[:, i - 1, j - 1] + ref[:, i - 1, j - 1],
                                       np.maximum(want[:, i, j - 1] - penalty, want[:, i - 1, j] - penalty))
    d_ref, d_border = cp.asarray(ref), cp.asarray(border)
    d_score = cp.full((tiles, N, N), -(2 ** 31), dtype=cp.int32)
    launch = lambda: k((tiles,), (B,), (d_ref, d_border, d_score, cp.int32(penalty)))
    launch()
    got = cp.asnumpy(d_score)
    check(f"nw_tiles antidiag {tiles} tiles of {N}x{N}", bool((got == want).all()), f"{int((got != want).sum())} wrong cells")
    ms = min(bench(launch) for _ in range(2))
    res["nw_tiles"] = {"tiles": tiles, "tile": N, "ms": ms, "cells_per_us": tiles * B * B / ms / 1e3}
    print(f"nw_tiles: {ms:.4f} ms for {tiles} tiles", flush=True)


def harness_section():
    # The emitted files' own entry points: Triton __main__ and CUDA host main.
    runs = {}
    for name, cmd in (
        ("matmul.py", [sys.executable, files["matmul"], "--size", "2048", "2048", "2048", "--bench"]),
        ("softmax.py", [sys.executable, files["softmax"], "--bench"]),
    ):
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        runs[name] = {"rc": p.returncode, "out": (p.stdout + p.stderr)[-800:]}
        check(f"harness {name}", p.returncode == 0, p.stdout.strip().splitlines()[0] if p.stdout.strip() else p.stderr[-300:])
    for name in ("transpose_naive", "transpose_smem", "nw_antidiag"):
        exe = f"/tmp/{name}"
        p = subprocess.run(["nvcc", "-O3", "-arch=native", "-DLAYOUT_HOST_MAIN", "-o", exe, files[name]], capture_output=True, text=True, timeout=300)
        if p.returncode != 0:
            runs[name] = {"rc": p.returncode, "out": p.stderr[-800:]}
            check(f"harness {name} (nvcc)", False, p.stderr[-300:])
            continue
        p = subprocess.run([exe], capture_output=True, text=True, timeout=300)
        runs[name] = {"rc": p.returncode, "out": (p.stdout + p.stderr)[-800:]}
        check(f"harness {name}", p.returncode == 0, p.stdout.strip())
    res["harnesses"] = runs


def mlir_section():
    script = os.path.join(HERE, "mlir_matmul.py")
    if not os.path.exists(script):
        res["mlir"] = "bench/gpu/mlir_matmul.py does not exist: not run"
        return
    p = subprocess.run([sys.executable, script], capture_output=True, text=True, timeout=400, env=dict(os.environ, OUT=OUT))
    res["mlir"] = {"rc": p.returncode, "out": (p.stdout + p.stderr)[-4000:]}
    print("mlir_matmul.py:", p.returncode, (p.stdout + p.stderr)[-2000:], flush=True)


sections = [("matmul", matmul_section), ("softmax", softmax_section), ("nw", nw_section),
            ("harness", harness_section), ("mlir", mlir_section)]
if cp is not None:
    sections.insert(1, ("transpose", transpose_section))
for name, fn in sections:
    if len(sys.argv) > 2 and name not in sys.argv[2].split(","):
        continue
    try:
        fn()
    except Exception:
        res["errors"].append(f"{name}: {traceback.format_exc()[-1500:]}")
        print(f"section {name} failed:\n{traceback.format_exc()}", flush=True)
    torch.cuda.empty_cache()


# ------------------------------------------------------------------------- report
def fmt(x, d=1):
    return "-" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.{d}f}"


lines = [
    "# Emitted kernels on the GPU",
    "",
    f"- device: {res['device']}",
    f"- software: torch {res['torch']} (CUDA {res['cuda']}), triton {res['triton']}, cupy {res.get('cupy', '-')}, {res['nvcc']}",
    f"- date: {res['date']}",
    "- timing: `triton.testing.do_bench` median (warm-up 100 ms, 500 ms of repetitions, L2 flushed between them); each kernel timed twice, interleaved; the better median is reported",
    f"- kernels emitted by `layout emit` from {', '.join(sorted({k['source'] for k in manifest['kernels']}))} (bench/gpu/out/)",
    "",
    "## Correctness",
    "",
    "| check | result | detail |",
    "|---|---|---|",
]
for k, v in res["checks"].items():
    lines.append(f"| {k} | {'ok' if v['ok'] else '**FAIL**'} | {v['detail']} |")
if "matmul_fp16" in res:
    c = res["matmul_fp16"]["config"]
    lines += ["", f"## fp16 matmul (config BM={c['BM']}, BN={c['BN']}, BK={c['BK']}, GM={c['GM']}, {c['num_warps']} warps, {c['num_stages']} stages)", "",
              "| n | emitted TFLOP/s | hand-written TFLOP/s | torch.matmul TFLOP/s | emitted / hand | emitted / torch | spread emitted, hand |",
              "|---|---|---|---|---|---|---|"]
    for n, r in res["matmul_fp16"]["sizes"].items():
        lines.append(f"| {n} | {fmt(r['tflops']['emitted'])} | {fmt(r['tflops']['hand'])} | {fmt(r['tflops']['torch'])} | "
                     f"{fmt(r['emitted_vs_hand'], 3)} | {fmt(r['emitted_vs_torch'], 3)} | {100 * r['spread_emitted']:.1f} %, {100 * r['spread_hand']:.1f} % |")
if "transpose_fp32" in res:
    lines += ["", "## fp32 transpose (32x32 tiles, 32x8 threads)", "",
              "| n | naive GB/s | smem GB/s | device copy GB/s | naive / copy | smem / copy |", "|---|---|---|---|---|---|"]
    for n, r in res["transpose_fp32"].items():
        lines.append(f"| {n} | {fmt(r['transpose_naive_GBs'], 0)} | {fmt(r['transpose_smem_GBs'], 0)} | {fmt(r['d2d_copy_GBs'], 0)} | "
                     f"{fmt(r['naive_vs_copy'], 3)} | {fmt(r['smem_vs_copy'], 3)} |")
if "softmax_fp32" in res:
    lines += ["", "## fp32 softmax", "", "| shape | emitted GB/s | torch.softmax GB/s | emitted / torch |", "|---|---|---|---|"]
    for s, r in res["softmax_fp32"].items():
        lines.append(f"| {s} | {fmt(r['emitted_GBs'], 0)} | {fmt(r['torch_GBs'], 0)} | {fmt(r['emitted_vs_torch'], 3)} |")
if "nw_tiles" in res:
    r = res["nw_tiles"]
    lines += ["", "## NW tiles (anti-diagonal shared buffer)", "", f"{r['tiles']} tiles of {r['tile']}x{r['tile']}: {r['ms']:.4f} ms"]
lines += ["", "## MLIR schedules (bench/gpu/mlir_matmul.py, fp32)", ""]
mlir_json = os.path.join(OUT, "gpu-mlir.json")
if isinstance(res.get("mlir"), str):
    lines.append(res["mlir"])
elif os.path.exists(mlir_json):
    mj = json.load(open(mlir_json))
    lines += [f"Reference: {mj.get('reference', 'torch.matmul')}; timing: {mj.get('timing', '-')}; source: {mj.get('source', '-')}.", "",
              "| variant | sizes | correct | MLIR TFLOP/s | torch TFLOP/s | MLIR / torch |", "|---|---|---|---|---|---|"]
    for v in mj.get("variants", []):
        sz = "x".join(str(x) for x in v.get("sizes", {}).values())
        lines.append(f"| {v['name']} | {sz} | {'ok' if v.get('allclose') else '**FAIL**'} | {fmt(v.get('mlir_tflops'))} | "
                     f"{fmt(v.get('torch_tflops'))} | {fmt(v.get('mlir_over_torch'), 3)} |")
else:
    lines.append("mlir_matmul.py ran but wrote no gpu-mlir.json; see gpu-results.json (`mlir`)")
if res["errors"]:
    lines += ["", "## Errors", ""] + [f"```\n{e}\n```" for e in res["errors"]]
md = "\n".join(lines) + "\n"
json.dump(res, open(os.path.join(OUT, "gpu-results.json"), "w"), indent=1, default=str)
open(os.path.join(OUT, "gpu-results.md"), "w").write(md)
print(md)
failed = [k for k, v in res["checks"].items() if not v["ok"]]
print("FAILED:", failed if failed else "none")
sys.exit(1 if failed or res["errors"] else 0)
