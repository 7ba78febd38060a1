// EXPECT: grid_out_of_range.cpp:7:53: error: grid dimension y is 70000; a launch takes 0 to 65535 programs along it
// EXPECT: grid_out_of_range.cpp:11:15: note: in instantiation 'k<128>' requested here
// The y dimension of a launch is at most 65535 programs (x: 2^31 - 1).
#include <tilec/tl.hpp>

template <int BLOCK>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(n, BLOCK), 70000))
void k(float *out, int n) {
  tl::store(out + tl::arange<0, BLOCK>(), tl::full<float, BLOCK>(1.0f));
}
template void k<128>(float *, int);
