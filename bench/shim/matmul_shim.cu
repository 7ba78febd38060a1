// bench/matmul.py's entry point into tilec's matmul (examples/matmul/matmul.cpp, generated into
// bench/gen/matmul.cu with the instantiations of bench/kernels.txt). The grid comes from the
// kernel's annotation (cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N)), so the launchers take none.
#include "common.h"
#include "matmul.cu"

// config: 0 = <64, 64, 32, 8, 4, false> (the example's own), 1 = <128, 64, 32, 8, 4, false>,
// 2 = <128, 128, 32, 8, 8, false> (BLOCK_M, BLOCK_N, BLOCK_K, GROUP_M, NUM_WARPS, RELU). Returns
// the launch's cudaError_t, or TILEC_BENCH_NOT_GENERATED for another config.
TILEC_BENCH_EXPORT int tilec_matmul(void *stream, int config, const void *a, const void *b, void *c,
                                    int M, int N, int K, int stride_am, int stride_ak,
                                    int stride_bk, int stride_bn, int stride_cm, int stride_cn) {
  const cudaStream_t s = bench_stream(stream);
  const auto *pa = static_cast<const __half *>(a);
  const auto *pb = static_cast<const __half *>(b);
  auto *pc = static_cast<__half *>(c);
  switch (config) {
  case 0:
    return launch_matmul_kernel_64_64_32_8_4_0(s, pa, pb, pc, M, N, K, stride_am, stride_ak,
                                               stride_bk, stride_bn, stride_cm, stride_cn);
  case 1:
    return launch_matmul_kernel_128_64_32_8_4_0(s, pa, pb, pc, M, N, K, stride_am, stride_ak,
                                                stride_bk, stride_bn, stride_cm, stride_cn);
  case 2:
    return launch_matmul_kernel_128_128_32_8_8_0(s, pa, pb, pc, M, N, K, stride_am, stride_ak,
                                                 stride_bk, stride_bn, stride_cm, stride_cn);
  default:
    return TILEC_BENCH_NOT_GENERATED;
  }
}
