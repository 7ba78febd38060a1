// Calls to the user's own functions are inlined (translator/LoweringCalls.cpp): parameters bound to
// the arguments (the caller's variable itself when the function only reads it), statements before
// the calling statement with provenance at the function's lines, the returned expression as the
// call's value; a reduction inside a helper from a header; default arguments; a static member; an
// `if constexpr` at the end choosing the return; a call in an `if` condition with an init.
// RUN: %tilec %s -o - | %FileCheck %s
// RUN: %tilec --emit=ir --stop-after=simplify %s -o - | %FileCheck %s --check-prefix=IR
#include "Inputs/helpers.hpp"

#include <type_traits>

inline float scaled(float x, float factor = 3.0f) {
  float y = x * factor;
  return y + 1.0f;
}

struct Clamp {
  template <class T> static T to_unit(T x) { return tl::minimum(tl::maximum(x, 0.0f), 1.0f); }
};

template <class T> auto widen(T x) {
  if constexpr (std::is_same_v<T, int>) {
    return static_cast<int64_t>(x) * 2;
  } else {
    return x;
  }
}

template <int B>
TILEC_KERNEL(num_warps = 2)
void k(const float *in, float *out, int64_t *big, float s, int n) {
  auto cols = tl::arange<0, B>();
  auto x = tl::load(in + cols, cols < n, 0.0f);
  float spread = helpers::spread(x);
  tl::store(out + cols, Clamp::to_unit(x * scaled(s)) + spread, cols < n);
  if (int m = n * 2; widen(m) > 10)
    tl::store(big, widen(m));
}
template void k<64>(const float *, float *, int64_t *, float, int);

// The helper's statements come first, each with its own line; its parameter `row` is the kernel's
// `x` itself (no copy).
// CHECK: // {{.*}}helpers.hpp:7: template <class T> float spread(const T &row) { return tl::max(row) - tl::sum(row) / 64.0f; }
// CHECK-NOT: row[
// CHECK: // {{.*}}device_functions.cpp:34: float spread = helpers::spread(x);
// scaled(s): its parameter x is the kernel's s (a variable it only reads: no copy), factor the
// default argument; its local y comes before the store. Clamp::to_unit's x is a copy of its
// argument, named apart from the kernel's x.
// CHECK: // {{.*}}device_functions.cpp:12: inline float scaled(float x, float factor = 3.0f) {
// CHECK-NEXT: const float factor = 3.0f;
// CHECK: // {{.*}}device_functions.cpp:13: float y = x * factor;
// CHECK-NEXT: const float y = s * factor;
// CHECK: x_1[i] = x[i] * (y + 1.0f);
// CHECK: out[L0::coord0(i)] = fminf(fmaxf(x_1[i], 0.0f), 1.0f) + spread;
// The call in the condition runs after the if's init.
// CHECK: const int m = n * 2;
// CHECK: if (static_cast<int64_t>(m) * int64_t{2} > int64_t{10})

// IR-LABEL: kernel @k<64>
// IR: decl %y: f32 = mul(%s, %factor)
