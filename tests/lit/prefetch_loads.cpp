// prefetch-loads: a loop's tile loads are loaded one iteration ahead into `_next` variables (the
// first iteration's before the loop), with the declarations their addresses read computed again for
// the next index; a pointer the loop advances after the load by a fixed amount is advanced once more
// for the next iteration's (prefetch_advanced.cpp). Not prefetched: a load of what the loop stores
// (in place), a load through another load, a load too big to hold twice (64 bytes a thread in
// blocks of up to 256 threads, 16 in blocks of 1024), loops of kernels without num_stages >= 2, and
// unrolled loops.
// RUN: %tilec --emit=ir --stop-after=prefetch-loads %s -o - | %FileCheck %s
// RUN: %tilec --no-aligned-variants --instantiate 'rows<256>' %s -o - | %FileCheck --check-prefix=CUDA %s
#include <tilec/tl.hpp>

template <int BLOCK>
TILEC_KERNEL(num_warps = 4, num_stages = 2)
void rows(const float *x, float *y, int n) {
  float total = 0.0f;
  for (int i = 0; i < n; i += BLOCK) {
    auto cols = i + tl::arange<0, BLOCK>();
    auto v = tl::load(x + cols, cols < n, 0.0f);
    total += tl::sum(v);
    tl::store(y + cols, v * 2.0f, cols < n); // y is not x: the next load cannot miss this store
  }
  tl::store(y, total);
}
template void rows<256>(const float *, float *, int);

// CHECK-LABEL: kernel @rows<256>
// CHECK: decl %v_next: tile<256xf32>
// CHECK-NEXT: if lt(0:i32, %n) prefetch(first) {
// CHECK-NEXT: decl %cols_next: tile<256xi32> = arange(0, 256)
// CHECK-NEXT: %v_next = load(add(splat(%x) : tile<256xptr<const f32>>, %cols_next)
// CHECK-NEXT: }
// CHECK-NEXT: for %i = 0:i32 to %n step 256:i32{BLOCK} {
// CHECK-NEXT: decl %v: tile<256xf32> = %v_next
// CHECK-NEXT: if lt(add(%i, 256:i32{BLOCK}), %n) prefetch(next) {
// CHECK-NEXT: decl %cols_next{{.*}} = add(splat(add(%i, 256:i32{BLOCK}))
// CHECK-NEXT: %v_next = load(
// CHECK-NEXT: }
// CHECK-NEXT: decl %sum_v: f32 = reduce.sum(%v

// CUDA-LABEL: namespace rows_256 {
// CUDA: float v_next[L0::ELEMS];
// CUDA-NEXT: // prefetch: the loop's first loads into v_next; each iteration then loads the next one's while it computes
// CUDA-NEXT: if (0 < n) {
// CUDA: for (int i = 0; i < n; i += BLOCK) {
// CUDA: v[i_1] = v_next[i_1];
// CUDA: // prefetch: the next iteration's loads into v_next, before this iteration's arithmetic
// CUDA-NEXT: if (i + BLOCK < n) {

TILEC_KERNEL(num_warps = 4, num_stages = 2)
void in_place(float *x, int n) {
  for (int i = 0; i < n; i += 256) {
    auto cols = i + tl::arange<0, 256>();
    tl::store(x + cols, tl::load(x + cols, cols < n, 0.0f) + 1.0f, cols < n);
  }
}
// CHECK-LABEL: kernel @in_place
// CHECK-NOT: _next
// CHECK: for %i = 0:i32 to %n step 256:i32 {

TILEC_KERNEL(num_warps = 4, num_stages = 2)
void moving_pointer(const float *x, float *out, int n) {
  const float *p = x;
  auto acc = tl::zeros<float, 256>();
  for (int i = 0; i < n; i += 256) {
    acc += tl::load(p + tl::arange<0, 256>()); // p advances by 256 after the load, every iteration
    p += 256;
  }
  tl::store(out + tl::arange<0, 256>(), acc);
}
// CHECK-LABEL: kernel @moving_pointer
// CHECK: %p_load_next = load(add(splat(%p)
// CHECK: for %i = 0:i32 to %n step 256:i32 {
// CHECK: %p_load_next = load(add(splat(add(%p, 256:i32))

