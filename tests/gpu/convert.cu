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

#include <cfenv>
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

/// half_ops<512, T> on random bit patterns (quiet and signaling NaNs, infinities, subnormals, both
/// zeros among them): every output equal, as a number (NaN equal to NaN, -0 to +0), to the float
/// result rounded to T, and to the CPU reference. D is the device type (__half, __nv_bfloat16).
template <class T, class D, class Launch>
void halfOps(harness::Report &report, const char *name, int n, float (*toFloat)(D),
             D (*round)(float), Launch launch) {
  std::mt19937_64 rng(uint64_t(n) * 11 + sizeof(D));
  std::vector<T> a(n), b(n);
  for (int i = 0; i < n; ++i) {
    const uint64_t r = rng();
    uint16_t ba = uint16_t(r), bb = uint16_t(r >> 16);
    if (i % 5 == 1) // operands of one magnitude: sums and differences that cancel and round
      bb = uint16_t((ba & 0xff00u) | (bb & 0x80ffu));
    std::memcpy(&a[i], &ba, 2);
    std::memcpy(&b[i], &bb, 2);
  }
  std::vector<T> ref[5];
  for (auto &r : ref)
    r.resize(n);
  tl::launch(tl::grid3{tl::cdiv(n, 512)}, half_ops<512, T>, a.data(), b.data(), ref[0].data(),
             ref[1].data(), ref[2].data(), ref[3].data(), ref[4].data(), n);
  harness::DeviceBuffer<T> da(n), db(n);
  da.upload(a.data());
  db.upload(b.data());
  std::vector<std::unique_ptr<gpucheck::Output<uint16_t>>> out;
  for (int k = 0; k < 5; ++k)
    out.push_back(std::make_unique<gpucheck::Output<uint16_t>>(n));
  for (int byte : gpucheck::kPoison) {
    for (auto &o : out)
      o->poison(byte);
    CHECK_CUDA(launch(reinterpret_cast<const D *>(da.ptr), reinterpret_cast<const D *>(db.ptr),
                      out[0]->template as<D>(), out[1]->template as<D>(), out[2]->template as<D>(),
                      out[3]->template as<D>(), out[4]->template as<D>(), n));
    CHECK_CUDA(cudaDeviceSynchronize());
    for (auto &o : out)
      o->collect(byte);
  }
  auto value = [&](uint16_t bitsOf) {
    D d;
    std::memcpy(&d, &bitsOf, 2);
    return toFloat(d);
  };
  size_t gpuVsRef = 0, gpuVsExact = 0, refVsExact = 0;
  bool ok = true;
  for (int i = 0; i < n; ++i) {
    const float x = value(bits(a[i])), y = value(bits(b[i]));
    // maximum and minimum: a NaN operand loses, signaling or quiet (docs/language.md).
    const float hi = x != x   ? y
                     : y != y ? x
                              : std::fmax(x, y),
                lo = x != x   ? y
                     : y != y ? x
                              : std::fmin(x, y);
    const float exact[5] = {x + y, x - y, x * y, hi, lo};
    bool gr = false, ge = false, re = false;
    for (int k = 0; k < 5; ++k) {
      const float g = value(out[k]->vals[i]), r = value(bits(ref[k][i])),
                  e = toFloat(round(exact[k]));
      gr = gr || !gpucheck::same(g, r);
      ge = ge || !gpucheck::same(g, e);
      re = re || !gpucheck::same(r, e);
    }
    gpuVsRef += gr, gpuVsExact += ge, refVsExact += re;
  }
  for (auto &o : out)
    ok = ok && o->ok();
  gpucheck::checkExact(report, name, std::to_string(n), n, gpuVsRef, gpuVsExact, refVsExact, ok);
}

/// d to float in the host's FE_TOWARDZERO rounding mode (volatile: the conversion is neither folded
/// nor moved out of that mode).
[[gnu::noinline]] static float towardZeroOnHost(double d) {
  const int mode = std::fegetround();
  std::fesetround(FE_TOWARDZERO);
  volatile double in = d;
  volatile float out = static_cast<float>(in);
  std::fesetround(mode);
  return out;
}

