// EXPECT: mutable_lambda.cpp:12:29: error: cannot call 'the lambda at mutable_lambda.cpp:11' from a kernel: it is mutable (the copies a lambda makes of what it captures cannot change in a kernel; capture by reference, or return the new value)
// A mutable lambda changes its own copies of what it captured: tilec inlines a lambda's calls on
// the kernel's variables, so it refuses one at the call.
#include <tilec/tl.hpp>

TILEC_KERNEL(num_warps = 1)
void k(const float *x, float *out) {
  auto offs = tl::arange<0, 32>();
  auto v = tl::load(x + offs);
  float n = 0.0f;
  auto count = [n]() mutable { n += 1.0f; return n; };
  tl::store(out + offs, v + count());
}
