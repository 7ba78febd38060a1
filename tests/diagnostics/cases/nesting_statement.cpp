// EXPECT: nesting_statement.cpp:24:31: error: statement nested more than 256 levels deep is not supported; restructure the nested statements
#include <tilec/tl.hpp>

TILEC_KERNEL(num_warps = 4)
void k(float *out, int c) {
  if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c)
  if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c)
  if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c)
  if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c)
  if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c)
  if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c)
  if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c)
  if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c)
  if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c)
  if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c)
  if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c)
  if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c)
  if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c)
  if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c)
  if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c)
  if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c)
  if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c)
  if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c) if (c)
  if (c) if (c) if (c) if (c) if (c)
    tl::store(out, 1.0f);
}