/// cast_modes<256> (tl::cast's bitcast and rtz options) on floats of every kind but NaN (random bit
/// patterns: subnormals, infinities, values past fp16's range among them) and doubles across
/// float's range: every output bit for bit equal to plain loops (CUDA's host __float2half_rz and
/// __float2bfloat16_rz; double to float toward zero in the host's FE_TOWARDZERO rounding mode; an
/// fp64 narrowed to 16 bits is its float toward zero narrowed again, the same value) and to the CPU
/// reference.
static void castModes(harness::Report &report, int n) {
  std::mt19937_64 rng(uint64_t(n) * 7 + 5);
  std::vector<float> x(n);
  std::vector<double> d(n);
  for (int i = 0; i < n; ++i) {
    const uint64_t r = rng();
    float f;
    do {
      uint32_t b = uint32_t(rng());
      if (i % 4 != 0) // fp16's range and a bit past it: exponents -26 .. 17
        b = (b & 0x807fffffu) | (uint32_t(127 - 26 + int(r % 44)) << 23);
      std::memcpy(&f, &b, 4);
    } while (f != f);
    x[i] = f;
    const double mantissa = 1.0 + double(rng() >> 11) / 9007199254740992.0; // 53 random bits
    d[i] = std::ldexp(mantissa, int(r >> 32) % 281 - 150) * (r & 1 ? -1 : 1);
    if (i % 9 == 4) // exactly a float: nothing to round
      d[i] = double(x[i]);
  }
  std::vector<int32_t> rbits(n), rsign(n);
  std::vector<float> rneg(n), rf32(n);
  std::vector<int16_t> rh(n);
  std::vector<int64_t> rd(n);
  std::vector<tl::bfloat16> rhb(n), rbf(n), rdbf(n);
  std::vector<tl::half> rf16(n), rdf16(n);
  tl::launch(tl::grid3{tl::cdiv(n, 256)}, cast_modes<256>, x.data(), d.data(), rbits.data(),
             rneg.data(), rsign.data(), rh.data(), rhb.data(), rd.data(), rf16.data(), rbf.data(),
             rf32.data(), rdf16.data(), rdbf.data(), n);
  harness::DeviceBuffer<float> dx(n);
  harness::DeviceBuffer<double> dd(n);
  dx.upload(x.data());
  dd.upload(d.data());
  gpucheck::Output<int32_t> obits(n), osign(n);
  gpucheck::Output<float> oneg(n), of32(n);
  gpucheck::Output<int16_t> oh(n);
  gpucheck::Output<int64_t> od(n);
  gpucheck::Output<uint16_t> ohb(n), of16(n), obf(n), odf16(n), odbf(n);
  for (int byte : gpucheck::kPoison) {
    for (auto *o : {&obits, &osign})
      o->poison(byte);
    for (auto *o : {&oneg, &of32})
      o->poison(byte);
    for (auto *o : {&ohb, &of16, &obf, &odf16, &odbf})
      o->poison(byte);
    oh.poison(byte), od.poison(byte);
    CHECK_CUDA(launch_cast_modes_256(cudaStream_t{}, dx.ptr, dd.ptr, obits.dev.ptr, oneg.dev.ptr,
                                     osign.dev.ptr, oh.dev.ptr, ohb.as<__nv_bfloat16>(), od.dev.ptr,
                                     of16.as<__half>(), obf.as<__nv_bfloat16>(), of32.dev.ptr,
                                     odf16.as<__half>(), odbf.as<__nv_bfloat16>(), n));
    CHECK_CUDA(cudaDeviceSynchronize());
    for (auto *o : {&obits, &osign})
      o->collect(byte);
    for (auto *o : {&oneg, &of32})
      o->collect(byte);
    for (auto *o : {&ohb, &of16, &obf, &odf16, &odbf})
      o->collect(byte);
    oh.collect(byte), od.collect(byte);
  }
  auto f32Bits = [](float f) {
    uint32_t b;
    std::memcpy(&b, &f, 4);
    return b;
  };
  size_t gpuVsRef = 0, gpuVsExact = 0, refVsExact = 0;
  for (int i = 0; i < n; ++i) {
    // Plain loops.
    const uint32_t b = f32Bits(x[i]);
    const uint32_t flipped = b ^ 0x80000000u;
    float negated;
    std::memcpy(&negated, &flipped, 4);
    const __half h = __float2half_rn(x[i]);
    int64_t dbits;
    std::memcpy(&dbits, &d[i], 8);
    const float f32rz = towardZeroOnHost(d[i]);
    const uint64_t exact[11] = {b,
                                f32Bits(negated),
                                b >> 31,
                                bits(h),
                                bits(h),
                                uint64_t(dbits),
                                bits(__float2half_rz(x[i])),
                                bits(__float2bfloat16_rz(x[i])),
                                f32Bits(f32rz),
                                bits(__float2half_rz(f32rz)),
                                bits(__float2bfloat16_rz(f32rz))};
    const uint64_t gpu[11] = {uint32_t(obits.vals[i]),
                              f32Bits(oneg.vals[i]),
                              uint32_t(osign.vals[i]),
                              uint16_t(oh.vals[i]),
                              ohb.vals[i],
                              uint64_t(od.vals[i]),
                              of16.vals[i],
                              obf.vals[i],
                              f32Bits(of32.vals[i]),
                              odf16.vals[i],
                              odbf.vals[i]};
    const uint64_t ref[11] = {uint32_t(rbits[i]), f32Bits(rneg[i]), uint32_t(rsign[i]),
                              uint16_t(rh[i]),    rhb[i].bits,      uint64_t(rd[i]),
                              rf16[i].bits,       rbf[i].bits,      f32Bits(rf32[i]),
                              rdf16[i].bits,      rdbf[i].bits};
    gpuVsRef += std::memcmp(gpu, ref, sizeof gpu) != 0;
    gpuVsExact += std::memcmp(gpu, exact, sizeof gpu) != 0;
    refVsExact += std::memcmp(ref, exact, sizeof ref) != 0;
  }
  bool ok = obits.ok() && osign.ok() && oneg.ok() && of32.ok() && oh.ok() && od.ok();
  for (auto *o : {&ohb, &of16, &obf, &odf16, &odbf})
    ok = ok && o->ok();
  gpucheck::checkExact(report, "cast modes", std::to_string(n), n, gpuVsRef, gpuVsExact, refVsExact,
                       ok);
}

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
  for (int n : {1, 1000, 100003}) {
    halfOps<tl::half, __half>(report, "f16 ops", n, __half2float, __float2half_rn, [](auto... p) {
      return launch_half_ops_512_f16(cudaStream_t{}, p...);
    });
    halfOps<tl::bfloat16, __nv_bfloat16>(
        report, "bf16 ops", n, __bfloat162float, __float2bfloat16_rn,
        [](auto... p) { return launch_half_ops_512_bf16(cudaStream_t{}, p...); });
  }
  for (int n : {1, 1000, 100003})
    castModes(report, n);
  return report.exitCode();
}
