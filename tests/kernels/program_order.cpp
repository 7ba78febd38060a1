// Program order in global memory (issue 16, item 5): a program's loads and stores of one tensor
// happen in the order the source gives them, as on the CPU, although many threads perform them.
// tilec puts a barrier where two threads of a block may touch one address (docs/language.md
// "Program order"); tests/gpu/program_order.cu compares with the CPU reference and with values
// worked out in float64, and tests/emu/planted/global_race.test removes the barriers by hand.
#include <tilec/tl.hpp>

// Liger-Kernel's cross-entropy shape: the gradient row is written in place, then the target's
// element is read back and corrected. The loop needs no barrier (each thread rewrites its own
// elements, and the iterations touch disjoint columns); the scalar load after it reads what a
// thread of the loop stored, and the scalar store after that overwrites what every thread read.
template <int BLOCK>
TILEC_KERNEL(num_warps = 4, grid = (rows))
void grad_row(float *x, const int32_t *target, int rows, int n, int stride) {
  int row = tl::program_id(0);
  float *x_row = x + row * stride;
  int y = tl::load(target + row);
  for (int off = 0; off < n; off += BLOCK) {
    auto cols = off + tl::arange<0, BLOCK>();
    auto v = tl::load(x_row + cols, cols < n, 0.0f);
    tl::store(x_row + cols, v * 0.5f + 1.0f, cols < n);
  }
  float xy = tl::load(x_row + y);
  tl::store(x_row + y, xy - 4.0f);
}

// A block reversed in place: every element is read before any is overwritten (on the GPU, another
// thread's element). Written as a Triton port would be, with a `tl::debug_barrier()` between the
// load and the store: tilec would place that barrier anyway, and keeps the kernel's own.
template <int BLOCK>
TILEC_KERNEL(num_warps = 2, grid = (cdiv(n, BLOCK)))
void reverse_blocks(int32_t *x, int n) {
  int base = tl::program_id(0) * BLOCK;
  auto i = tl::arange<0, BLOCK>();
  auto mask = base + i < n;
  auto v = tl::load(x + base + i, mask, 0);
  tl::debug_barrier();
  int last = tl::minimum(n - base, BLOCK) - 1; // reverse the block's valid elements
  auto j = last - i;
  tl::store(x + base + j, v, mask);
}

// Needs no barrier: its outputs are other parameters than its input (pointers derived from
// different parameters do not alias), and its scalar stores are all thread 0's.
template <int BLOCK>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(n, BLOCK)))
void split_sum(const float *x, float *lo, float *hi, float *totals, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto v = tl::load(x + offs, offs < n, 0.0f);
  tl::store(lo + offs, tl::minimum(v, 0.0f), offs < n);
  tl::store(hi + offs, tl::maximum(v, 0.0f), offs < n);
  tl::store(totals + 2 * tl::program_id(0), tl::sum(tl::minimum(v, 0.0f)));
  tl::store(totals + 2 * tl::program_id(0) + 1, tl::sum(tl::maximum(v, 0.0f)));
}

template void grad_row<256>(float *, const int32_t *, int, int, int);
template void reverse_blocks<128>(int32_t *, int);
template void split_sum<512>(const float *, float *, float *, float *, int);
