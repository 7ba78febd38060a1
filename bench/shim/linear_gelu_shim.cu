// bench/linear_gelu.py's entry point into tilec's fused linear + bias + GELU
// (examples/linear_gelu/linear_gelu.cpp, generated into bench/gen/linear_gelu.cu with the
// instantiations of bench/kernels.txt: <T, 128, 256, 64, 8, 8, 3> for fp16 and bf16). The grid
// comes from the kernel's annotation. dtype: 0 = fp16, 1 = bf16. Returns the launch's cudaError_t,
// or TILEC_BENCH_NOT_GENERATED for another dtype.
#include "common.h"
#include "linear_gelu.cu"

TILEC_BENCH_EXPORT int tilec_linear_gelu(void *stream, int dtype, const void *x, const void *w,
                                         const void *bias, void *out, int M, int N, int K,
                                         int stride_xm, int stride_wn, int stride_om) {
  const cudaStream_t s = bench_stream(stream);
  switch (dtype) {
  case 0:
    return launch_linear_gelu_f16_128_256_64_8_8_3(
        s, static_cast<const __half *>(x), static_cast<const __half *>(w),
        static_cast<const __half *>(bias), static_cast<__half *>(out), M, N, K, stride_xm,
        stride_wn, stride_om);
  case 1:
    return launch_linear_gelu_bf16_128_256_64_8_8_3(
        s, static_cast<const __nv_bfloat16 *>(x), static_cast<const __nv_bfloat16 *>(w),
        static_cast<const __nv_bfloat16 *>(bias), static_cast<__nv_bfloat16 *>(out), M, N, K,
        stride_xm, stride_wn, stride_om);
  default:
    return TILEC_BENCH_NOT_GENERATED;
  }
}
