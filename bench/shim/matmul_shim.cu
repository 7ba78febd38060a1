// bench/matmul.py's entry point into tilec's matmul (examples/matmul/matmul.cpp, generated into
// bench/gen/matmul.cu with the instantiations of bench/kernels.txt). The grid comes from the
// kernel's annotation (cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N)), so the launchers take none.
#include "common.h"
#include "matmul.cu"

// config: 0 = <64, 64, 32, 8, 4, 3, false> (the example's own), 1 = <128, 64, 32, 8, 4, 3, false>,
// 2 = <128, 128, 32, 8, 8, 2, false>, 3 = <128, 128, 32, 8, 8, 1, false>, 4 = <128, 128, 32, 8, 8, 3,
// false>, 5 = <128, 128, 32, 8, 4, 4, false>, 6 = <128, 256, 32, 8, 8, 3, false>, 7 = <128, 128, 64,
// 8, 8, 3, false>, 8 = <128, 128, 64, 8, 4, 3, false>, 9 = <256, 128, 32, 8, 8, 3, false>, 10 = <128,
// 128, 32, 8, 4, 5, false>, 11 = <128, 256, 32, 8, 8, 4, false>, 12 = <256, 128, 32, 8, 8, 4, false>,
// 13 = <128, 256, 64, 8, 8, 3, false>, 14 = <256, 128, 64, 8, 8, 3, false>, 15 = <128, 256, 32, 8, 8,
// 6, false> (BLOCK_M, BLOCK_N, BLOCK_K, GROUP_M, NUM_WARPS, NUM_STAGES, RELU; bench/matmul.py's
// CONFIGS). Returns the launch's cudaError_t, or TILEC_BENCH_NOT_GENERATED for another config.
TILEC_BENCH_EXPORT int tilec_matmul(void *stream, int config, const void *a, const void *b, void *c,
                                    int M, int N, int K, int stride_am, int stride_ak,
                                    int stride_bk, int stride_bn, int stride_cm, int stride_cn) {
  const cudaStream_t s = bench_stream(stream);
  const auto *pa = static_cast<const __half *>(a);
  const auto *pb = static_cast<const __half *>(b);
  auto *pc = static_cast<__half *>(c);
  switch (config) {
  case 0:
    return launch_matmul_kernel_64_64_32_8_4_3_0(s, pa, pb, pc, M, N, K, stride_am, stride_ak,
                                               stride_bk, stride_bn, stride_cm, stride_cn);
  case 1:
    return launch_matmul_kernel_128_64_32_8_4_3_0(s, pa, pb, pc, M, N, K, stride_am, stride_ak,
                                                stride_bk, stride_bn, stride_cm, stride_cn);
  case 2:
    return launch_matmul_kernel_128_128_32_8_8_2_0(s, pa, pb, pc, M, N, K, stride_am, stride_ak,
                                                   stride_bk, stride_bn, stride_cm, stride_cn);
  case 3:
    return launch_matmul_kernel_128_128_32_8_8_1_0(s, pa, pb, pc, M, N, K, stride_am, stride_ak,
                                                   stride_bk, stride_bn, stride_cm, stride_cn);
  case 4:
    return launch_matmul_kernel_128_128_32_8_8_3_0(s, pa, pb, pc, M, N, K, stride_am, stride_ak,
                                                   stride_bk, stride_bn, stride_cm, stride_cn);
  case 5:
    return launch_matmul_kernel_128_128_32_8_4_4_0(s, pa, pb, pc, M, N, K, stride_am, stride_ak,
                                                   stride_bk, stride_bn, stride_cm, stride_cn);
  case 6:
    return launch_matmul_kernel_128_256_32_8_8_3_0(s, pa, pb, pc, M, N, K, stride_am, stride_ak,
                                                   stride_bk, stride_bn, stride_cm, stride_cn);
  case 7:
    return launch_matmul_kernel_128_128_64_8_8_3_0(s, pa, pb, pc, M, N, K, stride_am, stride_ak,
                                                   stride_bk, stride_bn, stride_cm, stride_cn);
  case 8:
    return launch_matmul_kernel_128_128_64_8_4_3_0(s, pa, pb, pc, M, N, K, stride_am, stride_ak,
                                                   stride_bk, stride_bn, stride_cm, stride_cn);
  case 9:
    return launch_matmul_kernel_256_128_32_8_8_3_0(s, pa, pb, pc, M, N, K, stride_am, stride_ak,
                                                   stride_bk, stride_bn, stride_cm, stride_cn);
  case 10:
    return launch_matmul_kernel_128_128_32_8_4_5_0(s, pa, pb, pc, M, N, K, stride_am, stride_ak,
                                                   stride_bk, stride_bn, stride_cm, stride_cn);
  case 11:
    return launch_matmul_kernel_128_256_32_8_8_4_0(s, pa, pb, pc, M, N, K, stride_am, stride_ak,
                                                   stride_bk, stride_bn, stride_cm, stride_cn);
  case 12:
    return launch_matmul_kernel_256_128_32_8_8_4_0(s, pa, pb, pc, M, N, K, stride_am, stride_ak,
                                                   stride_bk, stride_bn, stride_cm, stride_cn);
  case 13:
    return launch_matmul_kernel_128_256_64_8_8_3_0(s, pa, pb, pc, M, N, K, stride_am, stride_ak,
                                                   stride_bk, stride_bn, stride_cm, stride_cn);
  case 14:
    return launch_matmul_kernel_256_128_64_8_8_3_0(s, pa, pb, pc, M, N, K, stride_am, stride_ak,
                                                   stride_bk, stride_bn, stride_cm, stride_cn);
  case 15:
    return launch_matmul_kernel_128_256_32_8_8_6_0(s, pa, pb, pc, M, N, K, stride_am, stride_ak,
                                                   stride_bk, stride_bn, stride_cm, stride_cn);
  default:
    return TILEC_BENCH_NOT_GENERATED;
  }
}
