// Runs tilec's CUDA for convert_kernel<256, 4> on random inputs (values whose int8 wrap is 0,
// values halfway between two fp16 numbers) and compares every output bit for bit with plain loops,
// whose fp16/bf16 rounding comes from CUDA's host conversions (cuda_fp16.h, cuda_bf16.h), and with
// the CPU reference of the source (tl.hpp's own rounding).
#include "check.h"
#include "convert.cpp"
#if defined(TILEC_EMULATE_HIP) // tests/emu: the CPU emulator runs the HIP output instead
#include <convert.hip>
#else
#include <convert.cu> // golden/convert/convert.cu (<>: not this file)
#endif

#include <memory>

template <class Half> static uint16_t bits(Half h) {
  static_assert(sizeof(Half) == 2);
  uint16_t b;
  std::memcpy(&b, &h, 2);
  return b;
}

/// The seven outputs of one element (halves as bits).
struct Row {
  int64_t i8, i32, i64;
  uint16_t f16, bf16;
  int b;
  float f32;
  bool operator!=(const Row &o) const {
    return i8 != o.i8 || i32 != o.i32 || i64 != o.i64 || f16 != o.f16 || bf16 != o.bf16 ||
           b != o.b || !gpucheck::same(f32, o.f32);
  }
};

int main(int argc, char **argv) {
  harness::Report report;
  std::vector<int> sizes = {1, 1023, 1024, 3000, 1 << 20, 1000003};
  if (harness::smallRun(argc, argv))
    sizes = {1, 1023, 1024, 3000};
  for (int n : sizes) {
    auto x = harness::randomFloats(n, -300, 300, n);
    std::mt19937_64 rng(n + 1);
    std::uniform_int_distribution<int64_t> bigDist(-(int64_t{1} << 40), int64_t{1} << 40);
    std::vector<int64_t> big(n);
    for (int i = 0; i < n; ++i) {
      big[i] = bigDist(rng) | 1;
      if (i % 7 == 3) // i32 * 37 is a multiple of 256: i8 == 0 and the bool is false
        x[i] = float((i % 5) * 256);
      if (i % 13 == 6) // halfway between two fp16 numbers: rounds to the even one
        x[i] = std::ldexp(1.0f + float(2 * (i % 8) + 1) / 2048, i % 9) * (i % 2 ? -1 : 1);
    }
    // The CPU reference.
    std::vector<int8_t> ri8(n);
    std::vector<int32_t> ri32(n);
    std::vector<int64_t> ri64(n);
    std::vector<tl::half> rf16(n);
    std::vector<tl::bfloat16> rbf16(n);
    std::unique_ptr<bool[]> rbool(new bool[std::max(n, 1)]);
    std::vector<float> rf32(n);
    tl::launch(tl::grid3{tl::cdiv(n, 1024)}, convert_kernel<256, 4>, x.data(), big.data(),
               ri8.data(), ri32.data(), ri64.data(), rf16.data(), rbf16.data(), rbool.get(),
               rf32.data(), n);
    // The GPU, twice (two poison patterns).
    harness::DeviceBuffer<float> dx(n);
    harness::DeviceBuffer<int64_t> dbig(n);
    dx.upload(x.data());
    dbig.upload(big.data());
    gpucheck::Output<int8_t> i8(n);
    gpucheck::Output<int32_t> i32(n);
    gpucheck::Output<int64_t> i64(n);
    gpucheck::Output<uint16_t> f16(n), bf16(n);
    gpucheck::Output<uint8_t> b(n);
    gpucheck::Output<float> f32(n);
    for (int byte : gpucheck::kPoison) {
      i8.poison(byte), i32.poison(byte), i64.poison(byte), f16.poison(byte), bf16.poison(byte);
      b.poison(byte), f32.poison(byte);
      CHECK_CUDA(launch_convert_kernel_256_4(
          cudaStream_t{}, dx.ptr, dbig.ptr, i8.dev.ptr, i32.dev.ptr, i64.dev.ptr, f16.as<__half>(),
          bf16.as<__nv_bfloat16>(), b.as<bool>(), f32.dev.ptr, n));
      CHECK_CUDA(cudaDeviceSynchronize());
      i8.collect(byte), i32.collect(byte), i64.collect(byte), f16.collect(byte), bf16.collect(byte);
      b.collect(byte), f32.collect(byte);
    }
    // Plain loops; an element mismatches when any of its seven outputs does.
    size_t gpuVsRef = 0, gpuVsExact = 0, refVsExact = 0;
    for (int i = 0; i < n; ++i) {
      int32_t e32 = int32_t(x[i]); // truncates toward zero
      int8_t e8 = int8_t(e32 * 37);
      __half eh = __float2half_rn(x[i]);
      __nv_bfloat16 eb =
          __float2bfloat16_rn(__half2float(__float2half_rn(__half2float(eh) * 3.0f)));
      bool enz = e8 != 0;
      float sumB = __bfloat162float(__float2bfloat16_rn(__bfloat162float(eb) + float(enz)));
      float ef =
          __half2float(__float2half_rn(__half2float(__float2half_rn(sumB)) + __half2float(eh)));
      Row gpu{i8.vals[i],   i32.vals[i], i64.vals[i], f16.vals[i],
              bf16.vals[i], b.vals[i],   f32.vals[i]};
      Row ref{ri8[i], ri32[i], ri64[i], rf16[i].bits, rbf16[i].bits, rbool[i], rf32[i]};
      Row exact{e8, e32, e8 + big[i], bits(eh), bits(eb), enz, ef};
      gpuVsRef += gpu != ref;
      gpuVsExact += gpu != exact;
      refVsExact += ref != exact;
    }
    gpucheck::checkExact(report, "convert", std::to_string(n), n, gpuVsRef, gpuVsExact, refVsExact,
                         i8.ok() && i32.ok() && i64.ok() && f16.ok() && bf16.ok() && b.ok() &&
                             f32.ok());
  }
  return report.exitCode();
}
