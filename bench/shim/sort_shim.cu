// bench/sort.py's entry points into tests/kernels/sort.cpp (generated into bench/gen/sort.cu):
// sort_blocks<1024, false, float> and sort_blocks<256, true, tl::half> (each block of values sorted
// by tl::sort, ascending / descending). Each returns the launch's cudaError_t.
#include "common.h"
#include "sort.cu"

TILEC_BENCH_EXPORT int tilec_sort_f32(void *stream, const float *x, float *out, int n) {
  return launch_sort_blocks_1024_0_f32(bench_stream(stream), x, out, n);
}

TILEC_BENCH_EXPORT int tilec_sort_f16_descending(void *stream, const void *x, void *out, int n) {
  return launch_sort_blocks_256_1_f16(bench_stream(stream), static_cast<const __half *>(x),
                                      static_cast<__half *>(out), n);
}
