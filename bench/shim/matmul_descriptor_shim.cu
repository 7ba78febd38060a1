// bench/matmul_descriptor.py's entry point into tilec's tensor-descriptor matmul
// (examples/matmul_descriptor/matmul_descriptor.cpp, generated into bench/gen/matmul_descriptor.cu
// with the instantiations of bench/kernels.txt: <T, 128, 256, 64, 8, 8, 3> for fp16 and bf16). The
// grid comes from the kernel's annotation. dtype: 0 = fp16, 1 = bf16. Returns the launch's
// cudaError_t, or TILEC_BENCH_NOT_GENERATED for another dtype.
#include "common.h"
#include "matmul_descriptor.cu"

TILEC_BENCH_EXPORT int tilec_matmul_descriptor(void *stream, int dtype, const void *a,
                                               const void *b, void *c, int M, int N, int K,
                                               int stride_am, int stride_bn, int stride_cm) {
  const cudaStream_t s = bench_stream(stream);
  switch (dtype) {
  case 0:
    return launch_matmul_descriptor_kernel_f16_128_256_64_8_8_3(
        s, static_cast<const __half *>(a), static_cast<const __half *>(b), static_cast<__half *>(c),
        M, N, K, stride_am, stride_bn, stride_cm);
  case 1:
    return launch_matmul_descriptor_kernel_bf16_128_256_64_8_8_3(
        s, static_cast<const __nv_bfloat16 *>(a), static_cast<const __nv_bfloat16 *>(b),
        static_cast<__nv_bfloat16 *>(c), M, N, K, stride_am, stride_bn, stride_cm);
  default:
    return TILEC_BENCH_NOT_GENERATED;
  }
}
