// Loops as written (issue 18, item 4): each count below is the source's, which the output must keep
// where a literal translation would not. tests/gpu/loops.cu compares every count with the CPU
// reference and with the value worked out by hand.
#include <tilec/tl.hpp>

TILEC_KERNEL(num_warps = 1, grid = (1))
void loops(int32_t *out, int8_t m, int n) {
  // A loop variable narrower than int compares in int: `i < m` for an int8_t i and m.
  int narrow = 0;
  for (int8_t i = 0; i < m; ++i)
    narrow += 1;
  tl::store(out + 0, narrow);
  // `<=` at the type's limit: `i < 127 + 1` would not be an int8_t.
  int inclusive = 0;
  for (int8_t i = 120; i <= m; i += 2)
    inclusive += 1;
  tl::store(out + 1, inclusive);
  // A static_range whose increment after the last value would overflow int.
  int high = 0;
  for (int i : tl::static_range<2147483640, 2147483647, 3>())
    high += i - 2147483640;
  tl::store(out + 2, high);
  // The body assigns the loop variable: the range still runs four times.
  int assigned = 0;
  for (int i : tl::static_range<0, 4>()) {
    i += 10;
    assigned += i;
  }
  tl::store(out + 3, assigned);
  // Values converted to a narrow loop variable: 120 and 128 (-128 as an int8_t).
  int converted = 0;
  for (int8_t i : tl::static_range<120, 136, 8>())
    converted += i;
  tl::store(out + 4, converted);
  // Two loops of the same variable name one after the other, both lowered as while loops.
  int doubling = 0;
  const int lim = n % 100000;
  for (int i = 1; i < lim; i *= 2)
    doubling += 1;
  for (int i = 1; i < lim; i *= 3)
    doubling += 100;
  tl::store(out + 5, doubling);
  // `<=` near INT_MAX with a variable end.
  int near = 0;
  for (int i = n - 9; i <= n - 4; i += 4)
    near += 1;
  tl::store(out + 6, near);
}
