/// \file The emulator's mbarriers and bulk (TMA) copies into shared memory
/// (tilec/cuda/mbarrier.cuh, tilec/cuda/tma.cuh; docs/emulation.md, "mbarriers and bulk copies").
/// An mbarrier's state lives here, keyed by its shared address, for the running block: expected
/// arrivals, the arrivals and transaction bytes the current phase still waits for, the phases
/// completed so far, and for happens-before what the arriving threads published (their segments,
/// Thread::segment). A thread waiting for a phase is suspended (ThreadState::AtMbarrier) until the
/// phase completes, which releases it (advance); when nothing can run, the deadlock report says
/// what each barrier still expects.

#include "Internal.h"

#include <algorithm>
#include <cstring>
#include <map>

namespace tilec::emu::internal {
namespace {

/// A bulk copy whose bytes have not landed: they land when its phase has had all its arrivals.
struct BulkCopy {
  uintptr_t dst;
  std::vector<unsigned char> data;
  Pc pc;
};

struct Mbarrier {
  unsigned expected = 0;        ///< arrivals per phase (mbarrier_init's count)
  unsigned pending = 0;         ///< arrivals the current phase still waits for
  int64_t tx = 0;               ///< transaction bytes announced and not yet delivered
  uint32_t phase = 0;           ///< phases completed
  std::vector<BulkCopy> copies; ///< started on the current phase, not landed
  std::unordered_map<uint32_t, uint32_t> publishing; ///< the current phase's releases
  std::unordered_map<uint32_t, uint32_t> published;  ///< the last completed phase's
};
std::map<uintptr_t, Mbarrier> g_mbarriers; // the running block's, by shared address

std::string where(uintptr_t bar) { return "the mbarrier at " + describe_shared_address(bar); }

/// The barrier at `p`; when there is none, a report, and the calling thread stops.
Mbarrier *find(void *p, Pc pc, const char *op) {
  const uintptr_t bar = reinterpret_cast<uintptr_t>(p);
  auto it = g_mbarriers.find(bar);
  if (it != g_mbarriers.end())
    return &it->second;
  report(FindingKind::Mbarrier, {pc},
         std::string(op) + " on " +
             (is_shared_range(bar, 8) ? where(bar) + ", which no mbarrier_init has initialized"
                                      : hex(bar) + ", which is not shared memory") +
             "\n  by " + describe_thread(*g_current) + " at {pc:0}\n" +
             "  the thread stops here and the launch fails\n");
  stop_thread(ErrorLaunchFailure);
}

bool phaseDone(const Mbarrier &b, unsigned parity) { return (b.phase & 1u) != (parity & 1u); }

/// Lands the copies of a phase that has had all its arrivals, then completes it when they
/// delivered every byte its arrivals announced: the threads waiting for it go on, ordered after
/// what it publishes (as on the GPU, where a waiting thread sees the phase complete before later
/// phases can). Copies land as late as they may (`force`: when a thread waits on the barrier, or
/// its next phase takes an arrival): a wait for a parity whose phase completed a ring round
/// earlier then finds the copies' phase complete and waits for the next (a deadlock, reported),
/// and a thread that reads the bytes without waiting reads them in flight (reported).
void advance(uintptr_t bar, Mbarrier &b, bool force = false) {
  if (b.pending != 0)
    return;
  if (!b.copies.empty() && !force) {
    bool waited = false;
    for (const Thread &t : *g_launch->threads)
      waited = waited || (t.state == ThreadState::AtMbarrier && t.mbarrier == bar);
    if (!waited)
      return; // in flight until a thread waits on the barrier (mbarrier_wait_parity)
  }
  for (BulkCopy &c : b.copies) {
    land_bulk(c.dst, c.data.size(), c.pc);
    std::memcpy(reinterpret_cast<void *>(c.dst), c.data.data(), c.data.size());
    b.tx -= int64_t(c.data.size());
  }
  b.copies.clear();
  if (b.tx != 0)
    return; // waits for more bytes (a deadlock if no copy brings them), or got too many
  b.published = std::move(b.publishing);
  b.publishing.clear();
  ++b.phase;
  b.pending = b.expected;
  for (Thread &t : *g_launch->threads)
    if (t.state == ThreadState::AtMbarrier && t.mbarrier == bar && phaseDone(b, t.mbarrierParity)) {
      t.state = ThreadState::Runnable;
      join_knowledge(t.known, b.published);
    }
}

void acquire(Thread &t, const Mbarrier &b) { join_knowledge(t.known, b.published); }

} // namespace

void reset_mbarriers() {
  for (auto &[bar, b] : g_mbarriers) {
    if (b.pending == 0)
      b.copies.clear(); // in flight, with every arrival: they would land, after the block
    for (const BulkCopy &c : b.copies)
      report(FindingKind::AsyncCopyInFlight, {c.pc},
             "a bulk copy of " + std::to_string(c.data.size()) + " bytes to shared " + hex(c.dst) +
                 " started at {pc:0} never landed: phase " + std::to_string(b.phase) +
                 " of its mbarrier never had all its arrivals (" + std::to_string(b.pending) +
                 " of " + std::to_string(b.expected) + " missing when the block ended)\n");
  }
  g_mbarriers.clear();
}

std::string describe_mbarrier_wait(const Thread &t) {
  auto it = g_mbarriers.find(t.mbarrier);
  if (it == g_mbarriers.end())
    return "an mbarrier that is gone";
  const Mbarrier &b = it->second;
  std::string s = "the phase of parity " + std::to_string(t.mbarrierParity) + " of " +
                  where(t.mbarrier) + "; it is in phase " + std::to_string(b.phase) + " (parity " +
                  std::to_string(b.phase & 1) + "), which still expects " +
                  std::to_string(b.pending) + " of " + std::to_string(b.expected) + " arrivals";
  if (b.tx > 0)
    s += " and " + std::to_string(b.tx) + " transaction bytes";
  else if (b.tx < 0)
    s += ", and its copies delivered " + std::to_string(-b.tx) +
         " bytes more than its arrivals announced (expect_tx)";
  return s;
}

} // namespace tilec::emu::internal

