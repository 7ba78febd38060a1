// Barriers that keep the source's program order in global memory (passes/InsertBarriers.cpp): one
// where two threads of a block may touch one address and one of them writes, none elsewhere.
// RUN: %tilec --emit=ir --stop-after=insert-barriers %s -o - | %FileCheck %s
// RUN: %tilec %s -o - | %FileCheck %s --check-prefix=CUDA
#include <tilec/tl.hpp>

// In place, one block per iteration: each thread rewrites its own elements and the iterations
// touch disjoint addresses (the index moves by BLOCK, the tile spans BLOCK). No barrier.
template <int BLOCK>
TILEC_KERNEL(num_warps = 4)
void in_place(float *x, int n) {
  for (int off = 0; off < n; off += BLOCK) {
    auto cols = off + tl::arange<0, BLOCK>();
    auto v = tl::load(x + cols, cols < n, 0.0f);
    tl::store(x + cols, v * 2.0f, cols < n);
  }
}
template void in_place<512>(float *, int);

// The index moves by one while the tile spans BLOCK: iterations overlap, so the next iteration's
// load waits for the previous store (another thread's element), in the loop.
template <int BLOCK>
TILEC_KERNEL(num_warps = 4)
void smear(float *x, int n) {
  for (int i = 0; i < 4; ++i) {
    auto cols = i + tl::arange<0, BLOCK>();
    auto v = tl::load(x + cols, cols < n, 0.0f);
    tl::store(x + cols, v + 1.0f, cols < n);
  }
}
template void smear<512>(float *, int);

// A scalar read-modify-write after a tile store into the same tensor: the load waits for the tile
// store, and thread 0's store waits until every thread has loaded.
template <int BLOCK>
TILEC_KERNEL(num_warps = 4)
void fix_up(float *x, int k) {
  auto cols = tl::arange<0, BLOCK>();
  tl::store(x + cols, tl::zeros<float, BLOCK>());
  float v = tl::load(x + k);
  tl::store(x + k, v + 1.0f);
}
template void fix_up<512>(float *, int);

// Different parameters do not alias; scalar stores are thread 0's; a pointer local made from a
// parameter is that parameter. No barrier.
template <int BLOCK>
TILEC_KERNEL(num_warps = 4)
void separate(const float *x, float *y, float *stats, int n) {
  float *y_row = y + tl::program_id(0) * n;
  auto cols = tl::arange<0, BLOCK>();
  auto v = tl::load(x + cols, cols < n, 0.0f);
  tl::store(y_row + cols, v, cols < n);
  tl::store(stats, 1.0f);
  tl::store(stats + 1, 2.0f);
}
template void separate<512>(const float *, float *, float *, int);

// Stores of one tensor at offsets a runtime amount apart: not proven disjoint, ordered.
template <int BLOCK>
TILEC_KERNEL(num_warps = 4)
void stacked(const float *x, float *out, int n) {
  auto offs = tl::arange<0, BLOCK>();
  auto v = tl::load(x + offs, offs < n, 0.0f);
  tl::store(out + offs, v, offs < n);
  tl::store(out + n + offs, v * v, offs < n);
}
template void stacked<512>(const float *, float *, int);

// A pointer local made before one of its variables changes still points where it was made:
// it is not compared by its definition (which now names other addresses), so the load through it
// waits for the store that another thread may have made to its element.
TILEC_KERNEL(num_warps = 1)
void stale(float *x, int i) {
  auto offs = tl::arange<0, 32>();
  auto p = x + offs + i;
  i = i + 1;
  tl::store(x + offs + i, tl::full<float, 32>(1.0f));
  auto v = tl::load(p);
  tl::store(x + 64 + offs, v);
}

