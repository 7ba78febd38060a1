// tl::dot in the Tile IR (issue 12, step 2 begins): the translator makes a `dot` node (operands,
// accumulator, precision; the result type is tl.hpp's: f32 for f16 operands, i32 for int8), the
// passes before layout-assignment carry it unchanged, and layout-assignment, which has no layout
// for it yet, rejects the kernel at the call.
// RUN: %tilec --emit=ir --stop-after=prefetch-loads %s -o - | %FileCheck %s
// RUN: %not %tilec %s -o - 2>&1 | %FileCheck --check-prefix=ERR %s
#include <tilec/tl.hpp>

// CHECK-LABEL: kernel @mm<16>
// CHECK: for %k
// CHECK: %acc = dot(%av, %bv, acc=%acc) : tile<16x16xf32>
// CHECK: %acc = add(%acc, dot(%xv, %xv, precision=tf32) : tile<16x16xf32>)
// CHECK: dot(%qv, %qv) : tile<16x16xi32>
// ERR: dot_ir.cpp:[[#@LINE+10]]:11: error: tilec cannot translate 'tl::dot' yet
template <int B>
TILEC_KERNEL(num_warps = 4)
void mm(float *c, const tl::half *a, const tl::half *b, const float *x, const int8_t *q, int32_t *qc) {
  auto r = tl::arange<0, B>();
  auto offs = tl::expand_dims<1>(r) * B + tl::expand_dims<0>(r);
  auto av = tl::load(a + offs);
  auto bv = tl::load(b + offs);
  auto acc = tl::zeros<float, B, B>();
  for (int k = 0; k < 4; ++k)
    acc = tl::dot(av, bv, acc);
  auto xv = tl::load(x + offs);
  acc += tl::dot<tl::tf32>(xv, xv);
  tl::store(c + offs, acc);
  auto qv = tl::load(q + offs);
  tl::store(qc + offs, tl::dot(qv, qv));
}
template void mm<16>(float *, const tl::half *, const tl::half *, const float *, const int8_t *, int32_t *);
