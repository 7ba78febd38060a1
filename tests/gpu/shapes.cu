// Runs tests/kernels/shapes.cpp against the CPU reference of the same source and against each
// rearrangement computed here, all exact: the shape ops move elements without changing them, and
// the complex pairs' sums and differences round once on either side. Each launch runs twice into
// outputs poisoned with two patterns; the elements past the end must keep their pattern.
#include "check.h"
#include "shapes.cpp"
#if defined(TILEC_EMULATE_HIP) // tests/emu: the CPU emulator runs the HIP output instead
#include <shapes.hip>
#else
#include <shapes.cu> // golden/shapes/shapes.cu (<>: not this file)
#endif

#include <random>

namespace {

using gpucheck::differing;
using gpucheck::Uploaded;

/// n random values of T: floats in [-1, 1), other types from random bits.
template <class T> std::vector<T> randomValues(size_t n, uint64_t seed) {
  std::vector<T> v(n);
  if constexpr (std::is_same_v<T, float>) {
    v = harness::randomFloats(n, -1, 1, seed);
  } else if constexpr (std::is_same_v<T, tl::half> || std::is_same_v<T, tl::bfloat16>) {
    auto f = harness::randomFloats(n, -4, 4, seed);
    for (size_t i = 0; i < n; ++i)
      v[i] = T(f[i]);
  } else {
    std::mt19937_64 rng(seed);
    for (auto &x : v) {
      const uint64_t bits = rng();
      std::memcpy(static_cast<void *>(&x), &bits, sizeof(T));
    }
  }
  return v;
}

/// Element i of v, or zero past its end (what a masked load reads).
template <class T> T at(const std::vector<T> &v, size_t i) { return i < v.size() ? v[i] : T{}; }

/// Runs `launch` twice per poison pattern into `outs`, then checks each output against the CPU
/// reference's and the expected values.
template <class T, size_t K, class Launch>
void runExact(harness::Report &report, const char *name, int n,
              std::array<gpucheck::Output<T> *, K> outs, const std::array<std::vector<T>, K> &ref,
              const std::array<std::vector<T>, K> &exact, Launch launch) {
  for (int byte : gpucheck::kPoison) {
    for (auto *o : outs)
      o->poison(byte);
    CHECK_CUDA(launch());
    CHECK_CUDA(cudaDeviceSynchronize());
    for (auto *o : outs)
      o->collect(byte);
  }
  size_t count = 0, gpuRef = 0, gpuExact = 0, refExact = 0;
  bool ok = true;
  for (size_t k = 0; k < K; ++k) {
    count += outs[k]->vals.size();
    gpuRef += differing(outs[k]->vals, ref[k]);
    gpuExact += differing(outs[k]->vals, exact[k]);
    refExact += differing(ref[k], exact[k]);
    ok = ok && outs[k]->ok();
  }
  gpucheck::checkExact(report, name, std::to_string(n), count, gpuRef, gpuExact, refExact, ok);
}

/// reshapes<R, C, T> over n values: rows and halves are x itself, cols each block's transpose.
template <int R, int C, class T, class D, class Launch>
void reshapeCase(harness::Report &report, const char *name, int n, Launch launch) {
  constexpr int S = R * C;
  auto x = randomValues<T>(n, uint64_t(n) * 7 + S);
  std::array<std::vector<T>, 3> ref, exact;
  for (auto &v : ref)
    v.resize(n);
  tl::launch(tl::grid3{tl::cdiv(n, S)}, reshapes<R, C, T>, x.data(), ref[0].data(), ref[1].data(),
             ref[2].data(), n);
  exact[0] = exact[2] = x;
  exact[1].resize(n);
  for (int p = 0; p < n; ++p) {
    const int base = p / S * S, l = p - base;
    exact[1][p] = at(x, size_t(base + l % R * C + l / R));
  }
  Uploaded<T> dx(x);
  gpucheck::Output<T> rows(n), cols(n), halves(n);
  runExact<T, 3>(report, name, n, {&rows, &cols, &halves}, ref, exact, [&] {
    return launch(reinterpret_cast<const D *>(dx.ptr), rows.template as<D>(), cols.template as<D>(),
                  halves.template as<D>(), n);
  });
}

/// complex_pairs<BLOCK, T> over n pairs.
template <int BLOCK, class T, class Launch>
void complexCase(harness::Report &report, const char *name, int n, Launch launch) {
  auto z = randomValues<T>(2 * size_t(n), uint64_t(n) * 5 + 1);
  auto w = randomValues<T>(2 * size_t(n), uint64_t(n) * 5 + 2);
  std::array<std::vector<T>, 2> ref, exact;
  for (auto *v : {&ref[0], &ref[1], &exact[0], &exact[1]})
    v->resize(2 * size_t(n));
  tl::launch(tl::grid3{tl::cdiv(n, BLOCK)}, complex_pairs<BLOCK, T>, z.data(), w.data(),
             ref[0].data(), ref[1].data(), n);
  for (size_t i = 0; i < size_t(n); ++i) {
    if constexpr (std::is_integral_v<T>) { // wrapping, as the kernel's int32 arithmetic
      exact[0][2 * i] = T(uint32_t(z[2 * i]) - uint32_t(w[2 * i + 1]));
      exact[0][2 * i + 1] = T(uint32_t(z[2 * i + 1]) + uint32_t(w[2 * i]));
      exact[1][2 * i + 1] = T(0u - uint32_t(z[2 * i + 1]));
    } else {
      exact[0][2 * i] = z[2 * i] - w[2 * i + 1];
      exact[0][2 * i + 1] = z[2 * i + 1] + w[2 * i];
      exact[1][2 * i + 1] = -z[2 * i + 1];
    }
    exact[1][2 * i] = z[2 * i];
  }
  Uploaded<T> dz(z), dw(w);
  gpucheck::Output<T> out(2 * size_t(n)), conj(2 * size_t(n));
  runExact<T, 2>(report, name, n, {&out, &conj}, ref, exact,
                 [&] { return launch(dz.ptr, dw.ptr, out.dev.ptr, conj.dev.ptr, n); });
}

/// cats<BLOCK, T> over n values of x and of y: both block-wise concatenations alike.
template <int BLOCK, class T, class D, class Launch>
void catCase(harness::Report &report, const char *name, int n, Launch launch) {
  const int blocks = tl::cdiv(n, BLOCK);
  auto x = randomValues<T>(n, uint64_t(n) * 11 + 3), y = randomValues<T>(n, uint64_t(n) * 11 + 4);
  std::array<std::vector<T>, 2> ref, exact;
  for (auto *v : {&ref[0], &ref[1], &exact[0]})
    v->resize(size_t(blocks) * 2 * BLOCK);
  tl::launch(tl::grid3{blocks}, cats<BLOCK, T>, x.data(), y.data(), ref[0].data(), ref[1].data(),
             n);
  for (int b = 0; b < blocks; ++b)
    for (int l = 0; l < 2 * BLOCK; ++l)
      exact[0][size_t(b) * 2 * BLOCK + l] =
          l < BLOCK ? at(x, size_t(b) * BLOCK + l) : at(y, size_t(b) * BLOCK + l - BLOCK);
  exact[1] = exact[0];
  Uploaded<T> dx(x), dy(y);
  gpucheck::Output<T> both(exact[0].size()), rows(exact[0].size());
  runExact<T, 2>(report, name, n, {&both, &rows}, ref, exact, [&] {
    return launch(reinterpret_cast<const D *>(dx.ptr), reinterpret_cast<const D *>(dy.ptr),
                  both.template as<D>(), rows.template as<D>(), n);
  });
}

/// group_max<8, 1024>: the maximum of each 128 values, -inf past the end.
void groupMax(harness::Report &report, int n) {
  const int blocks = tl::cdiv(n, 1024);
  auto x = harness::randomFloats(n, -1, 1, uint64_t(n) * 13);
  std::array<std::vector<float>, 1> ref, exact;
  ref[0].resize(size_t(blocks) * 8);
  exact[0].assign(ref[0].size(), -INFINITY);
  tl::launch(tl::grid3{blocks}, group_max<8, 1024>, x.data(), ref[0].data(), n);
  for (int i = 0; i < n; ++i)
    exact[0][size_t(i) / 128] = std::max(exact[0][size_t(i) / 128], x[i]);
  Uploaded<float> dx(x);
  gpucheck::Output<float> out(ref[0].size());
  runExact<float, 1>(report, "group max", n, {&out}, ref, exact, [&] {
    return launch_group_max_8_1024(cudaStream_t{}, dx.ptr, out.dev.ptr, n);
  });
}

} // namespace

