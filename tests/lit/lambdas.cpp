// Lambdas are inlined like functions (translator/LoweringCalls.cpp): a lambda's calls name its
// call operator by its type, so the closure is no variable of the output; captures by reference
// and by copy read the kernel's variables, except that a variable captured by copy and assigned
// later is copied where the lambda is made; an init-capture is a variable computed there.
// RUN: %tilec %s -o - | %FileCheck %s
#include <tilec/tl.hpp>

template <class T, class F> auto apply_twice(const T &x, F f) { return f(f(x)); }

TILEC_KERNEL(num_warps = 1)
void k(const float *x, float *out, float s) {
  auto offs = tl::arange<0, 32>();
  auto v = tl::load(x + offs);
  auto scale = [s](auto t) { return t * s; };
  auto shift = [c = s * 2.0f](auto t) { return t + c; };
  s = s + 1.0f;
  tl::store(out + offs, apply_twice(v, scale) + shift(v) + [&](float a) { return a * s; }(1.0f));
}

// CHECK: // {{.*}}lambdas.cpp:14: auto scale = [s](auto t) { return t * s; };
// CHECK-NEXT: const float s_1 = s;
// CHECK-NEXT: // {{.*}}lambdas.cpp:15: auto shift = [c = s * 2.0f](auto t) { return t + c; };
// CHECK-NEXT: const float c = s * 2.0f;
// CHECK-NEXT: // {{.*}}lambdas.cpp:16: s = s + 1.0f;
// CHECK-NEXT: s = s + 1.0f;
// The lambda's `t` (computed element by element) moves down to its use (sink-decls).
// CHECK-NEXT: // inlined: the lambda at lambdas.cpp:17 (called at {{.*}}lambdas.cpp:17)
// CHECK: const float a = 1.0f;
// CHECK-NEXT: // inlined: apply_twice (called at {{.*}}lambdas.cpp:17), then the lambda at lambdas.cpp:14 (called at {{.*}}lambdas.cpp:8)
// CHECK: t[i] = v[i] * s_1;
// CHECK: out[offs[i]] = t[i] * s_1 + (v[i] + c) + a * s;

// A tile captured by copy and assigned later (through the tile's operator=, a call rather than a
// built-in assignment) is copied too: the lambda reads the value it had where it was made.
TILEC_KERNEL(num_warps = 1)
void tile_captured(const float *x, float *out) {
  auto offs = tl::arange<0, 32>();
  auto t = tl::load(x + offs);
  auto add_t = [t](auto y) { return y + t; };
  t = t * 2.0f;
  tl::store(out + offs, add_t(t));
}

// CHECK-LABEL: tile_captured(const float *x, float *out) {
// CHECK: // {{.*}}lambdas.cpp:{{[0-9]+}}: auto add_t = [t](auto y) { return y + t; };
// CHECK-NEXT: float t_1[L0::ELEMS];
// CHECK: t_1[i] = t[i];
// CHECK: t[i] * 2.0f
// CHECK: out[offs[i]] = t[i] + t_1[i];
