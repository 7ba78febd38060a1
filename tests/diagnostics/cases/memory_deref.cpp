// EXPECT: memory_deref.cpp:10:11: error: expression '*flag (read memory with tl::load(pointer))' is not supported in a tilec kernel
// C++'s ways to read and write memory are not the kernel language's: a kernel reads with tl::load
// and writes with tl::store (memory_subscript, memory_assign).
#include <tilec/tl.hpp>

template <int B>
TILEC_KERNEL(num_warps = 4)
void k(const int *flag, int *out) {
  auto offs = tl::arange<0, B>();
  int f = *flag;
  tl::store(out + offs, offs + f);
}
template void k<128>(const int *, int *);
