// A void function may return a void expression (`return tl::store(...);`), in a kernel and in a
// helper it calls: the expression runs as a statement (adversarial batch, seed 202, found tilec
// refusing both with "a tilec kernel must return void").
// RUN: %tilec %s -o - | %FileCheck %s
#include <tilec/tl.hpp>

template <class P, class V> void put(P p, V v) { return tl::store(p, v); }

TILEC_KERNEL(num_warps = 1)
void k(const float *x, float *out) {
  auto offs = tl::arange<0, 32>();
  put(out + offs, tl::load(x + offs));
  return tl::store(out + 32 + offs, tl::load(x + offs) * 2.0f);
}

// CHECK: // inlined: put (called at {{.*}}void_return.cpp:12)
// CHECK: // {{.*}}void_return.cpp:7: template <class P, class V> void put(P p, V v) { return tl::store(p, v); }
// CHECK: // {{.*}}void_return.cpp:13: return tl::store(out + 32 + offs, tl::load(x + offs) * 2.0f);
// CHECK: (out + 32)[offs[i]] = x_load[i] * 2.0f;
