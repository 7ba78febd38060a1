// EXPECT: param_space_exceeded.cpp:14:50: error: the kernel's parameters need 32768 bytes up to 'e94'; a launch passes at most 32764 bytes of parameters
// 4101 pointer parameters: 32808 bytes, past the 32764 bytes a launch passes. The error names the
// first parameter that does not fit (the 4096th, 'e94', 32768 bytes in), at the macro invocation.
#include <tilec/tl.hpp>

#define P1(x) float *x##0, float *x##1, float *x##2, float *x##3, float *x##4, float *x##5, \
              float *x##6, float *x##7, float *x##8, float *x##9
#define P2(x) P1(x##0), P1(x##1), P1(x##2), P1(x##3), P1(x##4), P1(x##5), P1(x##6), P1(x##7), \
              P1(x##8), P1(x##9)
#define P3(x) P2(x##0), P2(x##1), P2(x##2), P2(x##3), P2(x##4), P2(x##5), P2(x##6), P2(x##7), \
              P2(x##8), P2(x##9)

TILEC_KERNEL(num_warps = 1)
void big(float *out, P3(a), P3(b), P3(c), P3(d), P2(e)) {
  tl::store(out, 1.0f);
}
