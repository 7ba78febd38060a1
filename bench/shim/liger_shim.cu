#include "common.h"
#include "liger.cu"

// Liger's configurations (bench/production/liger.cpp): BLOCK = next_pow2(n_cols), warps as Liger's
// calculate_settings picks them.

TILEC_BENCH_EXPORT int tilec_liger_swiglu_fwd(void *stream, const __nv_bfloat16 *a, const __nv_bfloat16 *b,
                                              __nv_bfloat16 *c, int64_t stride, float gate, int rows, int n_cols) {
  if (n_cols > 8192 && n_cols <= 16384)
    return launch_swiglu_fwd_16384_16(bench_stream(stream), a, b, c, stride, gate, rows, n_cols);
  return TILEC_BENCH_NOT_GENERATED;
}

TILEC_BENCH_EXPORT int tilec_liger_geglu_fwd(void *stream, const __nv_bfloat16 *a, const __nv_bfloat16 *b,
                                             __nv_bfloat16 *c, int64_t stride, int rows, int n_cols) {
  if (n_cols > 8192 && n_cols <= 16384)
    return launch_geglu_fwd_16384_16(bench_stream(stream), a, b, c, stride, rows, n_cols);
  return TILEC_BENCH_NOT_GENERATED;
}

TILEC_BENCH_EXPORT int tilec_liger_rms_norm_fwd(void *stream, __nv_bfloat16 *y, int64_t y_stride,
                                                const __nv_bfloat16 *x, int64_t x_stride, const __nv_bfloat16 *w,
                                                float *rstd, float eps, float offset, int rows, int n_cols) {
  if (n_cols > 2048 && n_cols <= 4096)
    return launch_rms_norm_fwd_4096_8(bench_stream(stream), y, y_stride, x, x_stride, w, rstd, eps, offset, rows,
                                      n_cols);
  if (n_cols > 4096 && n_cols <= 8192)
    return launch_rms_norm_fwd_8192_16(bench_stream(stream), y, y_stride, x, x_stride, w, rstd, eps, offset,
                                       rows, n_cols);
  return TILEC_BENCH_NOT_GENERATED;
}

TILEC_BENCH_EXPORT int tilec_liger_layer_norm_fwd(void *stream, __nv_bfloat16 *y, int64_t y_stride,
                                                  const __nv_bfloat16 *x, int64_t x_stride, const __nv_bfloat16 *w,
                                                  const __nv_bfloat16 *b, __nv_bfloat16 *mean, __nv_bfloat16 *rstd,
                                                  float eps, int rows, int n_cols) {
  if (n_cols > 2048 && n_cols <= 4096)
    return launch_layer_norm_fwd_4096_8(bench_stream(stream), y, y_stride, x, x_stride, w, b, mean, rstd, eps, rows,
                                        n_cols);
  if (n_cols > 4096 && n_cols <= 8192)
    return launch_layer_norm_fwd_8192_16(bench_stream(stream), y, y_stride, x, x_stride, w, b, mean, rstd, eps,
                                         rows, n_cols);
  return TILEC_BENCH_NOT_GENERATED;
}

TILEC_BENCH_EXPORT int tilec_liger_add_rms_norm_fwd(void *stream, __nv_bfloat16 *y, __nv_bfloat16 *s,
                                                    const __nv_bfloat16 *x, const __nv_bfloat16 *r, int64_t stride,
                                                    const __nv_bfloat16 *w, float *rstd, float eps, float offset,
                                                    int rows, int n_cols) {
  if (n_cols > 2048 && n_cols <= 4096)
    return launch_add_rms_norm_fwd_4096_8(bench_stream(stream), y, s, x, r, stride, w, rstd, eps, offset, rows,
                                          n_cols);
  if (n_cols > 4096 && n_cols <= 8192)
    return launch_add_rms_norm_fwd_8192_16(bench_stream(stream), y, s, x, r, stride, w, rstd, eps, offset, rows,
                                           n_cols);
  return TILEC_BENCH_NOT_GENERATED;
}

TILEC_BENCH_EXPORT int tilec_liger_kldiv_fwd(void *stream, const float *y, int64_t y_stride, const float *gt,
                                             int64_t gt_stride, float *loss, float eps, int rows, int n_cols) {
  if (n_cols > 8192)
    return launch_kldiv_fwd_16384_16(bench_stream(stream), y, y_stride, gt, gt_stride, loss, eps, rows, n_cols);
  return TILEC_BENCH_NOT_GENERATED;
}

TILEC_BENCH_EXPORT int tilec_liger_swiglu_bwd(void *stream, const __nv_bfloat16 *dc, __nv_bfloat16 *a,
                                              __nv_bfloat16 *b, int64_t stride, float gate, int rows, int n_cols) {
  if (n_cols > 8192 && n_cols <= 16384)
    return launch_swiglu_bwd_16384_16(bench_stream(stream), dc, a, b, stride, gate, rows, n_cols);
  return TILEC_BENCH_NOT_GENERATED;
}

TILEC_BENCH_EXPORT int tilec_liger_geglu_bwd(void *stream, const __nv_bfloat16 *dc, __nv_bfloat16 *a,
                                             __nv_bfloat16 *b, int64_t stride, int rows, int n_cols) {
  if (n_cols > 8192 && n_cols <= 16384)
    return launch_geglu_bwd_16384_16(bench_stream(stream), dc, a, b, stride, rows, n_cols);
  return TILEC_BENCH_NOT_GENERATED;
}

