// A store of a narrowing cast of a variable held in another layout (the accumulator of a dot, in
// the mma layout, stored through a blocked one): the cast runs in the variable's layout and the
// fp16 values are converted through shared memory, not the fp32 ones (half the bytes), whether the
// cast is written inline or into a variable.
// RUN: %tilec --arch=sm_80 %s -o - | %FileCheck %s
#include <tilec/tl.hpp>

template <int B>
TILEC_KERNEL(num_warps = 4, grid = (1))
void inline_cast(const tl::half *a, const tl::half *b, tl::half *c) {
  auto r = tl::arange<0, B>();
  auto at = tl::expand_dims<1>(r) * B + tl::expand_dims<0>(r);
  auto acc = tl::dot(tl::load(a + at), tl::load(b + at), tl::zeros<float, B, B>());
  tl::store(c + at, tl::cast<tl::half>(acc));
}
template void inline_cast<64>(const tl::half *, const tl::half *, tl::half *);

// CHECK-LABEL: namespace inline_cast_64 {
// CHECK: __half *store_cvt_smem = reinterpret_cast<__half *>(
// CHECK-NOT: float *store_cvt_smem
// CHECK: store_cvt_smem[STORE_CVT_SWIZZLE::offset(L{{[0-9]+}}::coord0(i), L{{[0-9]+}}::coord1(j))] = tilec::rt::to_f16(acc[i][j]);

// A store into an int8 pointer of an expression of one variable (rint of a float tile: the store's
// implicit cast): the fp16 rows load 8 to a thread, the int8 store takes 16, and the conversion
// moves the int8 values (4096 bytes), not the floats (16384).
template <int BLOCK>
TILEC_KERNEL(num_warps = 4, grid = (1))
void cast_expression(const tl::half *x, int8_t *q, float scale) {
  auto cols = tl::arange<0, BLOCK>();
  auto y = tl::cast<float>(tl::load(x + cols)) * scale;
  tl::store(q + cols, tl::rint(y));
}
template void cast_expression<4096>(const tl::half *, int8_t *, float);

// CHECK-LABEL: namespace cast_expression_4096 {
// CHECK: constexpr int SMEM_BYTES = 4096;
// CHECK: int8_t *store_cvt_smem = reinterpret_cast<int8_t *>(
// CHECK: store_cvt_smem[L0::coord0(i)] = static_cast<int8_t>(rintf(y[i]));
// CHECK: int8_t store_cvt[L1::ELEMS];
