// GELU-tanh-and-mul, forward and backward (the algorithm of Liger-Kernel's GEGLU, in tilec's
// style): c = gelu(a) * b with GELU's tanh approximation, and from dc the gradients
// da = dc * b * gelu'(a), db = dc * gelu(a). The activation and its derivative are helper
// functions of their own, called by both kernels (tilec inlines them; the output names them in
// its provenance comments). fp16 in and out, float math.
#include <tilec/tl.hpp>

namespace act {

constexpr float kSqrt2OverPi = 0.7978845608028654f;
constexpr float kCubic = 0.044715f;

/// GELU with the tanh approximation: 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))).
template <class T> T gelu_tanh(const T &x) {
  auto t = tl::tanh(kSqrt2OverPi * (x + kCubic * x * x * x));
  return 0.5f * x * (1.0f + t);
}

/// Its derivative: 0.5 (1 + t) + 0.5 x (1 - t^2) sqrt(2/pi) (1 + 3 * 0.044715 x^2).
template <class T> T gelu_tanh_grad(const T &x) {
  auto t = tl::tanh(kSqrt2OverPi * (x + kCubic * x * x * x));
  auto dinner = kSqrt2OverPi * (1.0f + 3.0f * kCubic * x * x);
  return 0.5f * (1.0f + t) + 0.5f * x * (1.0f - t * t) * dinner;
}

} // namespace act

template <int BLOCK>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(n, BLOCK)))
void gelu_and_mul_fwd(const tl::half *a, const tl::half *b, tl::half *c, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  auto x = tl::cast<float>(tl::load(a + offs, mask));
  auto y = tl::cast<float>(tl::load(b + offs, mask));
  tl::store(c + offs, tl::cast<tl::half>(act::gelu_tanh(x) * y), mask);
}

template <int BLOCK>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(n, BLOCK)))
void gelu_and_mul_bwd(const tl::half *dc, const tl::half *a, const tl::half *b, tl::half *da, tl::half *db, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  auto g = tl::cast<float>(tl::load(dc + offs, mask));
  auto x = tl::cast<float>(tl::load(a + offs, mask));
  auto y = tl::cast<float>(tl::load(b + offs, mask));
  tl::store(da + offs, tl::cast<tl::half>(g * y * act::gelu_tanh_grad(x)), mask);
  tl::store(db + offs, tl::cast<tl::half>(g * act::gelu_tanh(x)), mask);
}

template void gelu_and_mul_fwd<1024>(const tl::half *, const tl::half *, tl::half *, int);
template void gelu_and_mul_bwd<1024>(const tl::half *, const tl::half *, const tl::half *, tl::half *, tl::half *,
                                     int);
