// Aligned variants chosen at launch (driver/AlignedVariants.h): beside the general kernel, tilec
// emits the kernel compiled for 16-byte aligned pointers and integer arguments that are multiples
// of 16 - only the arguments that change the code - and the launcher tests them. Nothing when the
// code would be the same, nor with --no-aligned-variants.
// RUN: %tilec %s -o - | %FileCheck %s
// RUN: %tilec --target=hip %s -o - | %FileCheck %s --check-prefix=HIP
// RUN: %tilec --no-aligned-variants %s -o - | %FileCheck %s --check-prefix=OFF
#include <tilec/tl.hpp>

// Rows `stride` apart: x, out and stride decide alignment, n the masks; n_rows (the grid only) and
// alpha do not.
// CHECK-LABEL: namespace rows_1024 {
// CHECK: tilec::rt::load_vec<V_VEC, false>(&v[i], x + row * stride + cols[i], &mask[i], 0.0f,
// CHECK: tilec::rt::store_vec<OUT_STORE_VEC, false>(
// CHECK: // The same kernel compiled assuming x and out are 16-byte aligned and stride and n are multiples of
// CHECK-NEXT: // 16: the launcher tests the arguments and runs this one when they qualify (tilec
// CHECK-NEXT: // --no-aligned-variants leaves it out).
// CHECK-NEXT: namespace aligned {
// CHECK: __global__ void __launch_bounds__(NUM_THREADS) rows(
// CHECK: tilec::rt::load_vec_if<V_VEC, true>(&v[i], x + row * stride + cols[i], mask[i], 0.0f);
// CHECK: if (mask[i])
// CHECK-NEXT: tilec::rt::store_vec<OUT_STORE_VEC, true>(out + row * stride + cols[i], vals);
// CHECK: } // namespace aligned
// CHECK-EMPTY:
// CHECK-NEXT: } // namespace rows_1024
// CHECK: cudaError_t launch_rows_1024(dim3 grid,
// CHECK: // The aligned variant when x and out are 16-byte aligned and stride and n are multiples of 16.
// CHECK-NEXT: const bool aligned = tilec::rt::aligned_to_16(x) && tilec::rt::aligned_to_16(out) &&
// CHECK-NEXT: stride % 16 == 0 && n % 16 == 0;
// CHECK: if (aligned)
// CHECK-NEXT: return cudaLaunchKernelEx(&config, rows_1024::aligned::rows, x, out, alpha, stride, n_rows, n);
// CHECK-NEXT: return cudaLaunchKernelEx(&config, rows_1024::rows, x, out, alpha, stride, n_rows, n);
// HIP-LABEL: hipError_t launch_rows_1024(dim3 grid,
// HIP: if (aligned) {
// HIP-NEXT: hipLaunchKernelGGL(rows_1024::aligned::rows, grid, dim3(rows_1024::NUM_THREADS), 0, stream,
// HIP: } else {
// HIP-NEXT: hipLaunchKernelGGL(rows_1024::rows, grid, dim3(rows_1024::NUM_THREADS), 0, stream, x,
// HIP: }
// HIP-NEXT: return hipGetLastError();
// OFF-NOT: namespace aligned
// OFF-NOT: aligned_to_16
template <int BLOCK>
TILEC_KERNEL(num_warps = 4, grid = (n_rows))
void rows(const float *x, float *out, float alpha, int64_t stride, int n_rows, int n) {
  int64_t row = tl::program_id(0);
  auto cols = tl::arange<0, BLOCK>();
  auto mask = cols < n;
  auto v = tl::load(x + row * stride + cols, mask, 0.0f);
  tl::store(out + row * stride + cols, v * alpha, mask);
}
template void rows<1024>(const float *, float *, float, int64_t, int, int);

// One element per thread: no vectors, nothing an assumption could change, no variant.
// CHECK-LABEL: namespace narrow_128 {
// CHECK-NOT: namespace aligned
// CHECK: } // namespace narrow_128
// CHECK-NOT: aligned_to_16
// CHECK-LABEL: cudaError_t launch_narrow_128(cudaStream_t stream,
template <int BLOCK>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(n, BLOCK)))
void narrow(const float *x, float *out, int n) {
  auto i = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  tl::store(out + i, tl::load(x + i, i < n) + 1.0f, i < n);
}
template void narrow<128>(const float *, float *, int);

// The names the variant needs give way to the user's: a meta-parameter `aligned` keeps its name,
// so the variant's namespace is another; so does the launcher's test beside a parameter `aligned`.
// CHECK-LABEL: namespace named_1024_1 {
// CHECK: constexpr int aligned = 1;  // meta-parameter
// CHECK: namespace [[NS:aligned_[0-9]+]] {
// CHECK: } // namespace [[NS]]
// CHECK: const bool aligned = tilec::rt::aligned_to_16(x) && n % 16 == 0;
// CHECK: if (aligned)
// CHECK-NEXT: return cudaLaunchKernelEx(&config, named_1024_1::[[NS]]::named, x, n);
template <int BLOCK, int aligned>
TILEC_KERNEL(num_warps = 4, grid = (1))
void named(float *x, int n) {
  auto i = tl::arange<0, BLOCK>();
  tl::store(x + i, tl::load(x + i, i < n) * float(aligned), i < n);
}
template void named<1024, 1>(float *, int);

// CHECK-LABEL: namespace flag_1024 {
// CHECK: void __launch_bounds__(NUM_THREADS) flag(float *x, int aligned) {
// CHECK: namespace [[NS2:aligned_[0-9]+]] {
// CHECK: const bool [[TEST:aligned_[0-9]+]] = tilec::rt::aligned_to_16(x) && aligned % 16 == 0;
// CHECK: if ([[TEST]])
// CHECK-NEXT: return cudaLaunchKernelEx(&config, flag_1024::[[NS2]]::flag, x, aligned);
template <int BLOCK>
TILEC_KERNEL(num_warps = 4, grid = (1))
void flag(float *x, int aligned) {
  auto i = tl::arange<0, BLOCK>();
  tl::store(x + i, tl::load(x + i, i < aligned) * 2.0f, i < aligned);
}
template void flag<1024>(float *, int);
