// --namespace puts everything the output declares into one namespace of the user's choosing, the
// header's declarations too: two outputs with the same kernel then link into one program
// (tilec_add_kernels(... OPTIONS --namespace NS)).
// RUN: %tilec %s --namespace mylib::v2 -o - --header %t.h | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=HEADER < %t.h
#include <tilec/tl.hpp>
template <int B>
TILEC_KERNEL(num_warps = 1)
void k(float *out) {
  tl::store(out + tl::arange<0, B>(), tl::full<float, B>(1.0f));
}
template void k<32>(float *);
// CHECK: #include <tilec/cuda/runtime.cuh>
// CHECK-EMPTY:
// CHECK-NEXT: namespace mylib::v2 {
// CHECK-EMPTY:
// CHECK-NEXT: // k<32>: one instantiation
// CHECK-NEXT: namespace k_32 {
// CHECK: cudaError_t launch_k_32(dim3 grid, cudaStream_t stream, float *out) {
// CHECK: } // namespace mylib::v2
// HEADER: namespace mylib::v2 {
// HEADER: cudaError_t launch_k_32(dim3 grid, cudaStream_t stream, float *out);
// HEADER: } // namespace mylib::v2
