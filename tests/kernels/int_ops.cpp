// Integer and selection operators: truncating / and %, bitwise and shift operators, logical
// operators, where, minimum and maximum (on integers, and on floats where a NaN operand loses).
#include <tilec/tl.hpp>

template <int BLOCK>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(n, BLOCK)))
void int_ops_kernel(const int32_t *a, const int32_t *b, const int8_t *s, const float *f,
                    const float *g, int32_t *out, bool *out_bool, float *out_f, int n) {
  int pid = tl::program_id(0);
  auto offs = pid * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  // Masked-off lanes read 1, so the division below is defined on every lane.
  auto x = tl::load(a + offs, mask, 1);
  auto y = tl::load(b + offs, mask, 1);
  auto sh = tl::load(s + offs, mask) & 31; // int8 & int stays int8
  tl::store(out + 0 * n + offs, x / y, mask);
  tl::store(out + 1 * n + offs, x % y, mask);
  tl::store(out + 2 * n + offs, (x & y) | (x ^ 0x5A5A), mask);
  tl::store(out + 3 * n + offs, x << sh, mask);
  tl::store(out + 4 * n + offs, x >> sh, mask);
  tl::store(out + 5 * n + offs, ~x + tl::where(x > y, x - y, y - x), mask);
  tl::store(out + 6 * n + offs, tl::minimum(x, y) * 2 + tl::maximum(x, 7), mask);
  auto both = (x > 0) && (y > 0);
  auto either = (x > 0) || !(y > 0);
  tl::store(out_bool + offs, both ^ either, mask);
  auto u = tl::load(f + offs, mask);
  auto v = tl::load(g + offs, mask);
  tl::store(out_f + offs, tl::maximum(u, v) - tl::minimum(u, v) * 0.5f, mask);
}

template void int_ops_kernel<512>(const int32_t *, const int32_t *, const int8_t *, const float *,
                                  const float *, int32_t *, bool *, float *, int);
