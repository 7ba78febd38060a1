// The C library's functions of the language (issue 16, item 3) on float, tl::half and tl::bfloat16
// tiles, through one generic helper function called at each precision (device functions, issue 16
// item 1): out_T[f * n + i] is function f of x[i] (x in [-4, 4], with each function's argument kept
// in its domain), for f in the order of kFunctions in tests/gpu/math_more.cu.
#include <tilec/tl.hpp>

template <class Out, class Tile, class Offs, class Mask>
void store_functions(Out *out, const Tile &a, const Offs &offs, const Mask &mask, int n) {
  auto p = tl::abs(a) + 0.5f; // (0.5, 4.5]: logarithms, lgamma, bases of pow
  auto u = a * 0.2f;          // [-0.8, 0.8]: asin, acos, atanh, tan
  auto w = a * 2.3f;          // rint, round, trunc away from the integers
  tl::store(out + 0 * n + offs, tl::sin(a), mask);
  tl::store(out + 1 * n + offs, tl::cos(a), mask);
  tl::store(out + 2 * n + offs, tl::tan(u), mask);
  tl::store(out + 3 * n + offs, tl::asin(u), mask);
  tl::store(out + 4 * n + offs, tl::acos(u), mask);
  tl::store(out + 5 * n + offs, tl::atan(a), mask);
  tl::store(out + 6 * n + offs, tl::sinh(a), mask);
  tl::store(out + 7 * n + offs, tl::cosh(a), mask);
  tl::store(out + 8 * n + offs, tl::asinh(a), mask);
  tl::store(out + 9 * n + offs, tl::acosh(p + 0.5f), mask);
  tl::store(out + 10 * n + offs, tl::atanh(u), mask);
  tl::store(out + 11 * n + offs, tl::expm1(a), mask);
  tl::store(out + 12 * n + offs, tl::log1p(p), mask);
  tl::store(out + 13 * n + offs, tl::log10(p), mask);
  tl::store(out + 14 * n + offs, tl::cbrt(a), mask);
  tl::store(out + 15 * n + offs, tl::erfc(a), mask);
  tl::store(out + 16 * n + offs, tl::lgamma(p), mask);
  tl::store(out + 17 * n + offs, tl::rint(w), mask);
  tl::store(out + 18 * n + offs, tl::round(w), mask);
  tl::store(out + 19 * n + offs, tl::trunc(w), mask);
  tl::store(out + 20 * n + offs, tl::pow(p, a), mask);
  tl::store(out + 21 * n + offs, tl::pow(p, 2.5f), mask);
  tl::store(out + 22 * n + offs, tl::atan2(a, p), mask);
  tl::store(out + 23 * n + offs, tl::hypot(a, p), mask);
  tl::store(out + 24 * n + offs, tl::copysign(p, a), mask);
  tl::store(out + 25 * n + offs, tl::fmod(w, p), mask);
  tl::store(out + 26 * n + offs, tl::remainder(w, p), mask);
  tl::store(out + 27 * n + offs, tl::clamp(a, -1.0f, 2.5f), mask);
}

template <int BLOCK>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(n, BLOCK)))
void math_more(const float *x, float *out_f32, tl::half *out_f16, tl::bfloat16 *out_bf16, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  auto v = tl::load(x + offs, mask, 0.5f);
  store_functions(out_f32, v, offs, mask, n);
  store_functions(out_f16, tl::cast<tl::half>(v), offs, mask, n);
  store_functions(out_bf16, tl::cast<tl::bfloat16>(v), offs, mask, n);
}

/// isnan, isinf, isfinite and signbit at each precision: out[(4 * t + f) * n + i] for precision t
/// (float, half, bfloat16) and predicate f.
template <class Tile, class Offs, class Mask>
void store_predicates(bool *out, const Tile &a, const Offs &offs, const Mask &mask, int n) {
  tl::store(out + 0 * n + offs, tl::isnan(a), mask);
  tl::store(out + 1 * n + offs, tl::isinf(a), mask);
  tl::store(out + 2 * n + offs, tl::isfinite(a), mask);
  tl::store(out + 3 * n + offs, tl::signbit(a), mask);
}

template <int BLOCK>
TILEC_KERNEL(num_warps = 2, grid = (cdiv(n, BLOCK)))
void predicates(const float *x, bool *out, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  auto v = tl::load(x + offs, mask, 0.0f);
  store_predicates(out, v, offs, mask, n);
  store_predicates(out + 4 * n, tl::cast<tl::half>(v), offs, mask, n);
  store_predicates(out + 8 * n, tl::cast<tl::bfloat16>(v), offs, mask, n);
}

// Divisions and square roots of a stated rounding, and the integer bit functions: out[f * n + i]
// is function f of a[i] and b[i] (a, b nonzero floats of either sign), and bits32/bits64 hold
// popc, clz and umulhi of x[i] and y[i].
template <int BLOCK>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(n, BLOCK)))
void rounding(const float *a, const float *b, float *out, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  auto x = tl::load(a + offs, mask, 1.0f);
  auto y = tl::load(b + offs, mask, 1.0f);
  tl::store(out + offs, tl::div_rn(x, y), mask);
  tl::store(out + n + offs, tl::div_rz(x, y), mask);
  tl::store(out + 2 * n + offs, tl::sqrt_rn(tl::abs(x)), mask);
  tl::store(out + 3 * n + offs, tl::fdiv(x, y), mask);
}

template <int BLOCK>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(n, BLOCK)))
void bits(const int32_t *x, const int64_t *y, int32_t *bits32, int64_t *bits64, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  auto u = tl::load(x + offs, mask, 0);
  auto v = tl::load(y + offs, mask, int64_t{0});
  tl::store(bits32 + offs, tl::popc(u), mask);
  tl::store(bits32 + n + offs, tl::clz(u), mask);
  tl::store(bits32 + 2 * n + offs, tl::umulhi(u, u ^ 12345), mask);
  tl::store(bits64 + offs, tl::popc(v), mask);
  tl::store(bits64 + n + offs, tl::clz(v), mask);
  tl::store(bits64 + 2 * n + offs, tl::umulhi(v, v ^ int64_t{0x5DEECE66D}), mask);
}

template void math_more<256>(const float *, float *, tl::half *, tl::bfloat16 *, int);
template void rounding<256>(const float *, const float *, float *, int);
template void bits<256>(const int32_t *, const int64_t *, int32_t *, int64_t *, int);
template void predicates<128>(const float *, bool *, int);
