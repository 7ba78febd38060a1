#pragma once
/// \file Device built-ins shared by the CUDA and HIP spellings of tilec's CPU emulator
/// (tilec/emu/emu.hpp): function qualifiers, __shared__, thread and block indices, barriers,
/// atomics, 16-bit floats and bit casts. Included by tilec/emu/cuda.hpp and tilec/emu/hip.hpp,
/// which add the warp operations of their warp size.

#include "../detail/float16.hpp"
#include "../detail/float8.hpp"
#include "../detail/rounding.hpp"
#include "emu.hpp"

#include <bit>
#include <cstring>
#include <math.h>

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline __attribute__((always_inline))
#define __launch_bounds__(...)
#define __grid_constant__ // a kernel parameter the kernel only reads (TMA tensor maps)
#define TILEC_UNROLL // loop unrolling hints mean nothing here
#define TILEC_NO_UNROLL
// Inlined here, unlike on the GPU: a report names the emitted line through the inlined frames.
#define TILEC_NOINLINE __forceinline__
/// Shared memory: one static object per __shared__ variable (blocks run one after another, so one
/// copy is enough), which the emulator finds in the symbol table, or failing that in this section.
/// It is poisoned and marked uninitialized at the start of every block.
#define __shared__ static __attribute__((section("tilec_shared")))

// threadIdx, blockIdx, blockDim, gridDim: objects whose x, y, z read the running thread's values.
namespace tilec::emu::detail {
template <uint3 (*F)(), int D> struct Coord {
  TILEC_EMU_BUILTIN operator unsigned() const {
    const uint3 v = F();
    return D == 0 ? v.x : D == 1 ? v.y : v.z;
  }
};
template <uint3 (*F)()> struct Index {
  Coord<F, 0> x;
  Coord<F, 1> y;
  Coord<F, 2> z;
  TILEC_EMU_BUILTIN operator uint3() const { return F(); }
  TILEC_EMU_BUILTIN operator dim3() const { return dim3(F()); }
};
} // namespace tilec::emu::detail
inline constexpr tilec::emu::detail::Index<&tilec::emu::thread_idx> threadIdx{};
inline constexpr tilec::emu::detail::Index<&tilec::emu::block_idx> blockIdx{};
inline constexpr tilec::emu::detail::Index<&tilec::emu::block_dim> blockDim{};
inline constexpr tilec::emu::detail::Index<&tilec::emu::grid_dim> gridDim{};

/// tilec's runtime helpers (tilec/rt/core.hpp) check every 16-byte access with this.
#define TILEC_CHECK_VECTOR_ACCESS(p, bytes) ::tilec::emu::check_vector_alignment((p), (bytes))

TILEC_EMU_BUILTIN void __syncthreads() { ::tilec::emu::sync_threads(); }

// ---- math that CUDA and HIP have and the C library does not ------------------------------------
// The GPU's rsqrtf is approximate (2 ulp on NVIDIA); the emulator computes it as the CPU reference
// does, 1 / sqrt(x) in float.
TILEC_EMU_BUILTIN float rsqrtf(float x) { return 1.0f / sqrtf(x); }
// Divisions and square root of a stated rounding (tl::div_rn, div_rz, fdiv, sqrt_rn), as the CPU
// reference computes them: __fdividef as the IEEE division (the GPU's is within 2 ulp).
TILEC_EMU_BUILTIN float __fdiv_rn(float a, float b) { return a / b; }
TILEC_EMU_BUILTIN float __fdiv_rz(float a, float b) { return tl::detail::divTowardZero(a, b); }
TILEC_EMU_BUILTIN float __fdividef(float a, float b) { return a / b; }
TILEC_EMU_BUILTIN float __fsqrt_rn(float x) { return sqrtf(x); }
TILEC_EMU_BUILTIN double rsqrt(double x) { return 1.0 / sqrt(x); }
TILEC_EMU_BUILTIN double __ddiv_rn(double a, double b) { return a / b; }
TILEC_EMU_BUILTIN double __ddiv_rz(double a, double b) { return tl::detail::divTowardZero(a, b); }
TILEC_EMU_BUILTIN double __dsqrt_rn(double x) { return sqrt(x); }
// Bit counts and the high half of a product (tl::popc, clz, umulhi).
TILEC_EMU_BUILTIN int __popc(unsigned x) { return std::popcount(x); }
TILEC_EMU_BUILTIN int __popcll(unsigned long long x) { return std::popcount(x); }
TILEC_EMU_BUILTIN int __clz(int x) { return std::countl_zero(static_cast<unsigned>(x)); }
TILEC_EMU_BUILTIN int __clzll(long long x) { return std::countl_zero(static_cast<unsigned long long>(x)); }
TILEC_EMU_BUILTIN unsigned __umulhi(unsigned a, unsigned b) {
  return static_cast<unsigned>((static_cast<unsigned long long>(a) * b) >> 32);
}
TILEC_EMU_BUILTIN unsigned long long __umul64hi(unsigned long long a, unsigned long long b) {
  return static_cast<unsigned long long>((static_cast<unsigned __int128>(a) * b) >> 64);
}

