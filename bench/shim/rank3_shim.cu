// bench/rank3.py's entry point into tests/kernels/rank3.cpp (generated into bench/gen/rank3.cu):
// heads<BM, H, D> (rows of H heads of D floats as a rank-3 tile: per-head sums of squares, a
// head-major store through tl::permute, per-head (sum, max) joined and split). Returns the launch's
// cudaError_t, or TILEC_BENCH_NOT_GENERATED for meta-parameters that bench/kernels.txt lacks.
#include "common.h"
#include "rank3.cu"

TILEC_BENCH_EXPORT int tilec_heads(void *stream, int bm, int h, int d, const float *x, float *norms,
                                   float *head_major, float *pairs, float *sums, float *maxima,
                                   int rows) {
  cudaStream_t s = bench_stream(stream);
  if (bm == 16 && h == 4 && d == 32)
    return launch_heads_16_4_32(s, x, norms, head_major, pairs, sums, maxima, rows);
  if (bm == 32 && h == 4 && d == 32)
    return launch_heads_32_4_32(s, x, norms, head_major, pairs, sums, maxima, rows);
  if (bm == 8 && h == 8 && d == 64)
    return launch_heads_8_8_64(s, x, norms, head_major, pairs, sums, maxima, rows);
  return TILEC_BENCH_NOT_GENERATED;
}
