// Conversions between the element types (float, int8/int32/int64, fp16, bf16, bool). Each program
// handles CHUNKS consecutive blocks in an unrolled static_range loop; the offsets carry the
// multiple_of / max_contiguous hints of Triton's idiom.
#include <tilec/tl.hpp>

template <int BLOCK, int CHUNKS>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(n, BLOCK * CHUNKS)))
void convert_kernel(const float *x, const int64_t *big, int8_t *out_i8, int32_t *out_i32,
                    int64_t *out_i64, tl::half *out_f16, tl::bfloat16 *out_bf16, bool *out_bool,
                    float *out_f32, int n) {
  int base = tl::program_id(0) * (BLOCK * CHUNKS);
  for (int c : tl::static_range<0, CHUNKS>()) {
    auto offs = base + c * BLOCK + tl::arange<0, BLOCK>();
    offs = tl::max_contiguous(tl::multiple_of(offs, BLOCK), BLOCK);
    auto mask = offs < n;
    auto v = tl::load(x + offs, mask);
    auto i32 = tl::cast<int32_t>(v);                              // truncates toward zero
    auto i8 = tl::cast<int8_t>(i32 * 37);                         // wraps modulo 2^8
    auto i64 = tl::cast<int64_t>(i8) + tl::load(big + offs, mask); // int64 arithmetic
    auto h = tl::cast<tl::half>(v);                               // round to nearest even
    auto b = tl::cast<tl::bfloat16>(h * 3.0f);                    // fp16 multiply, then to bf16
    auto nz = tl::cast<bool>(i8);                                 // != 0
    tl::store(out_i8 + offs, i8, mask);
    tl::store(out_i32 + offs, i32, mask);
    tl::store(out_i64 + offs, i64, mask);
    tl::store(out_f16 + offs, h, mask);
    tl::store(out_bf16 + offs, b, mask);
    tl::store(out_bool + offs, nz, mask);
    // bf16 + bool: the bool joins as 0/1 in bf16; fp16 + bf16 promotes to fp16; then to float.
    tl::store(out_f32 + offs, tl::cast<float>((b + tl::cast<tl::bfloat16>(nz)) + h), mask);
  }
}

// +, -, *, maximum and minimum of two fp16 or bf16 tiles: the float result rounded once to the
// element type (the CUDA output computes them in the GPU's 16-bit instructions).
template <int BLOCK, class T>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(n, BLOCK)))
void half_ops(const T *a, const T *b, T *sum, T *diff, T *prod, T *hi, T *lo, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  auto x = tl::load(a + offs, mask);
  auto y = tl::load(b + offs, mask);
  tl::store(sum + offs, x + y, mask);
  tl::store(diff + offs, x - y, mask);
  tl::store(prod + offs, x * y, mask);
  tl::store(hi + offs, tl::maximum(x, y), mask);
  tl::store(lo + offs, tl::minimum(x, y), mask);
}

// tl::cast's options. Bitcasts keep the bits: float <-> int32 (the sign flipped in between, read
// back through uint32, whose bitcast from int32 is a conversion), fp16 -> int16 and -> bf16, fp64
// -> int64. `fp_downcast_rounding = rtz` narrows toward zero: fp32 -> fp16 and bf16, fp64 -> fp32,
// fp16 and bf16.
template <int BLOCK>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(n, BLOCK)))
void cast_modes(const float *x, const double *d, int32_t *x_bits, float *negated, int32_t *sign,
                int16_t *h_bits, tl::bfloat16 *h_as_bf16, int64_t *d_bits, tl::half *f16_rz,
                tl::bfloat16 *bf16_rz, float *f32_rz, tl::half *d_f16_rz, tl::bfloat16 *d_bf16_rz,
                int n) {
  constexpr tl::cast_options toward_zero = {.fp_downcast_rounding = tl::rounding::rtz};
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  auto v = tl::cast<float>(tl::load(x + offs, mask), toward_zero); // float to float: v itself
  auto w = tl::load(d + offs, mask);
  auto bits = tl::cast<int32_t>(v, {.bitcast = true});
  tl::store(x_bits + offs, bits, mask);
  tl::store(negated + offs, tl::cast<float>(bits ^ INT32_MIN, {.bitcast = true}), mask);
  tl::store(sign + offs, tl::cast<int32_t>(tl::cast<uint32_t>(bits, {.bitcast = true}) >> 31),
            mask);
  auto h = tl::cast<tl::half>(v);
  tl::store(h_bits + offs, tl::cast<int16_t>(h, {.bitcast = true}), mask);
  tl::store(h_as_bf16 + offs, tl::cast<tl::bfloat16>(h, {.bitcast = true}), mask);
  tl::store(d_bits + offs, tl::cast<int64_t>(w, {.bitcast = true}), mask);
  tl::store(f16_rz + offs, tl::cast<tl::half>(v, toward_zero), mask);
  tl::store(bf16_rz + offs, tl::cast<tl::bfloat16>(v, toward_zero), mask);
  tl::store(f32_rz + offs, tl::cast<float>(w, toward_zero), mask);
  tl::store(d_f16_rz + offs, tl::cast<tl::half>(w, toward_zero), mask);
  tl::store(d_bf16_rz + offs, tl::cast<tl::bfloat16>(w, toward_zero), mask);
}

template void half_ops<512, tl::half>(const tl::half *, const tl::half *, tl::half *, tl::half *,
                                      tl::half *, tl::half *, tl::half *, int);
template void half_ops<512, tl::bfloat16>(const tl::bfloat16 *, const tl::bfloat16 *,
                                          tl::bfloat16 *, tl::bfloat16 *, tl::bfloat16 *,
                                          tl::bfloat16 *, tl::bfloat16 *, int);
template void convert_kernel<256, 4>(const float *, const int64_t *, int8_t *, int32_t *,
                                     int64_t *, tl::half *, tl::bfloat16 *, bool *, float *, int);
template void cast_modes<256>(const float *, const double *, int32_t *, float *, int32_t *,
                              int16_t *, tl::bfloat16 *, int64_t *, tl::half *, tl::bfloat16 *,
                              float *, tl::half *, tl::bfloat16 *, int);
