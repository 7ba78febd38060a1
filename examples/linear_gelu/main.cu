// Runs tilec's CUDA for linear_gelu (out = gelu(x @ weight^T + bias)) at <T, 64, 64, 32, 8, 4, 3>
// for fp16 and bf16 and the wide fp16 <128, 256, 32, 8, 8, 4> (whose aligned variant is
// warp-specialized and persistent on sm_90a) on random inputs of ragged shapes (M, N and K not
// multiples of the blocks, down to 1 x 1 x 1), with row strides wider than the rows, and compares
// with the CPU reference of the same source and with float64. The padding of out must stay
// untouched; the padding of x and weight and the element past the bias hold NaN, so that a read
// past a descriptor's shape shows in the result.
#include "../common/harness.h"
#include "linear_gelu.cpp"
#if defined(TILEC_EMULATE_HIP) // tests/emu: the CPU emulator runs the HIP output instead
#include "linear_gelu.hip"
using device_bf16 = hip_bfloat16;
#else
#include "linear_gelu.cu"
using device_bf16 = __nv_bfloat16;
#endif

#include <cmath>
#include <type_traits>

static_assert(sizeof(tl::half) == sizeof(__half) && sizeof(tl::bfloat16) == sizeof(device_bf16),
              "tl::half and tl::bfloat16 share the device types' bit layouts");

namespace {

struct Case {
  int M, N, K;
  /// Rows packed (row strides K, K and N): with N and K multiples of 16 and 16-byte aligned
  /// buffers, the launcher runs the kernel's aligned variant (TMA on sm_90a).
  bool packed = false;
};

template <class T> const auto *dev(const T *p) {
  if constexpr (std::is_same_v<T, tl::bfloat16>)
    return reinterpret_cast<const device_bf16 *>(p);
  else
    return reinterpret_cast<const __half *>(p);
}
template <class T> auto *dev(T *p) {
  if constexpr (std::is_same_v<T, tl::bfloat16>)
    return reinterpret_cast<device_bf16 *>(p);
  else
    return reinterpret_cast<__half *>(p);
}

template <class T, bool WIDE> void run(harness::Report &report, Case c) {
  constexpr int BLOCK_M = WIDE ? 128 : 64, BLOCK_N = WIDE ? 256 : 64;
  const T nan = T::fromBits(0xFFFF); // what DeviceBuffer::poison writes
  // x: M rows of K, row stride K + 5. weight: N rows of K, row stride K + 5. bias: N values and a
  // NaN after them. out: M rows of N, row stride N + 3.
  const int padX = c.packed ? 0 : 5, padO = c.packed ? 0 : 3;
  const int stride_xm = c.K + padX, stride_wn = c.K + padX, stride_om = c.N + padO;
  const size_t nx = size_t(c.M) * stride_xm, nw = size_t(c.N) * stride_wn,
               no = size_t(c.M) * stride_om;

  // Fresh random values in [-1, 1) (x and bias) and [-0.5, 0.5) (weight), a seed per buffer and
  // run, so that the sums straddle GELU's bend; NaN padding.
  const uint64_t seed = ((uint64_t(c.M) * 7919 + c.N) * 7919 + c.K) * 8 + (c.packed ? 4 : 0) +
                        (std::is_same_v<T, tl::bfloat16> ? 2 : 0) + (WIDE ? 1 : 0);
  const auto xf = harness::randomFloats(nx, -1, 1, seed);
  const auto wf = harness::randomFloats(nw, -0.5, 0.5, seed + 1);
  const auto bf = harness::randomFloats(size_t(c.N), -1, 1, seed + 2);
  std::vector<T> x(nx, nan), w(nw, nan), bias(size_t(c.N) + 1, nan), ref(no, nan), out(no);
  for (int m = 0; m < c.M; ++m)
    for (int k = 0; k < c.K; ++k)
      x[size_t(m) * stride_xm + k] = T(xf[size_t(m) * stride_xm + k]);
  for (int n = 0; n < c.N; ++n) {
    for (int k = 0; k < c.K; ++k)
      w[size_t(n) * stride_wn + k] = T(wf[size_t(n) * stride_wn + k]);
    bias[n] = T(bf[n]);
  }

  const int tiles = tl::cdiv(c.M, BLOCK_M) * tl::cdiv(c.N, BLOCK_N);
  tl::launch(tl::grid3{tiles}, linear_gelu < T, BLOCK_M, BLOCK_N, 32, 8, WIDE ? 8 : 4,
             WIDE ? 4 : 3 >, x.data(), w.data(), bias.data(), ref.data(), c.M, c.N, c.K, stride_xm,
             stride_wn, stride_om);

  harness::DeviceBuffer<T> dx(nx), dw(nw), db(bias.size()), dout(no);
  dx.upload(x.data());
  dw.upload(w.data());
  db.upload(bias.data());
  dout.poison();
  cudaError_t launched;
  if constexpr (WIDE)
    launched = launch_linear_gelu_f16_128_256_32_8_8_4(cudaStream_t{}, dev(dx.ptr), dev(dw.ptr),
                                                       dev(db.ptr), dev(dout.ptr), c.M, c.N, c.K,
                                                       stride_xm, stride_wn, stride_om);
  else if constexpr (std::is_same_v<T, tl::bfloat16>)
    launched = launch_linear_gelu_bf16_64_64_32_8_4_3(cudaStream_t{}, dev(dx.ptr), dev(dw.ptr),
                                                      dev(db.ptr), dev(dout.ptr), c.M, c.N, c.K,
                                                      stride_xm, stride_wn, stride_om);
  else
    launched = launch_linear_gelu_f16_64_64_32_8_4_3(cudaStream_t{}, dev(dx.ptr), dev(dw.ptr),
                                                     dev(db.ptr), dev(dout.ptr), c.M, c.N, c.K,
                                                     stride_xm, stride_wn, stride_om);
  CHECK_CUDA(launched);
  CHECK_CUDA(cudaDeviceSynchronize());
  dout.download(out.data());

  // float64: the sum of the products of the inputs and the bias in double, GELU in double, then
  // rounded to T as the kernel's output is. Compare the written columns; the padding columns must
  // still hold NaN (on the GPU and in the CPU reference).
  std::vector<double> gpu, cpu, f64;
  bool paddingUntouched = true;
  for (int m = 0; m < c.M; ++m)
    for (int j = 0; j < stride_om; ++j) {
      const size_t at = size_t(m) * stride_om + j;
      if (j >= c.N) {
        paddingUntouched =
            paddingUntouched && std::isnan(float(out[at])) && std::isnan(float(ref[at]));
        continue;
      }
      double v = double(float(bias[j]));
      for (int k = 0; k < c.K; ++k)
        v += double(float(x[size_t(m) * stride_xm + k])) *
             double(float(w[size_t(j) * stride_wn + k]));
      gpu.push_back(float(out[at]));
      cpu.push_back(float(ref[at]));
      f64.push_back(float(T(0.5 * v * (1.0 + std::erf(v / std::sqrt(2.0))))));
    }
  // The tolerance: both sides are rounded to T, so an element differs from float64 by one ulp of T
  // at most (2^-10 of it for fp16, 2^-8 for bf16) where the fp32 sum and erff's error (a few fp32
  // ulps) put it on the other side of a rounding midpoint; few do. A lost K step, a missing bias,
  // another GELU (the tanh approximation differs by up to 1e-3 of an element, at most a few ulps
  // of fp16, everywhere) or a NaN read from the padding exceed it.
  std::string size = std::to_string(c.M) + "x" + std::to_string(c.N) + "x" + std::to_string(c.K);
  if (c.packed)
    size += " packed";
  const std::string name = std::string("linear_gelu") +
                           (std::is_same_v<T, tl::bfloat16> ? "_bf16" : "") +
                           (WIDE ? "_128x256" : "");
  report.check(name.c_str(), size, gpu, cpu, f64, std::is_same_v<T, tl::bfloat16> ? 4e-3 : 1e-3,
               paddingUntouched);
}

} // namespace

