#pragma once
/// \file Loads and stores with cache hints: Triton's `cache_modifier`, `eviction_policy` and
/// `volatile` (tl::load_options, tl::store_options). tilec's output wraps the pointer of such an
/// access as `tilec::rt::hinted<tilec::rt::hint::cg>(p)`; the vector helpers of tilec/rt/core.hpp
/// (load_vec, store_vec) and `.load()` / `.store(v)` then move its bytes with one
/// `ld.global.cg` / `st.global.cs` ... per access on CUDA. The hints change no value:
///  - CUDA: the qualifiers as Triton emits them. An eviction policy is PTX's L1 eviction priority
///    and an L2 cache policy (createpolicy.fractional, the whole line); with a cache operator as
///    well, PTX allows the cache operator and the L2 policy only.
///  - HIP: the cache operators that skip caches (loads .cg and .cv, stores .cs and .wt) are
///    non-temporal accesses, as Triton's AMD backend makes them; eviction policies are dropped.
///  - The CPU emulator: plain accesses, which its checkers see.
/// Included by tilec/rt/core.hpp.

namespace tilec::rt {

/// The hints of one access, as the bits of hinted<H>: at most one cache operator, at most one
/// eviction policy, or `volatile_access` alone (the translator checks).
namespace hint {
inline constexpr unsigned ca = 1u << 0; ///< load: cache at all levels
inline constexpr unsigned cg = 1u << 1; ///< load or store: cache in L2, not in L1
inline constexpr unsigned cv = 1u << 2; ///< load: fetch again (do not cache)
inline constexpr unsigned wb = 1u << 3; ///< store: write back
inline constexpr unsigned cs = 1u << 4; ///< store: streaming, likely accessed once
inline constexpr unsigned wt = 1u << 5; ///< store: write through
inline constexpr unsigned evict_first = 1u << 6;
inline constexpr unsigned evict_last = 1u << 7;
inline constexpr unsigned volatile_access = 1u << 8; ///< load: ld.volatile
} // namespace hint

namespace detail {
/// V's bytes: one register of a 1-, 2-, 4- or 8-byte access, four of a 16-byte one.
template <class V>
constexpr bool kHintedSize = sizeof(V) == 1 || sizeof(V) == 2 || sizeof(V) == 4 || sizeof(V) == 8 ||
                             sizeof(V) == 16;

#if defined(TILEC_EMULATE) || !(defined(__HIPCC__) || defined(__CUDACC__))
template <unsigned H, class V> inline V hinted_read(const V *p) { return *p; }
template <unsigned H, class V> inline void hinted_write(V *p, const V &v) { *p = v; }

#elif defined(__HIPCC__)
/// V as N words of type W (4 bytes each from 4-byte values up; else one word of V's size).
template <class V> struct Words {
  static_assert(kHintedSize<V>, "a hinted access moves 1, 2, 4, 8 or 16 bytes");
  using type = std::conditional_t<(sizeof(V) >= 4), uint32_t,
                                  std::conditional_t<sizeof(V) == 2, uint16_t, uint8_t>>;
  static constexpr int count = sizeof(V) >= 4 ? sizeof(V) / 4 : 1;
};
template <unsigned H, class V> __device__ __forceinline__ V hinted_read(const V *p) {
  using W = typename Words<V>::type;
  W w[Words<V>::count];
  for (int i = 0; i < Words<V>::count; ++i) {
    if constexpr ((H & hint::volatile_access) != 0)
      w[i] = reinterpret_cast<const volatile W *>(p)[i];
    else if constexpr ((H & (hint::cg | hint::cv)) != 0)
      w[i] = __builtin_nontemporal_load(reinterpret_cast<const W *>(p) + i);
    else
      w[i] = reinterpret_cast<const W *>(p)[i];
  }
  V v;
  __builtin_memcpy(&v, w, sizeof(V));
  return v;
}
template <unsigned H, class V> __device__ __forceinline__ void hinted_write(V *p, const V &v) {
  if constexpr ((H & (hint::cs | hint::wt)) != 0) {
    using W = typename Words<V>::type;
    W w[Words<V>::count];
    __builtin_memcpy(w, &v, sizeof(V));
    for (int i = 0; i < Words<V>::count; ++i)
      __builtin_nontemporal_store(w[i], reinterpret_cast<W *>(p) + i);
  } else {
    *p = v;
  }
}

#else // CUDA
/// The L2 cache policy of an eviction priority for every line an access touches (PTX's
/// createpolicy.fractional with fraction 1.0, as Triton makes it): the operand of
/// `.L2::cache_hint`. Not volatile, so that the compiler computes it once.
template <unsigned H> __device__ __forceinline__ uint64_t l2_policy() {
  uint64_t policy = 0;
  if constexpr ((H & hint::evict_first) != 0)
    asm("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(policy));
  else if constexpr ((H & hint::evict_last) != 0)
    asm("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(policy));
  return policy;
}

/// One access of 1, 2, 4, 8 or 16 bytes with the instruction OP ("ld.global.cg", ...; 16 bytes as
/// .v4.u32). POLICY: OP ends in .L2::cache_hint, whose policy operand comes last. Like CUDA's own
/// __ldcg and __stcs, volatile asm without a memory clobber: it stays in program order with the
/// other accesses that are asm, and the compiler keeps it.
template <class V> struct Registers {
  static_assert(kHintedSize<V>, "a hinted access moves 1, 2, 4, 8 or 16 bytes");
  // 1-byte values travel in a 32-bit register (ld.u8 widens), 2-byte ones in a 16-bit one.
  using type = std::conditional_t<sizeof(V) == 8, uint64_t,
                                  std::conditional_t<sizeof(V) == 2, uint16_t, uint32_t>>;
  static constexpr int count = sizeof(V) == 16 ? 4 : 1;
};
#define TILEC_HINTED_ACCESS(H, LOAD, STORE, POLICY)                                                \
  template <> struct HintedAccess<H> {                                                             \
    template <class V> static __device__ __forceinline__ V read(const V *p) {                      \
      [[maybe_unused]] const uint64_t policy = l2_policy<H>();                                     \
      typename Registers<V>::type r[Registers<V>::count];                                          \
      if constexpr (sizeof(V) == 1)                                                                \
        asm volatile(LOAD ".u8 %0, [%1]" POLICY(2) ";" : "=r"(r[0]) : "l"(p), "l"(policy));        \
      else if constexpr (sizeof(V) == 2)                                                           \
        asm volatile(LOAD ".u16 %0, [%1]" POLICY(2) ";" : "=h"(r[0]) : "l"(p), "l"(policy));       \
      else if constexpr (sizeof(V) == 4)                                                           \
        asm volatile(LOAD ".u32 %0, [%1]" POLICY(2) ";" : "=r"(r[0]) : "l"(p), "l"(policy));       \
      else if constexpr (sizeof(V) == 8)                                                           \
        asm volatile(LOAD ".u64 %0, [%1]" POLICY(2) ";" : "=l"(r[0]) : "l"(p), "l"(policy));       \
      else                                                                                         \
        asm volatile(LOAD ".v4.u32 {%0, %1, %2, %3}, [%4]" POLICY(5) ";"                           \
                     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])                              \
                     : "l"(p), "l"(policy));                                                       \
      V v;                                                                                         \
      __builtin_memcpy(&v, r, sizeof(V));                                                          \
      return v;                                                                                    \
    }                                                                                              \
    template <class V> static __device__ __forceinline__ void write(V *p, const V &v) {            \
      [[maybe_unused]] const uint64_t policy = l2_policy<H>();                                     \
      typename Registers<V>::type r[Registers<V>::count] = {};                                     \
      __builtin_memcpy(r, &v, sizeof(V));                                                          \
      if constexpr (sizeof(V) == 1)                                                                \
        asm volatile(STORE ".u8 [%0], %1" POLICY(2) ";" ::"l"(p), "r"(r[0]), "l"(policy));         \
      else if constexpr (sizeof(V) == 2)                                                           \
        asm volatile(STORE ".u16 [%0], %1" POLICY(2) ";" ::"l"(p), "h"(r[0]), "l"(policy));        \
      else if constexpr (sizeof(V) == 4)                                                           \
        asm volatile(STORE ".u32 [%0], %1" POLICY(2) ";" ::"l"(p), "r"(r[0]), "l"(policy));        \
      else if constexpr (sizeof(V) == 8)                                                           \
        asm volatile(STORE ".u64 [%0], %1" POLICY(2) ";" ::"l"(p), "l"(r[0]), "l"(policy));        \
      else                                                                                         \
        asm volatile(STORE ".v4.u32 [%0], {%1, %2, %3, %4}" POLICY(5) ";" ::"l"(p), "r"(r[0]),     \
                     "r"(r[1]), "r"(r[2]), "r"(r[3]), "l"(policy));                                \
    }                                                                                              \
  };
#define TILEC_NO_POLICY(N) ""
#define TILEC_POLICY(N) ", %" #N
template <unsigned H> struct HintedAccess; // the combinations the translator lets through
// Cache operators alone (loads .ca .cg .cv, stores .wb .cg .cs .wt; a store's is the LOAD
// argument's twin where one exists, and unused where none does).
TILEC_HINTED_ACCESS(hint::ca, "ld.global.ca", "st.global", TILEC_NO_POLICY)
TILEC_HINTED_ACCESS(hint::cg, "ld.global.cg", "st.global.cg", TILEC_NO_POLICY)
TILEC_HINTED_ACCESS(hint::cv, "ld.global.cv", "st.global", TILEC_NO_POLICY)
TILEC_HINTED_ACCESS(hint::wb, "ld.global", "st.global.wb", TILEC_NO_POLICY)
TILEC_HINTED_ACCESS(hint::cs, "ld.global", "st.global.cs", TILEC_NO_POLICY)
TILEC_HINTED_ACCESS(hint::wt, "ld.global", "st.global.wt", TILEC_NO_POLICY)
TILEC_HINTED_ACCESS(hint::volatile_access, "ld.volatile.global", "st.volatile.global",
                    TILEC_NO_POLICY)
// Eviction policies alone: the L1 eviction priority and the L2 policy.
TILEC_HINTED_ACCESS(hint::evict_first, "ld.global.L1::evict_first.L2::cache_hint",
                    "st.global.L1::evict_first.L2::cache_hint", TILEC_POLICY)
TILEC_HINTED_ACCESS(hint::evict_last, "ld.global.L1::evict_last.L2::cache_hint",
                    "st.global.L1::evict_last.L2::cache_hint", TILEC_POLICY)
// Both: the cache operator and the L2 policy.
#define TILEC_HINTED_WITH_EVICTION(OP, LOAD, STORE)                                                \
  TILEC_HINTED_ACCESS(OP | hint::evict_first, LOAD ".L2::cache_hint", STORE ".L2::cache_hint",     \
                      TILEC_POLICY)                                                                \
  TILEC_HINTED_ACCESS(OP | hint::evict_last, LOAD ".L2::cache_hint", STORE ".L2::cache_hint",      \
                      TILEC_POLICY)
TILEC_HINTED_WITH_EVICTION(hint::ca, "ld.global.ca", "st.global")
TILEC_HINTED_WITH_EVICTION(hint::cg, "ld.global.cg", "st.global.cg")
TILEC_HINTED_WITH_EVICTION(hint::cv, "ld.global.cv", "st.global")
TILEC_HINTED_WITH_EVICTION(hint::wb, "ld.global", "st.global.wb")
TILEC_HINTED_WITH_EVICTION(hint::cs, "ld.global", "st.global.cs")
TILEC_HINTED_WITH_EVICTION(hint::wt, "ld.global", "st.global.wt")
#undef TILEC_HINTED_WITH_EVICTION
#undef TILEC_POLICY
#undef TILEC_NO_POLICY
#undef TILEC_HINTED_ACCESS

template <unsigned H, class V> __device__ __forceinline__ V hinted_read(const V *p) {
  return HintedAccess<H>::read(p);
}
template <unsigned H, class V> __device__ __forceinline__ void hinted_write(V *p, const V &v) {
  HintedAccess<H>::write(p, v);
}
#endif
} // namespace detail

/// A global pointer whose accesses carry the hints H (the bits of tilec::rt::hint). The vector
/// helpers take it where they take a pointer; `.load()` and `.store(v)` move one element.
template <class T, unsigned H> struct Hinted {
  T *ptr;
  template <class I> __device__ __forceinline__ Hinted operator+(I i) const { return {ptr + i}; }
  __device__ __forceinline__ std::remove_const_t<T> load() const {
    return detail::hinted_read<H>(const_cast<const std::remove_const_t<T> *>(ptr));
  }
  __device__ __forceinline__ void store(const T &v) const { detail::hinted_write<H>(ptr, v); }
};
/// `p` with the hints H: `tilec::rt::hinted<tilec::rt::hint::evict_first>(x + offs[i])`.
template <unsigned H, class T> __device__ __forceinline__ Hinted<T, H> hinted(T *p) { return {p}; }

namespace detail {
// The hinted side of tilec/rt/core.hpp's access helpers (the plain pointers' are there).
template <class T, unsigned H> __device__ __forceinline__ T *address(Hinted<T, H> p) { return p.ptr; }
template <class V, class T, unsigned H> __device__ __forceinline__ V read_as(Hinted<T, H> p) {
  return hinted_read<H>(reinterpret_cast<const V *>(p.ptr));
}
template <class V, class T, unsigned H>
__device__ __forceinline__ void write_as(Hinted<T, H> p, const V &v) {
  hinted_write<H>(reinterpret_cast<V *>(p.ptr), v);
}
} // namespace detail

} // namespace tilec::rt
