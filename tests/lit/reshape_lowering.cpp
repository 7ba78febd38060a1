// The shape ops stage their operands in shared memory, row-major, and read the result back in its
// own layout by the op's rule; tl::split's two halves read one staging of the pairs.
// RUN: %tilec --emit=ir --stop-after=lower-layout-conversions %s -o - | %FileCheck %s
// RUN: %tilec %s -o - | %FileCheck %s --check-prefix=CUDA
#include <tilec/tl.hpp>

TILEC_KERNEL(num_warps = 2)
void shapes(const float *in, float *out, float *both) {
  auto offs = tl::arange<0, 256>();
  auto m = tl::reshape<8, 32>(tl::load(in + offs));
  auto [even, odd] = tl::split(tl::reshape<128, 2>(tl::ravel(m)));
  auto half = tl::arange<0, 128>();
  tl::store(out + half, even - odd);
  tl::store(both + offs, tl::cat(even, odd) + tl::interleave(odd, even));
}

// CHECK: decl %m: tile<8x32xf32, #{{.*}}> = shared_read({{[0-9]+}}, reshape)
// CHECK: decl %even_odd: tile<128x2xf32, #{{.*}}> = shared_read({{[0-9]+}}, reshape)
// CHECK: shared_write [[P:[0-9]+]], %even_odd
// CHECK-NEXT: barrier
// CHECK-NEXT: decl %even: tile<128xf32, #{{.*}}> = shared_read([[P]], even)
// CHECK-NEXT: decl %odd: tile<128xf32, #{{.*}}> = shared_read([[P]], odd)
// CHECK: shared_write [[A:[0-9]+]], %even
// CHECK-NEXT: shared_write [[B:[0-9]+]], %odd
// CHECK-NEXT: barrier
// CHECK-NEXT: decl %{{.*}}: tile<256xf32, #{{.*}}> = shared_read([[A]], [[B]], cat)

// CUDA: m[i][j] = m_smem[L{{[0-9]+}}::coord0(i) * 32 + L{{[0-9]+}}::coord1(j)];
// CUDA: even[i] = even_odd_split_smem[L{{[0-9]+}}::coord0(i) * 2];
// CUDA: odd[i] = even_odd_split_smem[L{{[0-9]+}}::coord0(i) * 2 + 1];
// CUDA: cat_even[i] = L{{[0-9]+}}::coord0(i) < 128 ? cat_even_a_smem[L{{[0-9]+}}::coord0(i)]
// CUDA-NEXT: : cat_even_b_smem[L{{[0-9]+}}::coord0(i) - 128];
// CUDA: interleave_odd[i] = (L{{[0-9]+}}::coord0(i) & 1) ? interleave_odd_b_smem[(L{{[0-9]+}}::coord0(i) >> 1)]
// CUDA-NEXT: : interleave_odd_a_smem[(L{{[0-9]+}}::coord0(i) >> 1)];