// ---- bit casts ---------------------------------------------------------------------------------
TILEC_EMU_BUILTIN unsigned __float_as_uint(float x) { return std::bit_cast<unsigned>(x); }
TILEC_EMU_BUILTIN float __uint_as_float(unsigned x) { return std::bit_cast<float>(x); }
TILEC_EMU_BUILTIN int __float_as_int(float x) { return std::bit_cast<int>(x); }
TILEC_EMU_BUILTIN float __int_as_float(int x) { return std::bit_cast<float>(x); }
TILEC_EMU_BUILTIN long long __double_as_longlong(double x) { return std::bit_cast<long long>(x); }
TILEC_EMU_BUILTIN double __longlong_as_double(long long x) { return std::bit_cast<double>(x); }

// ---- 16-bit floats: the CPU reference's types (round to nearest even, as the GPU's conversions)
// --
using __half = tl::half;
TILEC_EMU_BUILTIN float __half2float(__half x) { return static_cast<float>(x); }
TILEC_EMU_BUILTIN __half __float2half(float x) { return __half(x); }
TILEC_EMU_BUILTIN __half __float2half_rn(float x) { return __half(x); }
TILEC_EMU_BUILTIN __half __float2half_rz(float x) {
  return tl::detail::narrowTowardZero<__half>(x);
}
TILEC_EMU_BUILTIN float __double2float_rz(double x) {
  return tl::detail::narrowTowardZero<float>(x);
}

// ---- atomics -----------------------------------------------------------------------------------
namespace tilec::emu::detail {
template <class T> constexpr AtomicType atomic_type() {
  if constexpr (std::is_same_v<T, int>)
    return AtomicType::I32;
  else if constexpr (std::is_same_v<T, unsigned>)
    return AtomicType::U32;
  else if constexpr (std::is_same_v<T, long long>)
    return AtomicType::I64;
  else if constexpr (std::is_same_v<T, unsigned long long>)
    return AtomicType::U64;
  else if constexpr (std::is_same_v<T, float>)
    return AtomicType::F32;
  else if constexpr (std::is_same_v<T, tl::half>)
    return AtomicType::F16;
  else if constexpr (std::is_same_v<T, tl::bfloat16>)
    return AtomicType::BF16;
  else
    return AtomicType::F64;
}
template <class T> TILEC_EMU_BUILTIN uint64_t to_bits(T v) {
  uint64_t b = 0;
  std::memcpy(&b, &v, sizeof(T));
  return b;
}
template <class T> TILEC_EMU_BUILTIN T from_bits(uint64_t b) {
  T v;
  std::memcpy(static_cast<void *>(&v), &b, sizeof(T));
  return v;
}
template <class T> TILEC_EMU_BUILTIN T atomic(T *p, AtomicOp op, T v, T compare = T{}) {
  return from_bits<T>(atomic_rmw(p, atomic_type<T>(), op, to_bits(v), to_bits(compare)));
}
} // namespace tilec::emu::detail

