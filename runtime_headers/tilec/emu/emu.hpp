#pragma once
/// \file tilec's CPU emulator (docs/emulation.md): the emitted CUDA or HIP file, compiled as host
/// C++ with -DTILEC_EMULATE, runs on the CPU. Blocks run one after another; the threads of a block
/// are cooperative fibers (Boost.Context) that switch at barriers and warp-synchronous operations.
/// When the file is also compiled with -fsanitize=thread (used only for its instrumentation: the
/// emulator, not ThreadSanitizer, receives the calls), every memory access is checked: global
/// accesses against the buffers allocated with cudaMalloc/hipMalloc, shared- and global-memory
/// races between the threads of a block from one barrier to the next, reads of uninitialized
/// shared memory, misaligned accesses. Barriers and warp operations that not every thread reaches
/// are reported too. Reports name the emitted file's line, and the kernel source's line that its
/// nearest provenance comment names.
///
/// This header is the emulator's own API; tilec/emu/cuda.hpp and tilec/emu/hip.hpp provide the CUDA
/// and HIP spellings on top of it (device built-ins, host runtime calls, launch).

#include <cstddef>
#include <cstdint>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

/// Built-ins and runtime calls are inlined into their caller even at -O0, so that the code location
/// the emulator records (its callee's return address) is the caller's line.
#define TILEC_EMU_BUILTIN inline __attribute__((always_inline))

/// The CUDA/HIP index and dimension types (global names, as in the real runtimes).
struct uint3 {
  unsigned x, y, z;
};
struct dim3 {
  unsigned x = 1, y = 1, z = 1;
  constexpr dim3(unsigned vx = 1, unsigned vy = 1, unsigned vz = 1) : x(vx), y(vy), z(vz) {}
  constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  constexpr operator uint3() const { return {x, y, z}; }
};

