// tl::device_assert: a tile condition with a message and a scalar one without, on the way to a
// store. As C's assert, compiled out under NDEBUG (the generated code and the CPU reference alike).
#include <tilec/tl.hpp>

template <int BLOCK>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(n, BLOCK)))
void checked_scale(const float *x, float *y, int n, float limit) {
  tl::device_assert(n > 0);
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  auto v = tl::load(x + offs, mask, 0.0f);
  tl::device_assert(tl::abs(v) <= limit, "x out of range");
  tl::store(y + offs, v * 2.0f, mask);
}

// Row sums of x [rows, cols] over column blocks, asserting in the loop that no element is a NaN
// (num_stages = 2: the loop's loads are prefetched an iteration ahead, the assertion stays on its
// own iteration's tile), and after it on a reduction computed for the assertion alone (under
// NDEBUG the generated code keeps it, (void)-ed).
template <int BR, int BC>
TILEC_KERNEL(num_warps = 4, num_stages = 2, grid = (cdiv(rows, BR)))
void checked_row_sums(const float *x, float *sums, int rows, int cols) {
  auto r = tl::program_id(0) * BR + tl::arange<0, BR>();
  auto acc = tl::zeros<float, BR>();
  for (int c0 = 0; c0 < cols; c0 += BC) {
    auto c = c0 + tl::arange<0, BC>();
    auto mask = tl::expand_dims<1>(r < rows) & tl::expand_dims<0>(c < cols);
    auto tile = tl::load(x + tl::expand_dims<1>(r) * cols + tl::expand_dims<0>(c), mask, 0.0f);
    tl::device_assert(tile == tile, "NaN in x");
    acc += tl::sum<1>(tile);
  }
  tl::device_assert(tl::max(tl::abs(acc)) < 1e30f, "row sums blew up");
  tl::store(sums + r, acc, r < rows);
}

template void checked_scale<256>(const float *, float *, int, float);
template void checked_row_sums<16, 64>(const float *, float *, int, int);
