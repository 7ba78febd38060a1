// Streamed runs (emitters/KernelEmitterStmt.cpp): a row of 4096 bf16 weights and momenta updated in
// place, as an optimizer step. Every element of every tile at once would take about 96 registers a
// thread on CUDA (64 elements a thread) and 48 on HIP, so the loads, arithmetic and stores go one
// vector-wide chunk at a time: stores through the pointers loads read (in place), element-wise
// tiles computed per element of the chunk, and a tile the run computes that a reduction reads
// after it.
// row_sum_sq is layer norm's first pass: one 16-byte load a chunk would leave one load in flight a
// thread, so its chunks hold two vectors (32 bytes of loads in flight).
// tests/gpu/streamed.cu compares both with the CPU reference and float64 at ragged widths.
#include <tilec/tl.hpp>

template <int BLOCK>
TILEC_KERNEL(num_warps = 2, grid = (rows))
void momentum_step(tl::bfloat16 *w, const tl::bfloat16 *g, tl::bfloat16 *m, float *norms, float lr, float beta,
                   int64_t stride, int rows, int n) {
  int64_t row = tl::program_id(0);
  auto cols = tl::arange<0, BLOCK>();
  auto mask = cols < n;
  auto wv = tl::cast<float>(tl::load(w + row * stride + cols, mask, 0.0f));
  auto gv = tl::cast<float>(tl::load(g + row * stride + cols, mask, 0.0f));
  auto mv = tl::cast<float>(tl::load(m + row * stride + cols, mask, 0.0f));
  auto m_new = beta * mv + (1.0f - beta) * gv;
  tl::store(m + row * stride + cols, tl::cast<tl::bfloat16>(m_new), mask);
  tl::store(w + row * stride + cols, tl::cast<tl::bfloat16>(wv - lr * m_new), mask);
  tl::store(norms + row, tl::sum(m_new * m_new));
}

template void momentum_step<4096>(tl::bfloat16 *, const tl::bfloat16 *, tl::bfloat16 *, float *, float, float, int64_t,
                                  int, int);

template <int BLOCK>
TILEC_KERNEL(num_warps = 2, grid = (rows))
void row_sum_sq(const tl::bfloat16 *x, float *out, int64_t stride, int rows, int n) {
  int64_t row = tl::program_id(0);
  auto acc = tl::zeros<float, BLOCK>();
  for (int off = 0; off < n; off += BLOCK) {
    auto cols = off + tl::arange<0, BLOCK>();
    auto v = tl::cast<float>(tl::load(x + row * stride + cols, cols < n, 0.0f));
    acc += v * v;
  }
  tl::store(out + row, tl::sum(acc));
}

template void row_sum_sq<4096>(const tl::bfloat16 *, float *, int64_t, int, int);
