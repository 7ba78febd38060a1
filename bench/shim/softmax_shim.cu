#include "common.h"
#include "softmax.cu"

// The configurations bench/kernels.txt generates (BLOCK, warps), for rows of element type T
// (f32, f16): one launch per case.
#define TILEC_BENCH_CASE(T, B, W)                                                                  \
  if (block == B && warps == W)                                                                    \
    return launch_softmax_kernel_##T##_##B##_##W(s, out, in, in_stride, out_stride, rows, cols);
#define TILEC_BENCH_CASES(T)                                                                       \
  TILEC_BENCH_CASE(T, 256, 4)                                                                      \
  TILEC_BENCH_CASE(T, 512, 4)                                                                      \
  TILEC_BENCH_CASE(T, 1024, 4)                                                                     \
  TILEC_BENCH_CASE(T, 2048, 8)                                                                     \
  TILEC_BENCH_CASE(T, 4096, 16)                                                                    \
  TILEC_BENCH_CASE(T, 8192, 16)                                                                    \
  TILEC_BENCH_CASE(T, 16384, 16)

TILEC_BENCH_EXPORT int tilec_softmax(void *stream, int block, int warps, float *out, const float *in,
                                     int in_stride, int out_stride, int rows, int cols) {
  cudaStream_t s = bench_stream(stream);
  TILEC_BENCH_CASES(f32)
  return TILEC_BENCH_NOT_GENERATED;
}

// fp16 rows (the same source, T = tl::half), at the fp32 rows' configurations.
TILEC_BENCH_EXPORT int tilec_softmax_f16(void *stream, int block, int warps, __half *out, const __half *in,
                                         int in_stride, int out_stride, int rows, int cols) {
  cudaStream_t s = bench_stream(stream);
  TILEC_BENCH_CASES(f16)
  return TILEC_BENCH_NOT_GENERATED;
}
#undef TILEC_BENCH_CASES
#undef TILEC_BENCH_CASE

// Rows of any width, in 4096-wide chunks on 8 warps (softmax_looped).
TILEC_BENCH_EXPORT int tilec_softmax_looped(void *stream, float *out, const float *in, int in_stride, int out_stride,
                                            int rows, int cols) {
  return launch_softmax_looped_f32_4096_8(bench_stream(stream), out, in, in_stride, out_stride, rows, cols);
}
