// Early returns (issue 14 item 7): programs past the last row return at once; each row's sum is
// stored, and a row whose sum is negative is zeroed and returns there; the first row is copied,
// the others scaled by s. Each `return` ends a branch of an `if` of the kernel's own block, under a
// scalar condition (the same in every thread of the program); the reduction before the second one
// synchronizes the program's two warps, which all reach it or none.
#include <tilec/tl.hpp>

template <int BLOCK>
TILEC_KERNEL(num_warps = 2, grid = (programs))
void early_return(const float *x, float *y, float *sums, int rows, int cols, float s,
                  [[maybe_unused]] int programs) {
  int row = tl::program_id(0);
  if (row >= rows)
    return;
  auto offs = tl::arange<0, BLOCK>();
  auto mask = offs < cols;
  auto v = tl::load(x + row * cols + offs, mask, 0.0f);
  float sum = tl::sum(v);
  tl::store(sums + row, sum);
  if (sum < 0.0f) {
    tl::store(y + row * cols + offs, tl::zeros<float, BLOCK>(), mask);
    return;
  } else if (row == 0) {
    tl::store(y + offs, v, mask);
    return;
  }
  tl::store(y + row * cols + offs, v * s, mask);
}

template void early_return<64>(const float *, float *, float *, int, int, float, int);
