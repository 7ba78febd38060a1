// The most negative int64_t has no literal: it was printed as int64_t{-9223372036854775808}, which
// every compiler rejects (9223372036854775808 has no signed type, and the braces forbid narrowing).
// RUN: %tilec %s -o - | %FileCheck %s
// CHECK: yl[offs[i]] = tilec::rt::wrapping_add(a[i], int64_t{-9223372036854775807 - 1});
#include <tilec/tl.hpp>

template <int BLOCK>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(n, BLOCK)))
void k(const int64_t *xl, int64_t *yl, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto a = tl::load(xl + offs, offs < n);
  tl::store(yl + offs, a + (-9223372036854775807ll - 1), offs < n);
}
template void k<128>(const int64_t *, int64_t *, int);
