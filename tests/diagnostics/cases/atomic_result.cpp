// EXPECT: atomic_result.cpp:9:25: error: the old values of 'tl::atomic_add' in an expression cannot be kept; call it as a statement, or keep a tile of pointers' old values in a declaration: auto old = tl::atomic_add(ptrs, values);
#include <tilec/tl.hpp>

template <int B>
TILEC_KERNEL(num_warps = 4)
void k(int *counts, int *out) {
  auto offs = tl::arange<0, B>();
  // The old values used inside an expression: tilec wants them in a variable first.
  tl::store(out + offs, tl::atomic_add(counts + offs, 1) + 1);
}
template void k<128>(int *, int *);