#define TILEC_EMU_ATOMIC(NAME, OP, T)                                                              \
  TILEC_EMU_BUILTIN T NAME(T *p, T v) {                                                            \
    return ::tilec::emu::detail::atomic(p, ::tilec::emu::AtomicOp::OP, v);                         \
  }
TILEC_EMU_ATOMIC(atomicAdd, Add, int)
TILEC_EMU_ATOMIC(atomicAdd, Add, unsigned)
TILEC_EMU_ATOMIC(atomicAdd, Add, unsigned long long)
TILEC_EMU_ATOMIC(atomicAdd, Add, float)
TILEC_EMU_ATOMIC(atomicAdd, Add, double)
TILEC_EMU_ATOMIC(atomicAdd, Add, tl::half)     // __half (sm_70 and later)
TILEC_EMU_ATOMIC(atomicAdd, Add, tl::bfloat16) // __nv_bfloat16 (sm_80 and later)
TILEC_EMU_ATOMIC(atomicMin, Min, int)
TILEC_EMU_ATOMIC(atomicMin, Min, unsigned)
TILEC_EMU_ATOMIC(atomicMin, Min, long long)
TILEC_EMU_ATOMIC(atomicMin, Min, unsigned long long)
TILEC_EMU_ATOMIC(atomicMax, Max, int)
TILEC_EMU_ATOMIC(atomicMax, Max, unsigned)
TILEC_EMU_ATOMIC(atomicMax, Max, long long)
TILEC_EMU_ATOMIC(atomicMax, Max, unsigned long long)
TILEC_EMU_ATOMIC(atomicExch, Exch, int)
TILEC_EMU_ATOMIC(atomicExch, Exch, unsigned)
TILEC_EMU_ATOMIC(atomicExch, Exch, unsigned long long)
TILEC_EMU_ATOMIC(atomicExch, Exch, float)
TILEC_EMU_ATOMIC(atomicAnd, And, int)
TILEC_EMU_ATOMIC(atomicAnd, And, unsigned)
TILEC_EMU_ATOMIC(atomicAnd, And, unsigned long long)
TILEC_EMU_ATOMIC(atomicOr, Or, int)
TILEC_EMU_ATOMIC(atomicOr, Or, unsigned)
TILEC_EMU_ATOMIC(atomicOr, Or, unsigned long long)
TILEC_EMU_ATOMIC(atomicXor, Xor, int)
TILEC_EMU_ATOMIC(atomicXor, Xor, unsigned)
TILEC_EMU_ATOMIC(atomicXor, Xor, unsigned long long)
#undef TILEC_EMU_ATOMIC
TILEC_EMU_BUILTIN int atomicSub(int *p, int v) { return atomicAdd(p, -v); }
TILEC_EMU_BUILTIN unsigned atomicSub(unsigned *p, unsigned v) { return atomicAdd(p, 0u - v); }
#define TILEC_EMU_ATOMIC_CAS(T)                                                                    \
  TILEC_EMU_BUILTIN T atomicCAS(T *p, T compare, T v) {                                            \
    return ::tilec::emu::detail::atomic(p, ::tilec::emu::AtomicOp::Cas, v, compare);               \
  }
TILEC_EMU_ATOMIC_CAS(int)
TILEC_EMU_ATOMIC_CAS(unsigned)
TILEC_EMU_ATOMIC_CAS(unsigned long long)
#undef TILEC_EMU_ATOMIC_CAS
// Memory fences: the emulator's memory is sequentially consistent, so they order nothing more.
// (Acquire and release atomics order nothing for the race checker either: docs/emulation.md.)
TILEC_EMU_BUILTIN void __threadfence_block() {}
TILEC_EMU_BUILTIN void __threadfence() {}
TILEC_EMU_BUILTIN void __threadfence_system() {}

// ---- warp operations, for the target headers
// -----------------------------------------------------
namespace tilec::emu::detail {
template <class T>
TILEC_EMU_BUILTIN T shuffle(WarpOp op, uint64_t mask, T v, int param, int width, const char *name) {
  return from_bits<T>(warp_op(op, mask, to_bits(v), param, width, name));
}
} // namespace tilec::emu::detail
