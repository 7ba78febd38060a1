// EXPECT: division_by_zero.cpp:9:41: error: integer remainder by zero
#include <tilec/tl.hpp>

template <int BLOCK, int D>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(n, BLOCK)))
void k(const int *x, int *y, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto a = tl::load(x + offs, offs < n);
  tl::store(y + offs, a / (D + 1) + a % (D - 1), offs < n);
}
template void k<128, 1>(const int *, int *, int);
