// Times tilec's tensor-descriptor matmul (examples/matmul_descriptor, Triton tutorial 09's
// descriptor kernel: B given as N x K) beside tilec's pointer matmul (examples/matmul, tutorial 03:
// B as K x N) at the same configuration, 128x256x64 on 8 warps and 3 stages (both warp-specialized
// and persistent on sm_90a), and cuBLAS (fp16 in, fp32 accumulate, fp16 out; B as N x K, the
// layout cuBLAS's TN GEMM reads fastest), in one process; then the descriptor kernel in bf16
// beside cuBLAS in bf16 (the pointer example is fp16 only). Not in CI: bench/matmul_descriptor.sh
// builds and runs it on a GPU. Each timing is the median of 20 runs after 5 warm-up runs
// (cudaEvent); the kernels are interleaved shape by shape so that the GPU's clock drifts alike.
// The results are checked elsewhere (tools/gpu-check.sh); here the two tilec outputs are compared
// with each other and with cuBLAS's at each shape (max |difference| printed), so that a timing of
// a wrong kernel shows.
#include <cublas_v2.h>
#include <cuda_bf16.h>

#include "gen/matmul.cu"
#include "gen/matmul_descriptor.cu"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#define CHECK(x)                                                                                   \
  do {                                                                                             \
    auto e_ = (x);                                                                                 \
    if (e_ != 0) {                                                                                 \
      std::fprintf(stderr, "%s failed: %d at line %d\n", #x, int(e_), __LINE__);                   \
      std::exit(1);                                                                                \
    }                                                                                              \
  } while (0)

template <class F> float medianMs(F run) {
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  for (int i = 0; i < 5; ++i)
    run();
  std::vector<float> ms;
  for (int i = 0; i < 20; ++i) {
    CHECK(cudaEventRecord(start));
    run();
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    float t = 0;
    CHECK(cudaEventElapsedTime(&t, start, stop));
    ms.push_back(t);
  }
  std::sort(ms.begin(), ms.end());
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  return ms[ms.size() / 2];
}

float toFloat(__half x) { return __half2float(x); }
float toFloat(__nv_bfloat16 x) { return __bfloat162float(x); }

template <class T> float maxAbsDiff(const T *x, const T *y, size_t n) {
  std::vector<T> a(n), b(n);
  CHECK(cudaMemcpy(a.data(), x, n * 2, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(b.data(), y, n * 2, cudaMemcpyDeviceToHost));
  float m = 0;
  for (size_t i = 0; i < n; ++i)
    m = std::max(m, std::fabs(toFloat(a[i]) - toFloat(b[i])));
  return m;
}

// bf16: the descriptor kernel and cuBLAS at one shape.
void bf16Row(cublasHandle_t handle, int M, int N, int K) {
  std::mt19937 rng(M + N + K + 1);
  std::uniform_real_distribution<float> u(-1, 1);
  std::vector<__nv_bfloat16> ha(size_t(M) * K), hbt(size_t(N) * K);
  for (auto &v : ha)
    v = __float2bfloat16(u(rng));
  for (auto &v : hbt)
    v = __float2bfloat16(u(rng));
  __nv_bfloat16 *a, *bt, *c1, *c3;
  CHECK(cudaMalloc(&a, ha.size() * 2));
  CHECK(cudaMalloc(&bt, hbt.size() * 2));
  CHECK(cudaMalloc(&c1, size_t(M) * N * 2));
  CHECK(cudaMalloc(&c3, size_t(M) * N * 2));
  CHECK(cudaMemcpy(a, ha.data(), ha.size() * 2, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(bt, hbt.data(), hbt.size() * 2, cudaMemcpyHostToDevice));
  auto descriptor = [&] {
    CHECK(launch_matmul_descriptor_kernel_bf16_128_256_64_8_8_3(cudaStream_t{}, a, bt, c1, M, N, K,
                                                                K, K, N));
  };
  const float one = 1, zero = 0;
  auto cublas = [&] {
    CHECK(cublasGemmEx(handle, CUBLAS_OP_T, CUBLAS_OP_N, N, M, K, &one, bt, CUDA_R_16BF, K, a,
                       CUDA_R_16BF, K, &zero, c3, CUDA_R_16BF, N, CUBLAS_COMPUTE_32F,
                       CUBLAS_GEMM_DEFAULT));
  };
  descriptor();
  cublas();
  CHECK(cudaDeviceSynchronize());
  const float d13 = maxAbsDiff(c1, c3, size_t(M) * N);
  float td = 0, tc = 0;
  for (int round = 0; round < 3; ++round) {
    const float d = medianMs(descriptor), cb = medianMs(cublas);
    td = round ? std::min(td, d) : d;
    tc = round ? std::min(tc, cb) : cb;
  }
  auto tf = [&](float ms) { return 2.0 * M * N * K / (ms * 1e-3) / 1e12; };
  std::printf("| %dx%dx%d | %.1f | %.1f | %.3f | %.3g |\n", M, N, K, tf(td), tf(tc), tc / td, d13);
  for (__nv_bfloat16 *p : {a, bt, c1, c3})
    CHECK(cudaFree(p));
}

int main() {
  cublasHandle_t handle;
  CHECK(cublasCreate(&handle));
  const int shapes[][3] = {
      {4096, 4096, 4096}, {8192, 8192, 8192}, {4096, 11008, 4096}, {4096, 4096, 11008}};
  std::printf("| M x N x K | tilec descriptor TF/s | tilec pointer TF/s | cuBLAS TF/s | descriptor "
              "/ pointer | descriptor / cuBLAS | max diff (desc-ptr, desc-cuBLAS) |\n");
  std::printf("|---|---:|---:|---:|---:|---:|---|\n");
  for (auto &s : shapes) {
    const int M = s[0], N = s[1], K = s[2];
    std::mt19937 rng(M + N + K);
    std::uniform_real_distribution<float> u(-1, 1);
    std::vector<__half> ha(size_t(M) * K), hbt(size_t(N) * K), hb(size_t(K) * N);
    for (auto &v : ha)
      v = __float2half(u(rng));
    for (int n = 0; n < N; ++n)
      for (int k = 0; k < K; ++k) {
        hbt[size_t(n) * K + k] = __float2half(u(rng));
        hb[size_t(k) * N + n] = hbt[size_t(n) * K + k];
      }
    __half *a, *bt, *b, *c1, *c2, *c3;
    CHECK(cudaMalloc(&a, ha.size() * 2));
    CHECK(cudaMalloc(&bt, hbt.size() * 2));
    CHECK(cudaMalloc(&b, hb.size() * 2));
    for (__half **c : {&c1, &c2, &c3})
      CHECK(cudaMalloc(c, size_t(M) * N * 2));
    CHECK(cudaMemcpy(a, ha.data(), ha.size() * 2, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(bt, hbt.data(), hbt.size() * 2, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(b, hb.data(), hb.size() * 2, cudaMemcpyHostToDevice));
    auto descriptor = [&] {
      CHECK(launch_matmul_descriptor_kernel_f16_128_256_64_8_8_3(cudaStream_t{}, a, bt, c1, M, N, K,
                                                                 K, K, N));
    };
    auto pointer = [&] {
      CHECK(launch_matmul_kernel_128_256_64_8_8_3_0(cudaStream_t{}, a, b, c2, M, N, K, K, 1, N, 1,
                                                    N, 1));
    };
    const float one = 1, zero = 0;
    // cuBLAS is column-major: it computes C^T (N x M, C row-major) = Bt (N x K, stored as K x N,
    // transposed) times A^T (K x M, A row-major as stored).
    auto cublas = [&] {
      CHECK(cublasGemmEx(handle, CUBLAS_OP_T, CUBLAS_OP_N, N, M, K, &one, bt, CUDA_R_16F, K, a,
                         CUDA_R_16F, K, &zero, c3, CUDA_R_16F, N, CUBLAS_COMPUTE_32F,
                         CUBLAS_GEMM_DEFAULT));
    };
    descriptor();
    pointer();
    cublas();
    CHECK(cudaDeviceSynchronize());
    const float d12 = maxAbsDiff(c1, c2, size_t(M) * N), d13 = maxAbsDiff(c1, c3, size_t(M) * N);
    float td = 0, tp = 0, tc = 0;
    for (int round = 0; round < 3; ++round) { // interleaved; the best median of three rounds
      const float d = medianMs(descriptor), p = medianMs(pointer), cb = medianMs(cublas);
      td = round ? std::min(td, d) : d;
      tp = round ? std::min(tp, p) : p;
      tc = round ? std::min(tc, cb) : cb;
    }
    auto tf = [&](float ms) { return 2.0 * M * N * K / (ms * 1e-3) / 1e12; };
    std::printf("| %dx%dx%d | %.1f | %.1f | %.1f | %.3f | %.3f | %.3g, %.3g |\n", M, N, K, tf(td),
                tf(tp), tf(tc), tp / td, tc / td, d12, d13);
    for (__half *p : {a, bt, b, c1, c2, c3})
      CHECK(cudaFree(p));
  }
  std::printf(
      "\nbf16:\n\n| M x N x K | tilec descriptor TF/s | cuBLAS TF/s | descriptor / cuBLAS | "
      "max diff (desc-cuBLAS) |\n|---|---:|---:|---:|---|\n");
  for (auto &s : shapes)
    bf16Row(handle, s[0], s[1], s[2]);
  CHECK(cublasDestroy(handle));
  return 0;
}
