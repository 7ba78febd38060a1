// bench/gather.py's entry points into tests/kernels/gather.cpp (generated into
// bench/gen/gather.cu): flip_rows<1024> and gather_rows<1024> (a row of 1024 floats a program) and
// histograms<1024, 64, int32_t> (64 bins of each block of 1024 values). Each returns the launch's
// cudaError_t.
#include "common.h"
#include "gather.cu"

TILEC_BENCH_EXPORT int tilec_flip_rows(void *stream, const float *x, float *y, int rows) {
  return launch_flip_rows_1024(bench_stream(stream), x, y, rows, 1024);
}

TILEC_BENCH_EXPORT int tilec_gather_rows(void *stream, const float *x, const int *index, float *y,
                                         int rows) {
  return launch_gather_rows_1024(bench_stream(stream), x, index, y, rows);
}

TILEC_BENCH_EXPORT int tilec_histograms(void *stream, const int *x, int *counts, int n) {
  return launch_histograms_1024_64_i32(bench_stream(stream), x, counts, n);
}
