#pragma once
/// \file Triton's counter-based random numbers (triton.language.random): Philox 4x32 with 10
/// rounds, and the conversions of its 32-bit outputs to uniform and normal floats. One definition
/// for the CPU reference (tl::randint, rand, randn and their 4x forms in tl.hpp) and for the
/// generated code (tilec::rt::philox_randint, uniform_from_bits, normal_from_bits in rt/core.hpp),
/// so that both give Triton's streams: the same seed and offsets give the same bits.

#include <math.h>
#include <stdint.h>

#if defined(__CUDACC__) || defined(__HIPCC__)
#define TILEC_PHILOX_FN __host__ __device__ inline
#else
#define TILEC_PHILOX_FN inline
#endif

namespace tl::detail {

/// The high half of the 64-bit product of a and b: the GPU's mul.hi (`__umulhi`, as Triton's
/// tl.umulhi; nvcc makes more instructions of the 64-bit product's high half in these rounds).
TILEC_PHILOX_FN uint32_t mulHigh32(uint32_t a, uint32_t b) {
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
  return __umulhi(a, b);
#else
  return static_cast<uint32_t>((static_cast<uint64_t>(a) * b) >> 32);
#endif
}

/// The four 32-bit outputs of one Philox evaluation.
struct PhiloxBits {
  uint32_t c[4];
};

/// Philox 4x32-10 of the counter (offsetLo, offsetHi, 0, 0) under the key (low and high half of
/// seed): the rounds of triton.language.random.philox_impl, whose constants are Philox's (Salmon et
/// al., 2011). Triton's randint4x counts with the low 32 bits of an offset and its high 32 bits (0
/// for 32-bit offsets).
TILEC_PHILOX_FN PhiloxBits philox(uint64_t seed, uint32_t offsetLo, uint32_t offsetHi = 0) {
  const uint32_t kRoundA = 0xD2511F53u, kRoundB = 0xCD9E8D57u; // multipliers
  const uint32_t kKeyA = 0x9E3779B9u, kKeyB = 0xBB67AE85u;     // Weyl increments of the key
  uint32_t c0 = offsetLo, c1 = offsetHi, c2 = 0, c3 = 0;
  uint32_t k0 = static_cast<uint32_t>(seed), k1 = static_cast<uint32_t>(seed >> 32);
  for (int round = 0; round < 10; ++round) {
    const uint32_t p0 = c0, p2 = c2;
    c0 = mulHigh32(kRoundB, p2) ^ c1 ^ k0;
    c2 = mulHigh32(kRoundA, p0) ^ c3 ^ k1;
    c1 = kRoundB * p2;
    c3 = kRoundA * p0;
    k0 += kKeyA;
    k1 += kKeyB;
  }
  return PhiloxBits{{c0, c1, c2, c3}};
}

/// Triton's uint_to_uniform_float for 32-bit values: the bits as int32, negative values folded
/// onto [0, 2^31 - 1] (-x - 1, i.e. ~x), times 4.6566127342e-10 in float (the largest scale for
/// which float(2^31 - 1) * scale is below 1): a float in [0, 1).
TILEC_PHILOX_FN float uniformFromBits(uint32_t bits) {
  const int32_t x = static_cast<int32_t>(bits);
  return static_cast<float>(x < 0 ? ~x : x) * 4.6566127342e-10f;
}

/// Triton's pair_uniform_to_normal (Box-Muller) on two uniform floats from bits b1 and b2: the
/// first of the pair (cosine) for second == false, the other (sine) for second == true.
TILEC_PHILOX_FN float normalFromBits(uint32_t b1, uint32_t b2, bool second) {
  const float u1 = fmaxf(1.0e-7f, uniformFromBits(b1));
  const float th = 6.283185307179586f * uniformFromBits(b2);
  const float r = sqrtf(-2.0f * logf(u1));
  return r * (second ? sinf(th) : cosf(th));
}

} // namespace tl::detail

#undef TILEC_PHILOX_FN
