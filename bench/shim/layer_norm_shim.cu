#include "common.h"
#include "layer_norm.cu"

TILEC_BENCH_EXPORT int tilec_layer_norm(void *stream, int block, int warps, const __half *x,
                                        __half *y, const __half *w, const __half *b, float *mean,
                                        float *rstd, int stride, int rows, int cols, float eps) {
  cudaStream_t s = bench_stream(stream);
#define TILEC_BENCH_CASE(B, W)                                                                     \
  if (block == B && warps == W)                                                                    \
    return launch_layer_norm_fwd_##B##_##W##_1(s, x, y, w, b, mean, rstd, stride, rows, cols, eps);
  TILEC_BENCH_CASE(512, 2)
  TILEC_BENCH_CASE(1024, 4)
  TILEC_BENCH_CASE(2048, 8)
  TILEC_BENCH_CASE(4096, 8)
  TILEC_BENCH_CASE(8192, 8)
  TILEC_BENCH_CASE(16384, 8)
#undef TILEC_BENCH_CASE
  return TILEC_BENCH_NOT_GENERATED;
}

// Rows wider than the block: BLOCK 4096 on 8 warps, each chunk loaded while the one before is
// computed (NUM_STAGES = 2).
TILEC_BENCH_EXPORT int tilec_layer_norm_looped(void *stream, const __half *x, __half *y, const __half *w,
                                               const __half *b, float *mean, float *rstd, int stride, int rows,
                                               int cols, float eps) {
  return launch_layer_norm_fwd_4096_8_2(bench_stream(stream), x, y, w, b, mean, rstd, stride, rows, cols, eps);
}
