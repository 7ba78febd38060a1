// sink-decls: a tile computed element by element from other variables moves down to just before
// the first statement that reads it; loads, reductions and anything assigned again stay where they
// are, and a declaration never moves past an assignment to what it reads, nor into a loop.
// RUN: %tilec --emit=ir --stop-after=sink-decls %s -o - | %FileCheck %s
#include <tilec/tl.hpp>

TILEC_KERNEL(num_warps = 4)
void k(const tl::bfloat16 *x, const tl::bfloat16 *w, tl::bfloat16 *y, float *stats, float s, int n) {
  auto cols = tl::arange<0, 512>();
  auto mask = cols < n;
  auto w_row = tl::cast<float>(tl::load(w + cols, mask, 0.0f)); // moves below both sums
  auto x_row = tl::cast<float>(tl::load(x + cols, mask, 0.0f)); // read at once: stays
  auto scaled = x_row * s;                                      // s assigned below: stays
  s = s + 1.0f;
  float total = tl::sum(x_row);
  float squares = tl::sum(x_row * x_row);
  tl::store(stats, total + squares + s);
  auto acc = x_row * 0.0f; // assigned in the loop: stays
  for (int i = 0; i < 2; ++i)
    acc = acc + w_row;
  tl::store(y + cols, tl::cast<tl::bfloat16>(acc + scaled), mask);
}

// CHECK-LABEL: kernel @k
// CHECK: decl %w_load{{.*}} = load(
// CHECK-NEXT: decl %x_load{{.*}} = load(
// CHECK-NEXT: decl %x_row{{.*}} = cast<f32>(%x_load)
// CHECK-NEXT: decl %scaled{{.*}} = mul(%x_row,
// CHECK-NEXT: %s = add(%s, 1:f32)
// CHECK-NEXT: decl %total
// CHECK-NEXT: decl %squares
// CHECK-NEXT: store(%stats
// CHECK-NEXT: decl %acc
// CHECK-NEXT: decl %w_row{{.*}} = cast<f32>(%w_load)
// CHECK-NEXT: for
