// EXPECT: several_values_unsupported.cpp:11:35: error: cannot take 'halves(x)' apart into 2 values (the value 'two' returns): make them where they are returned, as {a, b}, std::pair{a, b}, std::make_pair(a, b) or std::make_tuple(a, b, ...)
// EXPECT: several_values_unsupported.cpp:15:17: note: in the call to 'two' here
// Several values are returned as {a, b}, std::pair{a, b}, std::make_pair or std::make_tuple: the
// pair another function returns is not taken apart again, and the error names the return's value
// and the forms that work, at the return, with the call it was inlined for.
#include <tilec/tl.hpp>
#include <utility>

inline auto halves(float x) { return std::make_pair(x * 0.5f, x * 0.5f); }

inline auto two(float x) { return halves(x); }

TILEC_KERNEL(num_warps = 1)
void k(const float *in, float *out) {
  auto [a, b] = two(tl::load(in));
  tl::store(out, a + b);
}
