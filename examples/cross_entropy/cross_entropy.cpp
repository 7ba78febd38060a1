// Cross-entropy loss over a vocabulary and its gradient, the algorithm of Liger-Kernel's fused
// cross_entropy forward (mean reduction; without its ignore_index, label smoothing and z-loss): one
// program per row of logits. The first pass walks the row in BLOCK-wide chunks with a running
// maximum and a running sum of exp(x - maximum) per position (softmax_looped's online softmax); the
// loss of the row is log(sum) + max - x[target], divided by the number of rows. The second pass
// overwrites the logits with the gradient of the mean loss, (softmax(x) - onehot(target)) / rows,
// as Liger does (the logits are not needed after the forward pass). The arithmetic is in float
// whatever the logits' type T. num_stages = 2: vocabularies span several chunks, so each chunk's
// loads of the first pass are issued while the chunk before is computed.
#include <tilec/tl.hpp>

#include <cstdint>

template <class T, int BLOCK, int NUM_WARPS>
TILEC_KERNEL(num_warps = NUM_WARPS, num_stages = 2, grid = (rows))
void cross_entropy_fwd(T *logits, int64_t stride, const int64_t *target, float *loss, int rows, int V) {
  int64_t row = tl::program_id(0);
  T *x_row = logits + row * stride;
  int64_t y = tl::load(target + row);
  float x_y = tl::cast<float>(tl::load(x_row + y));

  auto run_max = tl::full<float, BLOCK>(-tl::inf);
  auto run_sum = tl::zeros<float, BLOCK>();
  for (int off = 0; off < V; off += BLOCK) {
    auto cols = off + tl::arange<0, BLOCK>();
    auto x = tl::cast<float>(tl::load(x_row + cols, cols < V, -tl::inf));
    auto new_max = tl::maximum(run_max, x);
    // A position no column has reached yet holds -inf in both: exp(-inf - -inf) would be NaN.
    auto seen = new_max > -tl::inf;
    run_sum = tl::where(seen, run_sum * tl::exp(run_max - new_max) + tl::exp(x - new_max), 0.0f);
    run_max = new_max;
  }
  float m = tl::max(run_max);
  float d = tl::sum(tl::where(run_max > -tl::inf, run_sum * tl::exp(run_max - m), 0.0f));
  tl::store(loss + row, (tl::log(d) + m - x_y) / rows);

  for (int off = 0; off < V; off += BLOCK) {
    auto cols = off + tl::arange<0, BLOCK>();
    auto mask = cols < V;
    auto x = tl::cast<float>(tl::load(x_row + cols, mask, 0.0f));
    auto grad = (tl::exp(x - m) / d - tl::where(cols == y, 1.0f, 0.0f)) / rows;
    tl::store(x_row + cols, tl::cast<T>(grad), mask);
  }
}

template void cross_entropy_fwd<float, 1024, 4>(float *, int64_t, const int64_t *, float *, int, int);
template void cross_entropy_fwd<tl::bfloat16, 1024, 4>(tl::bfloat16 *, int64_t, const int64_t *, float *, int,
                                                       int);
