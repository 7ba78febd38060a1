// Meta-parameters of integer types other than int: the output declares each constant with the
// parameter's own type and a literal of that type (no value may be truncated to int, and no
// literal spells the most negative value of a type), names them in int arithmetic only where the
// type promotes to int, and computes a grid with a wide or unsigned one in int64_t.
// RUN: %tilec %s -o - | %FileCheck %s
// RUN: %tilec --emit=ir %s -o - | %FileCheck %s --check-prefix=IR
#include <tilec/tl.hpp>

enum class Mode : unsigned char { Off, On = 7 };

template <unsigned long long U, long L, int I, Mode M, short S, unsigned W>
TILEC_KERNEL(num_warps = 1, grid = (cdiv(n, S) + W))
void k(int64_t *out, int n) {
  auto offs = tl::arange<0, 32>();
  int64_t v = int64_t(U % 1000) + (L + 1) / 4 + I + int(M) + S;
  for (int i = 0; i < n; i += S)
    v += 1;
  tl::store(out + offs, tl::full<int64_t, 32>(v));
}
template void k<18446744073709551615ull, -9223372036854775807L - 1, -2147483647 - 1, Mode::On, 16, 4000000000u>(
    int64_t *, int);

// CHECK: // k<18446744073709551615, -9223372036854775808, -2147483648, Mode::On, 16, 4000000000>: one instantiation
// CHECK-NEXT: namespace k_18446744073709551615_m9223372036854775808_m2147483648_On_16_4000000000 {
// CHECK-NEXT: constexpr unsigned long long U = 18446744073709551615ULL;  // meta-parameter
// CHECK-NEXT: constexpr long L = (-9223372036854775807L - 1);  // meta-parameter
// CHECK-NEXT: constexpr int I = (-2147483647 - 1);  // meta-parameter
// CHECK-NEXT: constexpr unsigned char M = 7;  // meta-parameter: Mode::On
// CHECK-NEXT: constexpr short S = 16;  // meta-parameter
// CHECK-NEXT: constexpr unsigned int W = 4000000000U;  // meta-parameter
// A short promotes to int: the loop steps by its name.
// CHECK: for (int i = 0; i < n; i += S) {
// The unsigned W enters the grid as an int64_t of its value, not as unsigned arithmetic.
// CHECK: const dim3 grid(
// CHECK-NEXT: static_cast<int64_t>(tilec::rt::cdiv(n, {{.*}}::S)) + int64_t{4000000000});

// IR: meta U: unsigned long long = 18446744073709551615ULL
// IR-NEXT: meta L: long = (-9223372036854775807L - 1)
// IR-NEXT: meta I = -2147483648