int main(int argc, char **argv) {
  harness::Report report;
  // M x N x K: square, tall and thin, a single element, a K of several steps with a ragged
  // remainder; packed (the aligned variant), ragged M and a K remainder of 16. (The CPU reference
  // takes seconds per GFLOP: no case is much bigger than 1000^3.)
  std::vector<Case> cases = {{1000, 1000, 1000}, {4097, 63, 129},          {1, 1, 1},
                             {33, 17, 200},      {1000, 1024, 1008, true}, {777, 544, 80, true}};
  std::vector<Case> wide = cases;
  // The CPU emulator is about 1000x slower than a GPU: one to six programs a case.
  if (harness::smallRun(argc, argv)) {
    cases = {{37, 45, 70}, {1, 1, 1}, {70, 64, 48, true}, {40, 64, 160, true}};
    wide = {{300, 528, 160, true}, {37, 45, 70}};
#if !defined(TILEC_EMULATE)
    // The sanitizers' run on the GPU: more tiles than an H100 has SMs, so that blocks loop there.
    wide.push_back({1280, 4096, 64, true});
#endif
  }
  for (Case c : cases) {
    run<tl::half, false>(report, c);
    run<tl::bfloat16, false>(report, c);
  }
  for (Case c : wide)
    run<tl::half, true>(report, c);
  return report.exitCode();
}
