// Every math function of the language, on float, tl::half and tl::bfloat16 tiles: out_T[f * n + i]
// is function f of x[i] (x in [-4, 4]; log, log2, sqrt and rsqrt take |x| + 0.5), for f in the
// order of kFunctions in tests/gpu/math_ops.cu.
#include <tilec/tl.hpp>

template <int BLOCK>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(n, BLOCK)))
void math_kernel(const float *x, float *out_f32, tl::half *out_f16, tl::bfloat16 *out_bf16, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  auto v = tl::load(x + offs, mask, 0.5f);
  // t = 2, 1, 0: the loop counts down (a negative static_range step once emitted a loop that never
  // ran, leaving every output unwritten).
  for (int t : tl::static_range<2, -1, -1>()) {
    // The same functions at each precision: the computation in float, one rounding to the type.
    if (t == 0) {
      auto a = v;
      auto p = tl::abs(a) + 0.5f;
      tl::store(out_f32 + 0 * n + offs, tl::exp(a), mask);
      tl::store(out_f32 + 1 * n + offs, tl::exp2(a), mask);
      tl::store(out_f32 + 2 * n + offs, tl::log(p), mask);
      tl::store(out_f32 + 3 * n + offs, tl::log2(p), mask);
      tl::store(out_f32 + 4 * n + offs, tl::sqrt(p), mask);
      tl::store(out_f32 + 5 * n + offs, tl::rsqrt(p), mask);
      tl::store(out_f32 + 6 * n + offs, tl::sigmoid(a), mask);
      tl::store(out_f32 + 7 * n + offs, tl::tanh(a), mask);
      tl::store(out_f32 + 8 * n + offs, tl::erf(a), mask);
      tl::store(out_f32 + 9 * n + offs, tl::floor(a), mask);
      tl::store(out_f32 + 10 * n + offs, tl::ceil(a), mask);
      tl::store(out_f32 + 11 * n + offs, tl::abs(a), mask);
      tl::store(out_f32 + 12 * n + offs, tl::fma(a, p, a), mask);
    } else if (t == 1) {
      auto a = tl::cast<tl::half>(v);
      auto p = tl::abs(a) + 0.5f;
      tl::store(out_f16 + 0 * n + offs, tl::exp(a), mask);
      tl::store(out_f16 + 1 * n + offs, tl::exp2(a), mask);
      tl::store(out_f16 + 2 * n + offs, tl::log(p), mask);
      tl::store(out_f16 + 3 * n + offs, tl::log2(p), mask);
      tl::store(out_f16 + 4 * n + offs, tl::sqrt(p), mask);
      tl::store(out_f16 + 5 * n + offs, tl::rsqrt(p), mask);
      tl::store(out_f16 + 6 * n + offs, tl::sigmoid(a), mask);
      tl::store(out_f16 + 7 * n + offs, tl::tanh(a), mask);
      tl::store(out_f16 + 8 * n + offs, tl::erf(a), mask);
      tl::store(out_f16 + 9 * n + offs, tl::floor(a), mask);
      tl::store(out_f16 + 10 * n + offs, tl::ceil(a), mask);
      tl::store(out_f16 + 11 * n + offs, tl::abs(a), mask);
      tl::store(out_f16 + 12 * n + offs, tl::fma(a, p, a), mask);
    } else {
      auto a = tl::cast<tl::bfloat16>(v);
      auto p = tl::abs(a) + 0.5f;
      tl::store(out_bf16 + 0 * n + offs, tl::exp(a), mask);
      tl::store(out_bf16 + 1 * n + offs, tl::exp2(a), mask);
      tl::store(out_bf16 + 2 * n + offs, tl::log(p), mask);
      tl::store(out_bf16 + 3 * n + offs, tl::log2(p), mask);
      tl::store(out_bf16 + 4 * n + offs, tl::sqrt(p), mask);
      tl::store(out_bf16 + 5 * n + offs, tl::rsqrt(p), mask);
      tl::store(out_bf16 + 6 * n + offs, tl::sigmoid(a), mask);
      tl::store(out_bf16 + 7 * n + offs, tl::tanh(a), mask);
      tl::store(out_bf16 + 8 * n + offs, tl::erf(a), mask);
      tl::store(out_bf16 + 9 * n + offs, tl::floor(a), mask);
      tl::store(out_bf16 + 10 * n + offs, tl::ceil(a), mask);
      tl::store(out_bf16 + 11 * n + offs, tl::abs(a), mask);
      tl::store(out_bf16 + 12 * n + offs, tl::fma(a, p, a), mask);
    }
  }
}

template void math_kernel<256>(const float *, float *, tl::half *, tl::bfloat16 *, int);
