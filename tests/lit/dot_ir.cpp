// tl::dot in the Tile IR: the translator makes a `dot` node (operands, accumulator, precision;
// the result type is tl.hpp's: f32 for f16 operands, i32 for int8); materialize binds a dot that
// is part of a larger expression to its own variable (`dot_<a>_<b>`); lower-dots stages both
// operands in shared memory (the first one's rows padded by one 4-byte bank) and computes the
// product from there (`shared_dot`), after a barrier.
// RUN: %tilec --emit=ir --stop-after=materialize %s -o - | %FileCheck %s
// RUN: %tilec --emit=ir --stop-after=lower-dots %s -o - | %FileCheck --check-prefix=LOWER %s
// RUN: %tilec %s -o - | %FileCheck --check-prefix=CUDA %s
#include <tilec/tl.hpp>

// CHECK-LABEL: kernel @mm<16>
// CHECK: for %k
// CHECK: %acc = dot(%av, %bv, acc=%acc) : tile<16x16xf32>
// CHECK: decl %dot_xv_xv: tile<16x16xf32> = dot(%xv, %xv, precision=tf32) : tile<16x16xf32>
// CHECK-NEXT: %acc = add(%acc, %dot_xv_xv)
// CHECK: decl %dot_qv_qv: tile<16x16xi32> = dot(%qv, %qv) : tile<16x16xi32>

// LOWER: shared 0 av_smem: f16[16x16] row_stride=18
// LOWER-NEXT: shared 1 bv_smem: f16[16x16] row_stride=16
// LOWER-NEXT: shared 2 xv_smem: f32[16x16] row_stride=17
// LOWER-NEXT: shared 3 xv_smem: f32[16x16] row_stride=16
// LOWER-NEXT: shared 4 qv_smem: i8[16x16] row_stride=20
// LOWER: for %k
// LOWER-NEXT: shared_write 0, %av
// LOWER-NEXT: shared_write 1, %bv
// LOWER-NEXT: barrier
// LOWER-NEXT: %acc = shared_dot(0, 1, acc=%acc) : tile<16x16xf32, #blocked0>
// LOWER: decl %dot_xv_xv: tile<16x16xf32, #blocked0> = shared_dot(2, 3, precision=tf32)
// LOWER: decl %dot_qv_qv: tile<16x16xi32, #blocked0> = shared_dot(4, 5) : tile<16x16xi32, #blocked0>

// The accumulator is summed in place; tf32 rounds each operand (tilec::rt::dot_term_tf32); int8
// products are added with wrapping int32 arithmetic.
// CUDA: acc[i][j] = acc[i][j] + av_smem_k[i] * bv_smem_k[j];
// CUDA: dot_xv_xv[i][j] = dot_xv_xv[i][j] + tilec::rt::dot_term_tf32(xv_smem_k[i], xv_smem_1_k[j]);
// CUDA: dot_qv_qv[i][j] = tilec::rt::wrapping_add(dot_qv_qv[i][j], qv_smem_k[i] * qv_smem_1_k[j]);
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