namespace tilec::emu {

/// Error codes, numbered as CUDA's and HIP's (cudaError_t and hipError_t are both this type).
enum Error : int {
  Success = 0,
  ErrorInvalidValue = 1,
  ErrorMemoryAllocation = 2,
  ErrorInvalidConfiguration = 9,
  ErrorIllegalAddress = 700,
  ErrorAssert = 710,
  ErrorIllegalInstruction = 715,
  ErrorLaunchFailure = 719,
};
const char *error_name(Error e);
const char *error_string(Error e);

/// What a finding is about. Every finding is an error: the program's exit status becomes
/// nonzero (TILEC_EMU_EXITCODE, default 66) when any was reported.
enum class FindingKind {
  OutOfBounds, ///< global or shared access outside every buffer / shared variable
  Misaligned,  ///< access not aligned to its size (the GPU faults on it)
  SharedRace,  ///< two threads touch the same shared byte between barriers, one writing
  GlobalRace,  ///< two threads of a block touch the same global byte between barriers, one writing
  UninitializedShared, ///< shared memory read before anything in the block wrote it
  BarrierNotReached,   ///< __syncthreads() that some threads of the block never reach
  BarrierDivergence,   ///< threads of a block wait at different __syncthreads() calls
  WarpOpNotReached,    ///< warp-synchronous operation that some lanes of its mask never reach
  WarpOpDivergence,    ///< lanes of one warp operation differ in call, mask or kind
  BadShuffleSource,    ///< a shuffle reads a lane outside its mask or the block
  Deadlock,            ///< no thread of the block can go on
  AsyncCopyInFlight,   ///< shared memory read while a cp.async to it is in flight, or never waited
                       ///< for
  HostApi,             ///< a host runtime call with pointers outside every buffer
  WgmmaInFlight,       ///< a wgmma never waited for, its accumulators or operands changed in flight
  WgmmaNoFence,        ///< a wgmma with no wgmma_fence before it
  WgmmaDescriptor,     ///< a wgmma descriptor the hardware cannot use as it is (swizzle alignment)
  Mbarrier, ///< an mbarrier used before mbarrier_init, re-initialized while threads wait on it, or
            ///< given more arrivals or transaction bytes than its phase expects
  DeviceAssert, ///< a tl::device_assert whose condition was false
};
const char *finding_kind_name(FindingKind k);

/// One report. `text` is the printed form (several lines, ending in a newline).
struct Finding {
  FindingKind kind;
  std::string text;
  int occurrences = 1; ///< identical findings (same kind and code locations) are counted once
};

/// The reports since the last call (or since the program started), oldest first; clears them
/// and the error count that decides the exit status. For tests of the emulator itself.
std::vector<Finding> take_findings();
/// Errors reported so far (each occurrence counts).
long error_count();
/// Whether reports are also printed to stderr as they happen (default true).
void set_print_findings(bool on);

/// Buffers the kernels may access: cudaMalloc/hipMalloc register theirs. Memory a host program
/// obtained otherwise can be registered too (and must be unregistered before it is freed).
void register_buffer(const void *p, size_t bytes);
void unregister_buffer(const void *p);

/// A launch: `body(ctx)` runs once per thread. [args, args + argsBytes) holds the kernel's
/// arguments, which every thread reads. `kernel` only names the kernel in reports.
struct LaunchConfig {
  dim3 grid, block;
  size_t dynamicSharedBytes = 0;
  int warpSize = 32;
};
Error launch(const LaunchConfig &config, void (*body)(void *), void *ctx, const void *args,
             size_t argsBytes, const void *kernel);
/// The kernel function of the latest launch with a valid configuration (null before any): tests
/// check with it which of a kernel's variants its launcher chose.
const void *last_kernel();

/// Dynamic shared memory (LaunchConfig::dynamicSharedBytes). A launch may give at most what the
/// kernel's attribute allows (set_max_dynamic_shared), by default 48 KB with 32-lane warps (CUDA
/// needs the attribute above that) and 64 KB with 64-lane wavefronts (HIP, a gfx90a workgroup's
/// LDS); the attribute goes up to max_dynamic_shared_bytes. A launch above its allowance fails
/// with ErrorInvalidValue, as on the GPU. Static __shared__ variables are not counted.
constexpr size_t max_dynamic_shared_bytes(int warpSize) {
  return warpSize == 32 ? 227 * 1024 : 64 * 1024; // an H100 (sm_90), a gfx90a workgroup
}
/// cudaFuncSetAttribute / hipFuncSetAttribute with the maximum dynamic shared memory size:
/// ErrorInvalidValue for a size below 0 or above max_dynamic_shared_bytes(warpSize).
Error set_max_dynamic_shared(const void *kernel, int bytes, int warpSize);
/// The running launch's dynamic shared memory (tilec::rt::dynamic_shared_memory()): its
/// dynamicSharedBytes bytes, 1024-byte aligned, checked as __shared__ variables are (an access
/// past the launch's size is out of bounds).
void *dynamic_shared_memory();

namespace detail {
template <class... P> struct KernelCall {
  void (*kernel)(P...);
  std::tuple<std::decay_t<P>...> args;
  static void run(void *self) {
    auto *c = static_cast<KernelCall *>(self);
    std::apply(c->kernel, c->args);
  }
};
} // namespace detail

/// Launches `kernel` with `args` converted to its parameter types.
template <class... P, class... A>
Error launch_kernel(const LaunchConfig &config, void (*kernel)(P...), A &&...args) {
  static_assert(sizeof...(P) == sizeof...(A), "wrong number of kernel arguments");
  detail::KernelCall<P...> call{kernel, {static_cast<P>(std::forward<A>(args))...}};
  return launch(config, &detail::KernelCall<P...>::run, &call, &call, sizeof(call),
                reinterpret_cast<const void *>(kernel));
}

// ---- used by the device built-ins of tilec/emu/cuda.hpp and tilec/emu/hip.hpp
// -------------------- Each is called from an always-inline built-in, so the caller's return
// address these functions record is the call site in the kernel.
uint3 thread_idx();
uint3 block_idx();
uint3 block_dim();
uint3 grid_dim();
void sync_threads();
/// bar.sync id, count: barrier `id` (1 to 15) among `count` threads (whole warps). It completes
/// when `count` threads wait at it (the first `count` to arrive, as on the GPU), ordering what
/// each did before it before what any does after it; threads of the block that do not take part
/// are not waited for.
void named_barrier(int id, int count);

enum class WarpOp {
  ShflXor,
  Shfl,
  ShflUp,
  ShflDown,
  Ballot,
  Any,
  All,
  AllGather,
  WarpgroupAllGather
};
/// A warp-synchronous operation of the calling thread: `mask` names the lanes taking part (all
/// lanes of the warp for HIP), `value` is the lane's value (a predicate for votes), `param` the
/// lane mask, source lane or delta of a shuffle, `name` the built-in's name for reports. Returns
/// the shuffled value (the bits of `value`'s type) or the vote.
uint64_t warp_op(WarpOp op, uint64_t mask, uint64_t value, int param, int width, const char *name);
/// A warp-synchronous exchange for the matrix instructions (tilec/cuda/tensor_core.cuh): every lane
/// of `mask` gives `bytes` bytes at `in`; when all have arrived, each finds lane l's bytes at
/// out + l * bytes (lanes outside the mask leave theirs untouched). The lanes must agree on
/// `bytes`.
void warp_all_gather(uint64_t mask, const void *in, void *out, unsigned bytes, const char *name);

/// The return address of this call: a code location in the caller. A runtime helper that does part
/// of its work in a function of its own (not inlined into the kernel) takes it where it is inlined
/// and passes it on to the calls that accept one, so that reports name the kernel's line.
const void *call_site();
/// A warpgroup-synchronous exchange (tilec/cuda/wgmma.cuh): the 128 threads of the calling
/// thread's warpgroup (4 consecutive warps, threads 128 g to 128 g + 127 of the block) each give
/// `bytes` bytes at `in`; when all have arrived, each finds the bytes of the warpgroup's thread i
/// at out + i * bytes. Every thread of the warpgroup must take part (a thread that has returned, or
/// a warpgroup the block does not fill, is reported); `pc` is the operation's line (call_site()).
void warpgroup_all_gather(const void *in, void *out, unsigned bytes, const char *name,
                          const void *pc);

// ---- wgmma (tilec/cuda/wgmma.cuh) ---------------------------------------------------------------
/// A shared-memory descriptor holds a 14-bit address, which cannot name host memory: on the
/// emulator it counts from a 1024-byte aligned host address, a "window" the emulator numbers (1 to
/// 1023, per launch). Returns the window of `p` (registering it) and sets `*address` to p's
/// address in it, p % 1024: the address bits that a swizzle reads are the host's.
unsigned descriptor_window(const void *p, uint32_t *address);
/// The host address of window `window`'s address 0; null for a number this launch did not give.
const void *descriptor_window_base(unsigned window);
/// 16 shared-memory bytes a wgmma read, and where: they must not change while it is in flight.
struct WgmmaRead {
  const void *addr;
  unsigned char bytes[16];
};
/// wgmma.fence: the thread's next wgmma may start a new product on its accumulators.
void wgmma_fence();
/// Sets value[0, count) to what the accumulator registers [acc, acc + count) will hold when the
/// thread's last wgmma in flight on them lands, and returns true; false when none is in flight.
bool wgmma_in_flight(const float *acc, unsigned count, float *value);
/// Starts a wgmma of the calling thread, in its open group: `result` (count floats) lands in the
/// accumulator registers at `acc` at the wgmma_wait that retires the group; until then they hold a
/// NaN pattern, and they must not be written. `reads` are the thread's share of its operands, which
/// must not change before then either. A wgmma that does not continue one in flight on the same
/// registers needs a wgmma_fence since the thread's last wgmma_wait (or its start): reported
/// otherwise (WgmmaNoFence).
void wgmma_issue(float *acc, const float *result, unsigned count, const WgmmaRead *reads,
                 unsigned nReads, const char *name);
/// wgmma.commit_group: closes the thread's open group (an empty one if it issued nothing).
void wgmma_commit();
/// wgmma.wait_group: retires the thread's oldest groups until at most `pending` remain; their
/// results land (the last one on each accumulator), and their operands are compared with what they
/// read (WgmmaInFlight when they changed, or when the accumulator registers were written).
void wgmma_wait(int pending);
/// A finding of a model in tilec's runtime headers (the checks of a wgmma's descriptors): `what`
/// says what is wrong, in one line; the report adds the calling thread and its line.
void report_finding(FindingKind kind, const char *what);

/// cp.async (tilec/cuda/tensor_core.cuh): the calling thread starts a copy of `bytes` bytes (the
/// source was read at the call: `data`) to shared `dst`. The bytes land only when a wait completes
/// the copy's group; until then a read of them by any thread is reported (AsyncCopyInFlight).
void async_copy(void *dst, const void *data, unsigned bytes);
/// Closes the group of the copies the thread started since its last commit.
void async_commit();
/// Completes the thread's oldest committed groups until at most `pending` remain: their bytes are
/// written (checked as the thread's writes to shared memory).
void async_wait(int pending);

// ---- mbarriers and bulk copies (tilec/cuda/mbarrier.cuh, tilec/cuda/tma.cuh) --------------------
// An mbarrier is 8 bytes of shared memory that the emulator keeps beside it: its expected
// arrivals, the arrivals and transaction bytes its current phase still waits for, and the number
// of phases completed. A phase completes when all its arrivals have come and the bulk copies
// started on it have delivered the bytes its arrivals announced (expect_tx). Waiting for a phase
// orders the waiter after every access that the arriving threads made before their arrival, and
// after the copies' bytes (docs/emulation.md, "mbarriers and bulk copies").
/// mbarrier.init: `count` arrivals per phase, phase 0. `pc` is the call's line (call_site()).
void mbarrier_init(void *bar, unsigned count, const void *pc);
/// mbarrier.expect_tx (`arrive` false) or mbarrier.arrive.expect_tx (`arrive` true; txBytes 0 for
/// a plain mbarrier.arrive): adds txBytes to the bytes the current phase waits for, then arrives.
void mbarrier_arrive(void *bar, unsigned txBytes, bool arrive, const void *pc);
/// mbarrier.try_wait.parity: whether the phase of parity `parity` has completed (the current
/// phase's parity differs). A thread that finds it incomplete waits until it is, as a spinning
/// thread would, and then gets false; `block` true waits and returns true.
bool mbarrier_wait_parity(void *bar, unsigned parity, bool block, const void *pc);
/// cp.async.bulk (.tensor) into shared memory, completing on the mbarrier `bar`: the calling
/// thread's copy of `bytes` bytes (the source was read at the call: `data`) to shared `dst`. It is
/// checked as the thread's write at the call; the bytes land when the barrier's current phase has
/// had all its arrivals, and count against its transaction bytes then. Until they land a read of
/// them is reported (AsyncCopyInFlight).
void bulk_copy_to_shared(void *dst, const void *data, unsigned bytes, void *bar, const void *pc);
/// A tensor map's fields (tilec/cuda/tma.cuh): a row-major 2-D tensor and the box one copy moves.
struct TensorBox {
  const void *base;
  uint64_t rows, cols, rowStrideBytes;
  uint32_t boxRows, boxCols, elementBytes;
  uint32_t swizzleRowBytes; ///< 32, 64 or 128; 0 unswizzled
};
/// cp.async.bulk.tensor.2d into shared memory: the box at (row, col) of the tensor, each element
/// inside the tensor checked as the calling thread's read, zeros outside, laid out at `dst` as the
/// hardware lays it out (rows of boxCols elements, 16-byte chunks swizzled by the address bits);
/// then as bulk_copy_to_shared. `dst` must be 128-byte aligned.
void tensor_load_2d(void *dst, const TensorBox &box, int64_t row, int64_t col, void *bar,
                    const void *pc);
/// cp.async.bulk.tensor.2d from shared memory: the box at `src` (laid out as tensor_load_2d lays
/// it out) written to (row, col) of the tensor, done at the call, as the calling thread's reads and
/// writes. Rows and columns outside the tensor are skipped, except that, as on an H100, a row is
/// written in whole 16-byte chunks: up to the next 16-byte boundary past the last column. Negative
/// coordinates stop the thread (the GPU faults: an illegal instruction).
void tensor_store_2d(const void *src, const TensorBox &box, int64_t row, int64_t col,
                     const void *pc);

enum class AtomicOp { Add, Min, Max, Exch, Cas, And, Or, Xor };
enum class AtomicType { I32, U32, I64, U64, F32, F64, F16, BF16 }; // F16, BF16: Add only
/// Performs an atomic read-modify-write of the value at p (checked like any access; atomics do not
/// race with each other) and returns the old value's bits. `compare` is used by Cas.
uint64_t atomic_rmw(void *p, AtomicType type, AtomicOp op, uint64_t operand, uint64_t compare);

/// tl::device_assert's condition was false in the current thread (tilec::rt::assert_fail):
/// reported with the message, the condition's text, its location and the thread; the thread stops
/// and the launch fails with ErrorAssert, as on the GPU.
[[noreturn]] void device_assert_failed(const char *message, const char *condition, const char *file,
                                       int line, const void *pc);

/// A vector access of `bytes` at p must be aligned to `bytes` (tilec's runtime helpers call this
/// before every vector access; the GPU faults on a misaligned one, and a stopped thread does not
/// perform it here either).
void check_vector_alignment(const void *p, size_t bytes);

} // namespace tilec::emu
