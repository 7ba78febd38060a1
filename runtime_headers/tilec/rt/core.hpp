#pragma once
/// \file Device helpers shared by the CUDA and HIP runtimes: reduction operators, argmax pairs,
/// warp and block reductions, vectorized masked loads and stores.
///
/// The including target header (tilec/cuda/runtime.cuh, tilec/hip/runtime.hpp) first defines
/// TILEC_WARP_SIZE, TILEC_UNROLL, and in namespace tilec::rt the narrow float types f16_t, bf16_t,
/// f8e4m3_t and f8e5m2_t with their conversions `to_float`, `to_f16`, `to_bf16`, `to_f8e4m3`,
/// `to_f8e5m2`, and `shfl_xor(v, laneMask)` and `shfl_idx(v, srcLane)` for 32- and 64-bit values.

#include <stdint.h>
#include <string.h>

#include <type_traits>

#include "../detail/philox.hpp"

/// The CPU emulator (tilec/emu/device.hpp) checks the alignment of every vector access; on the GPU,
/// a misaligned one faults by itself.
#ifndef TILEC_CHECK_VECTOR_ACCESS
#define TILEC_CHECK_VECTOR_ACCESS(p, bytes) ((void)0)
#endif

namespace tilec::rt {

/// tl::cast's bitcast: the bits of x as a To of the same width.
template <class To, class From> __device__ __forceinline__ To bit_cast(From x) {
  static_assert(sizeof(To) == sizeof(From), "tilec::rt::bit_cast: types of different widths");
  To r;
  memcpy(static_cast<void *>(&r), &x, sizeof r);
  return r;
}

// ---- integer helpers ----------------------------------------------------------------------------
/// The unsigned type of an integer type's width.
template <class T> struct unsigned_of;
template <> struct unsigned_of<signed char> { using type = unsigned char; };
template <> struct unsigned_of<int> { using type = unsigned int; };
template <> struct unsigned_of<long> { using type = unsigned long; };
template <> struct unsigned_of<long long> { using type = unsigned long long; };
template <> struct unsigned_of<short> { using type = unsigned short; };
template <> struct unsigned_of<unsigned char> { using type = unsigned char; };
template <> struct unsigned_of<unsigned short> { using type = unsigned short; };
template <> struct unsigned_of<unsigned int> { using type = unsigned int; };
template <> struct unsigned_of<unsigned long> { using type = unsigned long; };
template <> struct unsigned_of<unsigned long long> { using type = unsigned long long; };

/// Integer +, -, * and negation that wrap modulo 2^width, as tile arithmetic is defined (and
/// Triton's is). C++ leaves signed overflow undefined and compilers use that (they may compute
/// (x + x) / 4 as x / 2), so tile arithmetic on data the kernel loaded computes in the unsigned
/// type; index arithmetic (program ids, aranges, integer arguments) keeps C++'s operators.
template <class T> __host__ __device__ constexpr T wrapping_add(T a, T b) {
  using U = typename unsigned_of<T>::type;
  return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
}
template <class T> __host__ __device__ constexpr T wrapping_sub(T a, T b) {
  using U = typename unsigned_of<T>::type;
  return static_cast<T>(static_cast<U>(a) - static_cast<U>(b));
}
template <class T> __host__ __device__ constexpr T wrapping_mul(T a, T b) {
  // unsigned short * unsigned short is a product of ints, which can overflow: multiply in at
  // least unsigned int.
  using U = typename unsigned_of<T>::type;
  using W = std::conditional_t<(sizeof(U) < sizeof(unsigned int)), unsigned int, U>;
  return static_cast<T>(static_cast<W>(a) * static_cast<W>(b));
}
template <class T> __host__ __device__ constexpr T wrapping_neg(T a) {
  using U = typename unsigned_of<T>::type;
  return static_cast<T>(U(0) - static_cast<U>(a));
}

/// The terms tl::dot adds for fp32 operands (docs/language.md "Matrix products"), as the CPU
/// reference computes them: `tf32` rounds each operand to tf32 first (10 mantissa bits, to nearest
/// with ties away from zero, as `cvt.rna.tf32.f32`); `tf32x3` splits each operand into its tf32
/// value and the tf32 of the rest and adds three products (near fp32 accuracy).
__host__ __device__ inline float round_tf32(float x) {
  unsigned int u;
  memcpy(&u, &x, sizeof u);
  if ((u & 0x7F800000u) != 0x7F800000u) // infinities and NaNs unchanged
    u = (u + 0x1000u) & ~0x1FFFu;
  memcpy(&x, &u, sizeof u);
  return x;
}
__host__ __device__ inline float dot_term_tf32(float a, float b) {
  return round_tf32(a) * round_tf32(b);
}
__host__ __device__ inline float dot_term_tf32x3(float a, float b) {
  const float ah = round_tf32(a), al = round_tf32(a - ah);
  const float bh = round_tf32(b), bl = round_tf32(b - bh);
  return ah * bl + al * bh + ah * bh;
}

/// Integer division and remainder by a tile of divisors: C's `/` and `%` (truncating toward zero,
/// the remainder taking the dividend's sign), defined for every operand as tilec's CPU reference
/// defines them: x / 0 == 0, MIN / -1 == MIN, x % 0 == x, MIN % -1 == 0. C leaves those undefined
/// (the host CPU traps), and a masked-off lane of a load holds 0. One compare and select beside
/// the division; a uniform divisor (a scalar) is divided by C's `/` directly.
template <class T> __host__ __device__ constexpr T div_int(T a, T b) {
  if (b == 0)
    return T(0);
  if (T(-1) < T(0) && b == T(-1)) // signed: -a, wrapping: MIN / -1 == MIN
    return static_cast<T>(0ull - static_cast<unsigned long long>(a));
  return static_cast<T>(a / b);
}
template <class T> __host__ __device__ constexpr T rem_int(T a, T b) {
  if (b == 0)
    return a;
  if (T(-1) < T(0) && b == T(-1))
    return T(0);
  return static_cast<T>(a % b);
}

/// tl::cdiv: (a + b - 1) / b, so cdiv(10, 4) == 3, with the sum taken in T as tile arithmetic
/// takes it: int8_t and int16_t operands are promoted to int, so the sum is narrowed back before
/// the division (cdiv<int8_t>(127, 16) is (-114) / 16 == -7, as in Triton); a divisor of 0 gives 0
/// (div_int). Also usable in host launchers.
template <class T> __host__ __device__ constexpr T cdiv(T a, T b) {
  if constexpr (sizeof(T) < sizeof(int))
    return div_int(static_cast<T>(a + b - 1), b);
  else
    return div_int(wrapping_sub(wrapping_add(a, b), T(1)), b);
}

/// Whether `p` holds a 16-byte aligned address: a launcher's test before it picks a kernel's aligned
/// variant, which assumes so of its pointer arguments.
template <class T> __host__ __device__ inline bool aligned_to_16(const T *p) {
  return reinterpret_cast<uintptr_t>(p) % 16 == 0;
}

/// Integer minimum / maximum / absolute value (floats use fminf / fmaxf / fabsf).
template <class T> __device__ __forceinline__ T minimum(T a, T b) { return b < a ? b : a; }
template <class T> __device__ __forceinline__ T maximum(T a, T b) { return a < b ? b : a; }
template <class T> __device__ __forceinline__ T iabs(T a) {
  if constexpr (sizeof(T) < sizeof(int))
    return a < 0 ? static_cast<T>(-a) : a; // in int: -(-128) is 128, narrowed back to -128
  else
    return a < 0 ? wrapping_neg(a) : a; // abs(MIN) == MIN
}

// ---- shuffles of every element type -------------------------------------------------------------
/// Narrow types travel as 32-bit values; conversions are exact both ways.
__device__ __forceinline__ bool shfl_xor(bool v, int m) { return shfl_xor(static_cast<int>(v), m) != 0; }
__device__ __forceinline__ int8_t shfl_xor(int8_t v, int m) {
  return static_cast<int8_t>(shfl_xor(static_cast<int>(v), m));
}
__device__ __forceinline__ int16_t shfl_xor(int16_t v, int m) {
  return static_cast<int16_t>(shfl_xor(static_cast<int>(v), m));
}
__device__ __forceinline__ uint8_t shfl_xor(uint8_t v, int m) {
  return static_cast<uint8_t>(shfl_xor(static_cast<int>(v), m));
}
__device__ __forceinline__ uint16_t shfl_xor(uint16_t v, int m) {
  return static_cast<uint16_t>(shfl_xor(static_cast<int>(v), m));
}
__device__ __forceinline__ uint32_t shfl_xor(uint32_t v, int m) {
  return static_cast<uint32_t>(shfl_xor(static_cast<int>(v), m));
}
__device__ __forceinline__ uint64_t shfl_xor(uint64_t v, int m) {
  return static_cast<uint64_t>(shfl_xor(static_cast<int64_t>(v), m));
}
__device__ __forceinline__ double shfl_xor(double v, int m) {
  int64_t bits;
  memcpy(&bits, &v, sizeof bits);
  bits = shfl_xor(bits, m);
  memcpy(&v, &bits, sizeof v);
  return v;
}
__device__ __forceinline__ f16_t shfl_xor(f16_t v, int m) { return to_f16(shfl_xor(to_float(v), m)); }
__device__ __forceinline__ bf16_t shfl_xor(bf16_t v, int m) { return to_bf16(shfl_xor(to_float(v), m)); }

// ---- reduction operators ------------------------------------------------------------------------
/// Round a float result back to T (f16/bf16 compute in float and round to nearest even).
template <class T> __device__ __forceinline__ T round_to(float x) { return static_cast<T>(x); }
template <> __device__ __forceinline__ f16_t round_to<f16_t>(float x) { return to_f16(x); }
template <> __device__ __forceinline__ bf16_t round_to<bf16_t>(float x) { return to_bf16(x); }
/// fp64 -> fp32 rounded to odd (an inexact result moves toward zero and gets its last bit set):
/// rounding that float once more to fp16 or bf16 then rounds as one rounding of the double would
/// (24 >= 11 + 2 bits), where rounding to nearest twice may not.
__device__ __forceinline__ float to_float_round_odd(double d) {
  float f = static_cast<float>(d);
  const double back = static_cast<double>(f);
  if (back != d && back == back) {
    unsigned bits = __float_as_uint(f);
    if ((back < 0 ? -back : back) > (d < 0 ? -d : d))
      bits -= 1; // rounded away from zero: the neighbour toward zero (same sign)
    f = __uint_as_float(bits | 1u);
  }
  return f;
}
/// Integer -> bf16 rounded once to nearest even, as the CPU reference (tl::bfloat16 converts
/// through double: exact for int32, for int64 first rounded to 53 bits).
/// `to_bf16(static_cast<float>(x))` would round twice (to float's 24 bits, then to bf16's 8): 2^24
/// + 2^16 + 1 would give 2^24, not 2^24 + 2^17. The float rounded to odd keeps what the second
/// rounding needs (to_float_round_odd).
template <class I> __device__ __forceinline__ bf16_t int_to_bf16(I x) {
  return to_bf16(to_float_round_odd(static_cast<double>(x)));
}
/// tl::sigmoid on fp64: 1 / (1 + exp(-x)) in double.
__device__ __forceinline__ double sigmoid(double x) { return 1.0 / (1.0 + ::exp(-x)); }

// ---- atomics (tl::atomic_add, ..., atomic_cas) -----------------------------------------------
/// Triton's `sem` and `scope` of an atomic.
enum class Sem { relaxed, acquire, release, acq_rel };
enum class Scope { cta, gpu, sys };

namespace detail {
/// A fence at scope S: the CUDA/HIP __threadfence family (sequentially consistent fences at cta,
/// gpu and sys scope: stronger than an acquire or release needs).
template <Scope S> __device__ __forceinline__ void fence() {
  if constexpr (S == Scope::cta)
    __threadfence_block();
  else if constexpr (S == Scope::gpu)
    __threadfence();
  else
    __threadfence_system();
}
/// The read-modify-write `rmw()` (the runtime's relaxed, device-scope atomic functions) with the
/// ordering M: a release fence before it, an acquire fence after it. At sys scope the fences are
/// the system's, the update itself the device's (the *_system atomics are not used).
template <Sem M, Scope S, class F> __device__ __forceinline__ auto ordered(F rmw) {
  if constexpr (M == Sem::release || M == Sem::acq_rel)
    fence<S>();
  const auto old = rmw();
  if constexpr (M == Sem::acquire || M == Sem::acq_rel)
    fence<S>();
  return old;
}
/// The word the runtime's atomic functions take for T: T itself for int, unsigned, float and
/// double; unsigned long long for the 64-bit integers (the same bits).
template <class T>
using Word =
    std::conditional_t<sizeof(T) == 8 && !std::is_same_v<T, double>, unsigned long long, T>;
template <class T> __device__ __forceinline__ Word<T> *word(T *p) {
  return reinterpret_cast<Word<T> *>(p);
}
/// T's bits as the unsigned word of its width (the operand of atomicCAS and atomicExch).
template <class T> __device__ __forceinline__ auto bits_of(T v) {
  return bit_cast<std::conditional_t<sizeof(T) == 8, unsigned long long, unsigned>>(v);
}
/// An atomic read-modify-write of a float, a double or a signed 64-bit integer as a
/// compare-and-swap loop over its bits:
/// `combine(old, v)` is written when the memory still holds `old`. The first read is atomic too.
template <class T, class C> __device__ __forceinline__ T cas_loop(T *p, T v, C combine) {
  auto *w = reinterpret_cast<decltype(bits_of(v)) *>(p);
  auto seen = atomicOr(w, decltype(bits_of(v))(0));
  for (;;) {
    const T old = bit_cast<T>(seen);
    const auto want = bits_of(static_cast<T>(combine(old, v)));
    const auto now = atomicCAS(w, seen, want);
    if (now == seen)
      return old;
    seen = now;
  }
}
} // namespace detail

#if !defined(TILEC_ATOMIC_ADD_16)
#define TILEC_ATOMIC_ADD_16 1 // the target's atomicAdd takes f16_t and bf16_t
#endif
template <class H> __device__ __forceinline__ H hadd(H a, H b); // (16-bit arithmetic, below)
namespace detail {
/// An atomic fp16/bf16 add where the target has none (HIP): a compare-and-swap loop over the
/// aligned 32-bit word holding the value, which keeps the other half of the word as it finds it.
template <class H, class W = unsigned> __device__ __forceinline__ H atomic_add_16(H *p, H v) {
  const uintptr_t a = reinterpret_cast<uintptr_t>(p);
  W *w = reinterpret_cast<W *>(a & ~uintptr_t{3});
  const unsigned shift = (a & 2) ? 16u : 0u;
  W seen = atomicOr(w, W{0});
  for (;;) {
    const H old = bit_cast<H>(static_cast<uint16_t>(seen >> shift));
    const W sum = bit_cast<uint16_t>(hadd(old, v));
    const W want = (seen & ~(W{0xFFFFu} << shift)) | (sum << shift);
    const W now = atomicCAS(w, seen, want);
    if (now == seen)
      return old;
    seen = now;
  }
}
} // namespace detail
#if defined(__CUDA_ARCH__) && !defined(TILEC_EMULATE)
#define TILEC_ATOM_ADD_ORDERED 1
namespace detail {
// PTX's `atom.SEM.SCOPE.global.add.TYPE old, [p], v` (sm_70 on), the ordering in the instruction
// as Triton emits it: an acq_rel add at gpu scope is one atom.acq_rel.gpu, where a release fence
// before atomicAdd and an acquire fence after (detail::ordered) are two `fence.sc` of the whole
// device around each element's update. OPERATION: the type and operands (".f32 %0, [%1], %2;");
// OUTPUTS and INPUTS: the asm operand lists, in parentheses.
#define TILEC_UNPAREN_(...) __VA_ARGS__
#define TILEC_UNPAREN(x) TILEC_UNPAREN_ x
#define TILEC_ATOM_ADD_AT(SEM, SCOPE, OPERATION, OUTPUTS, INPUTS)                                  \
  asm volatile("atom." SEM "." SCOPE ".global.add" OPERATION                                       \
               : TILEC_UNPAREN(OUTPUTS)                                                            \
               : TILEC_UNPAREN(INPUTS)                                                             \
               : "memory")
#define TILEC_ATOM_ADD_SCOPES(SEM, OPERATION, OUTPUTS, INPUTS)                                     \
  if constexpr (S == Scope::cta)                                                                   \
    TILEC_ATOM_ADD_AT(SEM, "cta", OPERATION, OUTPUTS, INPUTS);                                     \
  else if constexpr (S == Scope::gpu)                                                              \
    TILEC_ATOM_ADD_AT(SEM, "gpu", OPERATION, OUTPUTS, INPUTS);                                     \
  else                                                                                             \
    TILEC_ATOM_ADD_AT(SEM, "sys", OPERATION, OUTPUTS, INPUTS)
#define TILEC_ATOM_ADD(OPERATION, OUTPUTS, INPUTS)                                                 \
  if constexpr (M == Sem::relaxed)                                                                 \
    TILEC_ATOM_ADD_SCOPES("relaxed", OPERATION, OUTPUTS, INPUTS);                                  \
  else if constexpr (M == Sem::acquire)                                                            \
    TILEC_ATOM_ADD_SCOPES("acquire", OPERATION, OUTPUTS, INPUTS);                                  \
  else if constexpr (M == Sem::release)                                                            \
    TILEC_ATOM_ADD_SCOPES("release", OPERATION, OUTPUTS, INPUTS);                                  \
  else                                                                                             \
    TILEC_ATOM_ADD_SCOPES("acq_rel", OPERATION, OUTPUTS, INPUTS)
/// One ordered atomic add: floats in "f"/"d" registers, the others as their bits (16-bit floats
/// in "h", 32-bit integers in "r", 64-bit in "l"; a signed integer adds as its unsigned bits).
template <Sem M, Scope S, class T> __device__ __forceinline__ T atom_add(T *p, T v) {
  T old;
  if constexpr (std::is_same_v<T, float>) {
    TILEC_ATOM_ADD(".f32 %0, [%1], %2;", ("=f"(old)), ("l"(p), "f"(v)));
  } else if constexpr (std::is_same_v<T, double>) {
    TILEC_ATOM_ADD(".f64 %0, [%1], %2;", ("=d"(old)), ("l"(p), "d"(v)));
  } else if constexpr (sizeof(T) == 2) {
    unsigned short bits;
    const unsigned short val = bit_cast<unsigned short>(v);
    if constexpr (std::is_same_v<T, f16_t>)
      TILEC_ATOM_ADD(".noftz.f16 %0, [%1], %2;", ("=h"(bits)), ("l"(p), "h"(val)));
    else
      TILEC_ATOM_ADD(".noftz.bf16 %0, [%1], %2;", ("=h"(bits)), ("l"(p), "h"(val)));
    old = bit_cast<T>(bits);
  } else if constexpr (sizeof(T) == 4) {
    unsigned bits;
    const unsigned val = static_cast<unsigned>(v);
    TILEC_ATOM_ADD(".u32 %0, [%1], %2;", ("=r"(bits)), ("l"(p), "r"(val)));
    old = static_cast<T>(bits);
  } else {
    unsigned long long bits;
    const unsigned long long val = static_cast<unsigned long long>(v);
    TILEC_ATOM_ADD(".u64 %0, [%1], %2;", ("=l"(bits)), ("l"(p), "l"(val)));
    old = static_cast<T>(bits);
  }
  return old;
}
#if __CUDA_ARCH__ >= 900
#define TILEC_ATOM_ADD_VECTOR 1
/// VEC contiguous floats (2 or 4) or 16-bit floats (2, 4 or 8) added by one vector atom at p,
/// aligned to VEC elements (sm_90 on: `atom.acq_rel.gpu.global.add.v4.f32`, `.noftz.v8.bf16`, as
/// Triton's); the old values are not kept.
template <Sem M, Scope S, int VEC, class T>
__device__ __forceinline__ void atom_add_vector(T *p, const T *v) {
  if constexpr (std::is_same_v<T, float>) {
    float o[VEC];
    if constexpr (VEC == 2)
      TILEC_ATOM_ADD(".v2.f32 {%0, %1}, [%2], {%3, %4};", ("=f"(o[0]), "=f"(o[1])),
                     ("l"(p), "f"(v[0]), "f"(v[1])));
    else
      TILEC_ATOM_ADD(".v4.f32 {%0, %1, %2, %3}, [%4], {%5, %6, %7, %8};",
                     ("=f"(o[0]), "=f"(o[1]), "=f"(o[2]), "=f"(o[3])),
                     ("l"(p), "f"(v[0]), "f"(v[1]), "f"(v[2]), "f"(v[3])));
  } else {
    unsigned short o[VEC], b[VEC];
    for (int k = 0; k < VEC; ++k)
      b[k] = bit_cast<unsigned short>(v[k]);
#define TILEC_H16(TYPE)                                                                            \
  if constexpr (VEC == 2)                                                                          \
    TILEC_ATOM_ADD(".noftz.v2." TYPE " {%0, %1}, [%2], {%3, %4};", ("=h"(o[0]), "=h"(o[1])),       \
                   ("l"(p), "h"(b[0]), "h"(b[1])));                                                \
  else if constexpr (VEC == 4)                                                                     \
    TILEC_ATOM_ADD(".noftz.v4." TYPE " {%0, %1, %2, %3}, [%4], {%5, %6, %7, %8};",                 \
                   ("=h"(o[0]), "=h"(o[1]), "=h"(o[2]), "=h"(o[3])),                               \
                   ("l"(p), "h"(b[0]), "h"(b[1]), "h"(b[2]), "h"(b[3])));                          \
  else                                                                                             \
    TILEC_ATOM_ADD(                                                                                \
        ".noftz.v8." TYPE                                                                          \
        " {%0, %1, %2, %3, %4, %5, %6, %7}, [%8], {%9, %10, %11, %12, %13, %14, %15, %16};",       \
        ("=h"(o[0]), "=h"(o[1]), "=h"(o[2]), "=h"(o[3]), "=h"(o[4]), "=h"(o[5]), "=h"(o[6]),       \
         "=h"(o[7])),                                                                              \
        ("l"(p), "h"(b[0]), "h"(b[1]), "h"(b[2]), "h"(b[3]), "h"(b[4]), "h"(b[5]), "h"(b[6]),      \
         "h"(b[7])))
    if constexpr (std::is_same_v<T, f16_t>) {
      TILEC_H16("f16");
    } else {
      TILEC_H16("bf16");
    }
#undef TILEC_H16
  }
}
#endif
#undef TILEC_ATOM_ADD
#undef TILEC_ATOM_ADD_SCOPES
#undef TILEC_ATOM_ADD_AT
#undef TILEC_UNPAREN
#undef TILEC_UNPAREN_
} // namespace detail
#endif

/// tl::atomic_add: *p += v, returning the old value (int32, uint32, int64, uint64, float, double;
/// fp16 and bf16 rounded once to nearest even). On CUDA one atom instruction with the ordering
/// (bf16 from sm_90; before it, CUDA's atomicAdd between fences); elsewhere the target's atomicAdd
/// between fences.
template <Sem M, Scope S, class T> __device__ __forceinline__ T atomic_add(T *p, T v) {
#if defined(TILEC_ATOM_ADD_ORDERED)
  if constexpr (!std::is_same_v<T, bf16_t> || __CUDA_ARCH__ >= 900)
    return detail::atom_add<M, S>(p, v);
  else
#endif
    return detail::ordered<M, S>([&] {
      if constexpr (sizeof(T) == 2 && !TILEC_ATOMIC_ADD_16)
        return detail::atomic_add_16(p, v);
      else
        return static_cast<T>(atomicAdd(detail::word(p), static_cast<detail::Word<T>>(v)));
    });
}
/// tl::atomic_add of VEC contiguous elements from p (tilec's output for a tile whose pointers are
/// contiguous and whose old values are not kept), each where its mask bit is set (no mask: all):
/// where all are and p is aligned to the vector (known when ALIGNED), floats and 16-bit floats
/// take one vector atom on sm_90 (atom.add.v4.f32, atom.add.noftz.v8.bf16 ..., as Triton's);
/// otherwise, and on the other targets, one atomic_add per element.
template <int VEC, bool ALIGNED, Sem M, Scope S, class T>
__device__ __forceinline__ void atomic_add_vec(T *p, const T *v, const bool *mask = nullptr) {
  if constexpr (ALIGNED) // (the emulator checks what the translator assumed)
    TILEC_CHECK_VECTOR_ACCESS(p, VEC * sizeof(T));
#if defined(TILEC_ATOM_ADD_VECTOR)
  constexpr bool float16 = std::is_same_v<T, f16_t> || std::is_same_v<T, bf16_t>;
  constexpr bool one_atom = (std::is_same_v<T, float> && (VEC == 2 || VEC == 4)) ||
                            (float16 && (VEC == 2 || VEC == 4 || VEC == 8));
  if constexpr (one_atom) {
    bool all = true;
    if (mask)
      for (int k = 0; k < VEC; ++k)
        all = all && mask[k];
    if (all && (ALIGNED || reinterpret_cast<uintptr_t>(p) % (VEC * sizeof(T)) == 0)) {
      detail::atom_add_vector<M, S, VEC>(p, v);
      return;
    }
  }
#endif
  TILEC_UNROLL
  for (int k = 0; k < VEC; ++k)
    if (!mask || mask[k])
      atomic_add<M, S>(p + k, v[k]);
}
/// tl::atomic_max and atomic_min (floats: fmax/fmin semantics, a NaN operand loses, as
/// tl::maximum; by compare-and-swap).
template <Sem M, Scope S, class T> __device__ __forceinline__ T atomic_max(T *p, T v) {
  return detail::ordered<M, S>([&] {
    if constexpr (std::is_floating_point_v<T>)
      return detail::cas_loop(p, v, [](T a, T b) { return fmax(a, b); });
    else if constexpr (sizeof(T) == 8 && std::is_signed_v<T>) // (HIP has no signed 64-bit one)
      return detail::cas_loop(p, v, [](T a, T b) { return a < b ? b : a; });
    else
      return static_cast<T>(atomicMax(detail::word(p), static_cast<detail::Word<T>>(v)));
  });
}
template <Sem M, Scope S, class T> __device__ __forceinline__ T atomic_min(T *p, T v) {
  return detail::ordered<M, S>([&] {
    if constexpr (std::is_floating_point_v<T>)
      return detail::cas_loop(p, v, [](T a, T b) { return fmin(a, b); });
    else if constexpr (sizeof(T) == 8 && std::is_signed_v<T>) // (HIP has no signed 64-bit one)
      return detail::cas_loop(p, v, [](T a, T b) { return b < a ? b : a; });
    else
      return static_cast<T>(atomicMin(detail::word(p), static_cast<detail::Word<T>>(v)));
  });
}
/// tl::atomic_and, atomic_or, atomic_xor on integers.
template <Sem M, Scope S, class T> __device__ __forceinline__ T atomic_and(T *p, T v) {
  return detail::ordered<M, S>(
      [&] { return static_cast<T>(atomicAnd(detail::word(p), static_cast<detail::Word<T>>(v))); });
}
template <Sem M, Scope S, class T> __device__ __forceinline__ T atomic_or(T *p, T v) {
  return detail::ordered<M, S>(
      [&] { return static_cast<T>(atomicOr(detail::word(p), static_cast<detail::Word<T>>(v))); });
}
template <Sem M, Scope S, class T> __device__ __forceinline__ T atomic_xor(T *p, T v) {
  return detail::ordered<M, S>(
      [&] { return static_cast<T>(atomicXor(detail::word(p), static_cast<detail::Word<T>>(v))); });
}
/// tl::atomic_xchg: writes v, returns the old value (integers, float, double).
template <Sem M, Scope S, class T> __device__ __forceinline__ T atomic_xchg(T *p, T v) {
  return detail::ordered<M, S>([&] {
    auto *w = reinterpret_cast<decltype(detail::bits_of(v)) *>(p);
    return bit_cast<T>(atomicExch(w, detail::bits_of(v)));
  });
}
/// tl::atomic_cas: writes v where *p == cmp (bit for bit), returns the old value.
template <Sem M, Scope S, class T> __device__ __forceinline__ T atomic_cas(T *p, T cmp, T v) {
  return detail::ordered<M, S>([&] {
    auto *w = reinterpret_cast<decltype(detail::bits_of(v)) *>(p);
    return bit_cast<T>(atomicCAS(w, detail::bits_of(cmp), detail::bits_of(v)));
  });
}

// ---- tl::device_assert ------------------------------------------------------------------------
#if defined(TILEC_EMULATE)
/// A tl::device_assert whose condition is false in this thread: the CPU emulator reports a
/// device-assert finding (message, condition, line, thread) and fails the launch with
/// cudaErrorAssert. (Inlined: the report names the kernel's line.)
__device__ __forceinline__ void assert_fail(const char *message, const char *condition,
                                            const char *file, int line) {
  ::tilec::emu::device_assert_failed(message, condition, file, line, ::tilec::emu::call_site());
}
#elif defined(__CUDACC__) || defined(__HIPCC__)
/// A tl::device_assert whose condition is false in this thread: prints
/// `file:line: block [x,y,z], thread [x,y,z]: device_assert(condition) failed: message`, then
/// stops the kernel as the target's runtime says (TILEC_STOP_AFTER_ASSERT).
__device__ __noinline__ inline void assert_fail(const char *message, const char *condition,
                                                const char *file, int line) {
  printf("%s:%d: block [%d,%d,%d], thread [%d,%d,%d]: device_assert(%s) failed%s%s\n", file, line,
         int(blockIdx.x), int(blockIdx.y), int(blockIdx.z), int(threadIdx.x), int(threadIdx.y),
         int(threadIdx.z), condition, *message ? ": " : "", message);
  TILEC_STOP_AFTER_ASSERT(condition, file, line);
}
#endif

// ---- tl::device_print ---------------------------------------------------------------------------
namespace detail {
/// An element as printf takes it: floats as double, integers of up to 32 bits as int or unsigned,
/// 64-bit ones as long long, bools as int, pointers as void pointers.
template <class T> __device__ __forceinline__ auto print_argument(T v) {
  if constexpr (std::is_pointer_v<T>)
    return static_cast<const void *>(v);
  else if constexpr (std::is_same_v<T, f16_t> || std::is_same_v<T, bf16_t> ||
                     std::is_same_v<T, f8e4m3_t> || std::is_same_v<T, f8e5m2_t>)
    return static_cast<double>(to_float(v));
  else if constexpr (std::is_floating_point_v<T>)
    return static_cast<double>(v);
  else if constexpr (std::is_same_v<T, bool> || (std::is_signed_v<T> && sizeof(T) < 8))
    return static_cast<int>(v);
  else if constexpr (std::is_signed_v<T>)
    return static_cast<long long>(v);
  else if constexpr (sizeof(T) < 8)
    return static_cast<unsigned>(v);
  else
    return static_cast<unsigned long long>(v);
}
__device__ __forceinline__ unsigned program(int axis) {
  return static_cast<unsigned>(axis == 0 ? blockIdx.x : axis == 1 ? blockIdx.y : blockIdx.z);
}
} // namespace detail

/// tl::device_print with tl::hex: the bits of x, zero-extended to 32 bits (64 for 8-byte types).
template <class T> __device__ __forceinline__ auto print_bits(T x) {
  if constexpr (sizeof(T) == 8)
    return bit_cast<unsigned long long>(x);
  else if constexpr (sizeof(T) == 4)
    return bit_cast<unsigned>(x);
  else if constexpr (sizeof(T) == 2)
    return static_cast<unsigned>(bit_cast<uint16_t>(x));
  else
    return static_cast<unsigned>(bit_cast<uint8_t>(x));
}

/// A line of tl::device_print: `format`'s first three conversions take the program id (x, y, z),
/// the next ones the element's index along each dim (none for a scalar), the last its value.
__device__ inline void print_value(const char *format) {
  printf(format, detail::program(0), detail::program(1), detail::program(2));
}
template <class T> __device__ inline void print_value(const char *format, T v) {
  printf(format, detail::program(0), detail::program(1), detail::program(2),
         detail::print_argument(v));
}
template <class T> __device__ inline void print_value(const char *format, int i, T v) {
  printf(format, detail::program(0), detail::program(1), detail::program(2),
         static_cast<unsigned>(i), detail::print_argument(v));
}
template <class T> __device__ inline void print_value(const char *format, int i, int j, T v) {
  printf(format, detail::program(0), detail::program(1), detail::program(2),
         static_cast<unsigned>(i), static_cast<unsigned>(j), detail::print_argument(v));
}

// ---- random numbers (tl::randint, rand, randn and their 4x forms; tilec/detail/philox.hpp) ------
/// Output `lane` (0 to 3) of Philox 4x32-10 for the counter `offset` under the key `seed`: Triton's
/// randint4x. The generated code asks for each lane it uses; the compiler computes the rounds once.
__device__ __forceinline__ uint32_t philox_randint(uint64_t seed, uint32_t offset, uint32_t lane) {
  return tl::detail::philox(seed, offset).c[lane];
}
/// The same for a 64-bit offset (its bits): the counter is its low and its high 32 bits.
__device__ __forceinline__ uint32_t philox_randint(uint64_t seed, uint64_t offset, uint32_t lane) {
  return tl::detail::philox(seed, static_cast<uint32_t>(offset),
                            static_cast<uint32_t>(offset >> 32))
      .c[lane];
}
/// Triton's uint_to_uniform_float of 32-bit values: a float in [0, 1).
__device__ __forceinline__ float uniform_from_bits(uint32_t bits) {
  return tl::detail::uniformFromBits(bits);
}
/// Triton's pair_uniform_to_normal of the uniform floats of two outputs: its first value (cos,
/// which == 0) or its second (sin, which == 1).
__device__ __forceinline__ float normal_from_bits(uint32_t bits1, uint32_t bits2, uint32_t which) {
  return tl::detail::normalFromBits(bits1, bits2, which != 0);
}

__device__ __forceinline__ float as_float(float x) { return x; }
__device__ __forceinline__ float as_float(f16_t x) { return to_float(x); }
__device__ __forceinline__ float as_float(bf16_t x) { return to_float(x); }

/// Each operator: `combine(a, b)` (associative, applied in a fixed order: deterministic).
// ---- 16-bit float arithmetic --------------------------------------------------------------------
/// +, -, * of two 16-bit floats (f16_t, bf16_t), rounded once to nearest even, and max and min (an
/// operand; a NaN loses), computed in float: float holds each exact sum, difference and
/// product of two 16-bit floats closely enough that rounding it to 16 bits rounds once. The CUDA
/// runtime has overloads of its own in the GPU's 16-bit instructions (the same values), which
/// overload resolution takes over these templates.
namespace detail {
template <class H> __device__ __forceinline__ H round16(float x) {
  if constexpr (std::is_same_v<H, f16_t>)
    return to_f16(x);
  else
    return to_bf16(x);
}
} // namespace detail
template <class H> __device__ __forceinline__ H hadd(H a, H b) {
  return detail::round16<H>(to_float(a) + to_float(b));
}
template <class H> __device__ __forceinline__ H hsub(H a, H b) {
  return detail::round16<H>(to_float(a) - to_float(b));
}
template <class H> __device__ __forceinline__ H hmul(H a, H b) {
  return detail::round16<H>(to_float(a) * to_float(b));
}
// max and min return an operand: a NaN one loses, signaling or quiet (C's fmaxf may return NaN
// for a signaling NaN operand).
template <class H> __device__ __forceinline__ H hmax(H a, H b) {
  const float x = to_float(a), y = to_float(b);
  return x != x ? b : y != y ? a : y > x ? b : a;
}
template <class H> __device__ __forceinline__ H hmin(H a, H b) {
  const float x = to_float(a), y = to_float(b);
  return x != x ? b : y != y ? a : y < x ? b : a;
}

struct Sum {
  template <class T> __device__ __forceinline__ static T combine(T a, T b) { return a + b; }
  __device__ __forceinline__ static f16_t combine(f16_t a, f16_t b) { return hadd(a, b); }
  __device__ __forceinline__ static bf16_t combine(bf16_t a, bf16_t b) { return hadd(a, b); }
};
/// Integers multiply as unsigned (wrapping, as tl::cumprod's do); fp16/bf16 by hmul (rounded once).
struct Prod {
  template <class T> __device__ __forceinline__ static T combine(T a, T b) {
    if constexpr (std::is_integral_v<T>)
      return wrapping_mul(a, b);
    else
      return a * b;
  }
  __device__ __forceinline__ static f16_t combine(f16_t a, f16_t b) { return hmul(a, b); }
  __device__ __forceinline__ static bf16_t combine(bf16_t a, bf16_t b) { return hmul(a, b); }
};
/// Floats: fmaxf/fminf semantics (a NaN operand loses), as tl::maximum / tl::minimum.
struct Max {
  template <class T> __device__ __forceinline__ static T combine(T a, T b) { return a < b ? b : a; }
  __device__ __forceinline__ static float combine(float a, float b) { return fmaxf(a, b); }
  __device__ __forceinline__ static double combine(double a, double b) { return fmax(a, b); }
  __device__ __forceinline__ static f16_t combine(f16_t a, f16_t b) { return hmax(a, b); }
  __device__ __forceinline__ static bf16_t combine(bf16_t a, bf16_t b) { return hmax(a, b); }
};
struct Min {
  template <class T> __device__ __forceinline__ static T combine(T a, T b) { return b < a ? b : a; }
  __device__ __forceinline__ static float combine(float a, float b) { return fminf(a, b); }
  __device__ __forceinline__ static double combine(double a, double b) { return fmin(a, b); }
  __device__ __forceinline__ static f16_t combine(f16_t a, f16_t b) { return hmin(a, b); }
  __device__ __forceinline__ static bf16_t combine(bf16_t a, bf16_t b) { return hmin(a, b); }
};

/// Partial result of argmax/argmin: the best value so far and its index along the reduced axis.
template <class T> struct ArgPair {
  T value;
  int index;
};
template <class T> __device__ __forceinline__ ArgPair<T> make_pair(T value, int index) { return {value, index}; }
template <class T> __device__ __forceinline__ ArgPair<T> shfl_xor(ArgPair<T> p, int m) {
  return {shfl_xor(p.value, m), shfl_xor(p.index, m)};
}

namespace detail {
template <class T> __device__ __forceinline__ float key(T v) { return as_float(v); }
__device__ __forceinline__ double key(double v) { return v; }
__device__ __forceinline__ int64_t key(int64_t v) { return v; }
__device__ __forceinline__ uint64_t key(uint64_t v) { return v; }
__device__ __forceinline__ uint32_t key(uint32_t v) { return v; }
__device__ __forceinline__ int key(int v) { return v; }
__device__ __forceinline__ int key(int16_t v) { return v; }
__device__ __forceinline__ int key(uint16_t v) { return v; }
__device__ __forceinline__ int key(int8_t v) { return v; }
__device__ __forceinline__ int key(uint8_t v) { return v; }
__device__ __forceinline__ int key(bool v) { return v; }
template <class K> __device__ __forceinline__ bool is_nan(K k) { return k != k; }
/// True when (va, ia) should win over (vb, ib) for argmax (GREATER) or argmin: a NaN beats every
/// number for both (argmax and argmin return the first NaN's index, as NumPy and PyTorch do; see
/// docs/language.md), and among equal values the smallest index wins.
template <bool GREATER, class T> __device__ __forceinline__ bool better(T va, int ia, T vb, int ib) {
  auto a = key(va), b = key(vb);
  bool an = is_nan(a), bn = is_nan(b);
  if (an || bn) {
    if (an && bn)
      return ia < ib;
    return an;
  }
  if (a == b)
    return ia < ib;
  return GREATER ? a > b : a < b;
}
} // namespace detail

struct ArgMax {
  template <class T> __device__ __forceinline__ static ArgPair<T> combine(ArgPair<T> a, ArgPair<T> b) {
    return detail::better<true>(a.value, a.index, b.value, b.index) ? a : b;
  }
};
struct ArgMin {
  template <class T> __device__ __forceinline__ static ArgPair<T> combine(ArgPair<T> a, ArgPair<T> b) {
    return detail::better<false>(a.value, a.index, b.value, b.index) ? a : b;
  }
};

// ---- reductions across threads ------------------------------------------------------------------
/// Butterfly all-reduce over the lanes that differ in the given lane bits (e.g. 16, 8, 4, 2, 1):
/// afterwards every lane holds the combination of the values of its group.
template <class Op, class T> __device__ __forceinline__ T warp_allreduce(T v) { return v; }
template <class Op, class T, class... Masks>
__device__ __forceinline__ T warp_allreduce(T v, int laneMask, Masks... rest) {
  v = Op::combine(v, shfl_xor(v, laneMask));
  return warp_allreduce<Op>(v, rest...);
}

/// tl::histogram's count of one value: counter `v` of the N int32 counters at `bins` (shared
/// memory) incremented atomically when 0 <= v < N; other values count nowhere.
template <int N, class T> __device__ __forceinline__ void count_into(int *bins, T v) {
  if (static_cast<unsigned long long>(v) < static_cast<unsigned long long>(N)) // v < 0 wraps high
    atomicAdd(&bins[static_cast<int>(v)], 1);
}

// ---- sorting -----------------------------------------------------------------------------------
namespace detail {
template <int BYTES> struct SortBits;
template <> struct SortBits<1> { using type = uint8_t; };
template <> struct SortBits<2> { using type = uint16_t; };
template <> struct SortBits<4> { using type = uint32_t; };
template <> struct SortBits<8> { using type = uint64_t; };
} // namespace detail

/// What tl::sort orders by, as an unsigned integer of T's width compared as such: an integer's (or
/// bool's) value (a signed one's sign bit flipped); a floating-point value's bits in IEEE 754
/// totalOrder (-NaN < -inf < ... < -0 < +0 < ... < +inf < +NaN), which tells every two bit
/// patterns apart, so the sorted row is one row, bit for bit, in any algorithm.
template <class T> __device__ __forceinline__ auto sort_key(T v) {
  using U = typename detail::SortBits<sizeof(T)>::type;
  constexpr U sign = U(U(1) << (8 * sizeof(T) - 1));
  const U bits = bit_cast<U>(v);
  if constexpr (std::is_integral_v<T>)
    return std::is_signed_v<T> ? U(bits ^ sign) : bits;
  else
    return (bits & sign) ? U(~bits) : U(bits | sign);
}
/// The value whose sort_key is `key`.
template <class T, class U> __device__ __forceinline__ T sort_value(U key) {
  constexpr U sign = U(U(1) << (8 * sizeof(T) - 1));
  if constexpr (std::is_integral_v<T>)
    return bit_cast<T>(std::is_signed_v<T> ? U(key ^ sign) : key);
  else
    return bit_cast<T>((key & sign) ? U(key & U(~sign)) : U(~key));
}

namespace detail {
/// One compare-and-swap of sort_rows on keys: elements i and i + j (bit j of i clear) of a run of
/// k being merged, ascending where bit k of i's place in its row is clear (the other way where it
/// is set), the whole order reversed when DESCENDING.
template <int N, bool DESCENDING, class U>
__device__ __forceinline__ void sort_pair(U &a, U &b, int i, int k) {
  const bool ascending = (((i & (N - 1)) & k) == 0) != DESCENDING;
  const U lo = b < a ? b : a, hi = b < a ? a : b;
  a = ascending ? lo : hi;
  b = ascending ? hi : lo;
}
} // namespace detail

/// Sorts each of the ROWS rows of N elements (N a power of two) at `rows` (shared memory, row
/// after row) in place by sort_key, ascending or DESCENDING: the elements are turned into their
/// keys in place, sorted as unsigned integers by Batcher's bitonic network of log2(N) (log2(N) +
/// 1) / 2 steps, each comparing and swapping the pairs at one distance j, and turned back.
/// Each of the block's THREADS threads owns runs of RUN consecutive elements (RUN: the elements a
/// thread, at most 16 and a row), and the steps at distances below RUN pair elements of one run:
/// the thread takes them in registers, several steps at once, without barriers. The steps at
/// longer distances compare pairs in shared memory, spread over the threads, with a barrier after
/// each. The caller's barrier follows.
template <int ROWS, int N, bool DESCENDING, int THREADS, class T>
__device__ void sort_rows(T *rows) {
  static_assert(N > 0 && (N & (N - 1)) == 0, "tilec::rt::sort_rows: N must be a power of two");
  using U = typename detail::SortBits<sizeof(T)>::type;
  constexpr int TOTAL = ROWS * N;
  constexpr int PER_THREAD = TOTAL / THREADS > 1 ? TOTAL / THREADS : 1;
  constexpr int RUN = PER_THREAD < 16 ? (PER_THREAD < N ? PER_THREAD : N) : (16 < N ? 16 : N);
  const int tid = static_cast<int>(threadIdx.x);
  U *keys = reinterpret_cast<U *>(rows);
  for (int q = tid; q < TOTAL; q += THREADS)
    keys[q] = sort_key(rows[q]);
  __syncthreads();
  for (int k = 2; k <= N; k <<= 1) { // sorted runs of k / 2 merged into runs of k
    int j = k >> 1;
    for (; j >= RUN; j >>= 1) { // across runs: pairs (i, i + j) in shared memory
      for (int q = tid; q < TOTAL / 2; q += THREADS) {
        const int i = ((q & ~(j - 1)) << 1) | (q & (j - 1)); // q with a clear bit j inserted
        detail::sort_pair<N, DESCENDING>(keys[i], keys[i + j], i, k);
      }
      __syncthreads();
    }
    if constexpr (RUN > 1) { // the distances below RUN: each run in registers
      for (int r = tid; r < TOTAL / RUN; r += THREADS) {
        U v[RUN];
        TILEC_UNROLL
        for (int e = 0; e < RUN; ++e)
          v[e] = keys[r * RUN + e];
        for (int d = j; d > 0; d >>= 1) {
          TILEC_UNROLL
          for (int e = 0; e < RUN; ++e)
            if ((e & d) == 0)
              detail::sort_pair<N, DESCENDING>(v[e], v[e + d], r * RUN + e, k);
        }
        TILEC_UNROLL
        for (int e = 0; e < RUN; ++e)
          keys[r * RUN + e] = v[e];
      }
      if (k >= RUN) // the next merge, or turning the keys back, reaches across runs
        __syncthreads();
    }
  }
  for (int q = tid; q < TOTAL; q += THREADS)
    rows[q] = sort_value<T>(keys[q]);
}

/// Combines the per-warp partials parts[0], parts[stride], ... parts[(NUM_PARTS-1)*stride] in
/// part order (deterministic).
template <class Op, int NUM_PARTS, class T>
__device__ __forceinline__ T combine_partials(const T *parts, int stride) {
  T r = parts[0];
  TILEC_UNROLL
  for (int p = 1; p < NUM_PARTS; ++p)
    r = Op::combine(r, parts[p * stride]);
  return r;
}

// ---- dynamic shared memory ----------------------------------------------------------------------
/// The block's dynamic shared memory: as many bytes as the launch gave, 1024-byte aligned (wgmma's
/// swizzled operands start on 1024-byte boundaries of the shared window). tilec's
/// output takes its shared memory from here above 48 KB, the most a static __shared__ array may
/// hold; its launcher sets the kernel's attribute that allows the size.
__device__ __forceinline__ unsigned char *dynamic_shared_memory() {
#if defined(TILEC_EMULATE) // the emulator's __shared__ is `static`, which `extern` cannot join
  return static_cast<unsigned char *>(::tilec::emu::dynamic_shared_memory());
#else
  extern __shared__ __align__(1024) unsigned char dynamic_smem[];
  return dynamic_smem;
#endif
}

// ---- vectorized masked global memory access -----------------------------------------------------
} // namespace tilec::rt
#include "../rt/hints.hpp"
namespace tilec::rt {
#ifndef TILEC_NOINLINE // the CPU emulator spells it differently
#define TILEC_NOINLINE __noinline__
#endif

/// VEC elements moved as one access (16 bytes for float x 4 or half x 8).
template <class T, int VEC> struct alignas(sizeof(T) * VEC) Pack {
  T v[VEC];
};

template <int VEC, class T> __device__ __forceinline__ bool is_aligned(const T *p) {
  return reinterpret_cast<uintptr_t>(p) % (sizeof(T) * VEC) == 0;
}

namespace detail {
/// The global side of an access: a pointer, or one with cache hints (tilec::rt::hinted, whose
/// overloads of these are in tilec/rt/hints.hpp). Its address; a V (an element, or a Pack of them)
/// read at it or written to it.
template <class T> __device__ __forceinline__ T *address(T *p) { return p; }
template <class V, class T> __device__ __forceinline__ V read_as(const T *p) {
  return *reinterpret_cast<const V *>(p);
}
template <class V, class T> __device__ __forceinline__ void write_as(T *p, const V &v) {
  *reinterpret_cast<V *>(p) = v;
}

/// Keeps an argument out of template argument deduction (`other` takes T from the pointers).
template <class T> struct identity {
  using type = T;
};

/// 16-bit elements travel as 32-bit words (two elements each) between a load and the thread's
/// storage: the vector and the element-wise paths of a load then join on whole registers, and the
/// elements are taken apart where they are used, after every load of the tile has been issued (joined
/// element by element, each load's result was unpacked inside its branch, which waited for it).
template <class T, int VEC> constexpr bool kPairs = sizeof(T) == 2 && VEC % 2 == 0;
template <class T> __device__ __forceinline__ uint32_t bits16(T x) {
  uint16_t b;
  __builtin_memcpy(&b, static_cast<const void *>(&x), sizeof b);
  return b;
}
template <class T> __device__ __forceinline__ T from_bits16(uint32_t w) {
  const uint16_t b = static_cast<uint16_t>(w);
  T x;
  __builtin_memcpy(static_cast<void *>(&x), &b, sizeof b);
  return x;
}
/// Whether mask[v * STRIDE] is set for every v < VEC.
template <int VEC, int STRIDE> __device__ __forceinline__ bool all_set(const bool *mask) {
  bool all = true;
  TILEC_UNROLL
  for (int v = 0; v < VEC; ++v)
    all &= mask[v * STRIDE]; // no short circuit: one predicate chain
  return all;
}
/// mask[v * STRIDE] for v < VEC as the bits of an integer.
template <int VEC, int STRIDE> __device__ __forceinline__ unsigned mask_bits(const bool *mask) {
  unsigned bits = 0;
  TILEC_UNROLL
  for (int v = 0; v < VEC; ++v)
    bits |= static_cast<unsigned>(mask[v * STRIDE]) << v;
  return bits;
}
// The element-wise paths of load_vec (some element masked off, or a misaligned address) are
// functions of their own: inlined, their per-element registers counted against the whole kernel
// although the vector path is the one that runs on all but the edges of a tile.
// `src` is a pointer, or one with hints (tilec/rt/hints.hpp): read_as reads through either.
template <int VEC, class T, class Src>
__device__ TILEC_NOINLINE Pack<T, VEC> load_elementwise(Src src, unsigned bits, T other) {
  Pack<T, VEC> p;
  TILEC_UNROLL
  for (int v = 0; v < VEC; ++v)
    p.v[v] = (bits >> v & 1u) ? read_as<T>(src + v) : other;
  return p;
}
template <int VEC, class T, class Src>
__device__ TILEC_NOINLINE Pack<uint32_t, VEC / 2> load_pairs_elementwise(Src src, unsigned bits,
                                                                         uint32_t other) {
  Pack<uint32_t, VEC / 2> w;
  TILEC_UNROLL
  for (int k = 0; k < VEC / 2; ++k)
    w.v[k] = ((bits >> (2 * k) & 1u) ? bits16(read_as<T>(src + 2 * k)) : other) |
             ((bits >> (2 * k + 1) & 1u) ? bits16(read_as<T>(src + 2 * k + 1)) : other) << 16;
  return w;
}
template <int VEC, int STRIDE, class T>
__device__ __forceinline__ void unpack_pairs(T *dst, const Pack<uint32_t, VEC / 2> &w) {
  TILEC_UNROLL
  for (int k = 0; k < VEC / 2; ++k) {
    dst[(2 * k) * STRIDE] = from_bits16<T>(w.v[k]);
    dst[(2 * k + 1) * STRIDE] = from_bits16<T>(w.v[k] >> 16);
  }
}
} // namespace detail

/// `c ? a : b` of two values already computed: the generated code's tl::where where an arm calls
/// the inline-assembly math (fdiv, exp, exp2, sigmoid), which nvcc would otherwise compute in a
/// branch of its own per element rather than beside the other arm.
template <class T> __device__ __forceinline__ T select(bool c, T a, typename detail::identity<T>::type b) {
  return c ? a : b;
}

// The per-thread side of a vector access is the thread's own tile storage: elements `STRIDE` apart
// (1 when the vector runs along the last dimension of a `T name[E0][E1]` array, E1 when it runs
// along the first), or a small VEC-element temporary (STRIDE 1). The global side is a pointer, or
// a pointer with cache hints (tilec::rt::hinted, tilec/rt/hints.hpp).

/// dst[v * STRIDE] = mask[v * STRIDE] ? src[v] : other for v < VEC. Masked-off elements never touch
/// memory. One VEC-wide access when every mask bit is set and src is aligned (ALIGNED: proven by
/// tilec, else checked here). `all` says whether every mask bit is set: tilec passes the last
/// element's bit when the mask is true-then-false along the vector (`idx < n` with `idx` rising
/// by one), so the vector path tests one bit and the others are read only on the element-wise path.
template <int VEC, bool ALIGNED, int STRIDE = 1, class T, class Src>
__device__ __forceinline__ void load_vec(T *dst, Src src, const bool *mask,
                                         typename detail::identity<T>::type other, bool all) {
  const bool vector = all && (ALIGNED || is_aligned<VEC>(detail::address(src)));
  if constexpr (detail::kPairs<T, VEC>) {
    Pack<uint32_t, VEC / 2> w;
    if (vector) {
      TILEC_CHECK_VECTOR_ACCESS(detail::address(src), sizeof(Pack<T, VEC>));
      w = detail::read_as<Pack<uint32_t, VEC / 2>>(src);
    } else if (const unsigned bits = detail::mask_bits<VEC, STRIDE>(mask)) {
      w = detail::load_pairs_elementwise<VEC, T>(src, bits, detail::bits16(other));
    } else { // wholly masked off (the tail of a tile wider than the row): no call, no access
      const uint32_t o = detail::bits16(other);
      TILEC_UNROLL
      for (int k = 0; k < VEC / 2; ++k)
        w.v[k] = o | o << 16;
    }
    detail::unpack_pairs<VEC, STRIDE>(dst, w);
  } else {
    Pack<T, VEC> pack;
    if (vector) {
      TILEC_CHECK_VECTOR_ACCESS(detail::address(src), sizeof(Pack<T, VEC>));
      pack = detail::read_as<Pack<T, VEC>>(src);
    } else if (const unsigned bits = detail::mask_bits<VEC, STRIDE>(mask)) {
      pack = detail::load_elementwise<VEC>(src, bits, other);
    } else { // wholly masked off: no call, no access
      TILEC_UNROLL
      for (int v = 0; v < VEC; ++v)
        pack.v[v] = other;
    }
    TILEC_UNROLL
    for (int v = 0; v < VEC; ++v)
      dst[v * STRIDE] = pack.v[v];
  }
}
/// The same, every mask bit tested.
template <int VEC, bool ALIGNED, int STRIDE = 1, class T, class Src>
__device__ __forceinline__ void load_vec(T *dst, Src src, const bool *mask,
                                         typename detail::identity<T>::type other) {
  load_vec<VEC, ALIGNED, STRIDE>(dst, src, mask, other, detail::all_set<VEC, STRIDE>(mask));
}
/// Unmasked form: dst[v * STRIDE] = src[v] for every v < VEC.
template <int VEC, bool ALIGNED, int STRIDE = 1, class T, class Src>
__device__ __forceinline__ void load_vec(T *dst, Src src) {
  if constexpr (detail::kPairs<T, VEC>) {
    Pack<uint32_t, VEC / 2> w;
    if (ALIGNED || is_aligned<VEC>(detail::address(src))) {
      TILEC_CHECK_VECTOR_ACCESS(detail::address(src), sizeof(Pack<T, VEC>));
      w = detail::read_as<Pack<uint32_t, VEC / 2>>(src);
    } else {
      TILEC_UNROLL
      for (int k = 0; k < VEC / 2; ++k)
        w.v[k] = detail::bits16(detail::read_as<T>(src + 2 * k)) |
                 detail::bits16(detail::read_as<T>(src + 2 * k + 1)) << 16;
    }
    detail::unpack_pairs<VEC, STRIDE>(dst, w);
  } else if (ALIGNED || is_aligned<VEC>(detail::address(src))) {
    TILEC_CHECK_VECTOR_ACCESS(detail::address(src), sizeof(Pack<T, VEC>));
    const Pack<T, VEC> pack = detail::read_as<Pack<T, VEC>>(src);
    TILEC_UNROLL
    for (int v = 0; v < VEC; ++v)
      dst[v * STRIDE] = pack.v[v];
  } else {
    TILEC_UNROLL
    for (int v = 0; v < VEC; ++v)
      dst[v * STRIDE] = detail::read_as<T>(src + v);
  }
}

/// The same when the vector's mask bits are all equal (tilec proved it): every element from src when
/// `on` (one VEC-wide access when src is aligned), else `other` everywhere and no access. The result
/// starts as `other` and the access overwrites it (a predicated load, nothing to branch around);
/// 16-bit elements join as whole words and are taken apart afterwards, as in load_vec.
template <int VEC, bool ALIGNED, int STRIDE = 1, class T, class Src>
__device__ __forceinline__ void load_vec_if(T *dst, Src src, bool on,
                                            typename detail::identity<T>::type other) {
  if constexpr (detail::kPairs<T, VEC>) {
    const uint32_t o = detail::bits16(other);
    Pack<uint32_t, VEC / 2> w;
    TILEC_UNROLL
    for (int k = 0; k < VEC / 2; ++k)
      w.v[k] = o | o << 16;
    if (on && (ALIGNED || is_aligned<VEC>(detail::address(src)))) {
      TILEC_CHECK_VECTOR_ACCESS(detail::address(src), sizeof(Pack<T, VEC>));
      w = detail::read_as<Pack<uint32_t, VEC / 2>>(src);
    } else if (on) {
      TILEC_UNROLL
      for (int k = 0; k < VEC / 2; ++k)
        w.v[k] = detail::bits16(detail::read_as<T>(src + 2 * k)) |
                 detail::bits16(detail::read_as<T>(src + 2 * k + 1)) << 16;
    }
    detail::unpack_pairs<VEC, STRIDE>(dst, w);
  } else {
    Pack<T, VEC> pack;
    TILEC_UNROLL
    for (int v = 0; v < VEC; ++v)
      pack.v[v] = other;
    if (on && (ALIGNED || is_aligned<VEC>(detail::address(src)))) {
      TILEC_CHECK_VECTOR_ACCESS(detail::address(src), sizeof(Pack<T, VEC>));
      pack = detail::read_as<Pack<T, VEC>>(src);
    } else if (on) {
      TILEC_UNROLL
      for (int v = 0; v < VEC; ++v)
        pack.v[v] = detail::read_as<T>(src + v);
    }
    TILEC_UNROLL
    for (int v = 0; v < VEC; ++v)
      dst[v * STRIDE] = pack.v[v];
  }
}

/// dst[v] = src[v * STRIDE] where mask[v * STRIDE], for v < VEC; masked-off elements never touch
/// memory. One VEC-wide access when every mask bit is set (`all`, as for load_vec) and dst is
/// aligned.
template <int VEC, bool ALIGNED, int STRIDE = 1, class Dst, class T>
__device__ __forceinline__ void store_vec(Dst dst, const T *src, const bool *mask, bool all) {
  if (all && (ALIGNED || is_aligned<VEC>(detail::address(dst)))) {
    Pack<T, VEC> pack;
    TILEC_UNROLL
    for (int v = 0; v < VEC; ++v)
      pack.v[v] = src[v * STRIDE];
    TILEC_CHECK_VECTOR_ACCESS(detail::address(dst), sizeof(Pack<T, VEC>));
    detail::write_as(dst, pack);
  } else {
    TILEC_UNROLL
    for (int v = 0; v < VEC; ++v)
      if (mask[v * STRIDE])
        detail::write_as(dst + v, src[v * STRIDE]);
  }
}
/// The same, every mask bit tested.
template <int VEC, bool ALIGNED, int STRIDE = 1, class Dst, class T>
__device__ __forceinline__ void store_vec(Dst dst, const T *src, const bool *mask) {
  store_vec<VEC, ALIGNED, STRIDE>(dst, src, mask, detail::all_set<VEC, STRIDE>(mask));
}
/// Unmasked form: dst[v] = src[v * STRIDE] for every v < VEC.
template <int VEC, bool ALIGNED, int STRIDE = 1, class Dst, class T>
__device__ __forceinline__ void store_vec(Dst dst, const T *src) {
  if (ALIGNED || is_aligned<VEC>(detail::address(dst))) {
    Pack<T, VEC> pack;
    TILEC_UNROLL
    for (int v = 0; v < VEC; ++v)
      pack.v[v] = src[v * STRIDE];
    TILEC_CHECK_VECTOR_ACCESS(detail::address(dst), sizeof(Pack<T, VEC>));
    detail::write_as(dst, pack);
  } else {
    TILEC_UNROLL
    for (int v = 0; v < VEC; ++v)
      detail::write_as(dst + v, src[v * STRIDE]);
  }
}

} // namespace tilec::rt

#include "../rt/layout.hpp"
#include "../rt/scan.hpp"
