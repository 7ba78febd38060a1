#pragma once
/// \file Hopper's shared-memory barriers (mbarrier), as tilec's CUDA output for sm_90 uses them
/// (issue 13, docs/plan-hopper.md step 3): the "full" and "empty" barriers of a ring of
/// shared-memory stages that TMA copies fill. An mbarrier is 8 bytes of shared memory that counts
/// the arrivals its current phase still expects and the bytes of asynchronous copies it waits for
/// (its transaction count); the phase completes when both reach zero, and the barrier starts the
/// next phase. A thread waits for a phase by its parity (phase number % 2). Each helper is one PTX
/// instruction (or a loop around one) on the GPU and a model on tilec's CPU emulator
/// (docs/emulation.md, "mbarriers and bulk copies"), where waiting for a phase orders the waiter
/// after the arriving threads' accesses, a wait that can never complete is reported as a deadlock,
/// and a read of a stage before its copies landed is reported. Included by tilec/cuda/runtime.cuh.
///
/// The PTX exists from sm_90 on: code for older GPUs may include this header, and a call of any
/// helper in it then stops the build with a message. References are to the PTX ISA (8.0 and
/// later), "Parallel Synchronization and Communication Instructions: mbarrier".

#if defined(TILEC_EMULATE)
#elif defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define TILEC_MBARRIER_PTX 1
#endif

