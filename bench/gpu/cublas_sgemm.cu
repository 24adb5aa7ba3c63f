// The reference a tiled contraction is compared with: cuBLAS SGEMM, C = A B with A M x K
// and B K x N row-major (computed as the column-major B^T A^T), on FP32 units or, with
// mode tf32, on tensor cores with TF32 operands (CUBLAS_TF32_TENSOR_OP_MATH: what polyfuse's
// --numerics tf32 matches). Timed with CUDA events over R runs after a warm-up.
// Usage: cublas_sgemm M N K [R [fp32|tf32]]. Prints "ms=<mean> m= n= k= mode=" on one line.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

int main(int argc, char** argv) {
  const int m = argc > 1 ? std::atoi(argv[1]) : 2048, n = argc > 2 ? std::atoi(argv[2]) : m, k = argc > 3 ? std::atoi(argv[3]) : m;
  const int repeat = argc > 4 ? std::atoi(argv[4]) : 20;
  const char* mode = argc > 5 ? argv[5] : "fp32";
  const size_t most = size_t(m) * k > size_t(k) * n ? size_t(m) * k : size_t(k) * n;
  std::vector<float> host(most);
  for (size_t i = 0; i < most; ++i) host[i] = float(i % 17) / 17.0f - 0.5f;
  float *a, *b, *c;
  cudaMalloc(&a, size_t(m) * k * sizeof(float));
  cudaMalloc(&b, size_t(k) * n * sizeof(float));
  cudaMalloc(&c, size_t(m) * n * sizeof(float));
  cudaMemcpy(a, host.data(), size_t(m) * k * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(b, host.data(), size_t(k) * n * sizeof(float), cudaMemcpyHostToDevice);
  cublasHandle_t h;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) { std::fprintf(stderr, "no cuBLAS\n"); return 2; }
  cublasSetMathMode(h, std::strcmp(mode, "tf32") == 0 ? CUBLAS_TF32_TENSOR_OP_MATH : CUBLAS_DEFAULT_MATH);
  const float one = 1, zero = 0;
  cudaEvent_t ev[2];
  cudaEventCreate(&ev[0]);
  cudaEventCreate(&ev[1]);
  auto gemm = [&] { cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, b, n, a, k, &zero, c, n); };
  gemm();  // warm-up
  cudaEventRecord(ev[0]);
  for (int r = 0; r < repeat; ++r) gemm();
  cudaEventRecord(ev[1]);
  cudaEventSynchronize(ev[1]);
  float ms = 0;
  cudaEventElapsedTime(&ms, ev[0], ev[1]);
  std::printf("ms=%.6f m=%d n=%d k=%d mode=%s\n", ms / repeat, m, n, k, mode);
  cublasDestroy(h);
  return 0;
}
