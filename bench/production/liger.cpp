// Liger-Kernel's memory-bound kernels (github.com/linkedin/Liger-Kernel, src/liger_kernel/ops),
// written in tilec from their algorithms for the production-kernel benchmark (issue 17; bench/production
// /README.md): one program per row, the row in one block of BLOCK = next_pow2(n_cols) columns, and
// the warps Liger's calculate_settings picks (meta-parameters here, so that one source serves every
// width; DyT and the embedding lookup on 2-D grids). bf16 rows, fp32 math where Liger's kernels use it.
#include <tilec/tl.hpp>

#include <cstdint>

namespace liger {

/// silu(a) = a * sigmoid(a), in fp32.
template <class X> auto silu(const X &a) { return a * tl::sigmoid(a); }

/// GELU with tanh approximation: 0.5 a (1 + tanh(sqrt(2 / pi) (a + 0.044715 a^3))), in fp32.
template <class X> auto gelu_tanh(const X &a) {
  constexpr float sqrt_2_over_pi = 0.7978845608028654f;
  auto a_cubed = a * a * a;
  return 0.5f * a * (1.0f + tl::tanh(sqrt_2_over_pi * (a + 0.044715f * a_cubed)));
}

} // namespace liger

// _swiglu_forward_kernel: c = silu(a * gate_multiplier) * b, the product in the row's type.
template <int BLOCK, int WARPS>
TILEC_KERNEL(num_warps = WARPS, grid = (rows))
void swiglu_fwd(const tl::bfloat16 *a, const tl::bfloat16 *b, tl::bfloat16 *c, int64_t stride, float gate,
                int rows, int n_cols) {
  int64_t row = tl::program_id(0);
  auto cols = tl::arange<0, BLOCK>();
  auto mask = cols < n_cols;
  auto a_row = tl::cast<float>(tl::load(a + row * stride + cols, mask, 0.0f)) * gate;
  auto b_row = tl::load(b + row * stride + cols, mask, 0.0f);
  tl::store(c + row * stride + cols, tl::cast<tl::bfloat16>(liger::silu(a_row)) * b_row, mask);
}

// _geglu_tanh_forward_kernel: c = gelu_tanh(a) * b, the product in the row's type.
template <int BLOCK, int WARPS>
TILEC_KERNEL(num_warps = WARPS, grid = (rows))
void geglu_fwd(const tl::bfloat16 *a, const tl::bfloat16 *b, tl::bfloat16 *c, int64_t stride, int rows,
               int n_cols) {
  int64_t row = tl::program_id(0);
  auto cols = tl::arange<0, BLOCK>();
  auto mask = cols < n_cols;
  auto a_row = tl::cast<float>(tl::load(a + row * stride + cols, mask, 0.0f));
  auto b_row = tl::load(b + row * stride + cols, mask, 0.0f);
  tl::store(c + row * stride + cols, tl::cast<tl::bfloat16>(liger::gelu_tanh(a_row)) * b_row, mask);
}

// _rms_norm_forward_kernel in Llama casting mode with a weight: rstd = rsqrt(mean(x^2) + eps) in
// fp32 (stored per row), y = bf16(x * rstd) * (offset + w).
template <int BLOCK, int WARPS>
TILEC_KERNEL(num_warps = WARPS, grid = (rows))
void rms_norm_fwd(tl::bfloat16 *y, int64_t y_stride, const tl::bfloat16 *x, int64_t x_stride,
                  const tl::bfloat16 *w, float *rstd_out, float eps, float offset, int rows, int n_cols) {
  int64_t row = tl::program_id(0);
  auto cols = tl::arange<0, BLOCK>();
  auto mask = cols < n_cols;
  auto x_row = tl::cast<float>(tl::load(x + row * x_stride + cols, mask, 0.0f));
  auto w_row = tl::load(w + cols, mask, 0.0f);
  float mean_square = tl::sum(x_row * x_row) / n_cols;
  float rstd = tl::rsqrt(mean_square + eps);
  tl::store(rstd_out + row, rstd);
  auto normed = tl::cast<tl::bfloat16>(x_row * rstd);
  tl::store(y + row * y_stride + cols, tl::cast<float>(normed) * (offset + tl::cast<float>(w_row)), mask);
}

