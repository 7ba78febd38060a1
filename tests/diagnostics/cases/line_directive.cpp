// EXPECT: kernels.py:43:8: error: tile 't' needs 2048 elements per thread; at most 256 fit in registers (raise num_warps or shrink the tile)
// A source generated from another file maps its lines back with #line: tilec's diagnostics name
// the place the directive gives, as Clang's do (this one comes from a pass, after translation;
// tests/lit/line_directive.cpp has the front end's and Clang's).
#include <tilec/tl.hpp>
#line 40 "kernels.py"
template <int B>
TILEC_KERNEL(num_warps = 1)
void k(float *x) {
  auto t = tl::load(x + tl::arange<0, B>());
  tl::store(x + tl::arange<0, B>(), t);
}
template void k<65536>(float *);