namespace tilec::emu {
using namespace internal;

void mbarrier_init(void *p, unsigned count, const void *pc) {
  Thread *t = g_current;
  if (!t)
    return;
  InEmulator inside;
  const uintptr_t bar = reinterpret_cast<uintptr_t>(p);
  if (bar % 8 != 0 || !is_shared_range(bar, 8)) {
    report(FindingKind::Mbarrier, {pc},
           "mbarrier_init at " + hex(bar) + ": an mbarrier is 8-byte aligned shared memory\n  by " +
               describe_thread(*t) + " at {pc:0}\n  the thread stops here and the launch fails\n");
    stop_thread(ErrorIllegalAddress);
  }
  if (count == 0 || count >= (1u << 20)) {
    report(FindingKind::Mbarrier, {pc},
           "mbarrier_init of " + where(bar) + " with " + std::to_string(count) +
               " arrivals: the count is 1 to 2^20 - 1\n  by " + describe_thread(*t) +
               " at {pc:0}\n");
  }
  for (const Thread &o : *g_launch->threads)
    if (o.state == ThreadState::AtMbarrier && o.mbarrier == bar) {
      report(FindingKind::Mbarrier, {pc, o.waitPc},
             "mbarrier_init of " + where(bar) + " while threads wait on it\n  by " +
                 describe_thread(*t) + " at {pc:0}\n  " + describe_thread(o) +
                 " waits at {pc:1}\n");
      break;
    }
  g_launch->usesMbarriers = true;
  Mbarrier &b = g_mbarriers[bar];
  b = Mbarrier{};
  b.expected = b.pending = count;
}

void mbarrier_arrive(void *p, unsigned txBytes, bool arrive, const void *pc) {
  Thread *t = g_current;
  if (!t)
    return;
  InEmulator inside;
  Mbarrier &b = *find(p, pc, arrive ? "mbarrier_arrive" : "mbarrier_expect_tx");
  // An arrival after the phase had all of them is the next phase's: the last phase's copies land
  // first. (A bare expect_tx adds bytes to the current phase.)
  if (arrive && b.pending == 0 && !b.copies.empty())
    advance(reinterpret_cast<uintptr_t>(p), b, true);
  b.tx += txBytes;
  if (!arrive)
    return;
  if (b.pending == 0) {
    report(FindingKind::Mbarrier, {pc},
           "mbarrier_arrive on " + where(reinterpret_cast<uintptr_t>(p)) + " beyond the " +
               std::to_string(b.expected) + " arrivals its phase " + std::to_string(b.phase) +
               " expects (the phase waits only for transaction bytes)\n  by " +
               describe_thread(*t) + " at {pc:0}\n");
    return;
  }
  // The arrival publishes the thread's accesses so far, and what it acquired.
  const uint32_t end = release_segment(*t);
  uint32_t &mine = b.publishing[t->linear];
  mine = std::max(mine, end);
  join_knowledge(b.publishing, t->known);
  --b.pending;
  advance(reinterpret_cast<uintptr_t>(p), b);
}

bool mbarrier_wait_parity(void *p, unsigned parity, bool block, const void *pc) {
  Thread *t = g_current;
  if (!t)
    return true;
  const uintptr_t bar = reinterpret_cast<uintptr_t>(p);
  {
    // Not across the fiber switch below: the other threads' accesses must be checked meanwhile.
    InEmulator inside;
    Mbarrier *b = find(p, pc, "mbarrier_wait");
    // Copies in flight on a phase with all its arrivals land before a wait on the barrier looks at
    // its phase: a wait for a phase a ring round old then waits for the next one, which no one
    // completes (a deadlock, reported), where the GPU might let it through to read the bytes early.
    if (b->pending == 0 && !b->copies.empty())
      advance(bar, *b, true);
    if (phaseDone(*b, parity)) {
      acquire(*t, *b);
      return true;
    }
    t->state = ThreadState::AtMbarrier;
    t->mbarrier = bar;
    t->mbarrierParity = parity;
    t->waitPc = pc;
  }
  yield(); // until the phase completes (advance), which orders this thread after it
  t->mbarrier = 0;
  return block; // a spin loop of try_wait asks again, and finds it complete
}

void bulk_copy_to_shared(void *dst, const void *data, unsigned bytes, void *bar, const void *pc) {
  Thread *t = g_current;
  if (!t)
    return;
  InEmulator inside;
  const uintptr_t a = reinterpret_cast<uintptr_t>(dst);
  {
    if (a % 16 != 0 || bytes % 16 != 0 || !is_shared_range(a, bytes)) {
      report(FindingKind::Misaligned, {pc},
             "bulk copy of " + std::to_string(bytes) + " bytes to " + hex(a) + "\n  by " +
                 describe_thread(*t) +
                 " at {pc:0}\n  the destination must be 16-byte aligned shared memory, the size a "
                 "multiple of 16\n  the thread stops here and the launch fails, as on the GPU\n");
      stop_thread(ErrorIllegalAddress);
    }
  }
  Mbarrier &b = *find(bar, pc, "bulk copy"); // a copy of the current phase, arrivals done or not
  // The copy's write, checked at the call in a segment of its own: a thread that waits for the
  // phase it completes on is ordered after it (and after the thread's earlier accesses), not
  // after what the thread does next.
  const uint32_t copyStamp = ++g_launch->clock;
  t->segment = copyStamp;
  check_access(a, bytes, Access::Write, true, pc);
  const uint32_t end = release_segment(*t);
  uint32_t &mine = b.publishing[t->linear];
  mine = std::max(mine, end);
  join_knowledge(b.publishing, t->known);
  mark_bulk_in_flight(a, bytes, pc);
  const auto *src = static_cast<const unsigned char *>(data);
  b.copies.push_back({a, std::vector<unsigned char>(src, src + bytes), pc});
  advance(reinterpret_cast<uintptr_t>(bar), b);
}

} // namespace tilec::emu

