// The 8-bit floats tl::float8_e4m3 (Triton's float8e4nv) and tl::float8_e5m2 (float8e5): loads and
// stores, conversions from every float type and from int32 (to nearest even, saturating, NaN to
// 0x7F) and back to float (exact), arithmetic computed in float and rounded back to fp8, Triton's
// promotion of mixed operands, and bitcasts. tests/gpu/fp8.cu checks every result bit for bit
// against the CPU reference and an oracle of its own, over every pair of fp8 values.
#include <tilec/tl.hpp>

// q = x converted to F (a store into F's pointer converts, as tl::cast does); back = q in float.
template <int BLOCK, class T, class F>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(n, BLOCK)))
void to_fp8(const T *x, F *q, float *back, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  auto v = tl::load(x + offs, mask);
  tl::store(q + offs, v, mask);
  tl::store(back + offs, tl::cast<float>(tl::cast<F>(v)), mask);
}

// Arithmetic on two fp8 tiles, each operation in float and rounded back to F: sum, product (then
// doubled by a scalar, which keeps the tile's type), quotient, the larger of a and -b, the
// magnitude or the negation as a comparison chooses, and the comparison itself.
template <int BLOCK, class F>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(n, BLOCK)))
void fp8_ops(const F *x, const F *y, F *sum, F *prod, F *quot, F *larger, F *chosen, int8_t *less,
             int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  auto a = tl::load(x + offs, mask, 0.0f);
  auto b = tl::load(y + offs, mask, 1.0f);
  tl::store(sum + offs, a + b, mask);
  tl::store(prod + offs, a * b * 2.0f, mask);
  tl::store(quot + offs, a / b, mask);
  tl::store(larger + offs, tl::maximum(a, -b), mask);
  tl::store(chosen + offs, tl::where(a < b, tl::abs(a), -b), mask);
  tl::store(less + offs, tl::cast<int8_t>(a < b), mask);
}

// Mixed operands as Triton promotes them: e4m3 with e5m2 gives fp16, e4m3 with bf16 gives fp32; a
// float constant next to an fp8 tile is converted to it (0.3 becomes 0.3125). The bits of both fp8
// operands, xored, through bitcasts.
TILEC_KERNEL(num_warps = 2, grid = (cdiv(n, 256)))
void fp8_mixed(const tl::float8_e4m3 *x, const tl::float8_e5m2 *y, const tl::bfloat16 *z,
               tl::half *xy, float *xz, tl::float8_e4m3 *scaled, uint8_t *bits, int n) {
  auto offs = tl::program_id(0) * 256 + tl::arange<0, 256>();
  auto mask = offs < n;
  auto a = tl::load(x + offs, mask);
  auto b = tl::load(y + offs, mask);
  auto c = tl::load(z + offs, mask);
  auto ab = a + b;
  static_assert(std::is_same_v<decltype(ab)::value_type, tl::half>);
  auto ac = a * c;
  static_assert(std::is_same_v<decltype(ac)::value_type, float>);
  tl::store(xy + offs, ab, mask);
  tl::store(xz + offs, ac, mask);
  tl::store(scaled + offs, a * 0.3f, mask);
  auto abits = tl::cast<uint8_t>(a, {.bitcast = true});
  tl::store(bits + offs, abits ^ tl::cast<uint8_t>(b, {.bitcast = true}), mask);
}

template void to_fp8<1024, float, tl::float8_e4m3>(const float *, tl::float8_e4m3 *, float *, int);
template void to_fp8<1024, float, tl::float8_e5m2>(const float *, tl::float8_e5m2 *, float *, int);
template void to_fp8<512, tl::half, tl::float8_e4m3>(const tl::half *, tl::float8_e4m3 *, float *,
                                                     int);
template void to_fp8<512, tl::bfloat16, tl::float8_e5m2>(const tl::bfloat16 *, tl::float8_e5m2 *,
                                                         float *, int);
template void to_fp8<256, double, tl::float8_e4m3>(const double *, tl::float8_e4m3 *, float *, int);
template void to_fp8<256, int32_t, tl::float8_e5m2>(const int32_t *, tl::float8_e5m2 *, float *,
                                                    int);
template void fp8_ops<1024, tl::float8_e4m3>(const tl::float8_e4m3 *, const tl::float8_e4m3 *,
                                             tl::float8_e4m3 *, tl::float8_e4m3 *,
                                             tl::float8_e4m3 *, tl::float8_e4m3 *,
                                             tl::float8_e4m3 *, int8_t *, int);
template void fp8_ops<512, tl::float8_e5m2>(const tl::float8_e5m2 *, const tl::float8_e5m2 *,
                                            tl::float8_e5m2 *, tl::float8_e5m2 *, tl::float8_e5m2 *,
                                            tl::float8_e5m2 *, tl::float8_e5m2 *, int8_t *, int);
