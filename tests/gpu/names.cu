// Runs every instantiation of tests/kernels/names.cpp (kernels whose names, meta-parameters and
// parameters collide with each other or with what the generated code uses) through its launcher
// and compares with the CPU reference of the same source, included beside the generated code, and
// with a float64 (or exact integer) computation. Every result is exact, so the rows are exact.
#include "check.h"
#include "names.cpp"
#if defined(TILEC_EMULATE_HIP) // tests/emu: the CPU emulator runs the HIP output instead
#include <names.hip>
#else
#include <names.cu> // golden/names/names.cu (<>: not this file)
#endif

#include <functional>

namespace {

using Launch = std::function<cudaError_t(const float *, float *, int)>;
using Reference = void (*)(const float *, float *, int);

/// One float kernel at size n: the launcher's result against the CPU reference and `exact`.
void checkFloat(harness::Report &report, const char *name, int count, Launch launch, Reference reference,
                double (*exact)(double)) {
  const size_t n = static_cast<size_t>(count);
  auto x = harness::randomFloats(n, -8, 8, n * 977 + std::strlen(name));
  std::vector<float> ref(n, NAN);
  tl::launch(tl::grid3{tl::cdiv(count, 64)}, reference, x.data(), ref.data(), count);
  harness::DeviceBuffer<float> dx(n);
  gpucheck::Output<float> out(n);
  dx.upload(x.data());
  for (int byte : gpucheck::kPoison) {
    out.poison(byte);
    CHECK_CUDA(launch(dx.ptr, out.dev.ptr, count));
    CHECK_CUDA(cudaDeviceSynchronize());
    out.collect(byte);
  }
  size_t vsRef = 0, vsExact = 0, refVsExact = 0;
  for (size_t i = 0; i < n; ++i) {
    double e = exact(double(x[i]));
    vsRef += !gpucheck::same(out.vals[i], ref[i]);
    vsExact += !gpucheck::same(out.vals[i], e);
    refVsExact += !gpucheck::same(ref[i], e);
  }
  gpucheck::checkExact(report, name, std::to_string(n), n, vsRef, vsExact, refVsExact, out.ok());
}

} // namespace

int main(int argc, char **argv) {
  harness::Report report;
  std::vector<int> sizes = {1, 63, 64, 65, 1000, 100003};
  if (harness::smallRun(argc, argv))
    sizes = {1, 63, 64, 65, 1000};
  const cudaStream_t s{};
  for (int n : sizes) {
    checkFloat(report, "a::k", n, [&](auto x, auto y, int m) { return launch_a_k_64(s, x, y, m); },
               a::k<64>, [](double v) { return 2 * v; });
    checkFloat(report, "b::k", n, [&](auto x, auto y, int m) { return launch_b_v1_k_64(s, x, y, m); },
               b::k<64>, [](double v) { return double(float(v + 1)); });
    checkFloat(report, "twice f32", n,
               [&](auto x, auto y, int m) { return launch_twice_64_cf32p_f32p_i32(s, x, y, m); },
               static_cast<Reference>(twice<64>), [](double v) { return 2 * v; });
    checkFloat(report, "k<1, 64>", n, [&](auto x, auto y, int m) { return launch_k_1_64(s, x, y, m); },
               k<1, 64>, [](double v) { return double(float(v + 1)); });
    checkFloat(report, "k_1<64>", n, [&](auto x, auto y, int m) { return launch_k_1_64_2(s, x, y, m); },
               k_1<64>, [](double v) { return double(float(v - 1)); });
    // min + grid + config + launch_launch_64_3_5 + launch_64_3_5 + threadIdx = 5 + 1 + 2 + 3 + 4 + 3
    checkFloat(report, "launch", n,
               [&](auto x, auto y, int m) { return launch_launch_64_3_5(s, x, y, m, 1, 2, 3, 4); },
               [](const float *x, float *y, int m) { launch<64, 3, 5>(x, y, m, 1, 2, 3, 4); },
               [](double v) { return v < 18 ? v : 18.0; });
    checkFloat(report, "Ops::größe", n,
               [&](auto x, auto y, int m) { return launch_Ops_gr_u00f6_u00df_e_64(s, x, y, m); },
               Ops::größe<64>, [](double v) { return v < 0 ? -v : v; });
    checkFloat(report, "wide_meta", n,
               [&](auto x, auto y, int m) { return launch_wide_meta_On_4294967295_2_m3_1(s, x, y, m); },
               wide_meta<Mode::On, 4294967295u, 2L, -3, true>, [](double v) {
                 return double(float(float(float(float(v) + 295.0f) + -3.0f) + 1.0f) + 6.0f);
               });

    // The int32 overload of twice.
    const size_t count = static_cast<size_t>(n);
    std::vector<int32_t> xi(count), ref(count, -1);
    for (size_t i = 0; i < xi.size(); ++i)
      xi[i] = int32_t((i * 2654435761u) % 2000001) - 1000000;
    void (*const twiceInt)(const int32_t *, int32_t *, int) = twice<64>;
    tl::launch(tl::grid3{tl::cdiv(n, 64)}, twiceInt, xi.data(), ref.data(), n);
    harness::DeviceBuffer<int32_t> dx(count);
    gpucheck::Output<int32_t> out(count);
    dx.upload(xi.data());
    for (int byte : gpucheck::kPoison) {
      out.poison(byte);
      CHECK_CUDA(launch_twice_64_ci32p_i32p_i32(s, dx.ptr, out.dev.ptr, n));
      CHECK_CUDA(cudaDeviceSynchronize());
      out.collect(byte);
    }
    size_t vsRef = 0, vsExact = 0, refVsExact = 0;
    for (size_t i = 0; i < xi.size(); ++i) {
      vsRef += out.vals[i] != ref[i];
      vsExact += out.vals[i] != 2 * xi[i];
      refVsExact += ref[i] != 2 * xi[i];
    }
    gpucheck::checkExact(report, "twice i32", std::to_string(n), count, vsRef, vsExact, refVsExact,
                         out.ok());
  }
  return report.exitCode();
}
