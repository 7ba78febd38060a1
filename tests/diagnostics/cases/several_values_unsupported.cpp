// EXPECT: several_values_unsupported.cpp:12:10: error: cannot take 'x > 0 ? std::make_pair(x, x) : std::make_pair(-x, -x)' apart into 2 values (the value 'halves' returns): make them where they are returned, as {a, b}, std::pair{a, b}, std::make_pair(a, b) or std::make_tuple(a, b, ...)
// EXPECT: several_values_unsupported.cpp:17:17: note: in the call to 'halves' here
// Several values are returned as {a, b}, std::pair{a, b}, std::make_pair, std::make_tuple or by a
// call to a function that returns them so (tests/kernels/functions.cpp: range_of); a pair chosen by
// `?:` is not taken apart, and the error names the return's value and the forms that work, at the
// return, with the call it was inlined for.
#include <tilec/tl.hpp>
#include <utility>

inline auto halves(float x) {
  // (one line: the expression's text is the message's)
  return x > 0 ? std::make_pair(x, x) : std::make_pair(-x, -x);
}

TILEC_KERNEL(num_warps = 1)
void k(const float *in, float *out) {
  auto [a, b] = halves(tl::load(in));
  tl::store(out, a + b);
}
