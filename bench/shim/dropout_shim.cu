// bench/dropout.py's entry points into tilec's random numbers: examples/dropout (tutorial 04's
// seeded dropout, BLOCK 1024; dtype 0 = fp32, 1 = fp16) and tests/kernels/random.cpp (randint, rand
// and randn of an int seed; randint4x, rand4x and randn4x of an int64 one, four values per offset),
// generated into bench/gen/dropout.cu and bench/gen/random.cu. Each returns the launch's
// cudaError_t, or TILEC_BENCH_NOT_GENERATED for another dtype.
#include "common.h"
#include "dropout.cu"
#include "random.cu"

TILEC_BENCH_EXPORT int tilec_dropout(void *stream, int dtype, const void *x, void *out, int n,
                                     float p, int seed) {
  const cudaStream_t s = bench_stream(stream);
  switch (dtype) {
  case 0:
    return launch_seeded_dropout_f32_1024(s, static_cast<const float *>(x),
                                          static_cast<float *>(out), n, p, seed);
  case 1:
    return launch_seeded_dropout_f16_1024(s, static_cast<const __half *>(x),
                                          static_cast<__half *>(out), n, p, seed);
  default:
    return TILEC_BENCH_NOT_GENERATED;
  }
}

TILEC_BENCH_EXPORT int tilec_random_streams(void *stream, uint32_t *bits, float *uniform,
                                            float *normal, int n, int seed) {
  return launch_random_streams_256(bench_stream(stream), bits, uniform, normal, n, seed);
}

TILEC_BENCH_EXPORT int tilec_random_streams4x(void *stream, uint32_t *bits, float *uniform,
                                              float *normal, int n, long long seed) {
  return launch_random_streams4x_128(bench_stream(stream), bits, uniform, normal, n, seed);
}
