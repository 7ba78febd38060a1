// Runs tilec's CUDA for swiglu_kernel<2048> (fp16 in/out, fp32 math) on random inputs at ragged
// sizes and compares with the CPU reference of the same source.
#include "../common/harness.h"
#include "swiglu.cpp"
#if defined(TILEC_EMULATE_HIP) // tests/emu: the CPU emulator runs the HIP output instead
#include "swiglu.hip"
#else
#include "swiglu.cu"
#endif


static_assert(sizeof(tl::half) == sizeof(__half), "tl::half and __half share a bit layout");

int main(int argc, char **argv) {
  harness::Report report;
  std::vector<int> sizes = {1, 2049, (1 << 20) + 7, 1 << 24};
  if (harness::smallRun(argc, argv))
    sizes = {1, 2049, 4096, 5000}; // 4096: the launcher picks the aligned variant
  for (int n : sizes) {
    auto af = harness::randomFloats(n, -6, 6, n + 11), bf = harness::randomFloats(n, -2, 2, n + 12);
    std::vector<tl::half> a(n), b(n), ref(n, tl::half(0.0f)), out(n);
    for (int i = 0; i < n; ++i) {
      a[i] = tl::half(af[i]);
      b[i] = tl::half(bf[i]);
    }
    tl::launch(tl::grid3{tl::cdiv(n, 2048)}, swiglu_kernel<2048>, a.data(), b.data(), ref.data(), n);
    harness::DeviceBuffer<__half> da(n), db(n), dout(n);
    da.upload(a.data());
    db.upload(b.data());
    dout.poison();
    CHECK_CUDA(launch_swiglu_kernel_2048(cudaStream_t{}, da.ptr, db.ptr, dout.ptr, n));
    CHECK_CUDA(cudaDeviceSynchronize());
    dout.download(out.data());
    std::vector<double> f64(n);
    for (int i = 0; i < n; ++i) {
      double av = static_cast<float>(a[i]), bv = static_cast<float>(b[i]);
      f64[i] = av / (1 + std::exp(-av)) * bv;
    }
    report.check("swiglu", std::to_string(n), harness::toDoubles(out), harness::toDoubles(ref), f64,
                 1e-3);
  }
  return report.exitCode();
}
