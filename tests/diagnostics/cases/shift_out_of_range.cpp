// EXPECT: shift_out_of_range.cpp:9:29: error: shift by 8: i8 operands shift by 0 to 7
#include <tilec/tl.hpp>

template <int BLOCK>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(n, BLOCK)))
void k(const int8_t *x, int8_t *y, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto a = tl::load(x + offs, offs < n);
  tl::store(y + offs, (a << 8) | (a >> 7), offs < n);
}
template void k<128>(const int8_t *, int8_t *, int);
