// Runs tilec's CUDA for asm_ops<256> (tests/kernels/inline_asm.cpp): on the GPU the kernel's PTX,
// on the CPU emulator the reference functions. Each output is compared bit for bit with the CPU
// reference (the reference functions) and with a computation of its own here, on random inputs
// (halves of every kind but NaN, 64-bit integers that wrap when added) at ragged sizes; outputs
// poisoned twice.
#include "check.h"
#include "inline_asm.cpp"
#if defined(TILEC_EMULATE_HIP) // tests/emu: the CPU emulator runs the HIP output instead
#include <inline_asm.hip>
#else
#include <inline_asm.cu> // golden/inline_asm/inline_asm.cu (<>: not this file)
#endif

#include <cmath>
#include <random>

namespace {

void run(harness::Report &report, int n) {
  const std::string size = std::to_string(n);
  std::mt19937_64 rng(uint64_t(n) * 13 + 5);
  std::vector<int32_t> a(n);
  std::vector<float> x(n);
  std::vector<tl::half> h(n);
  std::vector<int64_t> w(n);
  for (int i = 0; i < n; ++i) {
    a[i] = int32_t(int64_t(rng() % (1u << 29)) - (1 << 28)); // |a| < 2^28: 3a fits
    x[i] = std::ldexp(float(int64_t(rng() % 2000001) - 1000000), -10);
    uint16_t bits;
    do
      bits = uint16_t(rng());
    while ((bits & 0x7c00) == 0x7c00 && (bits & 0x3ff)); // no NaN
    h[i] = tl::half::fromBits(bits);
    w[i] = int64_t(rng());
  }
  const float scale = 1.0f / 3.0f;
  const int64_t bias = INT64_MAX - 12345; // sums wrap
  // The CPU reference (the reference functions).
  std::vector<int32_t> rShift(n), rTriple(n);
  std::vector<uint32_t> rRev(n);
  std::vector<float> rFused(n);
  std::vector<tl::half> rAbs(n);
  std::vector<int64_t> rSum(n);
  tl::launch(tl::grid3{tl::cdiv(n, 256)}, asm_ops<256>, a.data(), x.data(), h.data(), w.data(),
             rShift.data(), rRev.data(), rTriple.data(), rFused.data(), rAbs.data(), rSum.data(), n,
             scale, bias);
  // Computed here.
  std::vector<int32_t> eShift(n), eTriple(n);
  std::vector<uint32_t> eRev(n);
  std::vector<float> eFused(n);
  std::vector<uint16_t> eAbs(n), rAbsBits(n);
  std::vector<int64_t> eSum(n);
  for (int i = 0; i < n; ++i) {
    eShift[i] = int32_t(uint32_t(a[i]) << 3);
    const uint32_t u = uint32_t(a[i]);
    eRev[i] = (u >> 24) | ((u >> 8) & 0xff00u) | ((u << 8) & 0xff0000u) | (u << 24);
    eTriple[i] = 3 * a[i];
    eFused[i] = std::fma(x[i], scale, x[i]);
    eAbs[i] = h[i].bits & 0x7fff;
    rAbsBits[i] = rAbs[i].bits;
    eSum[i] = int64_t(uint64_t(w[i]) + uint64_t(bias));
  }
  harness::DeviceBuffer<int32_t> da(n);
  harness::DeviceBuffer<float> dx(n);
  harness::DeviceBuffer<tl::half> dh(n);
  harness::DeviceBuffer<int64_t> dw(n);
  da.upload(a.data());
  dx.upload(x.data());
  dh.upload(h.data());
  dw.upload(w.data());
  gpucheck::Output<int32_t> shift(n), triple(n);
  gpucheck::Output<uint32_t> rev(n);
  gpucheck::Output<float> fused(n);
  gpucheck::Output<uint16_t> habs(n);
  gpucheck::Output<int64_t> sum(n);
  for (int byte : gpucheck::kPoison) {
    shift.poison(byte), triple.poison(byte), rev.poison(byte), fused.poison(byte);
    habs.poison(byte), sum.poison(byte);
    CHECK_CUDA(launch_asm_ops_256(cudaStream_t{}, da.ptr, dx.ptr,
                                  reinterpret_cast<const __half *>(dh.ptr), dw.ptr, shift.dev.ptr,
                                  rev.dev.ptr, triple.dev.ptr, fused.dev.ptr, habs.as<__half>(),
                                  sum.dev.ptr, n, scale, bias));
    CHECK_CUDA(cudaDeviceSynchronize());
    shift.collect(byte), triple.collect(byte), rev.collect(byte), fused.collect(byte);
    habs.collect(byte), sum.collect(byte);
  }
  auto row = [&](const char *name, auto &out, const auto &ref, const auto &exact) {
    gpucheck::checkExact(report, name, size, size_t(n), gpucheck::differing(out.vals, ref),
                         gpucheck::differing(out.vals, exact), gpucheck::differing(ref, exact),
                         out.ok());
  };
  row("asm shl", shift, rShift, eShift);
  row("asm prmt", rev, rRev, eRev);
  row("asm %reg", triple, rTriple, eTriple);
  row("asm fma", fused, rFused, eFused);
  row("asm abs.h", habs, rAbsBits, eAbs);
  row("asm add.s64", sum, rSum, eSum);
}

} // namespace

int main(int argc, char **argv) {
  harness::Report report;
  std::vector<int> sizes = {1, 255, 256, 1000, 100003};
  if (harness::smallRun(argc, argv))
    sizes = {1, 255, 1000};
  for (int n : sizes)
    run(report, n);
  return report.exitCode();
}