// _layer_norm_forward_kernel: mean and rstd over the row in fp32 (stored in the row's type), y =
// (x - mean) * rstd * w + b in fp32, stored in the row's type.
template <int BLOCK, int WARPS>
TILEC_KERNEL(num_warps = WARPS, grid = (rows))
void layer_norm_fwd(tl::bfloat16 *y, int64_t y_stride, const tl::bfloat16 *x, int64_t x_stride,
                    const tl::bfloat16 *w, const tl::bfloat16 *b, tl::bfloat16 *mean_out, tl::bfloat16 *rstd_out,
                    float eps, int rows, int n_cols) {
  int64_t row = tl::program_id(0);
  auto cols = tl::arange<0, BLOCK>();
  auto mask = cols < n_cols;
  auto w_row = tl::cast<float>(tl::load(w + cols, mask, 0.0f));
  auto b_row = tl::cast<float>(tl::load(b + cols, mask, 0.0f));
  auto x_row = tl::cast<float>(tl::load(x + row * x_stride + cols, mask, 0.0f));
  float mean = tl::sum(x_row) / n_cols;
  auto centered = x_row - mean;
  auto centered_masked = tl::where(mask, centered, 0.0f);
  float var = tl::sum(centered_masked * centered_masked) / n_cols;
  float rstd = tl::rsqrt(var + eps);
  tl::store(mean_out + row, tl::cast<tl::bfloat16>(mean));
  tl::store(rstd_out + row, tl::cast<tl::bfloat16>(rstd));
  tl::store(y + row * y_stride + cols, tl::cast<tl::bfloat16>(centered * rstd * w_row + b_row), mask);
}

// _fused_add_rms_norm_forward_kernel in Llama casting mode: s = x + r (stored: the new residual),
// then RMSNorm of s as rms_norm_fwd.
template <int BLOCK, int WARPS>
TILEC_KERNEL(num_warps = WARPS, grid = (rows))
void add_rms_norm_fwd(tl::bfloat16 *y, tl::bfloat16 *s_out, const tl::bfloat16 *x, const tl::bfloat16 *r,
                      int64_t stride, const tl::bfloat16 *w, float *rstd_out, float eps, float offset, int rows,
                      int n_cols) {
  int64_t row = tl::program_id(0);
  auto cols = tl::arange<0, BLOCK>();
  auto mask = cols < n_cols;
  auto s_row = tl::load(x + row * stride + cols, mask, 0.0f) + tl::load(r + row * stride + cols, mask, 0.0f);
  tl::store(s_out + row * stride + cols, s_row, mask);
  auto w_row = tl::load(w + cols, mask, 0.0f);
  auto s_f32 = tl::cast<float>(s_row);
  float rstd = tl::rsqrt(tl::sum(s_f32 * s_f32) / n_cols + eps);
  tl::store(rstd_out + row, rstd);
  auto normed = tl::cast<tl::bfloat16>(s_f32 * rstd);
  tl::store(y + row * stride + cols, tl::cast<float>(normed) * (offset + tl::cast<float>(w_row)), mask);
}

// _kldiv_kernel_forward (log-space predictions, reduction not "none"): per row, the sum over the
// vocabulary of t * (log(max(t, eps)) - y), in chunks of BLOCK columns.
template <int BLOCK, int WARPS>
TILEC_KERNEL(num_warps = WARPS, grid = (rows))
void kldiv_fwd(const float *y, int64_t y_stride, const float *gt, int64_t gt_stride, float *loss, float eps,
               int rows, int n_cols) {
  int64_t row = tl::program_id(0);
  auto base = tl::arange<0, BLOCK>();
  float loss_sum = 0.0f;
  for (int i = 0; i < n_cols; i += BLOCK) {
    auto offs = i + base;
    auto mask = offs < n_cols;
    auto y_chunk = tl::load(y + row * y_stride + offs, mask, 0.0f);
    auto t = tl::load(gt + row * gt_stride + offs, mask, 0.0f);
    loss_sum += tl::sum(t * (tl::log(tl::maximum(t, eps)) - y_chunk));
  }
  tl::store(loss + row, loss_sum);
}

