// Kernels written through macros: settings named by object-like macros mean their values, and a
// kernel defined by a function-like macro of the user's is found, with its settings, and its
// statements' provenance at the line of the macro's use.
// RUN: %tilec %s -o - | %FileCheck %s
#include <tilec/tl.hpp>

#define WARPS 8
#define HALF_WARPS 4
#define GRID_OF(n, b) grid = (cdiv(n, b))
#define KERNEL(name) template <int B> TILEC_KERNEL(num_warps = WARPS, GRID_OF(n, B)) void name(float *x, int n)
#define BODY                                                                                       \
  auto offs = tl::program_id(0) * B + tl::arange<0, B>();                                          \
  tl::store(x + offs, tl::load(x + offs, offs < n) * 2.0f, offs < n);

KERNEL(twice) {
  BODY
}

template <int B>
TILEC_KERNEL(num_warps = HALF_WARPS, GRID_OF(n, 2 * B))
void half(float *x, int n) {
  auto offs = tl::program_id(0) * B + tl::arange<0, B>();
  tl::store(x + offs, tl::load(x + offs, offs < n) * 0.5f, offs < n);
}

template void twice<128>(float *, int);
template void half<128>(float *, int);

// CHECK: namespace twice_128 {
// CHECK: constexpr int NUM_WARPS = 8;  // warps per block
// CHECK: macros.cpp:16: BODY
// CHECK: const dim3 grid(tilec::rt::cdiv(n, twice_128::B));
// CHECK: namespace half_128 {
// CHECK: constexpr int NUM_WARPS = 4;  // warps per block
// CHECK: const dim3 grid(tilec::rt::cdiv(n, 2 * half_128::B));
