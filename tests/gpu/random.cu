// Runs tests/kernels/random.cpp at ragged sizes for two seeds of either sign and compares every
// output with the CPU reference of the same source and with an exact computation: Philox 4x32-10
// written out here once more (the round function of the Random123 paper, independent of
// tilec/detail/philox.hpp) for the bits, Triton's uint_to_uniform_float of them for the uniform
// floats (exact: one conversion and one product in float), and Box-Muller in double for the normal
// ones (within 2e-6 absolute: the float logf, sqrtf, cosf and sinf of the GPU and of the CPU differ
// by a few ulp). Bits and uniform floats must match the reference exactly.
#include "check.h"
#include "random.cpp"
#if defined(TILEC_EMULATE_HIP) // tests/emu: the CPU emulator runs the HIP output instead
#include <random.hip>
#else
#include <random.cu> // golden/random/random.cu (<>: not this file)
#endif

namespace {

/// Philox 4x32-10 of counter (c0, c1, 0, 0) and key (k0, k1).
std::array<uint32_t, 4> philoxExact(uint32_t c0, uint32_t k0, uint32_t k1, uint32_t c1 = 0) {
  uint32_t c[4] = {c0, c1, 0, 0};
  for (int r = 0; r < 10; ++r) {
    if (r) {
      k0 += 0x9E3779B9u;
      k1 += 0xBB67AE85u;
    }
    const uint64_t m0 = uint64_t(0xD2511F53u) * c[0], m1 = uint64_t(0xCD9E8D57u) * c[2];
    const uint32_t n0 = uint32_t(m1 >> 32) ^ c[1] ^ k0, n2 = uint32_t(m0 >> 32) ^ c[3] ^ k1;
    c[0] = n0;
    c[1] = uint32_t(m1);
    c[2] = n2;
    c[3] = uint32_t(m0);
  }
  return {c[0], c[1], c[2], c[3]};
}
float uniformExact(uint32_t b) {
  const int32_t x = int32_t(b);
  return float(x < 0 ? -(int64_t(x)) - 1 : int64_t(x)) * 4.6566127342e-10f;
}
double normalExact(uint32_t b1, uint32_t b2, bool second) {
  const double u1 = std::max(double(1.0e-7f), double(uniformExact(b1)));
  const double th = double(6.283185307179586f) * double(uniformExact(b2));
  return std::sqrt(-2.0 * std::log(u1)) * (second ? std::sin(th) : std::cos(th));
}

struct Rows {
  std::vector<double> gpu, cpu, exact;
};

void exactRow(harness::Report &report, const char *name, const std::string &size, const Rows &r,
              bool extraOk) {
  size_t gpuVsRef = 0, gpuVsExact = 0, refVsExact = 0;
  for (size_t i = 0; i < r.gpu.size(); ++i) {
    gpuVsRef += !gpucheck::same(r.gpu[i], r.cpu[i]);
    gpuVsExact += !gpucheck::same(r.gpu[i], r.exact[i]);
    refVsExact += !gpucheck::same(r.cpu[i], r.exact[i]);
  }
  gpucheck::checkExact(report, name, size, r.gpu.size(), gpuVsRef, gpuVsExact, refVsExact, extraOk);
}

} // namespace

/// random_streams64<256> at int64 offsets base + i: the counter is (low half, high half, 0, 0).
void streams64(harness::Report &report, int n, int64_t base, int seed) {
  const std::string size = std::to_string(n) + " o=" + std::to_string(base);
  std::vector<uint32_t> rb(n);
  std::vector<float> ru(n, NAN), rn(n, NAN);
  tl::launch(tl::grid3{tl::cdiv(n, 256)}, random_streams64<256>, rb.data(), ru.data(), rn.data(), n,
             base, seed);
  gpucheck::Output<uint32_t> b(n);
  gpucheck::Output<float> u(n), z(n);
  for (int byte : gpucheck::kPoison) {
    b.poison(byte);
    u.poison(byte);
    z.poison(byte);
    CHECK_CUDA(launch_random_streams64_256(cudaStream_t{}, b.dev.ptr, u.dev.ptr, z.dev.ptr, n, base,
                                           seed));
    CHECK_CUDA(cudaDeviceSynchronize());
    b.collect(byte);
    u.collect(byte);
    z.collect(byte);
  }
  const uint64_t key = uint64_t(int64_t(seed));
  Rows bits, uni, nor;
  for (int i = 0; i < n; ++i) {
    const uint64_t o = uint64_t(base + i);
    auto e = philoxExact(uint32_t(o), uint32_t(key), uint32_t(key >> 32), uint32_t(o >> 32));
    bits.gpu.push_back(b.vals[i]), bits.cpu.push_back(rb[i]), bits.exact.push_back(e[0]);
    uni.gpu.push_back(u.vals[i]), uni.cpu.push_back(ru[i]), uni.exact.push_back(uniformExact(e[0]));
    nor.gpu.push_back(z.vals[i]), nor.cpu.push_back(rn[i]),
        nor.exact.push_back(normalExact(e[0], e[1], false));
  }
  exactRow(report, "randint i64", size, bits, b.ok());
  exactRow(report, "rand i64", size, uni, u.ok());
  report.check("randn i64", size, nor.gpu, nor.cpu, nor.exact, 2e-6, z.ok());
}

