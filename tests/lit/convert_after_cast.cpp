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
