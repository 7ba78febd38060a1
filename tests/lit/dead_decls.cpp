// dead-decls: declarations that nothing reads are dropped (with assignments to them), until none is left:
// `unused` reads `scaled`, which nothing else reads, and `pid2` is assigned in a branch. Without this,
// nvcc warns "variable was set but never used" on the generated arrays, an error under -Werror.
// RUN: %tilec --emit=ir --stop-after=dead-decls %s -o - | %FileCheck %s
#include <tilec/tl.hpp>

template <int BLOCK>
TILEC_KERNEL(num_warps = 4)
void k(const float *x, float *out, int n) {
  int pid = tl::program_id(0);
  int pid2 = pid + 1;
  if (n > 4) {
    pid2 = 2 * pid;
  }
  auto offs = pid * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  auto v = tl::load(x + offs, mask);
  auto scaled = v * 2.0f;
  auto unused = tl::exp(scaled);
  tl::store(out + offs, v + 1.0f, mask);
}
template void k<128>(const float *, float *, int);

// CHECK-LABEL: kernel @k<128>
// CHECK: decl %pid
// CHECK-NOT: decl %pid2
// CHECK: decl %offs
// CHECK: decl %mask
// CHECK: decl %v
// CHECK-NOT: %scaled
// CHECK-NOT: %unused
// CHECK-NOT: %pid2
// CHECK: store
