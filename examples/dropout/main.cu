// Runs tilec's CUDA for seeded_dropout (fp32 and fp16) on random inputs at several sizes (ragged
// ones included), two drop probabilities and two seeds, against the CPU reference (the same source
// through tilec/tl.hpp) and float64: out = x / (1 - p) where the element is kept, 0 elsewhere. The
// float64 oracle keeps element i where tl::rand(seed, i) > p; a different keep mask on the GPU
// shows as an error of the size of x. The kept fraction must be 1 - p within 1% (the stream is
// uniform).
#include "../common/harness.h"
#include "dropout.cpp"         // the kernel source: CPU reference
#if defined(TILEC_EMULATE_HIP) // tests/emu: the CPU emulator runs the HIP output instead
#include "dropout.hip"
#else
#include "dropout.cu" // tilec's output: kernel + host launcher
#endif

namespace {

template <class T, class Dev, class Launch>
void run(harness::Report &report, const char *name, int n, float p, int seed, Launch launch) {
  auto xf = harness::randomFloats(n, -1, 1, uint64_t(n) * 31 + seed);
  std::vector<T> x(n), ref(n, T(NAN)), out(n);
  for (int i = 0; i < n; ++i)
    x[i] = T(xf[i]);
  tl::launch(tl::grid3{tl::cdiv(n, 1024)}, seeded_dropout<T, 1024>, x.data(), ref.data(), n, p,
             seed);

  harness::DeviceBuffer<Dev> dx(n), dout(n);
  dx.upload(x.data());
  dout.poison();
  CHECK_CUDA(launch(dx.ptr, dout.ptr, n, p, seed));
  CHECK_CUDA(cudaDeviceSynchronize());
  dout.download(out.data());

  std::vector<double> f64(n), gpu(n), cpu(n);
  size_t kept = 0;
  for (int i = 0; i < n; ++i) {
    const bool keep = tl::rand(seed, i) > p;
    kept += keep;
    // fp16 outputs round the quotient once more: the oracle rounds as the type does.
    const double q = double(float(x[i])) / (1.0 - double(p));
    f64[i] = keep ? double(float(T(float(q)))) : 0.0;
    gpu[i] = double(float(out[i]));
    cpu[i] = double(float(ref[i]));
  }
  const double keptFraction = n ? double(kept) / n : 1 - p;
  const bool uniform = n < 10000 || std::abs(keptFraction - (1 - p)) < 0.01;
  char size[64];
  std::snprintf(size, sizeof size, "%d p=%.1f s=%d", n, p, seed);
  // fp16: half an ulp (2^-11 relative) of the rounding, on top of the GPU's 2-ulp division.
  report.check(name, size, gpu, cpu, f64, std::is_same_v<T, float> ? 1e-6 : 1e-3, uniform);
}

} // namespace

int main(int argc, char **argv) {
  harness::Report report;
  std::vector<int> sizes = {1, 1000, 4097, 1 << 20, (1 << 22) + 5};
  if (harness::smallRun(argc, argv))
    sizes = {1, 1000, 4097};
  for (int n : sizes)
    for (float p : {0.5f, 0.1f})
      for (int seed : {123, -7}) {
        run<float, float>(report, "dropout f32", n, p, seed,
                          [](float *x, float *o, int n, float p, int s) {
                            return launch_seeded_dropout_f32_1024(cudaStream_t{}, x, o, n, p, s);
                          });
        run<tl::half, __half>(
            report, "dropout f16", n, p, seed, [](__half *x, __half *o, int n, float p, int s) {
              return launch_seeded_dropout_f16_1024(cudaStream_t{}, x, o, n, p, s);
            });
      }
  return report.exitCode();
}
