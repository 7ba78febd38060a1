// A kernel that is not a template: out[i, j] = alpha * x[i, j] for an M x N row-major matrix, one
// program per row. Its instance in the generated code is `scale_rows_instance` (a namespace named
// `scale_rows` would collide with this function where host code includes both, as tests/gpu does).
#include <tilec/tl.hpp>

TILEC_KERNEL(num_warps = 2, grid = (M))
void scale_rows(const float *x, float *out, float alpha, int M, int N) {
  int row = tl::program_id(0);
  auto cols = tl::arange<0, 256>();
  auto mask = cols < N;
  auto v = tl::load(x + row * N + cols, mask);
  tl::store(out + row * N + cols, alpha * v, mask);
}
