// out = clamp(a * x + y, -kLimit, kLimit), one BLOCK of elements per program.
#include <tilec/tl.hpp>

#include "saxpy_params.hpp"

template <int BLOCK>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(n, BLOCK)))
void saxpy(float a, const float *x, const float *y, float *out, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  auto r = a * tl::load(x + offs, mask) + tl::load(y + offs, mask);
  tl::store(out + offs, tl::minimum(tl::maximum(r, -kLimit), kLimit), mask);
}

template void saxpy<1024>(float, const float *, const float *, float *, int);
