// Needleman-Wunsch scoring tiles through a shared-memory buffer stored in anti-diagonal order
// (the LEGO paper's NW kernel). The DP wavefront walks a (BLOCK_SIZE+1)^2 tile one
// anti-diagonal at a time; storing the tile along its anti-diagonals makes the cells that one
// step touches contiguous in shared memory. antiDiagPermLEGO's body is generated from the
// permutation layout of the .layout file named above; `temp[i][j]` goes through it.
//
// Use from CuPy:  cp.RawModule(code=open(THIS_FILE).read()).get_function("nw_tiles")
//                 kernel((tiles,), (BLOCK_SIZE,), (reference, border, score, cp.int32(penalty)))
// Or build the self-checking program:  nvcc -DLAYOUT_HOST_MAIN -o nw THIS_FILE

#define BLOCK_SIZE (16)
#define TILE_N (BLOCK_SIZE + 1)

// LEGO: the anti-diagonal permutation of an n x n tile, (i, j) -> position in the buffer.
__host__ __device__ int antiDiagPermLEGO(int n, int i, int j) {
  return ((i + j - n <= -1) ? (
   i*j + i + ((i*i + i + j*j + j)/(2))
)
: (
   -i*j + 2*i*n + i + 2*j*n - n*n + 2*n - ((i*i + 3*i + j*j + 3*j)/(2)) - 1
));
}

// `temp[i][j]` over a flat buffer in anti-diagonal order.
struct AntiDiagRow {
  int* buff;
  int i;
  __device__ int& operator[](int j) const { return buff[antiDiagPermLEGO(TILE_N, i, j)]; }
};
struct AntiDiagTile {
  int* buff;
  __device__ AntiDiagRow operator[](int i) const { return AntiDiagRow{buff, i}; }
};

__device__ __forceinline__ int max3(int a, int b, int c) { return max(a, max(b, c)); }

// One block of BLOCK_SIZE threads fills one independent tile t:
//   reference[t][i][j], i, j < BLOCK_SIZE:  substitution scores
//   border[t][0][k],    k <= BLOCK_SIZE:    the tile's top row, score[t][0][k]
//   border[t][1][k],    k <= BLOCK_SIZE:    the tile's left column, score[t][k][0]
//   score[t][i][j],     i, j <= BLOCK_SIZE: the filled tile, row-major
extern "C" __global__ void __launch_bounds__(BLOCK_SIZE)
nw_tiles(const int* __restrict__ reference, const int* __restrict__ border, int* __restrict__ score, int penalty) {
  __shared__ int buff[TILE_N * TILE_N];
  __shared__ int ref[BLOCK_SIZE * BLOCK_SIZE];
  const AntiDiagTile temp{buff};
  const int t = blockIdx.x, tx = threadIdx.x;
  const int* r = reference + (long long)t * BLOCK_SIZE * BLOCK_SIZE;
  const int* top = border + (long long)t * 2 * TILE_N;
  const int* left = top + TILE_N;
  int* out = score + (long long)t * TILE_N * TILE_N;

  for (int k = tx; k < BLOCK_SIZE * BLOCK_SIZE; k += BLOCK_SIZE) ref[k] = r[k];
  if (tx == 0) temp[0][0] = top[0];
  temp[0][tx + 1] = top[tx + 1];
  temp[tx + 1][0] = left[tx + 1];
  __syncthreads();

  // Upper-left triangle: anti-diagonals i + j = m + 2 for m = 0 .. BLOCK_SIZE-1.
  for (int m = 0; m < BLOCK_SIZE; ++m) {
    if (tx <= m) {
      const int i = m - tx + 1, j = tx + 1;
      temp[i][j] = max3(temp[i - 1][j - 1] + ref[(i - 1) * BLOCK_SIZE + (j - 1)],
                        temp[i][j - 1] - penalty, temp[i - 1][j] - penalty);
    }
    __syncthreads();
  }
  // Lower-right triangle: anti-diagonals i + j = 2*BLOCK_SIZE - m for m = BLOCK_SIZE-2 .. 0.
  for (int m = BLOCK_SIZE - 2; m >= 0; --m) {
    if (tx <= m) {
      const int i = BLOCK_SIZE - tx, j = BLOCK_SIZE - m + tx;
      temp[i][j] = max3(temp[i - 1][j - 1] + ref[(i - 1) * BLOCK_SIZE + (j - 1)],
                        temp[i][j - 1] - penalty, temp[i - 1][j] - penalty);
    }
    __syncthreads();
  }

  for (int k = tx; k < TILE_N * TILE_N; k += BLOCK_SIZE) out[k] = temp[k / TILE_N][k % TILE_N];
}

