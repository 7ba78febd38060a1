// EXPECT: break_in_range.cpp:11:7: error: 'break' in a tl::range or tl::static_range loop is not supported; write the loop as a for or while loop
#include <tilec/tl.hpp>

template <int B>
TILEC_KERNEL(num_warps = 4)
void k(const float *x, float *out, int n) {
  auto acc = tl::zeros<float, B>();
  for (int i : tl::range<2>(0, n, B)) {
    auto v = tl::load(x + i + tl::arange<0, B>(), i + tl::arange<0, B>() < n, 0.0f);
    if (tl::max(v) > 100.0f)
      break;
    acc += v;
  }
  tl::store(out + tl::arange<0, B>(), acc);
}
template void k<64>(const float *, float *, int);
