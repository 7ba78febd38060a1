// #line directives in a kernel source: Clang's diagnostics and tilec's name the file and line that
// the directive gives (as clang++ does), with the physical line's text; the output's provenance
// comments keep quoting the physical file.
// RUN: bash -c '%tilec %s -o %t.cu 2> %t.err; test $? = 1'
// RUN: %FileCheck %s < %t.err
// RUN: %tilec %s -o - -- -DFIXED | %FileCheck %s --check-prefix=OUT
#include <tilec/tl.hpp>
#line 200 "from_generator.py"
template <int B>
TILEC_KERNEL(num_warps = 4)
void k(float *x) {
#ifndef FIXED
  goto z; z: ;
#endif
  tl::store(x + tl::arange<0, B>(), tl::full<float, B>(1.0f));
}
template void k<32>(float *);
// CHECK: from_generator.py:204:3: error: statement 'goto' is not supported in a tilec kernel
// CHECK-NEXT: 204 |   goto z; z: ;
// CHECK: from_generator.py:208:15: note: in instantiation 'k<32>' requested here
// OUT: line_directive.cpp:15: tl::store(