// _swiglu_backward_kernel: recomputes silu(a * gate) and writes both gradients in place (a <- da,
// b <- db), in fp32, stored in the row's type.
template <int BLOCK, int WARPS>
TILEC_KERNEL(num_warps = WARPS, grid = (rows))
void swiglu_bwd(const tl::bfloat16 *dc, tl::bfloat16 *a, tl::bfloat16 *b, int64_t stride, float gate, int rows,
                int n_cols) {
  int64_t row = tl::program_id(0);
  auto cols = tl::arange<0, BLOCK>();
  auto mask = cols < n_cols;
  auto dc_row = tl::load(dc + row * stride + cols, mask, 0.0f);
  auto a_row = tl::cast<float>(tl::load(a + row * stride + cols, mask, 0.0f)) * gate;
  auto b_row = tl::load(b + row * stride + cols, mask, 0.0f);
  auto sig_a = tl::sigmoid(a_row);
  auto silu_a = a_row * sig_a;
  auto db_row = dc_row * silu_a;
  auto da_row = dc_row * (silu_a * (1.0f - sig_a) + sig_a) * b_row * gate;
  tl::store(a + row * stride + cols, tl::cast<tl::bfloat16>(da_row), mask);
  tl::store(b + row * stride + cols, tl::cast<tl::bfloat16>(db_row), mask);
}

// _geglu_tanh_backward_kernel: recomputes gelu_tanh(a) and writes both gradients in place (a <- da,
// b <- db); gelu(a) is rounded to the row's type before it multiplies dc, as Liger does.
template <int BLOCK, int WARPS>
TILEC_KERNEL(num_warps = WARPS, grid = (rows))
void geglu_bwd(const tl::bfloat16 *dc, tl::bfloat16 *a, tl::bfloat16 *b, int64_t stride, int rows, int n_cols) {
  int64_t row = tl::program_id(0);
  auto cols = tl::arange<0, BLOCK>();
  auto mask = cols < n_cols;
  auto dc_row = tl::load(dc + row * stride + cols, mask, 0.0f);
  auto a_row = tl::cast<float>(tl::load(a + row * stride + cols, mask, 0.0f));
  auto b_row = tl::load(b + row * stride + cols, mask, 0.0f);
  constexpr float sqrt_2_over_pi = 0.7978845608028654f;
  constexpr float three_c = 3 * 0.044715; // Python folds 3 * 0.044715 in double
  auto a_cubed = a_row * a_row * a_row;
  auto tanh_result = tl::tanh(sqrt_2_over_pi * (a_row + 0.044715f * a_cubed));
  auto geglu_a = tl::cast<float>(tl::cast<tl::bfloat16>(0.5f * a_row * (1.0f + tanh_result)));
  auto db_row = tl::cast<float>(dc_row) * geglu_a;
  auto term1 = 0.5f * (1.0f + tanh_result);
  auto tanh_sq = tanh_result * tanh_result;
  auto term2 = 0.5f * a_row * (1.0f - tanh_sq) * (sqrt_2_over_pi * (1.0f + three_c * a_row * a_row));
  auto da_row = dc_row * b_row * (term1 + term2);
  tl::store(a + row * stride + cols, tl::cast<tl::bfloat16>(da_row), mask);
  tl::store(b + row * stride + cols, tl::cast<tl::bfloat16>(db_row), mask);
}

