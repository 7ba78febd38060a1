#include "common.h"
#include "softmax.cu"

TILEC_BENCH_EXPORT int tilec_softmax(void *stream, int block, int warps, float *out, const float *in,
                                     int in_stride, int out_stride, int rows, int cols) {
  cudaStream_t s = bench_stream(stream);
#define TILEC_BENCH_CASE(B, W)                                                                     \
  if (block == B && warps == W)                                                                    \
    return launch_softmax_kernel_f32_##B##_##W(s, out, in, in_stride, out_stride, rows, cols);
  TILEC_BENCH_CASE(256, 4)
  TILEC_BENCH_CASE(512, 4)
  TILEC_BENCH_CASE(1024, 4)
  TILEC_BENCH_CASE(2048, 8)
  TILEC_BENCH_CASE(4096, 16)
  TILEC_BENCH_CASE(8192, 16)
  TILEC_BENCH_CASE(16384, 16)
#undef TILEC_BENCH_CASE
  return TILEC_BENCH_NOT_GENERATED;
}

// Rows of any width, in 4096-wide chunks on 8 warps (softmax_looped).
TILEC_BENCH_EXPORT int tilec_softmax_looped(void *stream, float *out, const float *in, int in_stride, int out_stride,
                                            int rows, int cols) {
  return launch_softmax_looped_f32_4096_8(bench_stream(stream), out, in, in_stride, out_stride, rows, cols);
}

// fp16 rows (the same source, T = tl::half), at the fp32 rows' configurations.
TILEC_BENCH_EXPORT int tilec_softmax_f16(void *stream, int block, int warps, __half *out, const __half *in,
                                         int in_stride, int out_stride, int rows, int cols) {
  cudaStream_t s = bench_stream(stream);
#define TILEC_BENCH_CASE(B, W)                                                                     \
  if (block == B && warps == W)                                                                    \
    return launch_softmax_kernel_f16_##B##_##W(s, out, in, in_stride, out_stride, rows, cols);
  TILEC_BENCH_CASE(256, 4)
  TILEC_BENCH_CASE(512, 4)
  TILEC_BENCH_CASE(1024, 4)
  TILEC_BENCH_CASE(2048, 8)
  TILEC_BENCH_CASE(4096, 16)
  TILEC_BENCH_CASE(8192, 16)
  TILEC_BENCH_CASE(16384, 16)
#undef TILEC_BENCH_CASE
  return TILEC_BENCH_NOT_GENERATED;
}
