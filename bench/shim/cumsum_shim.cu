// bench/cumsum.py's entry points into examples/cumsum (generated into bench/gen/cumsum.cu):
// rows_cumsum (16 rows of up to 128 columns a program) and row_cumsum_long (a row a program,
// 2048 columns at a time); dtype 0 = fp32, 1 = fp16. Each returns the launch's cudaError_t, or
// TILEC_BENCH_NOT_GENERATED for another dtype.
#include "common.h"
#include "cumsum.cu"

TILEC_BENCH_EXPORT int tilec_rows_cumsum(void *stream, int dtype, const void *x, void *y, int m,
                                         int n, int stride) {
  const cudaStream_t s = bench_stream(stream);
  switch (dtype) {
  case 0:
    return launch_rows_cumsum_f32_16_128(s, static_cast<const float *>(x), static_cast<float *>(y),
                                         m, n, stride);
  case 1:
    return launch_rows_cumsum_f16_16_128(s, static_cast<const __half *>(x),
                                         static_cast<__half *>(y), m, n, stride);
  default:
    return TILEC_BENCH_NOT_GENERATED;
  }
}

TILEC_BENCH_EXPORT int tilec_row_cumsum_long(void *stream, int dtype, const void *x, void *y, int m,
                                             int n, int stride) {
  const cudaStream_t s = bench_stream(stream);
  switch (dtype) {
  case 0:
    return launch_row_cumsum_long_f32_2048(s, static_cast<const float *>(x),
                                           static_cast<float *>(y), m, n, stride);
  case 1:
    return launch_row_cumsum_long_f16_2048(s, static_cast<const __half *>(x),
                                           static_cast<__half *>(y), m, n, stride);
  default:
    return TILEC_BENCH_NOT_GENERATED;
  }
}
