// Runs the saxpy kernel that tilec generated at build time and checks it against a loop on the CPU.
// Usage: saxpy_app [n]   (default n = 1000003, not a multiple of the kernel's block)
#include "saxpy_launchers.h" // written by tilec next to the generated kernel: launch_saxpy_1024()
#include "saxpy_params.hpp"  // kLimit, shared with the kernel

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#ifdef SAXPY_HIP
#define GPU(name) hip##name
#else
#define GPU(name) cuda##name
#endif

#define CHECK(call)                                                                                \
  do {                                                                                             \
    GPU(Error_t) e = (call);                                                                       \
    if (e != GPU(Success)) {                                                                       \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, GPU(GetErrorString)(e)); \
      std::exit(2);                                                                                \
    }                                                                                              \
  } while (0)

int main(int argc, char **argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 1000003;
  const float a = 3.0f;
  std::mt19937 rng(std::random_device{}());
  std::uniform_real_distribution<float> dist(-2.0f, 2.0f);
  std::vector<float> x(n), y(n), out(n);
  for (int i = 0; i < n; ++i) {
    x[i] = dist(rng);
    y[i] = dist(rng);
  }

  const size_t bytes = sizeof(float) * n;
  float *dx, *dy, *dout;
  CHECK(GPU(Malloc)(&dx, bytes));
  CHECK(GPU(Malloc)(&dy, bytes));
  CHECK(GPU(Malloc)(&dout, bytes));
  CHECK(GPU(Memcpy)(dx, x.data(), bytes, GPU(MemcpyHostToDevice)));
  CHECK(GPU(Memcpy)(dy, y.data(), bytes, GPU(MemcpyHostToDevice)));
  CHECK(GPU(Memset)(dout, 0xff, bytes)); // NaN: an element the kernel misses fails the check

  GPU(Stream_t) stream = nullptr;
  CHECK(launch_saxpy_1024(stream, a, dx, dy, dout, n)); // grid from the kernel's annotation
  CHECK(GPU(StreamSynchronize)(stream));
  CHECK(GPU(Memcpy)(out.data(), dout, bytes, GPU(MemcpyDeviceToHost)));

  int bad = 0;
  double worst = 0;
  for (int i = 0; i < n; ++i) {
    double ref = std::clamp(double(a) * x[i] + y[i], double(-kLimit), double(kLimit));
    double err = std::fabs(out[i] - ref);
    worst = std::max(worst, err);
    if (!(err <= 1e-6 * (std::fabs(a * x[i]) + std::fabs(y[i])))) // also catches NaN
      ++bad;
  }
  std::printf("saxpy n=%d: %d mismatches, max abs error %.3g: %s\n", n, bad, worst,
              bad ? "FAIL" : "OK");
  CHECK(GPU(Free)(dx));
  CHECK(GPU(Free)(dy));
  CHECK(GPU(Free)(dout));
  return bad ? 1 : 0;
}
