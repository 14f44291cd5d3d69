#!/bin/bash
# Builds the tensor-core GEMM cubins of examples/gemm-tensorcore.layout for the GPU benchmark, on a
# machine with mlir-22-tools and ptxas (no GPU needed):
#   bench/gpu/tensorcore/build.sh [OUT_DIR] [SIZES...]      (default bench/gpu/out/tensorcore, 2048 4096 8192)
# For each size and each tuning candidate of V (0: 128x128x32, 3 stages; 1: 128x64x64, 2 stages) it
# sets M = N = K = size and V in a copy of the example, runs
#   layout emit COPY --schedule gemm_tc --target mlir
# then the mlir-opt-22 pipeline (transform interpreter, outlining, gpu-lower-to-nvvm-pipeline for
# sm_90) and ptxas -arch=sm_90, and writes OUT/NAME.{cubin,ptx,json} (json: kernel name, argument
# order, grid, block, ptxas registers / shared memory / spills). run.py launches them.
set -e -o pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
out=${1:-$root/bench/gpu/out/tensorcore}; shift || true
sizes=${*:-2048 4096 8192}
mkdir -p "$out"; out=$(cd "$out" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for s in $sizes; do
  for v in 0 1; do
    name=tc_v${v}_$s
    sed -e "s/^param M = 4096, N = 4096, K = 4096/param M = $s, N = $s, K = $s/" -e "s/^param V = 0 in/param V = $v in/" \
      "$root/examples/gemm-tensorcore.layout" > "$work/$name.layout"
    grep -q "param M = $s, N = $s, K = $s" "$work/$name.layout"
    (cd "$root" && npx --no-install tsx server/src/cli/main.ts emit "$work/$name.layout" --schedule gemm_tc --target mlir --out "$work/$name" --root / >/dev/null)
    d=$work/$name
    mlir-opt-22 $d/gemm_tc.payload.mlir --transform-preload-library=transform-library-paths=$d/gemm_tc.transform.mlir \
      --transform-interpreter --canonicalize --cse -o $d/gpu.mlir 2> >(grep -v 'not consumed in the body\|named_sequence @__\|^  \^' >&2)
    mlir-opt-22 $d/gpu.mlir --gpu-launch-sink-index-computations --gpu-kernel-outlining --symbol-dce \
      '--gpu-lower-to-nvvm-pipeline=cubin-chip=sm_90 cubin-features=+ptx80 cubin-format=isa kernel-bare-ptr-calling-convention=true opt-level=3' \
      -o $d/isa.mlir
    python3 "$here/extract_gpu_object.py" $d/isa.mlir "$out/$name.ptx" >/dev/null
    ptxas -arch=sm_90 -O3 -v "$out/$name.ptx" -o "$out/$name.cubin" 2> $d/ptxas.txt
    python3 - "$d" "$out" "$name" "$s" "$v" <<'PY'
import json, re, sys
d, out, name, s, v = sys.argv[1:6]
isa = open(f"{d}/isa.mlir").read()
lf = re.search(r"gpu\.launch_func\s+@\w+::@(\w+) blocks in \(([^)]*)\) threads in \(([^)]*)\)[^\n]*args\(([^)]*)\)", isa)
order = ["ABC"[int(a) // 7] for a in re.findall(r"%arg(\d+) : !llvm\.ptr", lf.group(4))]
consts = dict(re.findall(r"%(\w+) = llvm\.mlir\.constant\((\d+) : index\)", isa))
def val(x):
    x = x.strip().lstrip('%'); return int(consts[x]) if x in consts else int(x)
grid = [val(x) for x in lf.group(2).split(',')]; block = [val(x) for x in lf.group(3).split(',')]
p = open(f"{d}/ptxas.txt").read()
ptx = open(f"{out}/{name}.ptx").read()
head = open(f"{d}/gemm_tc.transform.mlir").read().split("module attributes")[0]
meta = dict(name=name, kernel=lf.group(1), M=int(s), N=int(s), K=int(s), variant=int(v), arg_order=order, grid=grid, block=block,
            schedule_header=[l[3:] for l in head.splitlines() if l.startswith('// ') and not l.startswith('// Generated') and not l.startswith('// Do not')],
            ptx_counts={k: ptx.count(k) for k in ("mma.sync", "ldmatrix", "cp.async")},
            ptxas=dict(registers=int(re.search(r"Used (\d+) registers", p).group(1)),
                       smem_bytes=int(re.search(r"(\d+) bytes smem", p).group(1)),
                       spill_store_bytes=int(re.search(r"(\d+) bytes spill stores", p).group(1))),
            cubin=f"{name}.cubin")
json.dump(meta, open(f"{out}/{name}.json", "w"), indent=1)
print(name, meta["kernel"], order, grid, block, meta["ptxas"], meta["ptx_counts"])
PY
  done
done
