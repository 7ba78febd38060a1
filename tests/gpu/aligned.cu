// Runs tilec's CUDA for scale_rows_strided<1024> (tests/kernels/aligned.cpp), whose launcher picks
// the aligned variant when x and out are 16-byte aligned and stride and n are multiples of 16, on
// arguments that qualify and arguments that do not: ragged n, a stride of 8 halves (16-byte rows
// only every other row), x or out one element past a 16-byte boundary, both 16 bytes past one.
// Every row's n outputs are compared with the CPU reference of the same source and a float64
// computation; every other element of the buffer (the gaps between rows, the bytes before and after)
// must keep the poison of two runs. On the emulator the program also checks which variant ran.
#include "check.h"
#include "aligned.cpp"
#if defined(TILEC_EMULATE_HIP) // tests/emu: the CPU emulator runs the HIP output instead
#include <aligned.hip>
#else
#include <aligned.cu> // golden/aligned/aligned.cu (<>: not this file)
#endif

#include <cstring>

namespace {

struct Case {
  int rows, n;
  int64_t stride;
  int xOffset, outOffset; // elements past the allocation's start (which is 256-byte aligned)
  bool qualifies;         // the arguments the aligned variant assumes hold
};

void run(harness::Report &report, const Case &c) {
  const size_t span = size_t(c.rows) * size_t(c.stride) + 16; // room for the offsets
  const float alpha = 0.75f;
  auto xf = harness::randomFloats(span, -8, 8, c.rows * 7 + c.n + int(c.stride) + c.xOffset * 3);
  std::vector<tl::half> x(span);
  for (size_t i = 0; i < span; ++i)
    x[i] = tl::half(xf[i]);
  std::vector<tl::half> ref(span, tl::half(NAN));
  tl::launch(tl::grid3{c.rows}, scale_rows_strided<1024>, x.data() + c.xOffset, ref.data() + c.outOffset,
             alpha, c.stride, c.rows, c.n);

  harness::DeviceBuffer<tl::half> dx(span), dout(span);
  dx.upload(x.data());
  auto written = [&](size_t i) { // element i of the output buffer is one the kernel writes
    if (i < size_t(c.outOffset))
      return false;
    const size_t e = i - size_t(c.outOffset);
    return e / size_t(c.stride) < size_t(c.rows) && e % size_t(c.stride) < size_t(c.n);
  };
  std::vector<tl::half> out(span), first;
  bool stable = true, untouched = true, variantOk = true;
  for (int byte : gpucheck::kPoison) {
    CHECK_CUDA(cudaMemset(dout.ptr, byte, span * sizeof(tl::half)));
    CHECK_CUDA(launch_scale_rows_strided_1024(
        cudaStream_t{}, reinterpret_cast<const tilec::rt::f16_t *>(dx.ptr) + c.xOffset,
        reinterpret_cast<tilec::rt::f16_t *>(dout.ptr) + c.outOffset, alpha, c.stride, c.rows, c.n));
    CHECK_CUDA(cudaDeviceSynchronize());
#if defined(TILEC_EMULATE)
    const void *expected = c.qualifies
                               ? reinterpret_cast<const void *>(&scale_rows_strided_1024::aligned::scale_rows_strided)
                               : reinterpret_cast<const void *>(&scale_rows_strided_1024::scale_rows_strided);
    variantOk = variantOk && tilec::emu::last_kernel() == expected;
#endif
    dout.download(out.data());
    for (size_t i = 0; i < span; ++i) {
      if (written(i))
        continue;
      unsigned char b[sizeof(tl::half)];
      std::memcpy(b, &out[i], sizeof b);
      untouched = untouched && b[0] == byte && b[1] == byte;
    }
    if (first.empty())
      first = out;
    else
      for (size_t i = 0; i < span; ++i)
        stable = stable && (!written(i) || std::memcmp(&first[i], &out[i], sizeof(tl::half)) == 0);
  }
  std::vector<double> gpu, cpu, f64;
  for (size_t i = 0; i < span; ++i)
    if (written(i)) {
      gpu.push_back(double(float(first[i])));
      cpu.push_back(double(float(ref[i])));
      const size_t xi = i - size_t(c.outOffset) + size_t(c.xOffset);
      f64.push_back(double(float(x[xi])) * double(alpha) + 1.0);
    }
  const std::string label = std::to_string(c.rows) + "x" + std::to_string(c.n) + " stride " +
                            std::to_string(c.stride) + " +" + std::to_string(c.xOffset) + "/+" +
                            std::to_string(c.outOffset) + (c.qualifies ? " aligned" : " general");
  report.check("aligned", label, gpu, cpu, f64, 1e-3, stable && untouched && variantOk);
}

} // namespace

int main(int argc, char **argv) {
  harness::Report report;
  std::vector<Case> cases = {
      {5, 1024, 1024, 0, 0, true},   {3, 496, 512, 0, 0, true},    {5, 1000, 1024, 0, 0, false},
      {5, 1024, 1032, 0, 0, false},  {5, 1024, 1024, 1, 0, false}, {5, 1024, 1024, 0, 1, false},
      {5, 1024, 1024, 8, 8, true},   {4, 1, 16, 0, 0, false},      {2, 16, 16, 0, 0, true},
  };
  if (!harness::smallRun(argc, argv)) {
    cases.push_back({4099, 1024, 1024, 0, 0, true});
    cases.push_back({4099, 1000, 1000, 0, 0, false});
  }
  for (const Case &c : cases)
    run(report, c);
  return report.exitCode();
}
