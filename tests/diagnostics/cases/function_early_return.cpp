// EXPECT: function_early_return.cpp:9:5: error: 'return' in 'magnitude' is only allowed at the end of the function, where an 'if' may return in each of its branches
// tilec inlines the kernel's functions: a function returns at its end, where a runtime `if` may
// return in every branch (`if (x > 0) return x; else return -x;`); an early return that lets the
// rest of the function run otherwise is not lowered.
#include <tilec/tl.hpp>

inline float magnitude(float x) {
  if (x > 0.0f)
    return x;
  float y = -x;
  return y;
}

template <int B>
TILEC_KERNEL(num_warps = 4)
void k(float *out, float v) {
  tl::store(out, magnitude(v));
}
template void k<16>(float *, float);
