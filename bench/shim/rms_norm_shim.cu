#include "common.h"
#include "rms_norm.cu"

// RMSNorm forward at BLOCK = next_pow2(N) (bench/kernels.txt), fp16 and bf16 rows, eps 1e-6.
TILEC_BENCH_EXPORT int tilec_rms_norm_f16(void *stream, int block, const __half *x, const __half *w, __half *y,
                                          float *rstd, int rows, int n, int stride) {
  cudaStream_t s = bench_stream(stream);
#define TILEC_BENCH_CASE(B)                                                                                  \
  if (block == B)                                                                                             \
    return launch_rms_norm_fwd_f16_##B##_1em06(s, x, w, y, rstd, rows, n, stride);
  TILEC_BENCH_CASE(1024)
  TILEC_BENCH_CASE(2048)
  TILEC_BENCH_CASE(4096)
  TILEC_BENCH_CASE(8192)
#undef TILEC_BENCH_CASE
  return TILEC_BENCH_NOT_GENERATED;
}

TILEC_BENCH_EXPORT int tilec_rms_norm_bf16(void *stream, int block, const __nv_bfloat16 *x, const __nv_bfloat16 *w,
                                           __nv_bfloat16 *y, float *rstd, int rows, int n, int stride) {
  cudaStream_t s = bench_stream(stream);
#define TILEC_BENCH_CASE(B)                                                                                  \
  if (block == B)                                                                                             \
    return launch_rms_norm_fwd_bf16_##B##_1em06(s, x, w, y, rstd, rows, n, stride);
  TILEC_BENCH_CASE(1024)
  TILEC_BENCH_CASE(2048)
  TILEC_BENCH_CASE(4096)
  TILEC_BENCH_CASE(8192)
#undef TILEC_BENCH_CASE
  return TILEC_BENCH_NOT_GENERATED;
}

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
