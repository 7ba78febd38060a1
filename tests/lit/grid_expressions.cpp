// Grid expressions with negations and with an int64_t constant: the launcher computes them as C++
// does (both were internal errors: the emitter printed neither a negation nor a conversion).
// RUN: %tilec %s -o - | %FileCheck %s
#include <tilec/tl.hpp>

TILEC_KERNEL(num_warps = 4, grid = (- -n, -(m + 1) * -2))
void negated(float *out, int n, int m) {
  tl::store(out, 1.0f);
}
// CHECK-LABEL: launch_negated_instance(cudaStream_t stream
// CHECK: const dim3 grid(-(-n), -(m + 1) * -2);

TILEC_KERNEL(num_warps = 4, grid = (cdiv(n, 4294967296)))
void wide(float *out, int n) {
  tl::store(out, 1.0f);
}
// CHECK-LABEL: launch_wide_instance(cudaStream_t stream
// CHECK: const dim3 grid(tilec::rt::cdiv(static_cast<int64_t>(n), int64_t{4294967296}));

// tl::cdiv, as the kernel's body spells it, is cdiv.
template <int BLOCK>
TILEC_KERNEL(num_warps = 4, grid = (tl::cdiv(n, BLOCK), tl::cdiv(m, 2)))
void qualified(float *out, int n, int m) {
  tl::store(out, 1.0f);
}
template void qualified<256>(float *, int, int);
// CHECK-LABEL: launch_qualified_256(cudaStream_t stream
// CHECK: const dim3 grid(tilec::rt::cdiv(n, qualified_256::BLOCK), tilec::rt::cdiv(m, 2));

// Integer literals as C++ spells them: binary, hex, octal, digit separators, suffixes.
TILEC_KERNEL(num_warps = 0b100, grid = (cdiv(n, 0b1000'0000), 0x10 + 010 + 1'000u))
void literals(float *out, int n) {
  tl::store(out, 1.0f);
}
// CHECK-LABEL: launch_literals_instance(cudaStream_t stream
// CHECK: const dim3 grid(tilec::rt::cdiv(n, 128), 16 + 8 + 1000);
