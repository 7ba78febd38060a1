#pragma once
/// \file State shared by the emulator's parts: the scheduler (Scheduler.cpp), the memory checker
/// (Memory.cpp) and the reports (Report.cpp). None of this code is instrumented: only the kernel's
/// translation unit is compiled with -fsanitize=thread.

#include <tilec/emu/emu.hpp>

#include <boost/context/fiber.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

namespace tilec::emu::internal {

enum class ThreadState { Runnable, AtBarrier, AtNamedBarrier, AtWarpOp, AtMbarrier, Done, Stopped };

/// A warp operation a thread waits in.
struct WarpRequest {
  WarpOp op;
  uint64_t mask; ///< lanes taking part, already limited to the lanes that exist
  uint64_t value, result;
  int param, width;
  const char *name;
  const void *in = nullptr; ///< AllGather: this lane's bytes, `bytes` long
  void *out = nullptr;      ///< AllGather: where every lane's bytes go, `bytes` apart
  unsigned bytes = 0;
};

/// A cp.async the thread started: its destination and the bytes it read from the source.
struct AsyncCopy {
  uintptr_t dst = 0;
  unsigned bytes = 0;
  unsigned char data[16] = {};
  const void *pc = nullptr;
};

/// A wgmma the thread issued (tilec/cuda/wgmma.cuh): its accumulator registers, the result that
/// lands in them when a wgmma_wait retires its group, and its share of the operands as it read
/// them.
struct WgmmaOp {
  float *acc = nullptr;
  unsigned count = 0;
  std::vector<float> result;
  std::vector<WgmmaRead> reads;
  const void *pc = nullptr;
};

/// One GPU thread of the running block.
struct Thread {
  boost::context::fiber fiber; ///< the thread, while suspended
  boost::context::fiber sched; ///< the scheduler, while the thread runs
  unsigned linear = 0;         ///< x + y * bx + z * bx * by
  uint3 idx{};
  ThreadState state = ThreadState::Runnable;
  const void *waitPc = nullptr; ///< the barrier or warp operation it waits in
  WarpRequest req{};
  uintptr_t stackLo = 0, stackHi = 0;
  std::vector<AsyncCopy> asyncOpen;                ///< cp.async copies not yet committed
  std::vector<std::vector<AsyncCopy>> asyncGroups; ///< committed groups, oldest first
  std::vector<WgmmaOp> wgmmaOpen;                  ///< wgmmas not yet committed
  std::vector<std::vector<WgmmaOp>> wgmmaGroups;   ///< committed wgmma groups, oldest first
  bool wgmmaFenced = false; ///< a wgmma_fence since the last wgmma_wait (or the start)
  /// Happens-before (docs/emulation.md, "Races"): the thread's accesses carry the stamp of the
  /// sync event that began its current segment (the block's start, the last barrier, its last
  /// mbarrier arrival or bulk copy). Another thread's access of segment s is ordered before this
  /// thread's present when s < the block's last barrier stamp, or s < known[that thread] (what
  /// this thread acquired by waiting for mbarrier phases since that barrier).
  uint32_t segment = 0;
  std::unordered_map<uint32_t, uint32_t> known;
  int namedBarrier = 0, namedCount = 0; ///< AtNamedBarrier: the barrier's id and thread count
  uint64_t arrival = 0;                 ///< AtNamedBarrier: when it arrived (launch order)
  uintptr_t mbarrier = 0;      ///< AtMbarrier: the barrier it waits on
  unsigned mbarrierParity = 0; ///< AtMbarrier: the parity of the phase it waits for
};

/// A code location: the return address of a call in the kernel (an instrumented access or a
/// built-in).
using Pc = const void *;

/// What the scheduler knows while a launch runs.
struct Launch {
  LaunchConfig config;
  unsigned threadsPerBlock = 0;
  uint3 block{};
  uint64_t blockSerial = 0; ///< counts blocks over the whole program: shared "written" marks
  uint32_t clock = 0;       ///< stamps sync events over the whole program (Thread::segment)
  uint32_t barrierStamp = 0;  ///< the stamp of the block's last barrier (or of its start)
  bool usesMbarriers = false; ///< the block initialized an mbarrier (reports say so)
  const void *kernel = nullptr;
  uintptr_t argsLo = 0, argsHi = 0;
  std::vector<Thread> *threads = nullptr;
  bool aborted = false;
  Error abortError = Success;
};

extern Launch *g_launch;    ///< non-null while a launch runs
extern Thread *g_current;   ///< the thread whose fiber runs, null on the scheduler
extern bool g_instrumented; ///< a translation unit compiled with -fsanitize=thread was loaded
/// True while the emulator's own code runs on a kernel thread. Inline library code (std::string,
/// std::map) may be the instrumented copy from the kernel's translation unit (the linker keeps one
/// copy of each), so its accesses reach the checker, which must ignore them. Never true across a
/// fiber switch.
extern bool g_inEmulator;

/// Marks the emulator's own work on a kernel thread (see g_inEmulator).
struct InEmulator {
  bool saved = g_inEmulator;
  InEmulator() { g_inEmulator = true; }
  ~InEmulator() { g_inEmulator = saved; }
};

/// Suspends the calling thread (in a fiber) until the scheduler resumes it.
void yield();
/// Stops the calling thread for good and aborts the launch with `e` (a fatal finding). Never
/// returns.
[[noreturn]] void stop_thread(Error e);

/// The runtime's last error (cudaGetLastError) and the sticky one a faulting launch leaves.
Error set_error(Error e);
Error take_last_error();
Error last_error();
Error sticky_error();

// ---- memory (Memory.cpp)
// -------------------------------------------------------------------------
enum class Access { Read, Write, Atomic };
/// Checks one access of the current thread; may stop the thread.
void check_access(uintptr_t addr, size_t size, Access kind, bool checkAlignment, Pc pc);
/// Called before a launch's first block (on the scheduler's stack): reads the program's symbols and
/// finds the kernel's __shared__ variables.
void prepare_launch();
/// Called at the start of every block: poisons shared memory.
void begin_block();
/// Reports the cp.async copies a thread that returned never waited for (their bytes never land).
void check_async_at_exit(const Thread &t);

/// Whether an access of thread `thread` in its segment `segment` is ordered before the calling
/// thread's present (happens-before through barriers and mbarrier phases). `thread` may be
/// kManyThreads: several threads, `segment` the latest of theirs; then only a barrier orders.
bool ordered_before_current(uint32_t thread, uint32_t segment);
constexpr uint32_t kManyThreads = ~0u;
/// Forgets the reader sets of cells several threads read (a barrier orders them all).
void forget_readers();
/// Starts a new segment of the calling thread after a release (an mbarrier arrival): returns the
/// stamp that ends the old one (accesses of segments below it are what the release publishes).
uint32_t release_segment(Thread &t);
/// Adds `from` (a thread's or a phase's knowledge) to `to`, keeping the larger stamp.
void join_knowledge(std::unordered_map<uint32_t, uint32_t> &to,
                    const std::unordered_map<uint32_t, uint32_t> &from);
/// Marks `bytes` shared bytes at `dst` in flight for a bulk copy started at `pc` (reads before
/// they land are reported); returns false when they are not inside one shared variable.
bool mark_bulk_in_flight(uintptr_t dst, size_t bytes, Pc pc);
/// Lands them: clears the marks `pc` made.
void land_bulk(uintptr_t dst, size_t bytes, Pc pc);
/// Whether [a, a + n) lies inside one __shared__ variable (or the launch's dynamic shared memory).
bool is_shared_range(uintptr_t a, size_t n);
/// "shared 0x... (byte 4 of 16-byte k(...)::smem)".
std::string describe_shared_address(uintptr_t a);

// ---- mbarriers and bulk copies (Mbarrier.cpp)
// ------------------------------------------------------------
/// Forgets the block's mbarriers (when a block ends, and before the next), reporting the bulk
/// copies that never landed.
void reset_mbarriers();
/// For reports: what the thread's mbarrier wait waits for ("phase 3 (parity 1) of the mbarrier at
/// ...: 2 of 4 arrivals and 1024 transaction bytes still expected").
std::string describe_mbarrier_wait(const Thread &t);

// ---- wgmma (Scheduler.cpp)
// -----------------------------------------------------------------------
/// Reports the wgmmas a thread that returned never waited for (their results never land).
void check_wgmma_at_exit(const Thread &t);

// ---- reports (Report.cpp)
// ------------------------------------------------------------------------
/// A finding under construction: `text` may contain code locations as "{pc:N}" placeholders,
/// replaced by "file:line" when printed (symbolizing needs a subprocess, done after the launch).
struct PendingFinding {
  FindingKind kind;
  std::vector<Pc> pcs;
  std::string text;
};
/// Records a finding; identical ones (same kind, same code locations) are counted, not repeated.
void report(FindingKind kind, std::vector<Pc> pcs, std::string text);
/// Prints and moves to the finished list what was recorded during the launch.
void flush_reports();
/// "thread 37 (warp 1, lane 5) of block (2,0,0)".
std::string describe_thread(const Thread &t);
/// "file:line" of the kernel line a pc belongs to, plus the helper it is inside of, if any.
std::string describe_pc(Pc pc);
std::string hex(uintptr_t v);

} // namespace tilec::emu::internal
