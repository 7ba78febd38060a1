// bench/shapes.py's entry points into tests/kernels/shapes.cpp (generated into bench/gen/shapes.cu):
// complex_pairs<1024, float> (tl::split, tl::join and tl::interleave of 1024 interleaved complex
// numbers a program) and group_max<8, 1024> (tl::max of a block of 1024 values reshaped to 8 rows).
// Each returns the launch's cudaError_t.
#include "common.h"
#include "shapes.cu"

TILEC_BENCH_EXPORT int tilec_complex_pairs(void *stream, const float *z, const float *w, float *out,
                                           float *conj, int n) {
  return launch_complex_pairs_1024_f32(bench_stream(stream), z, w, out, conj, n);
}

TILEC_BENCH_EXPORT int tilec_group_max(void *stream, const float *x, float *out, int n) {
  return launch_group_max_8_1024(bench_stream(stream), x, out, n);
}
