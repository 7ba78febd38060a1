/// \file The emulator's scheduler: blocks one after another, the threads of a block as cooperative
/// fibers. A thread runs until it waits at a barrier or a warp operation, or returns; when every
/// thread that a barrier or warp operation needs waits there, it completes and they go on.

#include "Internal.h"

#include <sys/mman.h>

#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace ctx = boost::context;

namespace tilec::emu::internal {

Launch *g_launch = nullptr;
const void *g_lastKernel = nullptr; // the kernel function of the latest launch (last_kernel)
Thread *g_current = nullptr;

namespace {

// ---- fiber stacks -------------------------------------------------------------------------------
/// One stack per thread of a block, kept for the whole program; a guard page below each turns a
/// stack overflow into a crash rather than silent corruption. TILEC_EMU_STACK_KB sets the size.
class StackPool {
public:
  size_t size() const { return size_; }
  /// The stack of thread i: [lo, lo + size()).
  char *get(unsigned i) {
    while (stacks_.size() <= i) {
      const size_t page = 4096;
      void *m = mmap(nullptr, size_ + page, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (m == MAP_FAILED) {
        std::fprintf(stderr, "tilec-emu: cannot allocate a fiber stack\n");
        std::abort();
      }
      mprotect(m, page, PROT_NONE);
      stacks_.push_back(static_cast<char *>(m) + page);
    }
    return stacks_[i];
  }

private:
  static size_t configuredSize() {
    const char *kb = std::getenv("TILEC_EMU_STACK_KB");
    long v = kb ? std::atol(kb) : 0;
    return (v > 0 ? size_t(v) : 256) * 1024;
  }
  size_t size_ = configuredSize();
  std::vector<char *> stacks_;
};
StackPool g_stacks;

/// Hands one fixed stack to one fiber; the pool keeps the memory.
struct FixedStack {
  char *lo;
  size_t size;
  ctx::stack_context allocate() {
    ctx::stack_context sc;
    sc.size = size;
    sc.sp = lo + size;
    return sc;
  }
  void deallocate(ctx::stack_context &) {}
};

std::vector<Thread> g_threads;
void (*g_body)(void *) = nullptr;
void *g_ctx = nullptr;

// ---- describing groups of threads ---------------------------------------------------------------
/// "0-31, 64, 96-127"
std::string ranges(const std::vector<unsigned> &ids) {
  std::string s;
  for (size_t i = 0; i < ids.size();) {
    size_t j = i;
    while (j + 1 < ids.size() && ids[j + 1] == ids[j] + 1)
      ++j;
    if (!s.empty())
      s += ", ";
    s += std::to_string(ids[i]);
    if (j > i)
      s += "-" + std::to_string(ids[j]);
    i = j + 1;
  }
  return s;
}

std::string blockName() {
  const uint3 b = g_launch->block;
  return "block (" + std::to_string(b.x) + "," + std::to_string(b.y) + "," + std::to_string(b.z) +
         ")";
}

unsigned warpSize() { return unsigned(g_launch->config.warpSize); }

/// What a thread that does not take part in something does instead, for reports.
std::string whereIs(const Thread &t, std::vector<Pc> &pcs) {
  switch (t.state) {
  case ThreadState::Done:
    return "returned";
  case ThreadState::Stopped:
    return "stopped at an earlier error";
  case ThreadState::AtBarrier:
    pcs.push_back(t.waitPc);
    return "wait at __syncthreads() at {pc:" + std::to_string(pcs.size() - 1) + "}";
  case ThreadState::AtNamedBarrier:
    pcs.push_back(t.waitPc);
    return "wait at named barrier " + std::to_string(t.namedBarrier) + " (" +
           std::to_string(t.namedCount) + " threads) at {pc:" + std::to_string(pcs.size() - 1) +
           "}";
  case ThreadState::AtWarpOp:
    pcs.push_back(t.waitPc);
    return std::string("wait at ") + t.req.name + " at {pc:" + std::to_string(pcs.size() - 1) + "}";
  case ThreadState::AtMbarrier:
    pcs.push_back(t.waitPc);
    return "wait at {pc:" + std::to_string(pcs.size() - 1) + "} for " + describe_mbarrier_wait(t);
  case ThreadState::Runnable:
    break;
  }
  return "run";
}

/// Groups threads by what whereIs says: "threads 0-63 returned; threads 64-127 wait at ...".
std::string describeOthers(const std::vector<unsigned> &ids, std::vector<Pc> &pcs,
                           const char *noun) {
  std::map<std::pair<int, Pc>, std::vector<unsigned>> groups;
  for (unsigned id : ids) {
    const Thread &t = g_threads[id];
    groups[{int(t.state), t.waitPc}].push_back(id);
  }
  std::string s;
  for (auto &[key, members] : groups) {
    std::vector<unsigned> shown = members;
    if (std::string(noun) == "lanes")
      for (unsigned &m : shown)
        m %= warpSize();
    s += "  " + std::string(noun) + " " + ranges(shown) + " " +
         whereIs(g_threads[members[0]], pcs) + "\n";
  }
  return s;
}

// ---- barriers -----------------------------------------------------------------------------------
/// A new barrier interval (a barrier completed, or a block starts): every access so far is
/// ordered before every access from now on.
void beginBarrierInterval() {
  g_launch->barrierStamp = ++g_launch->clock;
  forget_readers();
  for (Thread &t : g_threads) {
    t.segment = g_launch->barrierStamp;
    t.known.clear();
  }
}

/// Completes the barrier when every thread that has not returned waits at one. Returns true if
/// threads were released.
bool resolveBarrier() {
  std::vector<unsigned> waiting, absent;
  for (const Thread &t : g_threads) {
    if (t.state == ThreadState::AtBarrier)
      waiting.push_back(t.linear);
    else if (t.state == ThreadState::Done || t.state == ThreadState::Stopped)
      absent.push_back(t.linear);
    else
      return false; // still running or in a warp operation
  }
  if (waiting.empty())
    return false;
  std::vector<Pc> pcs{g_threads[waiting[0]].waitPc};
  if (!absent.empty()) {
    std::string text = "__syncthreads() at {pc:0} not reached by every thread of " + blockName() +
                       "\n  threads " + ranges(waiting) + " wait there\n" +
                       describeOthers(absent, pcs, "threads");
    report(FindingKind::BarrierNotReached, pcs, text);
  }
  std::map<Pc, std::vector<unsigned>> byPc;
  for (unsigned id : waiting)
    byPc[g_threads[id].waitPc].push_back(id);
  if (byPc.size() > 1) {
    std::vector<Pc> dpcs;
    std::string text = "threads of " + blockName() + " wait at different __syncthreads() calls\n";
    for (auto &[pc, ids] : byPc) {
      dpcs.push_back(pc);
      text += "  threads " + ranges(ids) + " at {pc:" + std::to_string(dpcs.size() - 1) + "}\n";
    }
    report(FindingKind::BarrierDivergence, dpcs, text);
  }
  for (unsigned id : waiting)
    g_threads[id].state = ThreadState::Runnable;
  beginBarrierInterval(); // accesses before and after no longer race
  return true;
}

/// Completes the named barriers that `count` threads wait at: the first `count` to arrive go on,
/// each ordered after what every one of them did before the barrier (their knowledge joined).
/// Threads waiting at one id with different counts are reported. Returns whether any went on.
bool resolveNamedBarriers() {
  bool released = false;
  for (int id = 1; id < 16; ++id) {
    std::vector<Thread *> waiting;
    for (Thread &t : g_threads)
      if (t.state == ThreadState::AtNamedBarrier && t.namedBarrier == id)
        waiting.push_back(&t);
    if (waiting.empty())
      continue;
    std::sort(waiting.begin(), waiting.end(),
              [](const Thread *a, const Thread *b) { return a->arrival < b->arrival; });
    const int count = waiting[0]->namedCount;
    for (const Thread *t : waiting)
      if (t->namedCount != count) {
        report(FindingKind::BarrierDivergence, {waiting[0]->waitPc, t->waitPc},
               "threads of " + blockName() + " wait at named barrier " + std::to_string(id) +
                   " with different thread counts: " + std::to_string(count) + " at {pc:0}, " +
                   std::to_string(t->namedCount) + " at {pc:1}\n");
        break;
      }
    if (waiting.size() < size_t(count))
      continue;
    waiting.resize(size_t(count));
    // Each one's release, then everything any of them knew, for all of them.
    std::unordered_map<uint32_t, uint32_t> joined;
    for (Thread *t : waiting) {
      join_knowledge(joined, t->known);
      const uint32_t end = ++g_launch->clock;
      joined[t->linear] = std::max(joined[t->linear], end);
      t->segment = end;
    }
    for (Thread *t : waiting) {
      join_knowledge(t->known, joined);
      t->state = ThreadState::Runnable;
    }
    released = true;
  }
  return released;
}

// ---- warp operations ----------------------------------------------------------------------------
uint64_t laneBit(unsigned lane) { return uint64_t{1} << lane; }

/// Source lane of a shuffle for `lane`, or -1 when the lane keeps its own value.
int shuffleSource(const WarpRequest &r, unsigned lane) {
  const int w = r.width, seg = int(lane) / w * w;
  switch (r.op) {
  case WarpOp::ShflXor: {
    int src = int(lane) ^ r.param;
    return src >= seg + w ? -1 : src;
  }
  case WarpOp::Shfl:
    return seg + ((r.param % w) + w) % w;
  case WarpOp::ShflUp: {
    int src = int(lane) - r.param;
    return src < seg ? -1 : src;
  }
  case WarpOp::ShflDown: {
    int src = int(lane) + r.param;
    return src >= seg + w ? -1 : src;
  }
  default:
    return -1;
  }
}

/// Completes the warp operations whose every lane waits in them: in the same call with the same
/// mask, or (`strict` false, when nothing else can go on) in any warp operation, which is reported.
/// Returns true if any completed.
bool resolveWarpOps(bool strict) {
  const unsigned W = warpSize(), n = g_launch->threadsPerBlock;
  bool progress = false;
  for (unsigned base = 0; base < n; base += W) {
    const unsigned lanes = std::min(W, n - base);
    for (unsigned l = 0; l < lanes; ++l) {
      Thread &first = g_threads[base + l];
      if (first.state != ThreadState::AtWarpOp || first.req.op == WarpOp::WarpgroupAllGather)
        continue; // a warpgroup operation: resolveWarpgroupOps
      const uint64_t mask = first.req.mask;
      bool complete = true;
      // Lanes that have returned do not take part (CUDA: "non-exited threads named in mask").
      uint64_t in = 0;
      for (unsigned m = 0; m < lanes && complete; ++m) {
        if (!(mask & laneBit(m)))
          continue;
        const Thread &o = g_threads[base + m];
        ThreadState s = o.state;
        if (s == ThreadState::AtWarpOp && o.req.op == WarpOp::WarpgroupAllGather)
          complete = false; // it waits for its warpgroup, not in this warp operation
        else if (s == ThreadState::AtWarpOp && strict &&
                 (o.req.mask != mask || o.req.op != first.req.op || o.waitPc != first.waitPc))
          complete = false; // it waits in another warp operation, which may complete first
        else if (s == ThreadState::AtWarpOp)
          in |= laneBit(m);
        else if (s != ThreadState::Done && s != ThreadState::Stopped)
          complete = false;
      }
      if (!complete)
        continue;
      // Every lane of the mask waits in a warp operation: the same one, with the same mask?
      std::vector<unsigned> odd;
      for (unsigned m = 0; m < lanes; ++m) {
        const Thread &t = g_threads[base + m];
        if ((in & laneBit(m)) &&
            (t.req.mask != mask || t.req.op != first.req.op || t.waitPc != first.waitPc))
          odd.push_back(base + m);
      }
      if (!odd.empty()) {
        std::vector<Pc> pcs{first.waitPc};
        std::string text = std::string(first.req.name) + " at {pc:0}: the lanes of warp " +
                           std::to_string(base / W) + " in " + blockName() +
                           " do not all wait in the same call with the same mask\n";
        for (unsigned id : odd) {
          const Thread &t = g_threads[id];
          pcs.push_back(t.waitPc);
          char buf[64];
          std::snprintf(buf, sizeof buf, "mask 0x%llx",
                        static_cast<unsigned long long>(t.req.mask));
          text += "  lane " + std::to_string(id - base) + " waits in " + t.req.name +
                  " at {pc:" + std::to_string(pcs.size() - 1) + "} with " + buf + "\n";
        }
        report(FindingKind::WarpOpDivergence, pcs, text);
      }
      // Complete it for the lanes of `mask`.
      uint64_t ballot = 0;
      for (unsigned m = 0; m < lanes; ++m)
        if ((in & laneBit(m)) && g_threads[base + m].req.value)
          ballot |= laneBit(m);
      for (unsigned m = 0; m < lanes; ++m) {
        if (!(in & laneBit(m)))
          continue;
        Thread &t = g_threads[base + m];
        WarpRequest &r = t.req;
        switch (r.op) {
        case WarpOp::AllGather:
          for (unsigned src = 0; src < lanes; ++src)
            if (in & laneBit(src)) {
              const WarpRequest &from = g_threads[base + src].req;
              if (from.bytes != r.bytes) {
                report(FindingKind::WarpOpDivergence, {t.waitPc, g_threads[base + src].waitPc},
                       std::string(r.name) + " at {pc:0}: lanes " + std::to_string(m) + " and " +
                           std::to_string(src) + " of warp " + std::to_string(base / W) + " in " +
                           blockName() + " exchange different sizes\n");
                continue;
              }
              std::memcpy(static_cast<unsigned char *>(r.out) + size_t(src) * r.bytes, from.in,
                          r.bytes);
            }
          break;
        case WarpOp::Ballot:
          r.result = ballot;
          break;
        case WarpOp::Any:
          r.result = ballot != 0;
          break;
        case WarpOp::All:
          r.result = ballot == in;
          break;
        default: {
          int src = shuffleSource(r, m);
          if (src < 0) {
            r.result = r.value;
          } else if (unsigned(src) >= lanes || !(in & laneBit(unsigned(src)))) {
            std::vector<Pc> pcs{t.waitPc};
            report(FindingKind::BadShuffleSource, pcs,
                   std::string(r.name) + " at {pc:0}: lane " + std::to_string(m) + " of warp " +
                       std::to_string(base / W) + " in " + blockName() + " reads lane " +
                       std::to_string(src) +
                       (unsigned(src) >= lanes ? ", which does not exist in this block\n"
                        : !(mask & laneBit(unsigned(src))) ? ", which is not in the mask\n"
                                                           : ", which has returned\n"));
            r.result = r.value;
          } else {
            r.result = g_threads[base + unsigned(src)].req.value;
          }
        }
        }
      }
      for (unsigned m = 0; m < lanes; ++m)
        if (in & laneBit(m))
          g_threads[base + m].state = ThreadState::Runnable;
      progress = true;
    }
  }
  return progress;
}

// ---- warpgroup operations -----------------------------------------------------------------------
/// A warpgroup: 4 consecutive warps of 32 lanes, the unit of wgmma (tilec/cuda/wgmma.cuh).
constexpr unsigned kWarpgroupThreads = 128;

bool inWarpgroupOp(const Thread &t) {
  return t.state == ThreadState::AtWarpOp && t.req.op == WarpOp::WarpgroupAllGather;
}
bool hasExited(const Thread &t) {
  return t.state == ThreadState::Done || t.state == ThreadState::Stopped;
}

/// Completes the warpgroup exchanges (warpgroup_all_gather) whose every thread waits in them: at
/// the same call, or (`strict` false, when nothing else can go on) at any, which is reported.
/// Threads that have returned, or that the block does not have, do not take part: reported, since a
/// wgmma needs the whole warpgroup. Returns true if any completed.
bool resolveWarpgroupOps(bool strict) {
  const unsigned n = g_launch->threadsPerBlock;
  bool progress = false;
  for (unsigned base = 0; base < n; base += kWarpgroupThreads) {
    const unsigned end = std::min(base + kWarpgroupThreads, n);
    unsigned firstId = end;
    for (unsigned i = base; i < end && firstId == end; ++i)
      if (inWarpgroupOp(g_threads[i]))
        firstId = i;
    if (firstId == end)
      continue;
    const Thread &first = g_threads[firstId];
    std::vector<unsigned> in, absent, odd;
    bool complete = true;
    for (unsigned i = base; i < end && complete; ++i) {
      const Thread &t = g_threads[i];
      if (inWarpgroupOp(t) && t.waitPc != first.waitPc && strict)
        complete = false; // at another call, which may complete first
      else if (inWarpgroupOp(t)) {
        in.push_back(i);
        if (t.waitPc != first.waitPc)
          odd.push_back(i);
      } else if (hasExited(t))
        absent.push_back(i);
      else
        complete = false; // still running, or waiting at something else
    }
    if (!complete)
      continue;
    const std::string group = "warpgroup " + std::to_string(base / kWarpgroupThreads) + " of " +
                              blockName() + " (threads " + std::to_string(base) + "-" +
                              std::to_string(base + kWarpgroupThreads - 1) + ")";
    if (!odd.empty()) {
      std::vector<Pc> pcs{first.waitPc};
      std::string text = std::string(first.req.name) + " at {pc:0}: the threads of " + group +
                         " do not all wait in the same call\n";
      for (unsigned id : odd) {
        pcs.push_back(g_threads[id].waitPc);
        text += "  thread " + std::to_string(id) + " waits in " + g_threads[id].req.name +
                " at {pc:" + std::to_string(pcs.size() - 1) + "}\n";
      }
      report(FindingKind::WarpOpDivergence, pcs, text);
    }
    if (!absent.empty() || end - base < kWarpgroupThreads) {
      std::vector<Pc> pcs{first.waitPc};
      std::string text = std::string(first.req.name) +
                         " at {pc:0} not reached by every thread of " + group + "\n  threads " +
                         ranges(in) + " wait there\n";
      if (!absent.empty())
        text += describeOthers(absent, pcs, "threads");
      if (end - base < kWarpgroupThreads)
        text += "  the block has no threads " + std::to_string(end) + "-" +
                std::to_string(base + kWarpgroupThreads - 1) + " (a warpgroup is 4 full warps)\n";
      report(FindingKind::WarpOpNotReached, pcs, text);
    }
    for (unsigned id : in) {
      const WarpRequest &r = g_threads[id].req;
      for (unsigned src : in) {
        const WarpRequest &from = g_threads[src].req;
        if (from.bytes != r.bytes) {
          report(FindingKind::WarpOpDivergence, {g_threads[id].waitPc, g_threads[src].waitPc},
                 std::string(r.name) + " at {pc:0}: threads " + std::to_string(id) + " and " +
                     std::to_string(src) + " of " + group + " exchange different sizes\n");
          continue;
        }
        std::memcpy(static_cast<unsigned char *>(r.out) + size_t(src - base) * r.bytes, from.in,
                    r.bytes);
      }
    }
    for (unsigned id : in)
      g_threads[id].state = ThreadState::Runnable;
    progress = true;
  }
  return progress;
}

/// No thread can go on: reports what each waits for, then the launch fails.
void reportDeadlock() {
  const unsigned W = warpSize(), n = g_launch->threadsPerBlock;
  // A warpgroup operation that some of its threads never reach.
  for (unsigned base = 0; base < n; base += kWarpgroupThreads) {
    const unsigned end = std::min(base + kWarpgroupThreads, n);
    for (unsigned i = base; i < end; ++i) {
      const Thread &t = g_threads[i];
      if (!inWarpgroupOp(t))
        continue;
      std::vector<unsigned> waiting, missing;
      for (unsigned m = base; m < end; ++m) {
        const Thread &o = g_threads[m];
        if (inWarpgroupOp(o) && o.waitPc == t.waitPc)
          waiting.push_back(m);
        else if (!hasExited(o))
          missing.push_back(m);
      }
      std::vector<Pc> pcs{t.waitPc};
      std::string text = std::string(t.req.name) +
                         " at {pc:0} not reached by every thread of its warpgroup (warpgroup " +
                         std::to_string(base / kWarpgroupThreads) + " of " + blockName() +
                         ")\n  threads " + ranges(waiting) + " wait there\n" +
                         describeOthers(missing, pcs, "threads");
      report(FindingKind::WarpOpNotReached, pcs, text);
      g_launch->aborted = true;
      g_launch->abortError = ErrorLaunchFailure;
      return;
    }
  }
  // A warp operation missing lanes is the usual cause: name it first.
  for (unsigned base = 0; base < n; base += W) {
    const unsigned lanes = std::min(W, n - base);
    for (unsigned l = 0; l < lanes; ++l) {
      const Thread &t = g_threads[base + l];
      if (t.state != ThreadState::AtWarpOp)
        continue;
      std::vector<unsigned> waiting, missing;
      for (unsigned m = 0; m < lanes; ++m) {
        const Thread &o = g_threads[base + m];
        if (!(t.req.mask & laneBit(m)))
          continue;
        if (o.state == ThreadState::AtWarpOp && o.waitPc == t.waitPc)
          waiting.push_back(m);
        else if (o.state != ThreadState::Done && o.state != ThreadState::Stopped)
          missing.push_back(base + m);
      }
      std::vector<Pc> pcs{t.waitPc};
      std::string text = std::string(t.req.name) +
                         " at {pc:0} not reached by every lane of its mask " + "(warp " +
                         std::to_string(base / W) + " of " + blockName() + ")\n" + "  lanes " +
                         ranges(waiting) + " wait there\n" + describeOthers(missing, pcs, "lanes");
      report(FindingKind::WarpOpNotReached, pcs, text);
      g_launch->aborted = true;
      g_launch->abortError = ErrorLaunchFailure;
      return;
    }
  }
  std::vector<unsigned> all;
  for (const Thread &t : g_threads)
    if (t.state != ThreadState::Done && t.state != ThreadState::Stopped)
      all.push_back(t.linear);
  std::vector<Pc> pcs;
  std::string text =
      "no thread of " + blockName() + " can go on\n" + describeOthers(all, pcs, "threads");
  report(FindingKind::Deadlock, pcs, text);
  g_launch->aborted = true;
  g_launch->abortError = ErrorLaunchFailure;
}

/// Runs one block to its end (or until a fatal finding aborts the launch).
void runBlock() {
  const unsigned n = g_launch->threadsPerBlock;
  const dim3 bd = g_launch->config.block;
  begin_block();
  reset_mbarriers();
  g_launch->usesMbarriers = false;
  for (unsigned i = 0; i < n; ++i) {
    Thread &t = g_threads[i];
    t.linear = i;
    t.idx = {i % bd.x, i / bd.x % bd.y, i / (bd.x * bd.y)};
    t.state = ThreadState::Runnable;
    t.waitPc = nullptr;
    // Copies and products left in flight by the thread of an earlier block never land.
    t.asyncOpen.clear();
    t.asyncGroups.clear();
    t.wgmmaOpen.clear();
    t.wgmmaGroups.clear();
    t.wgmmaFenced = false;
    t.mbarrier = 0;
    char *lo = g_stacks.get(i);
    t.stackLo = reinterpret_cast<uintptr_t>(lo);
    t.stackHi = t.stackLo + g_stacks.size();
    t.fiber = ctx::fiber(std::allocator_arg, FixedStack{lo, g_stacks.size()}, [&t](ctx::fiber &&s) {
      t.sched = std::move(s);
      g_body(g_ctx);
      check_async_at_exit(t);
      check_wgmma_at_exit(t);
      t.state = ThreadState::Done;
      return std::move(t.sched);
    });
  }
  beginBarrierInterval();
  for (;;) {
    bool ran = false, live = false;
    for (Thread &t : g_threads) {
      if (t.state == ThreadState::Runnable) {
        g_current = &t;
        t.fiber = std::move(t.fiber).resume();
        g_current = nullptr;
        ran = true;
        if (g_launch->aborted)
          break;
      }
    }
    if (!g_launch->aborted) {
      for (const Thread &t : g_threads)
        live = live || (t.state != ThreadState::Done && t.state != ThreadState::Stopped);
      if (!live) {
        reset_mbarriers(); // copies that never landed are reported now
        return;
      }
      bool progress = resolveNamedBarriers();
      progress = resolveWarpOps(true) || progress;
      progress = resolveWarpgroupOps(true) || progress;
      if (!progress)
        progress = resolveBarrier();
      if (!ran && !progress) // lanes in different warp operations: reported
        progress = resolveWarpOps(false) || resolveWarpgroupOps(false);
      if (!ran && !progress)
        reportDeadlock();
    }
    if (g_launch->aborted) {
      // The suspended threads are abandoned where they are, without unwinding their stacks (the
      // memory belongs to the stack pool and is reused).
      for (Thread &t : g_threads)
        if (t.fiber)
          new ctx::fiber(std::move(t.fiber));
      return;
    }
  }
}

Error g_lastError = Success;
Error g_stickyError = Success;

} // namespace

void yield() {
  Thread *t = g_current;
  t->sched = std::move(t->sched).resume();
}

void stop_thread(Error e) {
  Thread *t = g_current;
  g_inEmulator = false;
  t->state = ThreadState::Stopped;
  g_launch->aborted = true;
  g_launch->abortError = e;
  for (;;)
    yield(); // never resumed
}

Error set_error(Error e) {
  if (e != Success)
    g_lastError = e;
  return e;
}
Error sticky_error() { return g_stickyError; }
Error take_last_error() {
  Error e = g_stickyError != Success ? g_stickyError : g_lastError;
  g_lastError = Success;
  return e;
}
Error last_error() { return g_stickyError != Success ? g_stickyError : g_lastError; }

} // namespace tilec::emu::internal

namespace tilec::emu {
using namespace internal;

namespace {
/// The host addresses of the descriptor windows given out in this launch (descriptor_window),
/// 1024-byte aligned; window 0 is none.
std::vector<uintptr_t> g_descriptorWindows(1, 0);
constexpr uintptr_t kDescriptorWindowAlign = 1024;
constexpr size_t kMaxDescriptorWindows = 1023; ///< the 10 reserved bits 52-61 of a descriptor
void reset_descriptor_windows() { g_descriptorWindows.assign(1, 0); }

/// The dynamic shared memory each kernel's attribute allows (set_max_dynamic_shared).
std::map<const void *, size_t> g_maxDynamicShared;

size_t allowedDynamicShared(const void *kernel, int warpSize) {
  auto it = g_maxDynamicShared.find(kernel);
  if (it != g_maxDynamicShared.end())
    return it->second;
  return warpSize == 32 ? 48 * 1024 : max_dynamic_shared_bytes(warpSize);
}
} // namespace

Error set_max_dynamic_shared(const void *kernel, int bytes, int warpSize) {
  if (!kernel || bytes < 0 || size_t(bytes) > max_dynamic_shared_bytes(warpSize))
    return set_error(ErrorInvalidValue);
  g_maxDynamicShared[kernel] = size_t(bytes);
  return Success;
}

Error launch(const LaunchConfig &config, void (*body)(void *), void *ctxArg, const void *args,
             size_t argsBytes, const void *kernel) {
  if (g_stickyError != Success)
    return g_stickyError;
  if (g_launch) {
    std::fprintf(stderr, "tilec-emu: a kernel launched another kernel; not supported\n");
    std::abort();
  }
  static bool warned = false;
  if (!g_instrumented && !warned) {
    warned = true;
    std::fprintf(stderr, "tilec-emu: warning: no translation unit was compiled with "
                         "-fsanitize=thread: memory accesses are not checked\n");
  }
  const dim3 g = config.grid, b = config.block;
  const unsigned long long threads = 1ull * b.x * b.y * b.z;
  if (threads == 0 || threads > 1024 || g.x == 0 || g.y == 0 || g.z == 0 || b.z > 64 ||
      g.y > 65535 || g.z > 65535)
    return set_error(ErrorInvalidConfiguration);
  if (config.dynamicSharedBytes > allowedDynamicShared(kernel, config.warpSize))
    return set_error(ErrorInvalidValue);
  static uint64_t blockSerial = 0;
  static uint32_t clock = 0;
  g_lastKernel = kernel;
  Launch l;
  l.config = config;
  l.threadsPerBlock = unsigned(threads);
  l.kernel = kernel;
  l.argsLo = reinterpret_cast<uintptr_t>(args);
  l.argsHi = l.argsLo + argsBytes;
  l.threads = &g_threads;
  l.clock = clock;
  g_threads.resize(threads);
  reset_descriptor_windows();
  g_inEmulator = false;
  g_body = body;
  g_ctx = ctxArg;
  g_launch = &l;
  prepare_launch();
  for (unsigned z = 0; z < g.z && !l.aborted; ++z)
    for (unsigned y = 0; y < g.y && !l.aborted; ++y)
      for (unsigned x = 0; x < g.x && !l.aborted; ++x) {
        l.block = {x, y, z};
        l.blockSerial = ++blockSerial;
        runBlock();
      }
  clock = l.clock;
  g_launch = nullptr;
  flush_reports();
  if (l.aborted) {
    g_stickyError = l.abortError; // as on the GPU, a faulting launch spoils the context
    return set_error(l.abortError);
  }
  return Success;
}

const void *last_kernel() { return g_lastKernel; }

uint3 thread_idx() { return g_current ? g_current->idx : uint3{0, 0, 0}; }
uint3 block_idx() { return g_launch ? g_launch->block : uint3{0, 0, 0}; }
uint3 block_dim() { return g_launch ? uint3(g_launch->config.block) : uint3{1, 1, 1}; }
uint3 grid_dim() { return g_launch ? uint3(g_launch->config.grid) : uint3{1, 1, 1}; }

namespace {
[[noreturn]] void outsideKernel(const char *what) {
  std::fprintf(stderr, "tilec-emu: %s called outside a kernel\n", what);
  std::abort();
}
} // namespace

void sync_threads() {
  Pc pc = __builtin_return_address(0);
  Thread *t = g_current;
  if (!t)
    outsideKernel("__syncthreads()");
  t->state = ThreadState::AtBarrier;
  t->waitPc = pc;
  yield();
}

void named_barrier(int id, int count) {
  Pc pc = __builtin_return_address(0);
  Thread *t = g_current;
  if (!t)
    outsideKernel("named_barrier_sync");
  {
    InEmulator inside;
    const int W = g_launch->config.warpSize;
    if (id < 1 || id > 15 || count < W || count % W != 0 ||
        count > int(g_launch->threadsPerBlock)) {
      report(FindingKind::BarrierDivergence, {pc},
             "named_barrier_sync(" + std::to_string(id) + ", " + std::to_string(count) +
                 ") at {pc:0}: the id is 1 to 15 and the count a multiple of " + std::to_string(W) +
                 " up to the block's " + std::to_string(g_launch->threadsPerBlock) +
                 " threads\n  the thread stops here and the launch fails\n");
      stop_thread(ErrorLaunchFailure);
    }
    static uint64_t arrivals = 0;
    t->namedBarrier = id;
    t->namedCount = count;
    t->arrival = ++arrivals;
    t->state = ThreadState::AtNamedBarrier;
    t->waitPc = pc;
  }
  yield();
}

namespace {
/// The lanes of the calling thread's warp that `mask` names and that exist, its own lane always
/// among them (a lane missing from its own mask is reported). Call within InEmulator.
uint64_t checkedMask(const Thread *t, uint64_t mask, Pc pc, const char *name) {
  const unsigned W = unsigned(g_launch->config.warpSize), n = g_launch->threadsPerBlock;
  const unsigned base = t->linear / W * W, lanes = std::min(W, n - base), lane = t->linear - base;
  const uint64_t existing = lanes == 64 ? ~0ull : laneBit(lanes) - 1;
  if (W < 64)
    mask &= (uint64_t{1} << W) - 1;
  if (!(mask & laneBit(lane))) {
    report(FindingKind::WarpOpDivergence, {pc},
           std::string(name) + " at {pc:0}: lane " + std::to_string(lane) + " of warp " +
               std::to_string(base / W) + " in " + blockName() + " is not in the mask it passes\n");
    mask |= laneBit(lane);
  }
  return mask & existing;
}
/// Waits in a warp operation until every lane of `req.mask` has arrived; the scheduler then sets
/// the result (resolveWarpOps).
void waitInWarpOp(Thread *t, const WarpRequest &req, Pc pc) {
  t->req = req;
  t->state = ThreadState::AtWarpOp;
  t->waitPc = pc;
  g_inEmulator = false;
  yield();
}
} // namespace

uint64_t warp_op(WarpOp op, uint64_t mask, uint64_t value, int param, int width, const char *name) {
  Pc pc = __builtin_return_address(0);
  Thread *t = g_current;
  if (!t)
    outsideKernel(name);
  InEmulator inside; // until the yield below
  mask = checkedMask(t, mask, pc, name);
  const int W = g_launch->config.warpSize;
  if (width <= 0 || width > W || !std::has_single_bit(unsigned(width))) {
    report(FindingKind::WarpOpDivergence, {pc},
           std::string(name) + " at {pc:0}: width " + std::to_string(width) +
               " is not a power of two up to the warp size\n");
    width = W;
  }
  waitInWarpOp(t, {op, mask, value, 0, param, width, name}, pc);
  return t->req.result;
}

void warp_all_gather(uint64_t mask, const void *in, void *out, unsigned bytes, const char *name) {
  Pc pc = __builtin_return_address(0);
  Thread *t = g_current;
  if (!t)
    outsideKernel(name);
  InEmulator inside; // until the yield below
  WarpRequest req{WarpOp::AllGather, checkedMask(t, mask, pc, name), 0, 0, 0,
                  g_launch->config.warpSize, name};
  req.in = in;
  req.out = out;
  req.bytes = bytes;
  waitInWarpOp(t, req, pc);
}

// ---- warpgroups and wgmma -----------------------------------------------------------------------
const void *call_site() { return __builtin_return_address(0); }

void warpgroup_all_gather(const void *in, void *out, unsigned bytes, const char *name,
                          const void *pc) {
  Thread *t = g_current;
  if (!t)
    outsideKernel(name);
  InEmulator inside; // until the yield below
  // The mask is not used: the threads taking part are the warpgroup's (resolveWarpgroupOps).
  WarpRequest req{WarpOp::WarpgroupAllGather, 0, 0, 0, 0, g_launch->config.warpSize, name};
  req.in = in;
  req.out = out;
  req.bytes = bytes;
  waitInWarpOp(t, req, pc);
}

unsigned descriptor_window(const void *p, uint32_t *address) {
  InEmulator inside;
  const uintptr_t a = reinterpret_cast<uintptr_t>(p), base = a & ~(kDescriptorWindowAlign - 1);
  *address = static_cast<uint32_t>(a - base);
  for (size_t w = 1; w < g_descriptorWindows.size(); ++w)
    if (g_descriptorWindows[w] == base)
      return unsigned(w);
  if (g_descriptorWindows.size() > kMaxDescriptorWindows) {
    std::fprintf(stderr,
                 "tilec-emu: more than %zu shared-memory descriptor windows (1 KB each) in "
                 "one launch; not supported\n",
                 kMaxDescriptorWindows);
    std::abort();
  }
  g_descriptorWindows.push_back(base);
  return unsigned(g_descriptorWindows.size() - 1);
}

const void *descriptor_window_base(unsigned window) {
  InEmulator inside;
  return window > 0 && window < g_descriptorWindows.size()
             ? reinterpret_cast<const void *>(g_descriptorWindows[window])
             : nullptr;
}

namespace {
/// What the accumulator registers of a wgmma in flight hold: a quiet NaN whose bits say so.
constexpr uint32_t kWgmmaInFlightBits = 0x7FC0FFEE;

bool overlaps(const WgmmaOp &op, const float *acc, unsigned count) {
  return op.acc < acc + count && acc < op.acc + op.count;
}
/// Calls f(op) for the thread's wgmmas in flight, oldest first.
template <class F> void forEachInFlight(const Thread &t, F f) {
  for (const std::vector<WgmmaOp> &g : t.wgmmaGroups)
    for (const WgmmaOp &op : g)
      f(op);
  for (const WgmmaOp &op : t.wgmmaOpen)
    f(op);
}
/// The thread's last wgmma in flight on exactly these registers, or null.
const WgmmaOp *lastInFlight(const Thread &t, const float *acc, unsigned count) {
  const WgmmaOp *last = nullptr;
  forEachInFlight(t, [&](const WgmmaOp &op) {
    if (op.acc == acc && op.count == count)
      last = &op;
  });
  return last;
}
} // namespace

void wgmma_fence() {
  if (Thread *t = g_current)
    t->wgmmaFenced = true;
}

bool wgmma_in_flight(const float *acc, unsigned count, float *value) {
  Thread *t = g_current;
  if (!t)
    return false;
  InEmulator inside;
  const WgmmaOp *last = lastInFlight(*t, acc, count);
  if (last)
    std::memcpy(value, last->result.data(), count * sizeof(float));
  return last != nullptr;
}

void wgmma_issue(float *acc, const float *result, unsigned count, const WgmmaRead *reads,
                 unsigned nReads, const char *name) {
  Pc pc = __builtin_return_address(0);
  Thread *t = g_current;
  if (!t)
    outsideKernel(name);
  InEmulator inside;
  const bool continues = lastInFlight(*t, acc, count) != nullptr;
  const WgmmaOp *other = nullptr; // in flight on some of these registers, with other ones
  forEachInFlight(*t, [&](const WgmmaOp &op) {
    if (overlaps(op, acc, count) && (op.acc != acc || op.count != count))
      other = &op;
  });
  if (other)
    report(FindingKind::WgmmaInFlight, {pc, other->pc},
           std::string(name) + " on accumulator registers that a wgmma of another shape (or on " +
               "other registers) has in flight\n  by " + describe_thread(*t) +
               " at {pc:0}\n  the other wgmma was issued at {pc:1}: only wgmmas of one shape on " +
               "the same registers follow each other without a wgmma_wait\n");
  if (!t->wgmmaFenced && !continues)
    report(FindingKind::WgmmaNoFence, {pc},
           std::string(name) + " with no wgmma_fence before it\n  by " + describe_thread(*t) +
               " at {pc:0}\n  a wgmma that starts a product (no wgmma on its registers in " +
               "flight) needs a wgmma_fence since the thread's last wgmma_wait\n");
  WgmmaOp op;
  op.acc = acc;
  op.count = count;
  op.result.assign(result, result + count);
  op.reads.assign(reads, reads + nReads);
  op.pc = pc;
  t->wgmmaOpen.push_back(std::move(op));
  for (unsigned i = 0; i < count; ++i)
    std::memcpy(&acc[i], &kWgmmaInFlightBits, sizeof(float));
}

void wgmma_commit() {
  Thread *t = g_current;
  if (!t)
    return;
  InEmulator inside;
  t->wgmmaGroups.push_back(std::move(t->wgmmaOpen));
  t->wgmmaOpen.clear();
}

void wgmma_wait(int pending) {
  Pc pc = __builtin_return_address(0);
  Thread *t = g_current;
  if (!t)
    return;
  InEmulator inside;
  t->wgmmaFenced = false;
  while (t->wgmmaGroups.size() > size_t(std::max(pending, 0))) {
    std::vector<WgmmaOp> group = std::move(t->wgmmaGroups.front());
    t->wgmmaGroups.erase(t->wgmmaGroups.begin());
    for (size_t i = 0; i < group.size(); ++i) {
      const WgmmaOp &op = group[i];
      for (const WgmmaRead &r : op.reads)
        if (std::memcmp(r.addr, r.bytes, sizeof r.bytes) != 0)
          report(FindingKind::WgmmaInFlight, {op.pc, pc},
                 "shared memory that a wgmma in flight reads changed before the wgmma_wait that " +
                     std::string("retires it: 16 bytes at shared ") +
                     hex(reinterpret_cast<uintptr_t>(r.addr)) + "\n  read by " +
                     describe_thread(*t) + " for the wgmma at {pc:0}\n  retired at {pc:1}\n");
      // A later wgmma on these registers (retired now or still in flight) delivers instead.
      bool superseded = false;
      for (size_t j = i + 1; j < group.size(); ++j)
        superseded = superseded || overlaps(group[j], op.acc, op.count);
      forEachInFlight(*t, [&](const WgmmaOp &later) {
        superseded = superseded || overlaps(later, op.acc, op.count);
      });
      if (superseded)
        continue;
      for (unsigned k = 0; k < op.count; ++k) {
        uint32_t bits;
        std::memcpy(&bits, &op.acc[k], sizeof bits);
        if (bits != kWgmmaInFlightBits) {
          report(FindingKind::WgmmaInFlight, {op.pc, pc},
                 "accumulator registers of a wgmma in flight were written before the " +
                     std::string("wgmma_wait that retires it\n  by ") + describe_thread(*t) +
                     ": the wgmma at {pc:0}, retired at {pc:1}\n");
          break;
        }
      }
      std::memcpy(op.acc, op.result.data(), op.count * sizeof(float));
    }
  }
}

void report_finding(FindingKind kind, const char *what) {
  Pc pc = __builtin_return_address(0);
  Thread *t = g_current;
  if (!t)
    outsideKernel(what);
  InEmulator inside;
  report(kind, {pc}, std::string(what) + "\n  by " + describe_thread(*t) + " at {pc:0}\n");
}

namespace internal {
void check_wgmma_at_exit(const Thread &t) {
  size_t n = 0;
  const void *pc = nullptr;
  forEachInFlight(t, [&](const WgmmaOp &op) {
    ++n;
    if (!pc)
      pc = op.pc;
  });
  if (!n)
    return;
  InEmulator inside;
  report(FindingKind::WgmmaInFlight, {pc},
         describe_thread(t) + " returned with " + std::to_string(n) + " wgmma" +
             (n == 1 ? "" : "s") +
             " in flight (the first issued at {pc:0}): no wgmma_wait retired them, so their " +
             "results never land in its accumulator registers\n");
}
} // namespace internal

} // namespace tilec::emu
