#include "common.h"
#include "transpose.cu"

TILEC_BENCH_EXPORT int tilec_transpose(void *stream, const float *in, float *out, int m, int n,
                                       int in_stride, int out_stride) {
  return launch_transpose_kernel_64_64(bench_stream(stream), in, out, m, n, in_stride, out_stride);
}
