// bench/quantize.py's entry point into examples/quantize (generated into bench/gen/quantize.cu):
// rows of fp16 quantized to int8 (to_fp8 0) or rows of bf16 to fp8 e4m3 (to_fp8 1), one program a
// row, BLOCK the next power of two of N (1024 or 4096). Returns the launch's cudaError_t, or
// TILEC_BENCH_NOT_GENERATED for N above 4096.
#include "common.h"
#include "quantize.cu"

TILEC_BENCH_EXPORT int tilec_quantize(void *stream, int to_fp8, const void *x, void *q,
                                      float *scales, int M, int N, int stride) {
  cudaStream_t s = bench_stream(stream);
  const dim3 grid(M);
  if (N > 4096)
    return TILEC_BENCH_NOT_GENERATED;
  if (!to_fp8) {
    auto *xi = static_cast<const __half *>(x);
    auto *qi = static_cast<int8_t *>(q);
    return N <= 1024 ? launch_quantize_rows_f16_i8_1024(grid, s, xi, qi, scales, M, N, stride)
                     : launch_quantize_rows_f16_i8_4096(grid, s, xi, qi, scales, M, N, stride);
  }
  auto *xf = static_cast<const __nv_bfloat16 *>(x);
  auto *qf = static_cast<__nv_fp8_e4m3 *>(q);
  return N <= 1024 ? launch_quantize_rows_bf16_f8e4m3_1024(grid, s, xf, qf, scales, M, N, stride)
                   : launch_quantize_rows_bf16_f8e4m3_4096(grid, s, xf, qf, scales, M, N, stride);
}
