// At the nesting limits (kMaxNesting, 256 levels: translator/FrontEnd.h) tilec compiles: 254
// nested 'if's holding a sum of 256 tiles, and a grid inside 255 parentheses (the outer one
// included). The sanitizer build runs this too, where tilec's stack frames are ten times larger,
// on the default stack.
// Past the limits: tests/diagnostics/cases/nesting_*.cpp.
// RUN: %tilec %s -o - | %FileCheck %s
#include <tilec/tl.hpp>

TILEC_KERNEL(num_warps = 4,
             grid = (
             ((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((
             ((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((
             ((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((
             ((((((((((((((
             n
             ))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))
             ))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))
             ))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))
             ))))))))))))))))
void deep(float *out, int n, int c) {
  auto x = tl::arange<0, 128>();
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
  if (c) if (c)
    tl::store(out + x,
      x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x +
      x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x +
      x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x +
      x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x +
      x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x +
      x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x +
      x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x +
      x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x +
      x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x +
      x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x +
      x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x +
      x + x + x);
}
// CHECK: __global__
// CHECK: const dim3 grid(
