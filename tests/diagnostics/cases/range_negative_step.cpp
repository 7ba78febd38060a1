// EXPECT: range_negative_step.cpp:8:35: error: statement 'tl::range with a step that is not positive (-16)' is not supported in a tilec kernel
// tl::range<S>(begin, end, step) counts up, as `for (i = begin; i < end; i += step)`.
#include <tilec/tl.hpp>

template <int B>
TILEC_KERNEL(num_warps = 4)
void k(float *out, int n) {
  for (int i : tl::range<2>(n, 0, -16))
    tl::store(out + i + tl::arange<0, B>(), tl::full<float, B>(1.0f));
}
template void k<16>(float *, int);
