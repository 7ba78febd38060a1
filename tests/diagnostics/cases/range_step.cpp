// EXPECT: range_step.cpp:9:35: error: the step of tl::range must be a compile-time constant; 'step' is not
// The step of tl::range<S>(begin, end, step) is a constant (Triton's tl.range takes a constexpr step
// for software pipelining too): a counted loop that the pipeline passes can look ahead in.
#include <tilec/tl.hpp>

template <int B>
TILEC_KERNEL(num_warps = 4)
void k(float *out, int n, int step) {
  for (int i : tl::range<2>(0, n, step))
    tl::store(out + i + tl::arange<0, B>(), tl::full<float, B>(1.0f));
}
template void k<16>(float *, int, int);
