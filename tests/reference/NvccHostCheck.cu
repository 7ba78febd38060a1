// The language header and every kernel source as host code of a CUDA translation unit.
#include "examples/layer_norm/layer_norm.cpp"
#include "examples/softmax/softmax.cpp"
#include "examples/swiglu/swiglu.cpp"
#include "examples/transpose/transpose.cpp"
#include "examples/vector_add/vector_add.cpp"
#include "tests/kernels/col_reduce.cpp"
#include "tests/kernels/convert.cpp"
#include "tests/kernels/int_ops.cpp"
#include "tests/kernels/row_argmax.cpp"
#include "tests/kernels/row_sum.cpp"

int runVectorAddOnHost(const float *x, const float *y, float *out, int n) {
  tl::launch(tl::grid3{tl::cdiv(n, 1024)}, add_kernel<1024>, x, y, out, n);
  return n;
}
