// Meta-parameters of type float and double (C++20): the output declares each as a constant of its
// type with the shortest literal that reads back as the value, a float one is named where the
// kernel uses it in float arithmetic (a double one converted to float prints as the rounded
// literal), and the instance name spells the value in letters and digits.
// RUN: %tilec %s -o - | %FileCheck %s
// RUN: %tilec --emit=ir --stop-after=simplify %s -o - | %FileCheck %s --check-prefix=IR
#include <tilec/tl.hpp>

template <int BLOCK, float EPS, double SCALE, float NEG>
TILEC_KERNEL(num_warps = 1)
void k(const float *x, float *out) {
  auto offs = tl::arange<0, BLOCK>();
  auto v = tl::load(x + offs);
  tl::store(out + offs, v * SCALE + EPS + NEG);
}
template void k<32, 1e-6f, 0.1, -2.5f>(const float *, float *);

// CHECK: namespace k_32_1em06_0p1_m2p5 {
// CHECK-NEXT: constexpr int BLOCK = 32;  // meta-parameter
// CHECK-NEXT: constexpr float EPS = 1e-06f;  // meta-parameter
// CHECK-NEXT: {{\[\[}}maybe_unused]] constexpr double SCALE = 0.1;  // meta-parameter
// CHECK-NEXT: constexpr float NEG = -2.5f;  // meta-parameter
// CHECK: 0.100000001f + EPS + NEG
// IR: 9.9999999747524271e-07:f32{EPS}
// IR: -2.5:f32{NEG}
