// bench/layer_norm_bwd.py's entry points into examples/layer_norm_bwd (generated into
// bench/gen/layer_norm_bwd.cu): stage 1 at tutorial 05's meta-parameters for N (BLOCK_SIZE_N the
// next power of two, GROUP_SIZE_M groups of partial sums), then stage 2 over the
// min(GROUP_SIZE_M, M) partial rows. tilec_layer_norm_bwd adds into fp32 partial sums, which the
// caller zeroes; tilec_layer_norm_bwd_lock is tutorial 05's kernel (fp16 partial sums under spin
// locks: `locks` holds GROUP_SIZE_M locks and GROUP_SIZE_M counts, which the caller zeroes). Each
// returns the first failing launch's cudaError_t, or TILEC_BENCH_NOT_GENERATED for an N above 8192.
#include "common.h"
#include "layer_norm_bwd.cu"

TILEC_BENCH_EXPORT int tilec_layer_norm_bwd(void *stream, __half *dx, const __half *dy,
                                            float *dw_part, float *db_part, const __half *x,
                                            const __half *w, const float *mean, const float *rstd,
                                            __half *dw, __half *db, int stride, int M, int N) {
  cudaStream_t s = bench_stream(stream);
  cudaError_t e;
  int groups;
  if (N <= 1024) {
    groups = 256;
    e = launch_layer_norm_bwd_dx_fused_1024_256_4(s, dx, dy, dw_part, db_part, x, w, mean, rstd,
                                                  stride, M, N);
  } else if (N <= 4096) {
    groups = 128;
    e = launch_layer_norm_bwd_dx_fused_4096_128_8(s, dx, dy, dw_part, db_part, x, w, mean, rstd,
                                                  stride, M, N);
  } else if (N <= 8192) {
    groups = 96;
    e = launch_layer_norm_bwd_dx_fused_8192_96_8(s, dx, dy, dw_part, db_part, x, w, mean, rstd,
                                                 stride, M, N);
  } else {
    return TILEC_BENCH_NOT_GENERATED;
  }
  if (e != cudaSuccess)
    return e;
  return launch_layer_norm_bwd_dwdb_32_128_f32(s, dw_part, db_part, dw, db, M < groups ? M : groups,
                                               N);
}

TILEC_BENCH_EXPORT int tilec_layer_norm_bwd_lock(void *stream, __half *dx, const __half *dy,
                                                 __half *dw_part, __half *db_part, const __half *x,
                                                 const __half *w, const float *mean,
                                                 const float *rstd, int *locks, __half *dw,
                                                 __half *db, int stride, int M, int N) {
  cudaStream_t s = bench_stream(stream);
  cudaError_t e;
  int groups;
  if (N <= 1024) {
    groups = 256;
    e = launch_layer_norm_bwd_dx_fused_lock_1024_256_4(s, dx, dy, dw_part, db_part, x, w, mean,
                                                       rstd, locks, stride, M, N);
  } else if (N <= 4096) {
    groups = 128;
    e = launch_layer_norm_bwd_dx_fused_lock_4096_128_8(s, dx, dy, dw_part, db_part, x, w, mean,
                                                       rstd, locks, stride, M, N);
  } else if (N <= 8192) {
    groups = 96;
    e = launch_layer_norm_bwd_dx_fused_lock_8192_96_8(s, dx, dy, dw_part, db_part, x, w, mean, rstd,
                                                      locks, stride, M, N);
  } else {
    return TILEC_BENCH_NOT_GENERATED;
  }
  if (e != cudaSuccess)
    return e;
  return launch_layer_norm_bwd_dwdb_32_128_f16(s, dw_part, db_part, dw, db, M < groups ? M : groups,
                                               N);
}
