// The language header and kernel sources as host code of a CUDA translation unit: nvcc's front end
// is stricter than gcc's and clang's in places (a constexpr local of a function read in a lambda's
// `if constexpr`), and the GPU programs compile the CPU reference with it.
#include "examples/layer_norm/layer_norm.cpp"
#include "examples/layer_norm_bwd/layer_norm_bwd.cpp"
#include "examples/softmax/softmax.cpp"
#include "examples/swiglu/swiglu.cpp"
#include "examples/transpose/transpose.cpp"
#include "examples/vector_add/vector_add.cpp"
#include "tests/kernels/atomics.cpp"
#include "tests/kernels/col_reduce.cpp"
#include "tests/kernels/convert.cpp"
#include "tests/kernels/gather.cpp"
#include "tests/kernels/int_ops.cpp"
#include "tests/kernels/prints.cpp"
#include "tests/kernels/rank3.cpp"
#include "tests/kernels/row_argmax.cpp"
#include "tests/kernels/row_sum.cpp"
#include "tests/kernels/scan.cpp"
#include "tests/kernels/shapes.cpp"
#include "tests/kernels/sort.cpp"

int runVectorAddOnHost(const float *x, const float *y, float *out, int n) {
  tl::launch(tl::grid3{tl::cdiv(n, 1024)}, add_kernel<1024>, x, y, out, n);
  return n;
}
