// EXPECT: memory_subscript.cpp:8:11: error: expression 'row[2] (read memory with tl::load(pointer + offset))' is not supported in a tilec kernel
#include <tilec/tl.hpp>

template <int B>
TILEC_KERNEL(num_warps = 4)
void k(const int *row, int *out) {
  auto offs = tl::arange<0, B>();
  int f = row[2];
  tl::store(out + offs, offs + f);
}
template void k<128>(const int *, int *);
