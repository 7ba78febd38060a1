// EXPECT: cannot store through a pointer to const
#include <tilec/tl.hpp>
void f(const float *p) { tl::store(p + tl::arange<0, 4>(), 1.0f); }
