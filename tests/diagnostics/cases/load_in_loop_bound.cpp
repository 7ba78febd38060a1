// EXPECT: load_in_loop_bound.cpp:6:23: error: a load or reduction in the bound of a 'for' loop is not supported; compute it into a variable before the loop or use a 'while' loop
#include <tilec/tl.hpp>

TILEC_KERNEL(num_warps = 4)
void k(const int *count, float *out) {
  for (int i = 0; i < tl::load(count); ++i)
    tl::store(out + i, 1.0f);
}
