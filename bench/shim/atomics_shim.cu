// bench/atomics.py's entry points into tests/kernels/atomics.cpp (generated into
// bench/gen/atomics.cu): the histogram (BLOCK 256, relaxed or acq_rel atomic adds into int bins)
// and the column sums over programs (32 x 64 blocks, relaxed float and int atomic adds). Each
// returns the launch's cudaError_t.
#include "atomics.cu"
#include "common.h"

TILEC_BENCH_EXPORT int tilec_histogram(void *stream, const int *x, int *hist, int n, int bins,
                                       int ordered) {
  return ordered ? launch_histogram_256_acq_rel(bench_stream(stream), x, hist, n, bins)
                 : launch_histogram_256_relaxed(bench_stream(stream), x, hist, n, bins);
}

TILEC_BENCH_EXPORT int tilec_column_sums(void *stream, const float *x, float *sums, int *counts,
                                         int rows, int cols, int stride) {
  return launch_column_sums_32_64(bench_stream(stream), x, sums, counts, rows, cols, stride);
}