// _dyt_fwd_kernel (Dynamic Tanh): y = tanh(alpha * x) * gamma + beta in fp32, stored in the row's type;
// a grid of column blocks x rows. Liger autotunes BLOCK_N in {1024, 2048, 4096} x 4, 8 or 16 warps;
// every such configuration is instantiated below and the benchmark runs the one Liger's autotuner
// picked.
template <int BLOCK_N, int WARPS>
TILEC_KERNEL(num_warps = WARPS, grid = (cdiv(n, BLOCK_N), rows))
void dyt_fwd(const tl::bfloat16 *x, tl::bfloat16 *y, const tl::bfloat16 *alpha, const tl::bfloat16 *gamma,
             const tl::bfloat16 *beta, int rows, int n) {
  int64_t start = tl::program_id(0);
  auto col = start * BLOCK_N + tl::arange<0, BLOCK_N>();
  auto mask = col < n;
  int64_t row = tl::program_id(1);
  float a = tl::cast<float>(tl::load(alpha));
  auto g = tl::cast<float>(tl::load(gamma + col, mask, 0.0f));
  auto xv = tl::cast<float>(tl::load(x + row * n + col, mask, 0.0f));
  auto yv = tl::tanh(a * xv) * g + tl::cast<float>(tl::load(beta + col, mask, 0.0f));
  tl::store(y + row * n + col, tl::cast<tl::bfloat16>(yv), mask);
}

// _jsd_kernel without labels: per element the generalized Jensen-Shannon loss of log-space inputs x
// (log Q) and y (log P) and its gradient in x, both scaled by 1 / n_non_ignore, in chunks of BLOCK
// columns. BETA is a meta-parameter, as Liger's constexpr beta (0 and 1 are the two KL divergences).
template <float BETA, int BLOCK, int WARPS>
TILEC_KERNEL(num_warps = WARPS, grid = (rows))
void jsd_fwd(const float *x, int64_t x_stride, const float *y, int64_t y_stride, float *loss, int64_t loss_stride,
             float *dx, int64_t dx_stride, int n_non_ignore, int rows, int n_cols) {
  int64_t row = tl::program_id(0);
  for (int i = 0; i < n_cols; i += BLOCK) {
    auto offs = i + tl::arange<0, BLOCK>();
    auto mask = offs < n_cols;
    auto X = tl::load(x + row * x_stride + offs, mask, -tl::inf);
    auto Y = tl::load(y + row * y_stride + offs, mask, -tl::inf);
    float scale = 1.0f / n_non_ignore;
    if constexpr (BETA == 0.0f) { // forward KL
      float y_max = tl::max(Y);
      auto y_prob = tl::exp(Y - y_max) * tl::exp(y_max);
      tl::store(loss + row * loss_stride + offs, y_prob * (Y - X) * scale, mask);
      tl::store(dx + row * dx_stride + offs, -y_prob * scale, mask);
    } else if constexpr (BETA == 1.0f) { // reverse KL
      float x_max = tl::max(X);
      auto x_prob = tl::exp(X - x_max) * tl::exp(x_max);
      auto l = x_prob * (X - Y);
      tl::store(loss + row * loss_stride + offs, l * scale, mask);
      tl::store(dx + row * dx_stride + offs, (l + x_prob) * scale, mask);
    } else {
      float max_val = tl::maximum(tl::max(X), tl::max(Y));
      float exp_max = tl::exp(max_val);
      auto Q = tl::exp(X - max_val) * exp_max;
      auto P = tl::exp(Y - max_val) * exp_max;
      auto beta_P = BETA * P;
      auto one_minus_beta_Q = (1 - BETA) * Q;
      auto M = beta_P + one_minus_beta_Q;
      auto log_M = tl::log(M);
      tl::store(loss + row * loss_stride + offs, (beta_P * Y + one_minus_beta_Q * X - M * log_M) * scale, mask);
      tl::store(dx + row * dx_stride + offs, one_minus_beta_Q * (X - log_M) * scale, mask);
    }
  }
}

