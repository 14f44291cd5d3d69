// 64-bit index arithmetic on the GPU (issue 10, section 3): the CUDA transposes that `layout emit` writes
// for examples/transpose.layout at n = 65536 (n*n = 2^32 elements, 16 GiB of fp32 in, 16 GiB out) are run
// and every output element is compared on the GPU with the input it must hold (out[c*n + r] == in[r*n + c],
// computed in 64 bits). `control` runs the same transpose with 32-bit `int` indices (what was emitted
// before): it reads and writes the wrong memory.
//
// Build (bench/gpu/transpose64.sh does it all): the emitted transpose_naive.cu and transpose_smem.cu
// next to this file, then  nvcc -O3 -arch=sm_90 -o transpose64 transpose64.cu
// Run:  ./transpose64 65536 [control]
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>
#include "transpose_naive.cu"
#include "transpose_smem.cu"

#define CK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
  std::printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); std::exit(2); } } while (0)

__device__ __host__ inline float value_at(unsigned long long i) { return (float)((i * 2654435761ull) % 1000003ull); }

__global__ void fill(float* a, unsigned long long count) {
  for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < count; i += (unsigned long long)gridDim.x * blockDim.x)
    a[i] = value_at(i);
}

// every element: out[c*n + r] must be in[r*n + c]; counts mismatches, remembers the smallest bad flat index
__global__ void check(const float* in, const float* out, unsigned long long n, unsigned long long* bad, unsigned long long* first) {
  const unsigned long long count = n * n;
  for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < count; i += (unsigned long long)gridDim.x * blockDim.x) {
    const unsigned long long r = i / n, c = i % n;
    if (out[c * n + r] != in[i]) { atomicAdd(bad, 1ull); atomicMin(first, i); }
  }
}

// the 32-bit control: the expression layout emitted before 64-bit indexing, in `int`
extern "C" __global__ void transpose_int32(const float* __restrict__ in, float* __restrict__ out, int n) {
  const int bx = blockIdx.x, by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
  for (int jj = 0; jj < 32; jj += 8) out[32*by + jj + n*(32*bx + tx) + ty] = in[32*bx + n*(32*by + jj + ty) + tx];
}

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 65536;
  const bool control = argc > 2 && std::strcmp(argv[2], "control") == 0;
  const unsigned long long count = (unsigned long long)n * n, bytes = count * sizeof(float);
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  std::printf("device %s, n = %d, %llu elements (%.1f GiB per matrix)\n", prop.name, n, count, bytes / 1073741824.0);
  float *in, *out;
  unsigned long long *bad, *first;
  CK(cudaMalloc(&in, bytes));
  CK(cudaMalloc(&out, bytes));
  CK(cudaMalloc(&bad, 8));
  CK(cudaMalloc(&first, 8));
  fill<<<4096, 256>>>(in, count);
  CK(cudaGetLastError());
  const dim3 grid(n / 32, n / 32), block(32, 8);
  struct K { const char* name; void (*f)(const float*, float*, int); };
  K kernels[] = { { "transpose_naive (emitted)", transpose_naive }, { "transpose_smem (emitted)", transpose_smem } };
  K ctl[] = { { "transpose_int32 (control: 32-bit indices)", transpose_int32 } };
  K* list = control ? ctl : kernels;
  const int nk = control ? 1 : 2;
  int failures = 0;
  for (int k = 0; k < nk; ++k) {
    CK(cudaMemset(out, 0xff, bytes));  // NaN everywhere: an element never written cannot pass
    cudaEvent_t t0, t1;
    CK(cudaEventCreate(&t0));
    CK(cudaEventCreate(&t1));
    CK(cudaEventRecord(t0));
    list[k].f<<<grid, block>>>(in, out, n);
    CK(cudaEventRecord(t1));
    cudaError_t launched = cudaEventSynchronize(t1);
    if (launched == cudaSuccess) launched = cudaGetLastError();
    if (launched != cudaSuccess) {
      std::printf("%s: n=%d: the kernel failed: %s\n", list[k].name, n, cudaGetErrorString(launched));
      return 1;
    }
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, t0, t1));
    const unsigned long long zero = 0, big = ~0ull;
    CK(cudaMemcpy(bad, &zero, 8, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(first, &big, 8, cudaMemcpyHostToDevice));
    check<<<8192, 256>>>(in, out, (unsigned long long)n, bad, first);
    CK(cudaGetLastError());
    unsigned long long nbad = 0, f = 0;
    CK(cudaMemcpy(&nbad, bad, 8, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(&f, first, 8, cudaMemcpyDeviceToHost));
    std::printf("%s: n=%d: %llu of %llu elements wrong, %.2f ms (%.0f GB/s)\n", list[k].name, n, nbad, count, ms, 2.0 * bytes / ms / 1e6);
    if (nbad) std::printf("  first wrong element: row %llu, col %llu\n", f / n, f % n);
    // a few positions, printed: the corners and one past 2^31 elements
    const unsigned long long rs[] = { 0, 0, (unsigned long long)n - 1, (unsigned long long)n - 1, 40000 }, cs[] = { 0, (unsigned long long)n - 1, 0, (unsigned long long)n - 1, 12345 };
    for (int s = 0; s < 5; ++s) {
      float o;
      CK(cudaMemcpy(&o, out + (cs[s] * n + rs[s]), 4, cudaMemcpyDeviceToHost));
      std::printf("  in[%llu][%llu] = %.0f, out[%llu][%llu] = %.0f %s\n", rs[s], cs[s], value_at(rs[s] * n + cs[s]), cs[s], rs[s], o, o == value_at(rs[s] * n + cs[s]) ? "ok" : "WRONG");
    }
    if (nbad) ++failures;
  }
  return failures ? 1 : 0;
}
