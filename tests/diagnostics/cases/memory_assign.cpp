// EXPECT: memory_assign.cpp:8:3: error: expression 'assignment to out[2] (only local variables can be assigned; write memory with tl::store(pointer, value))' is not supported in a tilec kernel
#include <tilec/tl.hpp>

template <int B>
TILEC_KERNEL(num_warps = 4)
void k(const int *x, int *out) {
  int v = tl::load(x + 1);
  out[2] = v;
}
template void k<128>(const int *, int *);
