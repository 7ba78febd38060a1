// EXPECT: tile_conditional.cpp:9:18: error: '?:' chooses between tiles, and the generated code would compute both; write tl::where(n > 5, ...), which computes both as Triton's does, or an if statement
#include <tilec/tl.hpp>

template <int BLOCK>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(n, BLOCK)))
void k(const float *x, float *y, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto a = tl::load(x + offs, offs < n);
  auto c = n > 5 ? a : a * 2.0f;
  tl::store(y + offs, c, offs < n);
}
template void k<128>(const float *, float *, int);
