// Liger-Kernel's memory-bound forward kernels (github.com/linkedin/Liger-Kernel, src/liger_kernel/ops),
// written in tilec from their algorithms for the production-kernel benchmark (issue 17; bench/production
// /README.md): one program per row, the row in one block of BLOCK = next_pow2(n_cols) columns, and
// the warps Liger's calculate_settings picks (meta-parameters here, so that one source serves every
// width). bf16 rows, fp32 math where Liger's kernels compute in fp32.
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
