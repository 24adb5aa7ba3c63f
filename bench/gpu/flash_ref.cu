// The CUDA host of flash_ref.h: random Q, K, V (the seed's), the kernel timed with CUDA
// events after a warm-up, L2 flushed before each run (as polyfuse's harnesses do), rows
// checked against a float64 reference, one JSON line.
// Build: nvcc -O3 -arch=native -DFR_D=64 flash_ref.cu -o flash_ref_d64
// Usage: ./flash_ref_d64 S [REPEAT]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>
#define FR_KERNEL __global__
#define FR_GLOBAL
#define FR_SHARED __shared__
#define FR_TID ((int)threadIdx.x)
#define FR_BID ((int)blockIdx.x)
#define FR_SYNC __syncthreads()
#define FR_EXP expf
#include "flash_ref.h"

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_)); exit(1); } } while (0)

int main(int argc, char** argv) {
  const int S = argc > 1 ? atoi(argv[1]) : 4096, repeat = argc > 2 ? atoi(argv[2]) : 20;
  const int D = FR_D;
  const float scale = 1.0f / std::sqrt(float(D));
  std::vector<float> q(size_t(S) * D), k(q.size()), v(q.size()), o(q.size());
  unsigned s = 12345u;
  auto rnd = [&] { s = s * 1664525u + 1013904223u; return float(s >> 8) / float(1u << 24) * 2.0f - 1.0f; };
  for (auto* a : {&q, &k, &v}) for (float& x : *a) x = rnd();
  float *dq, *dk, *dv, *dout;
  const size_t bytes = q.size() * sizeof(float);
  CHECK(cudaMalloc(&dq, bytes)); CHECK(cudaMalloc(&dk, bytes)); CHECK(cudaMalloc(&dv, bytes)); CHECK(cudaMalloc(&dout, bytes));
  CHECK(cudaMemcpy(dq, q.data(), bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dk, k.data(), bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dv, v.data(), bytes, cudaMemcpyHostToDevice));
  int l2 = 0;
  CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0));
  const size_t flush_n = 2 * size_t(l2 > 0 ? l2 : 1 << 22);
  void* flush;
  CHECK(cudaMalloc(&flush, flush_n));
  const int blocks = (S + FR_BR - 1) / FR_BR;
  flash_ref<<<blocks, FR_THREADS>>>(dq, dk, dv, dout, S, S, scale);  // warm-up
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a)); CHECK(cudaEventCreate(&b));
  std::vector<float> ms;
  for (int r = 0; r < repeat; ++r) {
    CHECK(cudaMemset(flush, r & 0xff, flush_n));
    CHECK(cudaEventRecord(a));
    flash_ref<<<blocks, FR_THREADS>>>(dq, dk, dv, dout, S, S, scale);
    CHECK(cudaEventRecord(b));
    CHECK(cudaEventSynchronize(b));
    float t = 0;
    CHECK(cudaEventElapsedTime(&t, a, b));
    ms.push_back(t);
  }
  CHECK(cudaMemcpy(o.data(), dout, bytes, cudaMemcpyDeviceToHost));
  // Rows spread over S against float64; NaN anywhere fails.
  double worst = 0;
  bool finite = true;
  for (float x : o) finite = finite && std::isfinite(x);
  for (int i = 0; i < S; i += std::max(1, S / 64)) {
    std::vector<double> p(S);
    double mx = -INFINITY, sum = 0;
    for (int j = 0; j < S; ++j) {
      double d = 0;
      for (int e = 0; e < D; ++e) d += double(q[size_t(i) * D + e]) * k[size_t(j) * D + e];
      p[j] = d * scale;
      mx = std::max(mx, p[j]);
    }
    for (int j = 0; j < S; ++j) sum += p[j] = std::exp(p[j] - mx);
    for (int e = 0; e < D; ++e) {
      double ref = 0;
      for (int j = 0; j < S; ++j) ref += p[j] * v[size_t(j) * D + e];
      ref /= sum;
      worst = std::max(worst, std::abs(o[size_t(i) * D + e] - ref) / std::max(1e-3, std::abs(ref)));
    }
  }
  std::sort(ms.begin(), ms.end());
  const double median = repeat % 2 ? ms[repeat / 2] : (ms[repeat / 2 - 1] + ms[repeat / 2]) / 2;
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  printf("JSON {\"program\": \"flash_ref\", \"S\": %d, \"D\": %d, \"run_median_ms\": %.6f, \"run_min_ms\": %.6f, "
         "\"run_max_ms\": %.6f, \"device\": \"%s\", \"verified\": %s, \"max_rel_error\": %.3g}\n",
         S, D, median, ms.front(), ms.back(), prop.name, finite && worst < 1e-3 ? "true" : "false", worst);
  return 0;
}