int main(int argc, char **argv) {
  harness::Report report;
  std::vector<int> sizes = {1, 300, 1037};
  if (!harness::smallRun(argc, argv))
    sizes.push_back(100000);
  for (int n : sizes) {
    reshapeCase<8, 32, float, float>(report, "reshape f32", n, [](auto... a) {
      return launch_reshapes_8_32_f32(cudaStream_t{}, a...);
    });
    reshapeCase<16, 64, tl::half, __half>(report, "reshape f16", n, [](auto... a) {
      return launch_reshapes_16_64_f16(cudaStream_t{}, a...);
    });
    reshapeCase<4, 8, int64_t, int64_t>(report, "reshape i64", n, [](auto... a) {
      return launch_reshapes_4_8_i64(cudaStream_t{}, a...);
    });
    reshapeCase<32, 16, uint8_t, uint8_t>(report, "reshape u8", n, [](auto... a) {
      return launch_reshapes_32_16_u8(cudaStream_t{}, a...);
    });
    reshapeCase<16, 16, tl::float8_e4m3, tilec::rt::f8e4m3_t>(
        report, "reshape f8", n,
        [](auto... a) { return launch_reshapes_16_16_f8e4m3(cudaStream_t{}, a...); });
    complexCase<256, float>(report, "pairs f32", n, [](auto... a) {
      return launch_complex_pairs_256_f32(cudaStream_t{}, a...);
    });
    complexCase<64, int32_t>(report, "pairs i32", n, [](auto... a) {
      return launch_complex_pairs_64_i32(cudaStream_t{}, a...);
    });
    catCase<512, float, float>(report, "cat f32", n,
                               [](auto... a) { return launch_cats_512_f32(cudaStream_t{}, a...); });
    catCase<64, tl::bfloat16, __nv_bfloat16>(
        report, "cat bf16", n, [](auto... a) { return launch_cats_64_bf16(cudaStream_t{}, a...); });
    groupMax(report, n);
  }
  return report.exitCode();
}
