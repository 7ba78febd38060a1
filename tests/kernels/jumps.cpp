// `break` and `continue` (issue 14 item 7). As the last statement of a branch of an `if` in the
// loop's body: the translator makes the statements after the `if` its other branch; a `continue`
// runs the for loop's increment, a `break` sets a flag that the loop's condition tests first (a
// counted loop with a break becomes a while loop). Deeper (nested_jumps: an `if` in an `if`, a
// block, an `if constexpr`, an `if` with an init statement): the jump sets the body's `skip_rest`
// flag, and the statements after the outer statement run where it is not set. The conditions are scalars, so every
// thread of a program takes the same path, and the reductions' barriers in the bodies stay matched.
// tests/gpu/jumps.cu compares each result with the CPU reference and with a plain C++ computation.
#include <tilec/tl.hpp>

// For each row of x [rows, cols], the index of the first block of BLOCK columns holding an element
// above `limit`, or -1: a break out of a for loop after a reduction.
template <int BLOCK>
TILEC_KERNEL(num_warps = 4, grid = (rows))
void first_block_above(const float *x, int *first, int rows, int cols, float limit) {
  int row = tl::program_id(0);
  if (row >= rows) // (the grid has none past the rows)
    return;
  int found = -1;
  for (int c0 = 0; c0 < cols; c0 += BLOCK) {
    auto c = c0 + tl::arange<0, BLOCK>();
    auto v = tl::load(x + row * cols + c, c < cols, -tl::inf);
    if (tl::max(v) > limit) {
      found = c0 / BLOCK;
      break;
    }
  }
  tl::store(first + row, found);
}

// Per row: `sums` the sum of the blocks whose own sum is not negative (continue in a counted
// loop); `kept` the element-wise sum of the blocks without a negative element (continue in a
// pipelined tl::range loop), reduced; `visits` the elements at stride `stride` that are not
// negative, up to `most` of them, and `steps` how many were looked at (continue and break in a for
// loop with a runtime step); `halvings` how many times cols halves to 1 (break in while (true)).
template <int BLOCK>
TILEC_KERNEL(num_warps = 4, grid = (rows))
void row_jumps(const float *x, float *sums, float *kept, int *visits, int *steps, int *halvings,
               int rows, int cols, int stride, int most) {
  int row = tl::program_id(0);
  if (row >= rows)
    return;
  float total = 0.0f;
  for (int c0 = 0; c0 < cols; c0 += BLOCK) {
    auto c = c0 + tl::arange<0, BLOCK>();
    float s = tl::sum(tl::load(x + row * cols + c, c < cols, 0.0f));
    if (s < 0.0f)
      continue;
    total += s;
  }
  tl::store(sums + row, total);

  auto acc = tl::zeros<float, BLOCK>();
  for (int c0 : tl::range<2>(0, cols, BLOCK)) {
    auto c = c0 + tl::arange<0, BLOCK>();
    auto v = tl::load(x + row * cols + c, c < cols, 0.0f);
    if (tl::min(v) < 0.0f) {
      continue;
    } else {
      acc += v;
    }
  }
  tl::store(kept + row, tl::sum(acc));

  int visited = 0, looked = 0;
  for (int i = 0; i < cols; i += stride) {
    looked += 1;
    if (tl::load(x + row * cols + i) < 0.0f)
      continue;
    visited += 1;
    if (visited == most)
      break;
  }
  tl::store(visits + row, visited);
  tl::store(steps + row, looked);

  int n = cols, h = 0;
  while (true) {
    if (n <= 1)
      break;
    n /= 2;
    h += 1;
  }
  tl::store(halvings + row, h);
}

// Per row, jumps inside nested statements. ints[row * 6 + k]: (0) blocks kept, (1) negatives
// counted, (2) positions looked at, (3) where the while loop stopped, (4) a sum of k skipping 3,
// (5) a sum of k stopping after the first k > 4 with k % 4 == 1; floats[row * 2 + k]: (0) the sums
// of the blocks kept, (1) the sums of the blocks not skipped. The for loop's step is a runtime
// value, so it keeps its increment, which a `continue` runs.
template <int BLOCK>
TILEC_KERNEL(num_warps = 4, grid = (rows))
void nested_jumps(const float *x, int *ints, float *floats, int rows, int cols, int step,
                  int most, float limit) {
  int row = tl::program_id(0);
  if (row >= rows)
    return;
  int kept = 0;
  float total = 0.0f, passed = 0.0f;
  for (int c0 = 0; c0 < cols; c0 += step) {
    auto c = c0 + tl::arange<0, BLOCK>();
    auto v = tl::load(x + row * cols + c, c < cols, 0.0f);
    float s = tl::sum(v);
    if (s > 0.0f) {
      if (tl::max(v) > limit)
        continue;
      total += s;
      {
        if (tl::min(v) < -0.99f)
          break;
      }
      kept += 1;
    }
    passed += s;
  }
  tl::store(ints + row * 6, kept);
  tl::store(floats + row * 2, total);
  tl::store(floats + row * 2 + 1, passed);

  int i = 0, negatives = 0, looked = 0;
  while (i < cols) {
    float v = tl::load(x + row * cols + i);
    i += 1;
    if (v < 0.5f) {
      if (v < -0.5f) {
        if (looked >= most)
          break;
        continue;
      }
      negatives += v < 0.0f ? 1 : 0;
    }
    looked += 1;
  }
  tl::store(ints + row * 6 + 1, negatives);
  tl::store(ints + row * 6 + 2, looked);
  tl::store(ints + row * 6 + 3, i);

  int skipping = 0, stopping = 0;
  for (int k = 0; k < 10; ++k) {
    if constexpr (BLOCK > 32) {
      if (k == 3)
        continue;
    }
    skipping += k;
  }
  for (int k = 0; k < cols; ++k) {
    if (int d = k % 4; d == 1) {
      if (k > 4)
        break;
    }
    stopping += k;
  }
  tl::store(ints + row * 6 + 4, skipping);
  tl::store(ints + row * 6 + 5, stopping);
}

template void first_block_above<64>(const float *, int *, int, int, float);
template void row_jumps<64>(const float *, float *, float *, int *, int *, int *, int, int, int,
                            int);
template void nested_jumps<64>(const float *, int *, float *, int, int, int, int, float);