int main(int argc, char **argv) {
  harness::Report report;
  std::vector<int> sizes = {1, 300, 1037, 1 << 20};
  if (harness::smallRun(argc, argv))
    sizes = {1, 300, 1037};
  for (int n : sizes)
    for (int64_t seed : {int64_t{20241127}, int64_t{-3} * 1000003}) {
      const std::string size = std::to_string(n) + " s=" + std::to_string(seed);
      // One value per offset, int seed.
      {
        std::vector<uint32_t> rb(n);
        std::vector<float> ru(n, NAN), rn(n, NAN);
        tl::launch(tl::grid3{tl::cdiv(n, 256)}, random_streams<256>, rb.data(), ru.data(),
                   rn.data(), n, int(seed));
        gpucheck::Output<uint32_t> b(n);
        gpucheck::Output<float> u(n), z(n);
        for (int byte : gpucheck::kPoison) {
          b.poison(byte);
          u.poison(byte);
          z.poison(byte);
          CHECK_CUDA(launch_random_streams_256(cudaStream_t{}, b.dev.ptr, u.dev.ptr, z.dev.ptr, n,
                                               int(seed)));
          CHECK_CUDA(cudaDeviceSynchronize());
          b.collect(byte);
          u.collect(byte);
          z.collect(byte);
        }
        const uint64_t key = uint64_t(int64_t(int(seed)));
        Rows bits, uni, nor;
        for (int i = 0; i < n; ++i) {
          auto e = philoxExact(uint32_t(i), uint32_t(key), uint32_t(key >> 32));
          bits.gpu.push_back(b.vals[i]), bits.cpu.push_back(rb[i]), bits.exact.push_back(e[0]);
          uni.gpu.push_back(u.vals[i]), uni.cpu.push_back(ru[i]),
              uni.exact.push_back(uniformExact(e[0]));
          nor.gpu.push_back(z.vals[i]), nor.cpu.push_back(rn[i]),
              nor.exact.push_back(normalExact(e[0], e[1], false));
        }
        exactRow(report, "randint", size, bits, b.ok());
        exactRow(report, "rand", size, uni, u.ok());
        report.check("randn", size, nor.gpu, nor.cpu, nor.exact, 2e-6, z.ok());
      }
      // Four values per offset, int64 seed.
      {
        const size_t m = size_t(n) * 4;
        std::vector<uint32_t> rb(m);
        std::vector<float> ru(m, NAN), rn(m, NAN);
        tl::launch(tl::grid3{tl::cdiv(n, 128)}, random_streams4x<128>, rb.data(), ru.data(),
                   rn.data(), n, seed);
        gpucheck::Output<uint32_t> b(m);
        gpucheck::Output<float> u(m), z(m);
        for (int byte : gpucheck::kPoison) {
          b.poison(byte);
          u.poison(byte);
          z.poison(byte);
          CHECK_CUDA(launch_random_streams4x_128(cudaStream_t{}, b.dev.ptr, u.dev.ptr, z.dev.ptr, n,
                                                 seed));
          CHECK_CUDA(cudaDeviceSynchronize());
          b.collect(byte);
          u.collect(byte);
          z.collect(byte);
        }
        const uint64_t key = uint64_t(seed);
        Rows bits, uni, nor;
        for (int i = 0; i < n; ++i) {
          auto e = philoxExact(uint32_t(i), uint32_t(key), uint32_t(key >> 32));
          const double normals[4] = {normalExact(e[0], e[1], false), normalExact(e[0], e[1], true),
                                     normalExact(e[2], e[3], false), normalExact(e[2], e[3], true)};
          for (int k = 0; k < 4; ++k) {
            const size_t j = size_t(i) * 4 + k;
            bits.gpu.push_back(b.vals[j]), bits.cpu.push_back(rb[j]), bits.exact.push_back(e[k]);
            uni.gpu.push_back(u.vals[j]), uni.cpu.push_back(ru[j]),
                uni.exact.push_back(uniformExact(e[k]));
            nor.gpu.push_back(z.vals[j]), nor.cpu.push_back(rn[j]), nor.exact.push_back(normals[k]);
          }
        }
        exactRow(report, "randint4x", size, bits, b.ok());
        exactRow(report, "rand4x", size, uni, u.ok());
        report.check("randn4x", size, nor.gpu, nor.cpu, nor.exact, 2e-6, z.ok());
      }
    }
  // Offsets past 2^32, straddling it, and negative ones (high half all ones).
  for (int64_t base : {int64_t{5} << 32, (int64_t{1} << 32) - 700, int64_t{-1000003}})
    streams64(report, 1037, base, 20241127);
  return report.exitCode();
}
