// Runs tilec's CUDA for the five instantiations of the generic kernel affine<T, EDGE, 256> (fp32,
// fp16, bf16, int32, int64; an enumeration meta-parameter clipping or not) on random inputs at
// ragged sizes, and compares each with the CPU reference of the same source and with float64 (floats:
// 1e-6, and one rounding of fp16 / bf16) or exactly (integers, against __int128 arithmetic).
#include "check.h"
#include "generic.cpp"

#include <memory>
#include <random>
#if defined(TILEC_EMULATE_HIP) // tests/emu: the CPU emulator runs the HIP output instead
#include <generic.hip>
#else
#include <generic.cu> // golden/generic/generic.cu (<>: not this file)
#endif

namespace {

/// The kernel's value in float64 (floats) for an input already clipped.
double exactFloat(double v) { return 2 * v * 0.25 + std::sqrt(std::fabs(v)); }

/// The kernel's value for integers: twice(v) wraps in T, then / 4 and % 3 truncate.
template <class T> T exactInt(T v) {
  using U = std::make_unsigned_t<T>;
  const T twice = static_cast<T>(static_cast<U>(static_cast<__int128>(v) * 2));
  return static_cast<T>(twice / 4 + v % 3);
}

/// Device buffers hold the launcher's element type; tl::half / tl::bfloat16 are bit-compatible.
template <class T> struct Dev {
  using type = T;
};
template <> struct Dev<tl::half> {
  using type = tilec::rt::f16_t;
};
template <> struct Dev<tl::bfloat16> {
  using type = tilec::rt::bf16_t;
};
template <class T> typename Dev<T>::type toDev(T v) {
  typename Dev<T>::type d;
  std::memcpy(static_cast<void *>(&d), &v, sizeof d);
  return d;
}

template <class T, Edge EDGE, class Launch>
void run(harness::Report &report, const char *name, int n, T bound, double tol, Launch launch) {
  std::mt19937_64 rng(n * 31 + sizeof(T));
  std::vector<T> x(n);
  for (int i = 0; i < n; ++i) {
    if constexpr (tl::is_integer_v<T>) {
      // Whole range (twice() wraps), and small values where % 3 and the clip matter.
      std::uniform_int_distribution<int64_t> any(std::numeric_limits<T>::min(), std::numeric_limits<T>::max()),
          small(-50, 50);
      x[i] = static_cast<T>(i % 3 ? any(rng) : small(rng));
    } else {
      std::uniform_real_distribution<float> d(-60.0f, 60.0f);
      x[i] = T(d(rng));
    }
  }
  std::vector<T> ref(n);
  tl::launch(tl::grid3{tl::cdiv(n, 256)}, affine<T, EDGE, 256>, x.data(), ref.data(), bound, n);
  harness::DeviceBuffer<T> dx(n);
  dx.upload(x.data());
  gpucheck::Output<T> out(n);
  for (int byte : gpucheck::kPoison) {
    out.poison(byte);
    CHECK_CUDA(launch(reinterpret_cast<const typename Dev<T>::type *>(dx.ptr),
                      reinterpret_cast<typename Dev<T>::type *>(out.dev.ptr), toDev(bound), n));
    CHECK_CUDA(cudaDeviceSynchronize());
    out.collect(byte);
  }
  auto clip = [&](auto v) {
    if constexpr (EDGE == Edge::Clip) {
      const auto b = static_cast<decltype(v)>(bound);
      return v < -b ? -b : v > b ? b : v;
    } else {
      return v;
    }
  };
  if constexpr (tl::is_integer_v<T>) {
    size_t gpuVsRef = 0, gpuVsExact = 0, refVsExact = 0;
    for (int i = 0; i < n; ++i) {
      const T e = exactInt<T>(clip(x[i]));
      gpuVsRef += out.vals[i] != ref[i], gpuVsExact += out.vals[i] != e, refVsExact += ref[i] != e;
    }
    gpucheck::checkExact(report, name, std::to_string(n), n, gpuVsRef, gpuVsExact, refVsExact, out.ok());
  } else {
    std::vector<double> f64(n);
    for (int i = 0; i < n; ++i)
      f64[i] = exactFloat(clip(static_cast<double>(static_cast<float>(x[i]))));
    report.check(name, std::to_string(n), harness::toDoubles(out.vals), harness::toDoubles(ref), f64, tol,
                 out.ok());
  }
}

} // namespace

int main(int argc, char **argv) {
  harness::Report report;
  std::vector<int> sizes = {1, 255, 256, 1000, (1 << 20) + 3};
  if (harness::smallRun(argc, argv))
    sizes = {1, 255, 256, 1000};
  for (int n : sizes) {
    run<float, Edge::Keep>(report, "generic f32", n, 0.0f, 1e-6,
                           [](auto... a) { return launch_affine_f32_Keep_256(cudaStream_t{}, a...); });
    run<tl::half, Edge::Clip>(report, "generic f16", n, tl::half(20.0f), 1e-3,
                              [](auto... a) { return launch_affine_f16_Clip_256(cudaStream_t{}, a...); });
    run<tl::bfloat16, Edge::Keep>(report, "generic bf16", n, tl::bfloat16(0.0f), 8e-3,
                                  [](auto... a) { return launch_affine_bf16_Keep_256(cudaStream_t{}, a...); });
    run<int32_t, Edge::Clip>(report, "generic i32", n, int32_t{1000000},
                             0, [](auto... a) { return launch_affine_i32_Clip_256(cudaStream_t{}, a...); });
    run<int64_t, Edge::Keep>(report, "generic i64", n, int64_t{0}, 0,
                             [](auto... a) { return launch_affine_i64_Keep_256(cudaStream_t{}, a...); });
  }
  return report.exitCode();
}
