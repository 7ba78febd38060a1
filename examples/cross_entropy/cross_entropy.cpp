// Cross-entropy loss over a vocabulary and its gradient, the algorithm of Liger-Kernel's fused
// cross_entropy forward (mean reduction; without its ignore_index, label smoothing and z-loss): one
// program per row of logits. The first pass walks the row in BLOCK-wide chunks keeping the maximum
// so far and the sum of exp(x - maximum) so far (the online softmax); the loss of the row is
// log(sum) + max - x[target], divided by the number of rows. The second pass
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

  // Online softmax over the chunks: the maximum m so far and the sum d of exp(x - m) so far,
  // rescaled when a chunk raises the maximum. Two numbers a row, whatever BLOCK: Liger launches
  // 32768-wide chunks on 32 warps, where a running maximum and sum per position would take 64
  // registers a thread of the 64 a 1024-thread block has (bench/NOTES.md, run P13).
  float m = -tl::inf;
  float d = 0.0f;
  for (int off = 0; off < V; off += BLOCK) {
    auto cols = off + tl::arange<0, BLOCK>();
    auto x = tl::cast<float>(tl::load(x_row + cols, cols < V, -tl::inf));
    float m_new = tl::maximum(m, tl::max(x));
    d = d * tl::exp(m - m_new) + tl::sum(tl::exp(x - m_new));
    m = m_new;
  }
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
