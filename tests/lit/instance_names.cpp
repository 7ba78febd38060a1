// The names of instantiations in the output (translator/InstanceNames.h): all at global scope; the
// namespaces of kernels that share a name in front, overloads told apart by their parameter types,
// look-alikes and names the source declares by a number, classes and names outside ASCII folded into
// the instance name, the user's names kept wherever the output does not need them (also in a second
// input translated into the same output). tests/kernels/names.cpp runs such kernels (golden,
// emulator, GPU).
// RUN: %tilec %s -o - --header %t.h | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=HEADER < %t.h
// RUN: %tilec --emit=ir %s -o - | %FileCheck %s --check-prefix=IR
// RUN: %tilec %s %S/Inputs/scale_other.cpp -o - | %FileCheck %s --check-prefix=TWO
#include <tilec/tl.hpp>

namespace outer::inner {
template <int B>
TILEC_KERNEL(num_warps = 1)
void k(float *out) {
  tl::store(out + tl::arange<0, B>(), tl::full<float, B>(1.0f));
}
} // namespace outer::inner

namespace {
template <int B>
TILEC_KERNEL(num_warps = 1)
void hidden(float *out) {
  tl::store(out + tl::arange<0, B>(), tl::full<float, B>(2.0f));
}
template void hidden<16>(float *);
} // namespace

template <int B>
TILEC_KERNEL(num_warps = 1)
void k(float *out) {
  tl::store(out + tl::arange<0, B>(), tl::full<float, B>(3.0f));
}
template <int B>
TILEC_KERNEL(num_warps = 1)
void k(int8_t *out) {
  tl::store(out + tl::arange<0, B>(), tl::full<int8_t, B>(3));
}

template <int A, int B>
TILEC_KERNEL(num_warps = 1)
void pair(float *out) {
  tl::store(out + tl::arange<0, B>(), tl::full<float, B>(float(A)));
}
template <int B>
TILEC_KERNEL(num_warps = 1)
void pair_1(float *out) {
  tl::store(out + tl::arange<0, B>(), tl::full<float, B>(4.0f));
}

// An instance named like another's launcher: the later one moves aside.
template <int A, int B>
TILEC_KERNEL(num_warps = 1)
void launch_pair(float *out) {
  tl::store(out + tl::arange<0, B>(), tl::full<float, B>(float(A)));
}

struct Box {
  template <int B>
  TILEC_KERNEL(num_warps = 1)
  static void méthode(float *out) {
    tl::store(out + tl::arange<0, B>(), tl::full<float, B>(6.0f));
  }
};

// A meta-parameter named like a constant of the output's own, and one named like a CUDA built-in.
template <int NUM_THREADS, int blockDim>
TILEC_KERNEL(num_warps = 1, grid = (NUM_THREADS + blockDim))
void metas(float *out) {
  tl::store(out + tl::arange<0, NUM_THREADS>(), tl::full<float, NUM_THREADS>(float(blockDim)));
}

// A declaration of the source takes a name: host code compiles the source beside the output.
int k_32 = 0;

namespace outer::inner {
template <int B>
TILEC_KERNEL(num_warps = 1)
void scale(float *out) {
  tl::store(out + tl::arange<0, B>(), tl::full<float, B>(7.0f));
}
} // namespace outer::inner

template void outer::inner::k<16>(float *);
template void outer::inner::k<32>(float *);
template void outer::inner::scale<16>(float *);
template void k<16>(float *);
template void k<16>(int8_t *);
template void pair<1, 16>(float *);
template void pair_1<16>(float *);
template void launch_pair<1, 16>(float *);
template void Box::méthode<16>(float *);
template void metas<32, 2>(float *);

// An anonymous namespace is left out (its kernel's launcher must be callable from other files).

// hidden<16> in an anonymous namespace, outer::inner::k<16> beside ::k<16> (twice: overloads).
// CHECK: // hidden<16>: one instantiation
// CHECK-NEXT: namespace hidden_16 {
// CHECK: // outer::inner::k<16>: one instantiation
// CHECK-NEXT: namespace outer_inner_k_16 {
// CHECK: cudaError_t launch_outer_inner_k_16(dim3 grid, cudaStream_t stream, float *out) {
// k_32 is the source's own variable.
// CHECK: // outer::inner::k<32>: one instantiation
// CHECK-NEXT: namespace k_32_2 {
// The only scale<16>: its plain name.
// CHECK: // outer::inner::scale<16>: one instantiation
// CHECK-NEXT: namespace scale_16 {

// CHECK: namespace k_16_f32p {
// CHECK: cudaError_t launch_k_16_f32p(
// CHECK: namespace k_16_i8p {
// CHECK: cudaError_t launch_k_16_i8p(

// CHECK: namespace pair_1_16 {
// CHECK: namespace pair_1_16_2 {
// CHECK: __global__ void __launch_bounds__(NUM_THREADS) pair_1(float *out) {

// launch_pair_1_16 is pair<1, 16>'s launcher, launch_pair_1_16_2 pair_1<16>'s.
// CHECK: namespace launch_pair_1_16_3 {
// CHECK: cudaError_t launch_launch_pair_1_16_3(

// CHECK: namespace Box_m_u00e9_thode_16 {
// CHECK: __global__ void __launch_bounds__(NUM_THREADS) m_u00e9_thode(float *out) {

// CHECK: namespace metas_32_2 {
// CHECK-NEXT: constexpr int NUM_THREADS = 32;  // meta-parameter
// CHECK-NEXT: {{\[\[maybe_unused\]\] }}constexpr int blockDim_1 = 2;  // meta-parameter, blockDim in the source
// CHECK-NEXT: constexpr int NUM_WARPS = 1;  // warps per block
// CHECK-NEXT: constexpr int NUM_THREADS_1 = NUM_WARPS * TILEC_WARP_SIZE;  // threads per block
// CHECK: __global__ void __launch_bounds__(NUM_THREADS_1) metas(float *out) {
// CHECK: config.blockDim = dim3(metas_32_2::NUM_THREADS_1);
// CHECK: const dim3 grid(metas_32_2::NUM_THREADS + metas_32_2::blockDim_1);

// HEADER: // outer::inner::k<16>
// HEADER-NEXT: cudaError_t launch_outer_inner_k_16(dim3 grid, cudaStream_t stream, float *out);

// IR: kernel @hidden<16> instance=hidden_16
// IR: kernel @outer::inner::k<16> instance=outer_inner_k_16

// A second input with other::scale<16>: both scales get their namespaces in front.
// TWO: namespace outer_inner_scale_16 {
// TWO: namespace other_scale_16 {