TILEC_KERNEL(num_warps = 4, num_stages = 2)
void gather(const int *idx, const float *x, float *out, int n) {
  auto acc = tl::zeros<float, 256>();
  for (int i = 0; i < n; i += 256) {
    auto j = tl::load(idx + i + tl::arange<0, 256>());
    acc += tl::load(x + j); // through a load: not recomputable for the next index
  }
  tl::store(out + tl::arange<0, 256>(), acc);
}
// CHECK-LABEL: kernel @gather
// CHECK: decl %j_next
// CHECK-NOT: decl %x_load_next
// CHECK: prefetch(first) {
// CHECK: for %i
// CHECK-NEXT: decl %j: tile<256xi32> = %j_next
// CHECK: decl %x_load{{.*}} = load(add(splat(%x)

TILEC_KERNEL(num_warps = 4, num_stages = 2)
void too_big(const float *x, float *out, int n) {
  auto acc = tl::zeros<float, 4096>(); // 32 floats a thread: 128 bytes, twice that to prefetch
  for (int i = 0; i < n; i += 4096)
    acc += tl::load(x + i + tl::arange<0, 4096>());
  tl::store(out, tl::sum(acc));
}
// CHECK-LABEL: kernel @too_big
// CHECK-NOT: _next
// CHECK: for %i = 0:i32 to %n step 4096:i32 {

TILEC_KERNEL(num_warps = 32, num_stages = 2)
void big_block(const tl::bfloat16 *x, float *out, int n) {
  auto acc = tl::zeros<float, 32768>(); // 32 halves a thread of 1024: 64 bytes, over their 16
  for (int i = 0; i < n; i += 32768)
    acc += tl::cast<float>(tl::load(x + i + tl::arange<0, 32768>()));
  tl::store(out, tl::sum(acc));
}
// CHECK-LABEL: kernel @big_block
// CHECK-NOT: _next
// CHECK: for %i = 0:i32 to %n step 32768:i32 {

TILEC_KERNEL(num_warps = 32, num_stages = 2)
void big_block_small_tile(const float *x, float *out, int n) {
  auto acc = tl::zeros<float, 4096>(); // 4 floats a thread of 1024: 16 bytes, within their 16
  for (int i = 0; i < n; i += 4096)
    acc += tl::load(x + i + tl::arange<0, 4096>());
  tl::store(out, tl::sum(acc));
}
// CHECK-LABEL: kernel @big_block_small_tile
// CHECK: decl %x_load_next

TILEC_KERNEL(num_warps = 4, num_stages = 1)
void one_stage(const float *x, float *out, int n) {
  auto acc = tl::zeros<float, 256>();
  for (int i = 0; i < n; i += 256)
    acc += tl::load(x + i + tl::arange<0, 256>());
  tl::store(out + tl::arange<0, 256>(), acc);
}
// CHECK-LABEL: kernel @one_stage
// CHECK-NOT: _next
// CHECK: for %i = 0:i32 to %n step 256:i32 {

TILEC_KERNEL(num_warps = 4)
void by_default(const float *x, float *out, int n) { // num_stages not given: one stage
  auto acc = tl::zeros<float, 256>();
  for (int i = 0; i < n; i += 256)
    acc += tl::load(x + i + tl::arange<0, 256>());
  tl::store(out + tl::arange<0, 256>(), acc);
}
// CHECK-LABEL: kernel @by_default
// CHECK-NOT: _next
// CHECK: for %i = 0:i32 to %n step 256:i32 {

TILEC_KERNEL(num_warps = 4, num_stages = 2)
void unrolled(const float *x, float *out) {
  auto acc = tl::zeros<float, 256>();
  for (int i : tl::static_range<0, 1024, 256>())
    acc += tl::load(x + i + tl::arange<0, 256>());
  tl::store(out + tl::arange<0, 256>(), acc);
}
// CHECK-LABEL: kernel @unrolled
// CHECK-NOT: _next
// CHECK: static_for
