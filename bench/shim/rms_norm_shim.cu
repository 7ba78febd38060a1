#include "common.h"
#include "rms_norm.cu"

// RMSNorm forward at BLOCK = next_pow2(N) (bench/kernels.txt), fp16 and bf16 rows, eps 1e-6: one
// launch per generated BLOCK, for rows of element type T (f16, bf16).
#define TILEC_BENCH_CASE(T, B)                                                                               \
  if (block == B)                                                                                             \
    return launch_rms_norm_fwd_##T##_##B##_1em06(s, x, w, y, rstd, rows, n, stride);
#define TILEC_BENCH_CASES(T)                                                                                 \
  TILEC_BENCH_CASE(T, 1024)                                                                                   \
  TILEC_BENCH_CASE(T, 2048)                                                                                   \
  TILEC_BENCH_CASE(T, 4096)                                                                                   \
  TILEC_BENCH_CASE(T, 8192)

TILEC_BENCH_EXPORT int tilec_rms_norm_f16(void *stream, int block, const __half *x, const __half *w, __half *y,
                                          float *rstd, int rows, int n, int stride) {
  cudaStream_t s = bench_stream(stream);
  TILEC_BENCH_CASES(f16)
  return TILEC_BENCH_NOT_GENERATED;
}

TILEC_BENCH_EXPORT int tilec_rms_norm_bf16(void *stream, int block, const __nv_bfloat16 *x, const __nv_bfloat16 *w,
                                           __nv_bfloat16 *y, float *rstd, int rows, int n, int stride) {
  cudaStream_t s = bench_stream(stream);
  TILEC_BENCH_CASES(bf16)
  return TILEC_BENCH_NOT_GENERATED;
}
#undef TILEC_BENCH_CASES
#undef TILEC_BENCH_CASE

// Fused residual add + RMSNorm, fp16 (add_rms_norm_fwd).
TILEC_BENCH_EXPORT int tilec_add_rms_norm_f16(void *stream, int block, const __half *x, const __half *r,
                                              const __half *w, __half *s_out, __half *y, float *rstd, int rows, int n,
                                              int stride) {
  cudaStream_t s = bench_stream(stream);
#define TILEC_BENCH_CASE(B)                                                                                  \
  if (block == B)                                                                                             \
    return launch_add_rms_norm_fwd_f16_##B##_1em06(s, x, r, w, s_out, y, rstd, rows, n, stride);
  TILEC_BENCH_CASE(1024)
  TILEC_BENCH_CASE(2048)
  TILEC_BENCH_CASE(4096)
  TILEC_BENCH_CASE(8192)
#undef TILEC_BENCH_CASE
  return TILEC_BENCH_NOT_GENERATED;
}
