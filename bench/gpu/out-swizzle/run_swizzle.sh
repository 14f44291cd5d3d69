#!/bin/sh
# Builds and runs the swizzled-transpose benchmark: sh run_swizzle.sh DIR RESULTS_DIR
set -e
DIR=${1:-.}
RES=${2:-.}
mkdir -p "$RES"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$RES/swizzle-device.txt" || true
nvcc -O3 -arch=sm_90 -std=c++17 -o "$DIR/swizzle_bench" "$DIR/swizzle_bench.cu"
cuobjdump -sass "$DIR/swizzle_bench" | grep -E "Function|LDS|STS" | head -60 > "$RES/swizzle-sass.txt" || true
"$DIR/swizzle_bench" | tee "$RES/swizzle-results.json"
