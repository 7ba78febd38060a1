// Vector addition, as in Triton's tutorial 01: out[i] = x[i] + y[i].
// One program handles BLOCK consecutive elements; the mask guards the ragged last block.
#include <tilec/tl.hpp>

template <int BLOCK>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(n, BLOCK)))
void add_kernel(const float *x, const float *y, float *out, int n) {
  int pid = tl::program_id(0);
  auto offs = pid * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  auto a = tl::load(x + offs, mask);
  auto b = tl::load(y + offs, mask);
  tl::store(out + offs, a + b, mask);
}

template void add_kernel<1024>(const float *, const float *, float *, int);
