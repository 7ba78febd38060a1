// EXPECT: atomic_scalar_result.cpp:8:14: error: the old values of 'tl::atomic_max' of a scalar pointer cannot be kept; call it as a statement, or keep a tile of pointers' old values in a declaration: auto old = tl::atomic_max(ptrs, values);
#include <tilec/tl.hpp>

template <int B>
TILEC_KERNEL(num_warps = 4)
void k(int *top, int *out, int x) {
  // One thread updates a scalar; every thread would need its old value.
  auto old = tl::atomic_max(top, x);
  tl::store(out, old);
}
template void k<128>(int *, int *, int);