#ifdef LAYOUT_HOST_MAIN
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
  std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); std::exit(2); } } while (0)

int main(int argc, char** argv) {
  const int tiles = argc > 1 ? std::atoi(argv[1]) : 1024, penalty = 10;
  if (tiles <= 0) { std::fprintf(stderr, "tiles must be positive\n"); return 2; }
  // The permutation must be a bijection of [0, TILE_N^2): check it on the host first.
  std::vector<int> seen(TILE_N * TILE_N, 0);
  for (int i = 0; i < TILE_N; ++i)
    for (int j = 0; j < TILE_N; ++j) {
      const int p = antiDiagPermLEGO(TILE_N, i, j);
      if (p < 0 || p >= TILE_N * TILE_N || seen[p]++) { std::fprintf(stderr, "antiDiagPermLEGO is not a bijection at (%d, %d)\n", i, j); return 1; }
    }
  const size_t nref = (size_t)tiles * BLOCK_SIZE * BLOCK_SIZE, nb = (size_t)tiles * 2 * TILE_N, ns = (size_t)tiles * TILE_N * TILE_N;
  std::vector<int> ref(nref), border(nb), got(ns), want(ns);
  unsigned s = 12345;
  for (auto& v : ref) { s = s * 1664525u + 1013904223u; v = (int)(s >> 28) - 8; }
  for (int t = 0; t < tiles; ++t)
    for (int k = 0; k < TILE_N; ++k) {
      border[(size_t)t * 2 * TILE_N + k] = -penalty * k + t % 7;
      border[(size_t)t * 2 * TILE_N + TILE_N + k] = -penalty * k + t % 7;
    }
  for (int t = 0; t < tiles; ++t) {
    int* w = &want[(size_t)t * TILE_N * TILE_N];
    const int* r = &ref[(size_t)t * BLOCK_SIZE * BLOCK_SIZE];
    for (int k = 0; k < TILE_N; ++k) { w[k] = border[(size_t)t * 2 * TILE_N + k]; w[k * TILE_N] = border[(size_t)t * 2 * TILE_N + TILE_N + k]; }
    for (int i = 1; i < TILE_N; ++i)
      for (int j = 1; j < TILE_N; ++j)
        w[i * TILE_N + j] = std::max(w[(i - 1) * TILE_N + j - 1] + r[(i - 1) * BLOCK_SIZE + j - 1],
                                     std::max(w[i * TILE_N + j - 1] - penalty, w[(i - 1) * TILE_N + j] - penalty));
  }
  int *d_ref, *d_border, *d_score;
  CHECK(cudaMalloc(&d_ref, nref * sizeof(int)));
  CHECK(cudaMalloc(&d_border, nb * sizeof(int)));
  CHECK(cudaMalloc(&d_score, ns * sizeof(int)));
  CHECK(cudaMemcpy(d_ref, ref.data(), nref * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_border, border.data(), nb * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_score, 0xff, ns * sizeof(int)));
  nw_tiles<<<tiles, BLOCK_SIZE>>>(d_ref, d_border, d_score, penalty);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(got.data(), d_score, ns * sizeof(int), cudaMemcpyDeviceToHost));
  size_t bad = 0;
  for (size_t k = 0; k < ns; ++k) bad += got[k] != want[k];
  std::printf("nw_tiles: %d tiles of %dx%d: %s (%zu wrong cells)\n", tiles, TILE_N, TILE_N, bad ? "WRONG" : "correct", bad);
  CHECK(cudaFree(d_ref));
  CHECK(cudaFree(d_border));
  CHECK(cudaFree(d_score));
  return bad ? 1 : 0;
}
#endif
