// One kernel generic over its element type, written as a C++ programmer writes one (issue 16, item
// 2): a type parameter instantiated for fp32, fp16, bf16, int32 and int64; an enumeration
// meta-parameter choosing a step at compile time; `if constexpr` on tl.hpp's type traits
// (tl::is_floating_v) and on std::is_same_v; a function template of the user's own called with
// the tile. tests/gpu/generic.cu runs every instantiation against the CPU reference of this file and
// a float64 (or exact integer) computation.
#include <tilec/tl.hpp>

#include <cstdint>
#include <type_traits>

enum class Edge { Keep, Clip };

namespace generic_detail {
/// x + x in the tile's own element type (integers wrap, halves round).
template <class X> auto twice(const X &x) { return x + x; }
} // namespace generic_detail

template <class T, Edge EDGE, int BLOCK>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(n, BLOCK)))
void affine(const T *x, T *y, T bound, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  auto v = tl::load(x + offs, mask);
  if constexpr (EDGE == Edge::Clip)
    v = tl::clamp(v, -bound, bound);
  if constexpr (tl::is_floating_v<T>) {
    // Floating point: a quarter of twice the value, plus the square root of its magnitude; 16-bit
    // types first widen to float, as Llama-style kernels do, and round once at the store.
    if constexpr (std::is_same_v<T, float>)
      tl::store(y + offs, generic_detail::twice(v) * 0.25f + tl::sqrt(tl::abs(v)), mask);
    else
      tl::store(y + offs, tl::cast<T>(generic_detail::twice(tl::cast<float>(v)) * 0.25f +
                                      tl::sqrt(tl::abs(tl::cast<float>(v)))),
                mask);
  } else {
    static_assert(tl::is_integer_v<T>, "affine: an integer or floating-point element type");
    tl::store(y + offs, generic_detail::twice(v) / 4 + v % 3, mask);
  }
}

template void affine<float, Edge::Keep, 256>(const float *, float *, float, int);
template void affine<tl::half, Edge::Clip, 256>(const tl::half *, tl::half *, tl::half, int);
template void affine<tl::bfloat16, Edge::Keep, 256>(const tl::bfloat16 *, tl::bfloat16 *, tl::bfloat16, int);
template void affine<int32_t, Edge::Clip, 256>(const int32_t *, int32_t *, int32_t, int);
template void affine<int64_t, Edge::Keep, 256>(const int64_t *, int64_t *, int64_t, int);