// The same pointer expression is one thread per address only where its elements hold different
// addresses: `offs % 4` repeats them (a barrier), a 2-D tile at a constant row stride does not (none),
// one at a runtime row stride may (a barrier).
TILEC_KERNEL(num_warps = 1)
void repeats(float *x, float *y) {
  auto offs = tl::arange<0, 32>();
  tl::store(x + offs % 4, tl::full<float, 32>(1.0f));
  auto v = tl::load(x + offs % 4);
  tl::store(y + offs, v);
}
TILEC_KERNEL(num_warps = 1)
void rows_const(float *x) {
  auto r = tl::arange<0, 8>();
  auto c = tl::arange<0, 16>();
  auto p = x + tl::expand_dims<1>(r) * 16 + tl::expand_dims<0>(c);
  tl::store(p, tl::load(p) * 2.0f);
}
TILEC_KERNEL(num_warps = 1)
void rows_runtime(float *x, int stride) {
  auto r = tl::arange<0, 8>();
  auto c = tl::arange<0, 16>();
  auto p = x + tl::expand_dims<1>(r) * stride + tl::expand_dims<0>(c);
  tl::store(p, tl::load(p) * 2.0f);
}

// CHECK-LABEL: kernel @in_place<512>
// CHECK-NOT: barrier
// CHECK-LABEL: kernel @smear<512>
// CHECK: for %i =
// CHECK-NEXT: decl %cols
// CHECK-NEXT: barrier global(store 28 -> load)
// CHECK-NEXT: decl %v
// CHECK-NOT: barrier
// CHECK-LABEL: kernel @fix_up<512>
// CHECK: store
// CHECK-NEXT: barrier global(store 39 -> load)
// CHECK-NEXT: decl %v
// CHECK-NEXT: barrier global(load 40 -> store)
// CHECK-NEXT: store
// CHECK-LABEL: kernel @separate<512>
// CHECK-NOT: barrier
// CHECK-LABEL: kernel @stacked<512>
// CHECK: store
// CHECK-NEXT: barrier global(store 65 -> store)
// CHECK-NEXT: store
// CHECK-NOT: barrier

// CUDA-LABEL: smear(
// CUDA: __syncthreads();  // program order: the store at {{.*}}barriers_global.cpp:28 before this load (global memory)
// CUDA-LABEL: fix_up(
// CUDA: __syncthreads();  // program order: the store at {{.*}}barriers_global.cpp:39 before this load (global memory)
// CUDA: __syncthreads();  // program order: the load at {{.*}}barriers_global.cpp:40 before this store (global memory)
// CHECK-LABEL: kernel @stale
// CHECK: store
// CHECK-NEXT: barrier global(store {{[0-9]+}} -> load)
// CHECK-NEXT: decl %v
// CHECK-LABEL: kernel @repeats
// CHECK: store
// CHECK-NEXT: barrier global(store {{[0-9]+}} -> load)
// CHECK-LABEL: kernel @rows_const
// CHECK-NOT: barrier
// CHECK-LABEL: kernel @rows_runtime
// CHECK: barrier global(load {{[0-9]+}} -> store)

// A scalar load of the row (every thread reads it), then a loop that rewrites the row in place:
// the store waits for the load once, before the loop, not in every iteration (Liger's
// cross-entropy shape).
TILEC_KERNEL(num_warps = 4)
void before_loop(float *x, const int *target, int n) {
  float picked = tl::load(x + tl::load(target));
  for (int off = 0; off < n; off += 256) {
    auto cols = off + tl::arange<0, 256>();
    tl::store(x + cols, tl::load(x + cols, cols < n, 0.0f) - picked, cols < n);
  }
}

// Two loads pending when the store comes, both read by other threads than the storing one: the
// barrier's comment names the earlier in the source, whatever order the analysis holds them in.
TILEC_KERNEL(num_warps = 4)
void earliest(float *x) {
  float first = tl::load(x + 3);
  float second = tl::load(x + 5);
  tl::store(x + tl::arange<0, 256>(), tl::zeros<float, 256>() + first + second);
}
// CHECK-LABEL: kernel @before_loop
// CHECK: decl %picked
// CHECK-NEXT: barrier global(load [[#@LINE-17]] -> loop's store)
// CHECK-NEXT: for %off
// CHECK-NOT: barrier
// CHECK-LABEL: kernel @earliest
// CHECK: barrier global(load [[#@LINE-10]] -> store)

// CUDA-LABEL: before_loop(
// CUDA: __syncthreads();  // program order: the load at {{.*}}barriers_global.cpp:[[#@LINE-24]] before this loop's store (global memory)
// CUDA-NEXT: TILEC_NO_UNROLL
// CUDA-NEXT: for (int off = 0; off < n; off += 256) {