// DyT: the configuration Liger's autotuner picked (block, warps), one of the nine instantiated.
TILEC_BENCH_EXPORT int tilec_liger_dyt_fwd(void *stream, int block, int warps, const __nv_bfloat16 *x,
                                           __nv_bfloat16 *y, const __nv_bfloat16 *alpha, const __nv_bfloat16 *gamma,
                                           const __nv_bfloat16 *beta, int rows, int n) {
#define LIGER_DYT_CASE(B, W)                                                                                 \
  if (block == B && warps == W)                                                                               \
    return launch_dyt_fwd_##B##_##W(bench_stream(stream), x, y, alpha, gamma, beta, rows, n);
  LIGER_DYT_CASE(1024, 4)
  LIGER_DYT_CASE(1024, 8)
  LIGER_DYT_CASE(1024, 16)
  LIGER_DYT_CASE(2048, 4)
  LIGER_DYT_CASE(2048, 8)
  LIGER_DYT_CASE(2048, 16)
  LIGER_DYT_CASE(4096, 4)
  LIGER_DYT_CASE(4096, 8)
  LIGER_DYT_CASE(4096, 16)
#undef LIGER_DYT_CASE
  return TILEC_BENCH_NOT_GENERATED;
}

TILEC_BENCH_EXPORT int tilec_liger_jsd_fwd(void *stream, const float *x, int64_t x_stride, const float *y,
                                           int64_t y_stride, float *loss, int64_t loss_stride, float *dx,
                                           int64_t dx_stride, int n_non_ignore, int rows, int n_cols) {
  if (n_cols > 16384 && n_cols <= 32768)
    return launch_jsd_fwd_0p5_32768_4(bench_stream(stream), x, x_stride, y, y_stride, loss, loss_stride, dx,
                                      dx_stride, n_non_ignore, rows, n_cols);
  return TILEC_BENCH_NOT_GENERATED;
}

TILEC_BENCH_EXPORT int tilec_liger_softmax_fwd(void *stream, __nv_bfloat16 *y, int64_t y_stride, const __nv_bfloat16 *x,
                                               int64_t x_stride, int rows, int n_cols) {
  if (n_cols > 2048 && n_cols <= 4096)
    return launch_softmax_fwd_4096_8(bench_stream(stream), y, y_stride, x, x_stride, rows, n_cols);
  if (n_cols > 4096 && n_cols <= 8192)
    return launch_softmax_fwd_8192_16(bench_stream(stream), y, y_stride, x, x_stride, rows, n_cols);
  return TILEC_BENCH_NOT_GENERATED;
}

TILEC_BENCH_EXPORT int tilec_liger_softmax_bwd(void *stream, const __nv_bfloat16 *dy, int64_t dy_stride,
                                               const __nv_bfloat16 *y, int64_t y_stride, __nv_bfloat16 *dx,
                                               int64_t dx_stride, int rows, int n_cols) {
  if (n_cols > 2048 && n_cols <= 4096)
    return launch_softmax_bwd_4096_8(bench_stream(stream), dy, dy_stride, y, y_stride, dx, dx_stride, rows, n_cols);
  if (n_cols > 4096 && n_cols <= 8192)
    return launch_softmax_bwd_8192_16(bench_stream(stream), dy, dy_stride, y, y_stride, dx, dx_stride, rows,
                                      n_cols);
  return TILEC_BENCH_NOT_GENERATED;
}

TILEC_BENCH_EXPORT int tilec_liger_sparsemax_fwd(void *stream, const float *x, int64_t x_stride, const float *sorted_x,
                                                 int64_t sorted_stride, float *o, int64_t o_stride, int rows,
                                                 int n_cols) {
  if (n_cols > 2048 && n_cols <= 4096)
    return launch_sparsemax_fwd_4096_8(bench_stream(stream), x, x_stride, sorted_x, sorted_stride, o, o_stride, rows,
                                       n_cols);
  if (n_cols > 4096 && n_cols <= 8192)
    return launch_sparsemax_fwd_8192_16(bench_stream(stream), x, x_stride, sorted_x, sorted_stride, o, o_stride,
                                        rows, n_cols);
  return TILEC_BENCH_NOT_GENERATED;
}

// Embedding lookup: LigerEmbeddingFunction's blocks, next_pow2(min(128, embedding_dim)) square (128 from 128 wide).
TILEC_BENCH_EXPORT int tilec_liger_embedding_fwd(void *stream, const __nv_bfloat16 *embeddings, const int64_t *indices,
                                                 __nv_bfloat16 *output, int n_elements, int embedding_dim) {
  if (embedding_dim >= 128)
    return launch_embedding_fwd_128_128(bench_stream(stream), embeddings, indices, output, n_elements, embedding_dim);
  return TILEC_BENCH_NOT_GENERATED;
}

// Adds into grad_weight as it is: fp32, and bf16 as Liger's bf16 training.
TILEC_BENCH_EXPORT int tilec_liger_embedding_bwd(void *stream, const float *grad_output, float *grad_weight,
                                                 const int64_t *indices, int n_elements, int embedding_dim) {
  if (embedding_dim >= 128)
    return launch_embedding_bwd_128_128_f32(bench_stream(stream), grad_output, grad_weight, indices, n_elements,
                                            embedding_dim);
  return TILEC_BENCH_NOT_GENERATED;
}
TILEC_BENCH_EXPORT int tilec_liger_embedding_bwd_bf16(void *stream, const __nv_bfloat16 *grad_output,
                                                      __nv_bfloat16 *grad_weight, const int64_t *indices,
                                                      int n_elements, int embedding_dim) {
  if (embedding_dim >= 128)
    return launch_embedding_bwd_128_128_bf16(bench_stream(stream), grad_output, grad_weight, indices, n_elements,
                                             embedding_dim);
  return TILEC_BENCH_NOT_GENERATED;
}
