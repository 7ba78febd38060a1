// tl::inline_asm_elementwise (Triton's inline_asm_elementwise with pack = 1): PTX applied to each
// element, with tilec's reference function beside it, which the CPU reference, the HIP output and
// the CPU emulator run. On the GPU the assembly runs, and tests/gpu/inline_asm.cu compares it, bit
// for bit, with the reference functions and with a computation of its own: a shift (Triton's
// documentation example), a byte reversal by prmt, a block with a register of its own (a `%` in the
// PTX), an fma of three floats (one a scalar, broadcast), a half's sign cleared through a 16-bit
// register, and an add of two 64-bit integers that is declared to have effects (IS_PURE false).
#include <tilec/tl.hpp>

template <int BLOCK>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(n, BLOCK)))
void asm_ops(const int32_t *a, const float *x, const tl::half *h, const int64_t *w,
             int32_t *shifted, uint32_t *reversed, int32_t *tripled, float *fused, tl::half *habs,
             int64_t *summed, int n, float scale, int64_t bias) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto m = offs < n;
  auto av = tl::load(a + offs, m, 0);
  auto xv = tl::load(x + offs, m, 0.0f);
  auto hv = tl::load(h + offs, m, 0.0f);
  auto wv = tl::load(w + offs, m, int64_t(0));
  auto s = tl::inline_asm_elementwise<int32_t>(
      "shl.b32 $0, $1, 3;", "=r,r", [](int32_t v) { return v << 3; }, av);
  tl::store(shifted + offs, s, m);
  auto u = tl::cast<uint32_t>(av);
  auto r = tl::inline_asm_elementwise<uint32_t>(
      "prmt.b32 $0, $1, $1, 0x0123;", "=r,r",
      [](uint32_t r) { // (named as the output's result variable is)
        return (r >> 24) | ((r >> 8) & 0xff00u) | ((r << 8) & 0xff0000u) | (r << 24);
      },
      u);
  tl::store(reversed + offs, r, m);
  auto t = tl::inline_asm_elementwise<int32_t>(
      "{ .reg .b32 %t; shl.b32 %t, $1, 1; add.s32 $0, %t, $1; }", "=r,r",
      [](int32_t v) { return v * 3; }, av);
  tl::store(tripled + offs, t, m);
  auto f = tl::inline_asm_elementwise<float>(
      "fma.rn.f32 $0, $1, $2, $3;", "=f,f,f,f",
      [](float p, float q, float c) { return tl::fma(p, q, c); }, xv, scale, xv);
  tl::store(fused + offs, f, m);
  auto g = tl::inline_asm_elementwise<tl::half>(
      "and.b16 $0, $1, 0x7fff;", "=h,h", [](tl::half v) { return tl::abs(v); }, hv);
  tl::store(habs + offs, g, m);
  auto d = tl::inline_asm_elementwise<int64_t, false>(
      "add.s64 $0, $1, $2;", "=l,l,l", [](int64_t p, int64_t q) { return p + q; }, wv, bias);
  tl::store(summed + offs, d, m);
}

template void asm_ops<256>(const int32_t *, const float *, const tl::half *, const int64_t *,
                           int32_t *, uint32_t *, int32_t *, float *, tl::half *, int64_t *, int,
                           float, int64_t);