// _softmax_single_block_forward_kernel: y = softmax(x) over a row in one block, with the cache hints
// Liger's kernel gives its accesses: x read with .ca, y stored with .cs (streaming).
template <int BLOCK, int WARPS>
TILEC_KERNEL(num_warps = WARPS, grid = (rows))
void softmax_fwd(tl::bfloat16 *y, int64_t y_stride, const tl::bfloat16 *x, int64_t x_stride, int rows,
                 int n_cols) {
  int64_t row = tl::program_id(0);
  auto offs = tl::arange<0, BLOCK>();
  auto mask = offs < n_cols;
  auto x_row = tl::load(x + row * x_stride + offs, mask, -tl::inf, {.cache_modifier = tl::cache::ca});
  auto m = tl::max(x_row);
  auto e = tl::exp(x_row - m);
  auto d = tl::sum(e);
  tl::store(y + row * y_stride + offs, e / d, mask, {.cache_modifier = tl::cache::cs});
}

// _softmax_single_block_backward_kernel: dx = y * (dy - sum(dy * y)); y read with .ca, dx stored
// with .wb, as Liger's kernel does.
template <int BLOCK, int WARPS>
TILEC_KERNEL(num_warps = WARPS, grid = (rows))
void softmax_bwd(const tl::bfloat16 *dy, int64_t dy_stride, const tl::bfloat16 *y, int64_t y_stride,
                 tl::bfloat16 *dx, int64_t dx_stride, int rows, int n_cols) {
  int64_t row = tl::program_id(0);
  auto offs = tl::arange<0, BLOCK>();
  auto mask = offs < n_cols;
  auto dy_row = tl::load(dy + row * dy_stride + offs, mask, 0.0f);
  auto y_row = tl::load(y + row * y_stride + offs, mask, 0.0f, {.cache_modifier = tl::cache::ca});
  auto dot = tl::sum(dy_row * y_row);
  tl::store(dx + row * dx_stride + offs, y_row * (dy_row - dot), mask, {.cache_modifier = tl::cache::wb});
}

// _sparsemax_forward_kernel: each row's sparsemax, from the row and its values sorted in descending
// order (torch.sort, which Liger's wrapper runs before the launch): the support is where z_(i) >
// (cumsum_i - 1) / i, tau = (sum of the support - 1) / its size, y = max(x - tau, 0). Loads .cg and
// stores .cs, as Liger's kernel. fp32 rows.
template <int BLOCK, int WARPS>
TILEC_KERNEL(num_warps = WARPS, grid = (rows))
void sparsemax_fwd(const float *x, int64_t x_stride, const float *sorted_x, int64_t sorted_stride, float *o,
                   int64_t o_stride, int rows, int n_cols) {
  int64_t row = tl::program_id(0);
  auto offs = tl::arange<0, BLOCK>();
  auto mask = offs < n_cols;
  auto z_sorted = tl::load(sorted_x + row * sorted_stride + offs, mask, -tl::inf, {.cache_modifier = tl::cache::cg});
  auto z_valid = tl::where(mask, z_sorted, 0.0f);
  auto cssv = tl::cumsum(z_valid);
  auto r = tl::cast<float>(offs + 1);
  auto t_vec = (cssv - 1.0f) / r;
  auto support = (z_sorted > t_vec) & mask;
  int k_int = tl::sum(tl::cast<int32_t>(support));
  float k = tl::cast<float>(tl::maximum(k_int, 1));
  float s = tl::sum(tl::where(support, z_sorted, 0.0f));
  float tau = (s - 1.0f) / k;
  auto x_block = tl::load(x + row * x_stride + offs, mask, 0.0f, {.cache_modifier = tl::cache::cg});
  auto y = tl::maximum(x_block - tau, 0.0f);
  tl::store(o + row * o_stride + offs, y, mask, {.cache_modifier = tl::cache::cs});
}

