// The reference a tiled contraction is compared with: cuBLAS SGEMM, C = A B, square N,
// row-major (computed as the column-major B^T A^T), timed with CUDA events over R runs
// after a warm-up. Prints "ms=<mean>" on one line.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 2048, repeat = argc > 2 ? std::atoi(argv[2]) : 20;
  const size_t elems = size_t(n) * n;
  std::vector<float> host(elems);
  for (size_t i = 0; i < elems; ++i) host[i] = float(i % 17) / 17.0f - 0.5f;
  float *a, *b, *c;
  cudaMalloc(&a, elems * sizeof(float));
  cudaMalloc(&b, elems * sizeof(float));
  cudaMalloc(&c, elems * sizeof(float));
  cudaMemcpy(a, host.data(), elems * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(b, host.data(), elems * sizeof(float), cudaMemcpyHostToDevice);
  cublasHandle_t h;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) { std::fprintf(stderr, "no cuBLAS\n"); return 2; }
  const float one = 1, zero = 0;
  cudaEvent_t ev[2];
  cudaEventCreate(&ev[0]);
  cudaEventCreate(&ev[1]);
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, b, n, a, n, &zero, c, n);  // warm-up
  cudaEventRecord(ev[0]);
  for (int r = 0; r < repeat; ++r) cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, b, n, a, n, &zero, c, n);
  cudaEventRecord(ev[1]);
  cudaEventSynchronize(ev[1]);
  float ms = 0;
  cudaEventElapsedTime(&ms, ev[0], ev[1]);
  std::printf("ms=%.6f n=%d\n", ms / repeat, n);
  cublasDestroy(h);
  return 0;
}
