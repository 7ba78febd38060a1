// EXPECT: unsupported_function.cpp:6:20: error: cannot call 'accumulate' from a kernel: its parameter 'acc' is a reference to non-const (take it by value or by const reference, and return the result)
// EXPECT: unsupported_function.cpp:14:3: note: in the call to 'accumulate' here
#include <tilec/tl.hpp>

template <class T>
void accumulate(T &acc, const T &x) {
  acc += x;
}

template <int B>
TILEC_KERNEL(num_warps = 1)
void k(float *out, const float *in) {
  auto acc = tl::zeros<float, B>();
  accumulate(acc, tl::load(in + tl::arange<0, B>()));
  tl::store(out + tl::arange<0, B>(), acc);
}
template void k<32>(float *, const float *);
