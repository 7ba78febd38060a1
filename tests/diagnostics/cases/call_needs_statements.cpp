// EXPECT: call_needs_statements.cpp:16:10: error: the call to 'halve' needs statements of its own, which cannot go into a loop condition (it runs every iteration); compute it into a variable first
// Inlining puts a function's statements before the statement that calls it: a while condition runs
// every iteration, so its calls must be plain expressions.
#include <tilec/tl.hpp>

int halve(int x) {
  int h = x / 2;
  return h;
}

template <int B>
TILEC_KERNEL(num_warps = 1)
void k(int32_t *out, int n) {
  int steps = 0;
  int m = n;
  while (halve(m) > 0) {
    m = m / 2;
    steps += 1;
  }
  tl::store(out + tl::arange<0, B>(), tl::full<int32_t, B>(steps));
}
template void k<32>(int32_t *, int);
