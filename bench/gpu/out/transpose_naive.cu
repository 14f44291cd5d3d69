// Naive fp32 matrix transpose, out = in^T for an n x n matrix: reads rows (coalesced) and
// writes columns (strided). The index expressions are generated from the layouts of the
// .layout file named above: blocks of TILE x ROWS threads, thread (tx, ty) of block (bx, by)
// moves the elements of rows ty + ROWS*jj (jj = 0 .. TILE/ROWS-1) of its TILE x TILE tile.
//
// Use from CuPy:  cp.RawModule(code=open(THIS_FILE).read()).get_function("transpose_naive")
//                 kernel((n // TILE, n // TILE), (TILE, ROWS), (src, dst, cp.int32(n)))
// Or build the self-checking program:  nvcc -DLAYOUT_HOST_MAIN -o transpose THIS_FILE

#define TILE (32)
#define ROWS (8)

static_assert(TILE % ROWS == 0, "ROWS must divide TILE");

extern "C" __global__ void __launch_bounds__(TILE * ROWS)
transpose_naive(const float* __restrict__ in, float* __restrict__ out, int n) {
  const int bx = blockIdx.x, by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
#pragma unroll
  for (int jj = 0; jj < TILE / ROWS; ++jj) {
    out[n*(32*bx + tx) + 32*by + 8*jj + ty] = in[n*(32*by + 8*jj + ty) + 32*bx + tx];
  }
}

#ifdef LAYOUT_HOST_MAIN
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
  std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); std::exit(2); } } while (0)

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 4096;
  if (n <= 0 || n % TILE != 0) { std::fprintf(stderr, "n must be a positive multiple of %d\n", TILE); return 2; }
  const size_t count = (size_t)n * n, bytes = count * sizeof(float);
  std::vector<float> h(count), r(count);
  for (size_t i = 0; i < count; ++i) h[i] = (float)((i * 2654435761u) % 1000003u);
  float *d_in, *d_out;
  CHECK(cudaMalloc(&d_in, bytes));
  CHECK(cudaMalloc(&d_out, bytes));
  CHECK(cudaMemcpy(d_in, h.data(), bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_out, 0xff, bytes));
  const dim3 grid(n / TILE, n / TILE), block(TILE, ROWS);
  transpose_naive<<<grid, block>>>(d_in, d_out, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(r.data(), d_out, bytes, cudaMemcpyDeviceToHost));
  size_t bad = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      if (r[(size_t)j * n + i] != h[(size_t)i * n + j]) ++bad;
  cudaEvent_t t0, t1;
  CHECK(cudaEventCreate(&t0));
  CHECK(cudaEventCreate(&t1));
  const int reps = 50;
  CHECK(cudaEventRecord(t0));
  for (int k = 0; k < reps; ++k) transpose_naive<<<grid, block>>>(d_in, d_out, n);
  CHECK(cudaEventRecord(t1));
  CHECK(cudaEventSynchronize(t1));
  CHECK(cudaGetLastError());
  float ms = 0;
  CHECK(cudaEventElapsedTime(&ms, t0, t1));
  ms /= reps;
  std::printf("transpose_naive n=%d: %s, %.4f ms, %.1f GB/s\n", n, bad ? "WRONG" : "correct", ms,
              2.0 * bytes / ms / 1e6);
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  return bad ? 1 : 0;
}
#endif
