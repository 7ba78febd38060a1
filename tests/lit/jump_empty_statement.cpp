// An empty statement after a jump (`continue;;`) is no statement that never runs: it translates
// (the AfterJump error is for real statements, tests/diagnostics continue and break_continue).
// RUN: %tilec --emit=ir --stop-after=insert-barriers %s -o - | %FileCheck %s
#include <tilec/tl.hpp>

// CHECK-LABEL: kernel @k<16>
// CHECK: %skip_rest = 1:i1
// CHECK: if not(%skip_rest) {
template <int B>
TILEC_KERNEL(num_warps = 1)
void k(int *out, int n) {
  int s = 0;
  for (int i = 0; i < n; ++i) {
    if (i > 2) {
      if (i % 2 == 0) {
        continue;;
      }
      s += 1;
    }
    s += i;
  }
  tl::store(out, s);
}
template void k<16>(int *, int);
