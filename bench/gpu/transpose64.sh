#!/bin/sh
# Section 3's GPU proof: emit the CUDA transposes of examples/transpose.layout at n = 65536 with the
# built CLI (dist/cli.js), into DIR with bench/gpu/transpose64.cu; on a GPU machine then:
#   cd DIR && nvcc -O3 -arch=sm_90 -o transpose64 transpose64.cu && ./transpose64 65536 && ./transpose64 65536 control
# Usage: sh bench/gpu/transpose64.sh DIR   (from the repository root; `npm run build` first)
set -e
dir=${1:?usage: transpose64.sh DIR}
mkdir -p "$dir"
sed 's/^param n = 8192 in \[2048, 4096, 8192\]/param n = 65536/' examples/transpose.layout > "$dir/transpose65536.layout"
grep -q '^param n = 65536$' "$dir/transpose65536.layout"
node dist/cli.js emit "$dir/transpose65536.layout" --target cuda --out "$dir"
cp bench/gpu/transpose64.cu "$dir/"
grep -c 'long long' "$dir/transpose_naive.cu" "$dir/transpose_smem.cu"