// embedding_forward_kernel (ops/experimental/embedding.py): output[m, :] = embeddings[indices[m], :], token ids
// int64 as torch's, a grid of row blocks x column blocks. Liger's embedding_dim is a tl.constexpr; a runtime int
// here, as the widths above (the launcher's aligned variant where it is a multiple of 16). bf16 tables.
template <int BLOCK_SIZE_M, int BLOCK_SIZE_N>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(n_elements, BLOCK_SIZE_M), cdiv(embedding_dim, BLOCK_SIZE_N)))
void embedding_fwd(const tl::bfloat16 *embeddings_ptr, const int64_t *indices_ptr, tl::bfloat16 *output_ptr,
                   int n_elements, int embedding_dim) {
  int pid_m = tl::program_id(0);
  int pid_n = tl::program_id(1);
  int start_m = pid_m * BLOCK_SIZE_M;
  int start_n = pid_n * BLOCK_SIZE_N;
  auto offsets_m = start_m + tl::arange<0, BLOCK_SIZE_M>();
  auto mask_m = offsets_m < n_elements;
  auto indices = tl::load(indices_ptr + offsets_m, mask_m, 0);
  auto offsets_n = start_n + tl::arange<0, BLOCK_SIZE_N>();
  auto mask_n = offsets_n < embedding_dim;
  auto embedding_offsets = tl::expand_dims<1>(indices) * embedding_dim + tl::expand_dims<0>(offsets_n);
  auto embeddings =
      tl::load(embeddings_ptr + embedding_offsets, tl::expand_dims<1>(mask_m) & tl::expand_dims<0>(mask_n), 0.0f);
  auto output_offsets = tl::expand_dims<1>(offsets_m) * embedding_dim + tl::expand_dims<0>(offsets_n);
  tl::store(output_ptr + output_offsets, embeddings, tl::expand_dims<1>(mask_m) & tl::expand_dims<0>(mask_n));
}

// embedding_backward_kernel: grad_weight[indices[m], :] += grad_output[m, :], one tl.atomic_add per element (Triton's
// default acq_rel, as Liger's), in the table's type T: bf16 as Liger's bf16 training, and fp32.
template <int BLOCK_SIZE_M, int BLOCK_SIZE_N, class T>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(n_elements, BLOCK_SIZE_M), cdiv(embedding_dim, BLOCK_SIZE_N)))
void embedding_bwd(const T *grad_output_ptr, T *grad_weight_ptr, const int64_t *indices_ptr, int n_elements,
                   int embedding_dim) {
  int pid_m = tl::program_id(0);
  int pid_n = tl::program_id(1);
  int start_m = pid_m * BLOCK_SIZE_M;
  int start_n = pid_n * BLOCK_SIZE_N;
  auto offsets_m = start_m + tl::arange<0, BLOCK_SIZE_M>();
  auto mask_m = offsets_m < n_elements;
  auto indices = tl::load(indices_ptr + offsets_m, mask_m, 0);
  auto offsets_n = start_n + tl::arange<0, BLOCK_SIZE_N>();
  auto mask_n = offsets_n < embedding_dim;
  auto grad_output =
      tl::load(grad_output_ptr + tl::expand_dims<1>(offsets_m) * embedding_dim + tl::expand_dims<0>(offsets_n),
               tl::expand_dims<1>(mask_m) & tl::expand_dims<0>(mask_n), 0.0f);
  auto grad_weight_offsets = tl::expand_dims<1>(indices) * embedding_dim + tl::expand_dims<0>(offsets_n);
  tl::atomic_add(grad_weight_ptr + grad_weight_offsets, grad_output,
                 tl::expand_dims<1>(mask_m) & tl::expand_dims<0>(mask_n));
}

// Liger's configurations (calculate_settings: BLOCK = next_pow2(n_cols); 8 warps from 2048, 16
// from 8192, 32 from 32768) at the benchmark's widths.
template void swiglu_fwd<16384, 16>(const tl::bfloat16 *, const tl::bfloat16 *, tl::bfloat16 *, int64_t, float, int,
                                    int);
template void geglu_fwd<16384, 16>(const tl::bfloat16 *, const tl::bfloat16 *, tl::bfloat16 *, int64_t, int, int);
template void rms_norm_fwd<4096, 8>(tl::bfloat16 *, int64_t, const tl::bfloat16 *, int64_t, const tl::bfloat16 *,
                                    float *, float, float, int, int);
template void rms_norm_fwd<8192, 16>(tl::bfloat16 *, int64_t, const tl::bfloat16 *, int64_t, const tl::bfloat16 *,
                                     float *, float, float, int, int);