namespace tilec::rt {

namespace detail {
/// A static_assert condition that holds for no T: a helper below fails to build, with a message,
/// only when a pass for an older GPU instantiates it.
template <class T> inline constexpr bool kNeedsSm90 = false;
#if defined(TILEC_MBARRIER_PTX)
__device__ __forceinline__ uint32_t shared_address(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
#endif
} // namespace detail

/// Sets up the mbarrier `bar` (8-byte aligned shared memory) to expect `count` arrivals per phase,
/// in phase 0 (`mbarrier.init.shared::cta.b64`). One thread initializes; the block's other threads
/// and the copy engine may use the barrier after mbarrier_init_fence() and a __syncthreads().
template <class Sm90 = void>
__device__ __forceinline__ void mbarrier_init(uint64_t *bar, unsigned count) {
#if defined(TILEC_EMULATE)
  ::tilec::emu::mbarrier_init(bar, count, ::tilec::emu::call_site());
#elif defined(TILEC_MBARRIER_PTX)
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(detail::shared_address(bar)),
               "r"(count)
               : "memory");
#elif defined(__CUDA_ARCH__)
  static_assert(detail::kNeedsSm90<Sm90>, "tilec::rt::mbarrier_init needs sm_90");
#endif
}
/// Makes the initializing thread's mbarrier_init calls visible to the copy engine and the other
/// threads (`fence.mbarrier_init.release.cluster`); a __syncthreads() follows it.
template <class Sm90 = void> __device__ __forceinline__ void mbarrier_init_fence() {
#if defined(TILEC_EMULATE)
#elif defined(TILEC_MBARRIER_PTX)
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
#elif defined(__CUDA_ARCH__)
  static_assert(detail::kNeedsSm90<Sm90>, "tilec::rt::mbarrier_init_fence needs sm_90");
#endif
}
/// Counts one arrival of this thread on the current phase of `bar` (`mbarrier.arrive`): what the
/// thread did before it is visible to every thread that waits for the phase.
template <class Sm90 = void> __device__ __forceinline__ void mbarrier_arrive(uint64_t *bar) {
#if defined(TILEC_EMULATE)
  ::tilec::emu::mbarrier_arrive(bar, 0, true, ::tilec::emu::call_site());
#elif defined(TILEC_MBARRIER_PTX)
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(detail::shared_address(bar))
               : "memory");
#elif defined(__CUDA_ARCH__)
  static_assert(detail::kNeedsSm90<Sm90>, "tilec::rt::mbarrier_arrive needs sm_90");
#endif
}
/// Announces `bytes` bytes of copies that will complete on the current phase of `bar`, then counts
/// one arrival (`mbarrier.arrive.expect_tx`): the phase completes when the copies have delivered
/// them. The producer of a stage calls it before starting the stage's TMA copies.
template <class Sm90 = void>
__device__ __forceinline__ void mbarrier_arrive_expect_tx(uint64_t *bar, uint32_t bytes) {
#if defined(TILEC_EMULATE)
  ::tilec::emu::mbarrier_arrive(bar, bytes, true, ::tilec::emu::call_site());
#elif defined(TILEC_MBARRIER_PTX)
  asm volatile(
      "mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(detail::shared_address(bar)),
      "r"(bytes)
      : "memory");
#elif defined(__CUDA_ARCH__)
  static_assert(detail::kNeedsSm90<Sm90>, "tilec::rt::mbarrier_arrive_expect_tx needs sm_90");
#endif
}
/// Whether the phase of `bar` with parity `parity` has completed (`mbarrier.try_wait.parity`,
/// which may wait a while before it says no). True once the barrier is in a phase of the other
/// parity: the phase before the current one completed.
template <class Sm90 = void>
__device__ __forceinline__ bool mbarrier_try_wait_parity(uint64_t *bar, uint32_t parity) {
#if defined(TILEC_EMULATE)
  return ::tilec::emu::mbarrier_wait_parity(bar, parity, false, ::tilec::emu::call_site());
#elif defined(TILEC_MBARRIER_PTX)
  uint32_t done;
  asm volatile("{\n"
               "  .reg .pred complete;\n"
               "  mbarrier.try_wait.parity.shared::cta.b64 complete, [%1], %2;\n"
               "  selp.b32 %0, 1, 0, complete;\n"
               "}"
               : "=r"(done)
               : "r"(detail::shared_address(bar)), "r"(parity)
               : "memory");
  return done != 0;
#else
#if defined(__CUDA_ARCH__)
  static_assert(detail::kNeedsSm90<Sm90>, "tilec::rt::mbarrier_try_wait_parity needs sm_90");
#endif
  return true;
#endif
}
/// Waits until the phase of `bar` with parity `parity` has completed: what the threads that
/// arrived on it did before arriving, and the bytes of the copies it waited for, are then visible
/// to this thread.
template <class Sm90 = void>
__device__ __forceinline__ void mbarrier_wait(uint64_t *bar, uint32_t parity) {
#if defined(TILEC_EMULATE)
  ::tilec::emu::mbarrier_wait_parity(bar, parity, true, ::tilec::emu::call_site());
#else
  while (!mbarrier_try_wait_parity<Sm90>(bar, parity)) {
  }
#endif
}

/// The barriers of a ring of STAGES shared-memory stages that one producer fills with TMA copies
/// and consumers read: `full[s]` completes a phase when stage s holds its next tile (the
/// producer's arrive_expect_tx and the copies' bytes), `empty[s]` when the consumers are done with
/// it (each consumer thread arrives). Lives in shared memory.
template <int STAGES> struct StageBarriers {
  uint64_t full[STAGES];
  uint64_t empty[STAGES];
  /// Called by one thread, then mbarrier_init_fence() and a __syncthreads() before any use.
  __device__ __forceinline__ void init(unsigned consumer_threads) {
    for (int s = 0; s < STAGES; ++s) {
      mbarrier_init(&full[s], 1);
      mbarrier_init(&empty[s], consumer_threads);
    }
  }
};

/// Where a producer or a consumer is in the ring: the stage, and the parity of the phase of that
/// stage's barriers it waits for next. The phase flips each time the ring wraps around.
template <int STAGES> struct StagePosition {
  int stage = 0;
  uint32_t phase = 0;
  __device__ __forceinline__ void advance() {
    if (++stage == STAGES) {
      stage = 0;
      phase ^= 1;
    }
  }
};

} // namespace tilec::rt

#if defined(TILEC_MBARRIER_PTX)
#undef TILEC_MBARRIER_PTX
#endif
