// EXPECT: atomic_short_circuit.cpp:11:16: error: the call to 'tl::atomic_cas' needs statements of its own, which cannot go onto the right of && or || (C++ may skip it); test the left side with an 'if' and make the call inside it
// An atomic whose old value an expression uses runs before the statement; on the right of && it
// would run even where C++ skips it.
#include <tilec/tl.hpp>

template <int B>
TILEC_KERNEL(num_warps = 4)
void k(int *lock, int *out, int n) {
  auto offs = tl::arange<0, B>();
  int got = 0;
  if (n > 0 && tl::atomic_cas(lock, 0, 1) == 0)
    got = 1;
  tl::store(out + offs, tl::full<int, B>(got));
}
template void k<128>(int *, int *, int);