template void layer_norm_fwd<4096, 8>(tl::bfloat16 *, int64_t, const tl::bfloat16 *, int64_t, const tl::bfloat16 *,
                                      const tl::bfloat16 *, tl::bfloat16 *, tl::bfloat16 *, float, int, int);
template void layer_norm_fwd<8192, 16>(tl::bfloat16 *, int64_t, const tl::bfloat16 *, int64_t, const tl::bfloat16 *,
                                       const tl::bfloat16 *, tl::bfloat16 *, tl::bfloat16 *, float, int, int);
template void add_rms_norm_fwd<4096, 8>(tl::bfloat16 *, tl::bfloat16 *, const tl::bfloat16 *, const tl::bfloat16 *,
                                        int64_t, const tl::bfloat16 *, float *, float, float, int, int);
template void add_rms_norm_fwd<8192, 16>(tl::bfloat16 *, tl::bfloat16 *, const tl::bfloat16 *, const tl::bfloat16 *,
                                         int64_t, const tl::bfloat16 *, float *, float, float, int, int);
// kl_div.py: BLOCK = min(16384, next_pow2(V)), 16 warps from 8192.
template void kldiv_fwd<16384, 16>(const float *, int64_t, const float *, int64_t, float *, float, int, int);
template void swiglu_bwd<16384, 16>(const tl::bfloat16 *, tl::bfloat16 *, tl::bfloat16 *, int64_t, float, int, int);
template void geglu_bwd<16384, 16>(const tl::bfloat16 *, tl::bfloat16 *, tl::bfloat16 *, int64_t, int, int);
// dyt.py's autotuning space (num_stages aside: the kernel has no loop to pipeline).
#define LIGER_DYT(B, W)                                                                                        \
  template void dyt_fwd<B, W>(const tl::bfloat16 *, tl::bfloat16 *, const tl::bfloat16 *, const tl::bfloat16 *,   \
                              const tl::bfloat16 *, int, int);
LIGER_DYT(1024, 4)
LIGER_DYT(1024, 8)
LIGER_DYT(1024, 16)
LIGER_DYT(2048, 4)
LIGER_DYT(2048, 8)
LIGER_DYT(2048, 16)
LIGER_DYT(4096, 4)
LIGER_DYT(4096, 8)
LIGER_DYT(4096, 16)
#undef LIGER_DYT
// jsd.py: BLOCK = min(65536, next_pow2(V)), Triton's default of 4 warps; beta 0.5 (Liger's default).
template void jsd_fwd<0.5f, 32768, 4>(const float *, int64_t, const float *, int64_t, float *, int64_t, float *,
                                      int64_t, int, int, int);
template void softmax_fwd<4096, 8>(tl::bfloat16 *, int64_t, const tl::bfloat16 *, int64_t, int, int);
template void softmax_fwd<8192, 16>(tl::bfloat16 *, int64_t, const tl::bfloat16 *, int64_t, int, int);
template void softmax_bwd<4096, 8>(const tl::bfloat16 *, int64_t, const tl::bfloat16 *, int64_t, tl::bfloat16 *,
                                   int64_t, int, int);
template void softmax_bwd<8192, 16>(const tl::bfloat16 *, int64_t, const tl::bfloat16 *, int64_t, tl::bfloat16 *,
                                    int64_t, int, int);
template void sparsemax_fwd<4096, 8>(const float *, int64_t, const float *, int64_t, float *, int64_t, int, int);
template void sparsemax_fwd<8192, 16>(const float *, int64_t, const float *, int64_t, float *, int64_t, int, int);
// LigerEmbeddingFunction: BLOCK_SIZE_M = BLOCK_SIZE_N = next_pow2(min(128, embedding_dim)), 128 at the benchmark's
// widths; Triton's default 4 warps.
template void embedding_fwd<128, 128>(const tl::bfloat16 *, const int64_t *, tl::bfloat16 *, int, int);
template void embedding_bwd<128, 128, float>(const float *, float *, const int64_t *, int, int);
template void embedding_bwd<128, 128, tl::bfloat16>(const tl::bfloat16 *, tl::bfloat16 *, const int64_t *, int, int);
