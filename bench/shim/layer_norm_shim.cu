#include "common.h"
#include "layer_norm.cu"

TILEC_BENCH_EXPORT int tilec_layer_norm(void *stream, int block, int warps, const __half *x,
                                        __half *y, const __half *w, const __half *b, float *mean,
                                        float *rstd, int stride, int rows, int cols, float eps) {
  cudaStream_t s = bench_stream(stream);
#define TILEC_BENCH_CASE(B, W)                                                                     \
  if (block == B && warps == W)                                                                    \
    return launch_layer_norm_fwd_##B##_##W(s, x, y, w, b, mean, rstd, stride, rows, cols, eps);
  TILEC_BENCH_CASE(512, 2)
  TILEC_BENCH_CASE(1024, 4)
  TILEC_BENCH_CASE(2048, 8)
  TILEC_BENCH_CASE(4096, 8)
  TILEC_BENCH_CASE(8192, 8)
  TILEC_BENCH_CASE(16384, 8)
#undef TILEC_BENCH_CASE
  return TILEC_BENCH_NOT_GENERATED;
}
