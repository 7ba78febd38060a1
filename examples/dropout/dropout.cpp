// Low-memory dropout (Triton's tutorial 04, "seeded dropout"): the keep mask is not stored but
// regenerated from a seed and the element offsets, so the backward pass (the same kernel with the
// same seed on the gradient) drops the same elements. out = x / (1 - p) where rand(seed, offset) > p,
// else 0.
#include <tilec/tl.hpp>

template <class T, int BLOCK>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(n, BLOCK)))
void seeded_dropout(const T *x, T *out, int n, float p, int seed) {
  auto offsets = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offsets < n;
  auto v = tl::load(x + offsets, mask);
  // One uniform float in [0, 1) per element, Triton's stream for (seed, offset).
  auto random = tl::rand(seed, offsets);
  auto keep = random > p;
  tl::store(out + offsets, tl::where(keep, v / (1 - p), 0.0f), mask);
}

template void seeded_dropout<float, 1024>(const float *, float *, int, float, int);
template void seeded_dropout<tl::half, 1024>(const tl::half *, tl::half *, int, float, int);
