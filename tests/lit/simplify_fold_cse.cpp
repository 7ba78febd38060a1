// simplify folds constants (keeping meta-parameter names where nothing was folded) and reuses an
// earlier variable with the same value instead of recomputing it.
// RUN: %tilec --emit=ir --stop-after=simplify %s -o - | %FileCheck %s
#include <tilec/tl.hpp>

template <int BLOCK>
TILEC_KERNEL(num_warps = 4)
void k(const float *x, float *out, int n) {
  int pid = tl::program_id(0);
  int base = pid * (BLOCK * 2 / 2) + 0;
  auto offs = base + tl::arange<0, BLOCK>();
  auto again = base + tl::arange<0, BLOCK>();
  tl::store(out + offs, tl::load(x + again, again < n), offs < n);
}
template void k<256>(const float *, float *, int);

// CHECK: decl %base: i32 = mul(%pid, 256:i32)
// CHECK: decl %offs:
// CHECK-NOT: decl %again
// CHECK: store(add(splat(%out) {{.*}}, %offs), load(add(splat(%x) {{.*}}, %offs), mask=lt(%offs,
