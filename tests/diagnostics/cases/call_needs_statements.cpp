// EXPECT: call_needs_statements.cpp:16:23: error: the call to 'halve' needs statements of its own, which cannot go into a counted for loop's bound (it runs every iteration); compute it into a variable before the loop if it does not change, or write a while loop
// Inlining puts a function's statements before the statement that calls it: a counted for loop's
// bound is evaluated every iteration, so its calls must be plain expressions. (A while loop's
// condition may need statements: they run at the top of each iteration.)
#include <tilec/tl.hpp>

int halve(int x) {
  int h = x / 2;
  return h;
}

template <int B>
TILEC_KERNEL(num_warps = 1)
void k(int32_t *out, int n) {
  int steps = 0;
  for (int i = 0; i < halve(n); ++i)
    steps += 2;
  tl::store(out + tl::arange<0, B>(), tl::full<int32_t, B>(steps));
}
template void k<32>(int32_t *, int);
