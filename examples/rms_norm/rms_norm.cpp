// RMSNorm forward (the algorithm of Liger-Kernel's rms_norm, in tilec's style): one program per row,
// y = x / sqrt(mean(x^2) + EPS) * w, statistics in float, the row's 1/rms saved for the backward.
// One source for every element type T (float, tl::half, tl::bfloat16), with EPS a float
// meta-parameter (C++20), and an `if constexpr` on the element type: 16-bit rows follow Llama's
// casting (the normalized row is rounded to T before the weight multiplies it, in T), float rows
// need no rounding.
#include <tilec/tl.hpp>

#include <type_traits>

template <class T>
constexpr bool is_16bit_float = std::is_same_v<T, tl::half> || std::is_same_v<T, tl::bfloat16>;

template <class T, int BLOCK, float EPS>
TILEC_KERNEL(num_warps = 8, grid = (rows))
void rms_norm_fwd(const T *X, const T *W, T *Y, float *RSTD, int rows, int n, int stride) {
  int row = tl::program_id(0);
  auto cols = tl::arange<0, BLOCK>();
  auto mask = cols < n;
  auto x = tl::cast<float>(tl::load(X + row * stride + cols, mask, 0.0f));
  float rstd = tl::rsqrt(tl::sum(x * x) / n + EPS);
  tl::store(RSTD + row, rstd);
  auto w = tl::load(W + cols, mask, 0.0f);
  if constexpr (is_16bit_float<T>) {
    auto y = tl::cast<T>(x * rstd) * w;
    tl::store(Y + row * stride + cols, y, mask);
  } else {
    tl::store(Y + row * stride + cols, x * rstd * w, mask);
  }
}

// Fused residual add + RMSNorm (Liger's fused_add_rms_norm): s = x + r in T, stored as the new
// residual stream, then the RMSNorm of s as rms_norm_fwd computes it. One read of x, r and w, one
// write of s and y.
template <class T, int BLOCK, float EPS>
TILEC_KERNEL(num_warps = 8, grid = (rows))
void add_rms_norm_fwd(const T *X, const T *R, const T *W, T *S, T *Y, float *RSTD, int rows, int n, int stride) {
  int row = tl::program_id(0);
  auto cols = tl::arange<0, BLOCK>();
  auto mask = cols < n;
  auto s = tl::load(X + row * stride + cols, mask, 0.0f) + tl::load(R + row * stride + cols, mask, 0.0f);
  tl::store(S + row * stride + cols, s, mask);
  auto sf = tl::cast<float>(s);
  float rstd = tl::rsqrt(tl::sum(sf * sf) / n + EPS);
  tl::store(RSTD + row, rstd);
  auto w = tl::load(W + cols, mask, 0.0f);
  if constexpr (is_16bit_float<T>) {
    tl::store(Y + row * stride + cols, tl::cast<T>(sf * rstd) * w, mask);
  } else {
    tl::store(Y + row * stride + cols, sf * rstd * w, mask);
  }
}

template void rms_norm_fwd<float, 4096, 1e-6f>(const float *, const float *, float *, float *, int, int, int);
template void rms_norm_fwd<tl::half, 4096, 1e-6f>(const tl::half *, const tl::half *, tl::half *, float *, int,
                                                    int, int);
template void rms_norm_fwd<tl::bfloat16, 4096, 1e-5f>(const tl::bfloat16 *, const tl::bfloat16 *, tl::bfloat16 *,
                                                        float *, int, int, int);
template void add_rms_norm_fwd<tl::half, 4096, 1e-6f>(const tl::half *, const tl::half *, const tl::half *,
                                                      tl::half *, tl::half *, float *, int, int, int);