namespace tilec::emu {
using namespace internal;

namespace {
/// The shared address of the box's element (r, c) at `base`: rows of boxCols elements, the 16-byte
/// chunk index XORed with address bits 7-9 (as many bits as a swizzle row has chunks beyond one).
uintptr_t boxByte(uintptr_t base, const TensorBox &b, uint32_t r, uint32_t c) {
  const uintptr_t a = base + (uintptr_t(r) * b.boxCols + c) * b.elementBytes;
  const uintptr_t chunkMask = b.swizzleRowBytes ? b.swizzleRowBytes / 16 - 1 : 0;
  return a ^ ((a >> 7 & chunkMask) << 4);
}
bool insideTensor(const TensorBox &b, int64_t r, int64_t c) {
  return r >= 0 && c >= 0 && uint64_t(r) < b.rows && uint64_t(c) < b.cols;
}
uintptr_t globalElement(const TensorBox &b, int64_t r, int64_t c) {
  return reinterpret_cast<uintptr_t>(b.base) + uint64_t(r) * b.rowStrideBytes +
         uint64_t(c) * b.elementBytes;
}
bool sharedTileAligned(uintptr_t a, const char *op, Pc pc) {
  if (a % 128 == 0)
    return true;
  report(FindingKind::Misaligned, {pc},
         std::string(op) + " with its shared-memory tile at " + hex(a) + "\n  by " +
             describe_thread(*g_current) +
             " at {pc:0}\n  the tile must be 128-byte aligned\n  the thread stops here and the "
             "launch fails, as on the GPU\n");
  stop_thread(ErrorIllegalAddress);
}
} // namespace

void tensor_load_2d(void *dst, const TensorBox &b, int64_t row, int64_t col, void *bar,
                    const void *pc) {
  if (!g_current)
    return;
  InEmulator inside;
  const uintptr_t base = reinterpret_cast<uintptr_t>(dst);
  sharedTileAligned(base, "tma_load_2d", pc);
  const size_t bytes = size_t(b.boxRows) * b.boxCols * b.elementBytes;
  std::vector<unsigned char> image(bytes);
  for (uint32_t r = 0; r < b.boxRows; ++r)
    for (uint32_t c = 0; c < b.boxCols; ++c) {
      unsigned char *at = image.data() + (boxByte(base, b, r, c) - base);
      if (insideTensor(b, row + r, col + c)) {
        const uintptr_t g = globalElement(b, row + r, col + c);
        check_access(g, b.elementBytes, Access::Read, false, pc);
        std::memcpy(at, reinterpret_cast<const void *>(g), b.elementBytes);
      } // outside the tensor: zeros
    }
  bulk_copy_to_shared(dst, image.data(), unsigned(bytes), bar, pc);
}

void tensor_store_2d(const void *src, const TensorBox &b, int64_t row, int64_t col,
                     const void *pc) {
  if (!g_current)
    return;
  InEmulator inside;
  const uintptr_t base = reinterpret_cast<uintptr_t>(src);
  sharedTileAligned(base, "tma_store_2d", pc);
  if (row < 0 || col < 0) {
    report(FindingKind::OutOfBounds, {pc},
           "tma_store_2d of a box at (" + std::to_string(row) + ", " + std::to_string(col) +
               ")\n  by " + describe_thread(*g_current) +
               " at {pc:0}\n  a TMA store's coordinates must not be negative (an H100 stops at "
               "the instruction)\n  the thread stops here and the launch fails, as on the GPU\n");
    stop_thread(ErrorIllegalInstruction);
  }
  // The hardware writes whole 16-byte chunks of a row: up to the next 16-byte boundary past the
  // tensor's last column (measured on an H100, tests/gpu/tma.cu).
  const uint64_t written = (b.cols * b.elementBytes + 15) / 16 * 16 / b.elementBytes;
  for (uint32_t r = 0; r < b.boxRows; ++r)
    for (uint32_t c = 0; c < b.boxCols; ++c) {
      if (row + r >= int64_t(b.rows) || col + c >= int64_t(written))
        continue;
      const uintptr_t s = boxByte(base, b, r, c), g = globalElement(b, row + r, col + c);
      check_access(s, b.elementBytes, Access::Read, false, pc);
      check_access(g, b.elementBytes, Access::Write, false, pc);
      std::memcpy(reinterpret_cast<void *>(g), reinterpret_cast<const void *>(s), b.elementBytes);
    }
}

} // namespace tilec::emu
