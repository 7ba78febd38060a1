/// \file The emulator's memory checker and device memory. The kernel's translation unit is compiled
/// with -fsanitize=thread, which makes the compiler call __tsan_read4(addr), __tsan_write16(addr),
/// __tsan_memcpy(...) and so on around every memory access; the functions below receive those calls
/// (the ThreadSanitizer runtime is not linked). While a kernel thread runs, each access is
/// classified: its own stack (registers and local arrays: ignored), the kernel's arguments, shared
/// memory (races and uninitialized reads, per byte), a device buffer (bounds) or anything else (an
/// error).

#include "Internal.h"

#include <tilec/detail/float16.hpp>
#include <tilec/emu/host.hpp>

#include <cxxabi.h>
#include <dlfcn.h>
#include <elf.h>
#include <link.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>

// Bounds of the section that __shared__ variables are placed in (tilec/emu/device.hpp), defined by
// the linker when the program has any.
extern "C" char __start_tilec_shared[] __attribute__((weak));
extern "C" char __stop_tilec_shared[] __attribute__((weak));

namespace tilec::emu::internal {

bool g_instrumented = false;
bool g_inEmulator = false;

namespace {

/// Who touched one byte of shared or global memory, and in which segment of its thread
/// (Thread::segment: stamps count sync events over the whole program, so cells of an earlier block
/// or launch are always ordered before the present).
struct Cell {
  uint64_t writtenInBlock = 0; ///< block serial of the last write: initialized in that block
  uint64_t asyncInBlock = 0;   ///< block serial while a cp.async or bulk copy to it is in flight
  Pc asyncPc = nullptr;        ///< where that copy was started
  bool asyncBulk = false;      ///< the copy is a bulk (TMA) copy, landing with an mbarrier phase
  uint32_t wStamp = 0, rStamp = 0, aStamp = 0;
  uint32_t wThread = 0, rThread = 0, aThread = 0;
  Pc wPc = nullptr, rPc = nullptr, aPc = nullptr;
};
constexpr uint32_t kMany = kManyThreads; ///< several unordered threads read (or atomically updated)

/// The readers of a cell that several threads read unordered (Cell::rThread == kMany, rStamp the
/// latest of their stamps): a write is a race only with those it is not ordered after, so that a
/// ring whose stages two warpgroups read and release through mbarriers is no race, nor a value
/// every consumer thread reads before a named barrier and one writes after it. Up to kReaders of
/// them, each read drops the readers ordered before it; beyond, each thread's latest read is kept
/// (`index`: its place in `readers`). Forgotten at every barrier (which orders them all).
constexpr size_t kReaders = 8;
struct Reader {
  uint32_t thread, stamp;
  Pc pc;
};
struct ReaderSet {
  std::vector<Reader> readers;
  std::unordered_map<uint32_t, size_t> index; ///< beyond kReaders: thread -> its reader
};
std::unordered_map<const Cell *, ReaderSet> g_readers;

// ---- device buffers -----------------------------------------------------------------------------
struct Buffer {
  uintptr_t lo, hi;
  void *allocation;        ///< what device_malloc got from the system (null: registered by the program)
  std::vector<Cell> shadow = {}; ///< one per byte, made at the buffer's first access by a kernel
};
std::map<uintptr_t, Buffer> g_buffers; // by lo

/// Red zone around each allocation: an access just past either end lands in no buffer.
constexpr size_t kRedZone = 256;

Buffer *findBuffer(uintptr_t a) {
  auto it = g_buffers.upper_bound(a);
  if (it == g_buffers.begin())
    return nullptr;
  --it;
  return a < it->second.hi || (a == it->second.lo) ? &it->second : nullptr;
}

/// "12 bytes past the end of a 4000-byte buffer at 0x..." for an address outside every buffer.
std::string nearestBuffer(uintptr_t a, size_t size) {
  const Buffer *before = nullptr, *after = nullptr;
  auto it = g_buffers.upper_bound(a);
  if (it != g_buffers.end())
    after = &it->second;
  if (it != g_buffers.begin())
    before = &std::prev(it)->second;
  auto describe = [](const Buffer &b) {
    return "a " + std::to_string(b.hi - b.lo) + "-byte buffer at " + hex(b.lo);
  };
  const uintptr_t far = 1 << 20;
  if (before && a >= before->lo && a < before->hi) // starts inside, ends outside
    return "the access starts at byte " + std::to_string(a - before->lo) + " of " +
           describe(*before) + " and runs " + std::to_string(a + size - before->hi) +
           " bytes past its end";
  uintptr_t dBefore = before ? a - before->hi : ~uintptr_t{0};
  uintptr_t dAfter = after ? after->lo - a : ~uintptr_t{0};
  if (dBefore <= dAfter && dBefore < far)
    return std::to_string(dBefore) + " bytes past the end of " + describe(*before);
  if (dAfter < far)
    return std::to_string(dAfter) + " bytes before the start of " + describe(*after);
  return "not inside or near any device buffer (host memory, or a freed buffer?)";
}

// ---- the program's own image (read-only constants may be read) ----------------------------------
struct Range {
  uintptr_t lo, hi;
};
std::vector<Range> g_readOnly;
bool g_imageScanned = false;

void scanImage() {
  g_imageScanned = true;
  dl_iterate_phdr(
      [](dl_phdr_info *info, size_t, void *) {
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const ElfW(Phdr) &ph = info->dlpi_phdr[i];
          if (ph.p_type == PT_LOAD && !(ph.p_flags & PF_W))
            g_readOnly.push_back(
                {info->dlpi_addr + ph.p_vaddr, info->dlpi_addr + ph.p_vaddr + ph.p_memsz});
        }
        return 0;
      },
      nullptr);
}

bool inReadOnlyImage(uintptr_t a, size_t n) {
  if (!g_imageScanned)
    scanImage();
  for (const Range &r : g_readOnly)
    if (a >= r.lo && a + n <= r.hi)
      return true;
  return false;
}

// ---- shared memory ------------------------------------------------------------------------------
uintptr_t sharedLo() { return reinterpret_cast<uintptr_t>(__start_tilec_shared); }
uintptr_t sharedHi() { return reinterpret_cast<uintptr_t>(__stop_tilec_shared); }

/// The __shared__ variables, from the program's symbol table (nm), with a shadow cell per byte.
/// A kernel's own are its function-local statics: their mangled names are "_ZZ" + the kernel's
/// mangled name without "_Z" + "E...". They are found by name, wherever they are: __shared__ puts
/// them in the section tilec_shared, but GCC ignores that for statics of template instances.
struct SharedVar {
  uintptr_t lo, hi;
  std::string mangled, name; ///< name: demangled, for reports
  std::vector<Cell> shadow;  ///< one per byte, made at the variable's first access
};
std::vector<SharedVar> g_vars;                                 // static objects, sorted by address
std::map<uintptr_t, std::string> g_functions;                  // address -> mangled name
std::map<const void *, std::vector<SharedVar *>> g_kernelVars; // per kernel, sorted by address
bool g_symbolsRead = false;

std::string demangle(const std::string &m) {
  int status = 0;
  std::unique_ptr<char, void (*)(void *)> d(
      abi::__cxa_demangle(m.c_str(), nullptr, nullptr, &status), std::free);
  return status == 0 && d ? std::string(d.get()) : m;
}

void readSymbols() {
  g_symbolsRead = true;
  Dl_info info{};
  if (!dladdr(reinterpret_cast<void *>(&readSymbols), &info) || !info.dli_fname)
    return;
  // Addresses in the symbol table are relative to the load address for a position-independent
  // executable (ET_DYN), absolute otherwise.
  const auto *eh = static_cast<const ElfW(Ehdr) *>(info.dli_fbase);
  const uintptr_t base = eh->e_type == ET_DYN ? reinterpret_cast<uintptr_t>(info.dli_fbase) : 0;
  std::string exe = info.dli_fname[0] ? info.dli_fname : "/proc/self/exe";
  if (exe.find('\'') != std::string::npos)
    return;
  // POSIX format: "name type value size", the size missing for symbols without one.
  std::string cmd = "nm -P --defined-only '" + exe + "' 2>/dev/null";
  std::unique_ptr<FILE, int (*)(FILE *)> p(popen(cmd.c_str(), "r"), pclose);
  if (!p)
    return;
  char line[4096], name[4000];
  while (std::fgets(line, sizeof line, p.get())) {
    unsigned long long addr = 0, size = 0;
    char type = 0;
    if (std::sscanf(line, "%3999s %c %llx %llx", name, &type, &addr, &size) != 4 || size == 0)
      continue;
    const uintptr_t lo = base + addr;
    const bool inSection = lo >= sharedLo() && lo < sharedHi();
    if (type == 'T' || type == 't' || type == 'W' || type == 'w')
      g_functions[lo] = name;
    else if (inSection || (std::strncmp(name, "_ZZ", 3) == 0 && std::strchr("bBdDuVv", type)))
      g_vars.push_back({lo, lo + size, name, demangle(name), {}});
  }
  std::sort(g_vars.begin(), g_vars.end(),
            [](const SharedVar &a, const SharedVar &b) { return a.lo < b.lo; });
}

/// The running kernel's __shared__ variables: its own statics, or (when the symbol table does not
/// tell) every variable of the shared section.
const std::vector<SharedVar *> &kernelVars() {
  if (!g_symbolsRead)
    readSymbols();
  const void *k = g_launch->kernel;
  auto it = g_kernelVars.find(k);
  if (it != g_kernelVars.end())
    return it->second;
  std::vector<SharedVar *> own, section;
  auto f = g_functions.find(reinterpret_cast<uintptr_t>(k));
  const std::string prefix = f != g_functions.end() && f->second.rfind("_Z", 0) == 0
                                 ? "_ZZ" + f->second.substr(2) + "E"
                                 : std::string();
  for (SharedVar &v : g_vars) {
    if (!prefix.empty() && v.mangled.rfind(prefix, 0) == 0)
      own.push_back(&v);
    else if (v.lo >= sharedLo() && v.lo < sharedHi())
      section.push_back(&v);
  }
  return g_kernelVars[k] = !own.empty() || prefix.size() ? own : section;
}

/// Dynamic shared memory: one region for every launch, as large as any launch may give, then a
/// red zone. The running launch's part of it is a SharedVar of the launch's size (prepare_launch),
/// so an access past that size is out of bounds like one past a __shared__ array.
constexpr size_t kDynamicCapacity =
    std::max(max_dynamic_shared_bytes(32), max_dynamic_shared_bytes(64));
alignas(1024) unsigned char g_dynamicRegion[kDynamicCapacity + kRedZone];
SharedVar g_dynamic{0, 0, "", "dynamic shared memory", {}};

bool inDynamicRegion(uintptr_t a) {
  const uintptr_t lo = reinterpret_cast<uintptr_t>(g_dynamicRegion);
  return a >= lo && a < lo + sizeof g_dynamicRegion;
}

SharedVar *findSharedVar(uintptr_t a) {
  for (SharedVar *v : kernelVars())
    if (a >= v->lo && a < v->hi)
      return v;
  if (a >= g_dynamic.lo && a < g_dynamic.hi)
    return &g_dynamic;
  return nullptr;
}

/// "12 bytes past the end of ... smem" for a shared address outside the kernel's variables.
std::string nearestSharedVar(uintptr_t a) {
  if (inDynamicRegion(a))
    return std::to_string(a - g_dynamic.hi) + " bytes past the end of the launch's " +
           std::to_string(g_dynamic.hi - g_dynamic.lo) + " bytes of dynamic shared memory";
  const SharedVar *best = nullptr;
  for (const SharedVar *v : kernelVars())
    if (v->hi <= a && (!best || v->hi > best->hi))
      best = v;
  if (best)
    return std::to_string(a - best->hi) + " bytes past the end of the " +
           std::to_string(best->hi - best->lo) + "-byte " + best->name;
  return "outside the __shared__ variables of the running kernel";
}

const char *accessName(Access k) {
  return k == Access::Read ? "read" : k == Access::Write ? "write" : "atomic update";
}

/// "shared 0x... (byte 4 of 16-byte k(...)::smem)".
std::string describeShared(uintptr_t a) {
  if (const SharedVar *v = findSharedVar(a))
    return "shared " + hex(a) + " (byte " + std::to_string(a - v->lo) + " of " +
           std::to_string(v->hi - v->lo) + "-byte " + v->name + ")";
  return "shared " + hex(a) + " (byte " + std::to_string(a - sharedLo()) +
         " of the shared section)";
}

/// "thread 5 (warp 0, lane 5)": another thread of the running block (whose block goes unsaid).
std::string otherThread(uint32_t id) {
  if (id == kMany)
    return "several threads";
  std::string s = describe_thread((*g_launch->threads)[id]);
  return s.substr(0, s.find(" of block"));
}

void raceReport(Access now, Access before, uint32_t other, Pc otherPc, const std::string &where,
                size_t n, bool shared, Pc pc) {
  std::string what = std::string(accessName(now)) + " after " + accessName(before);
  std::string text = std::string(shared ? "shared" : "global") + "-memory race (" + what +
                     "): " + std::to_string(n) + " bytes at " + where + "\n  " + accessName(now) +
                     " by " + describe_thread(*g_current) + " at {pc:0}\n  " + accessName(before) +
                     " by " + otherThread(other) +
                     " at {pc:1}\n  no __syncthreads() separates them" +
                     (g_launch->usesMbarriers ? " and no mbarrier phase orders them\n" : "\n");
  report(shared ? FindingKind::SharedRace : FindingKind::GlobalRace, {pc, otherPc}, text);
}

/// Checks an access of bytes [a, a + n) against their cells (`cells[0]` is byte a's) for races
/// with other threads of the block (accesses not ordered before this one by a barrier or an
/// mbarrier phase), then records it. `where` describes a. Returns whether a race was reported.
bool checkRaces(Cell *cells, uintptr_t a, size_t n, Access kind, Pc pc, bool shared,
                const std::function<std::string(uintptr_t)> &where) {
  const uint32_t me = g_current->linear, seg = g_current->segment;
  // Another thread's access that this one is not ordered after.
  auto unordered = [me](uint32_t thread, uint32_t stamp) {
    return thread != me && !ordered_before_current(thread, stamp);
  };
  bool raced = false;
  for (size_t i = 0; i < n; ++i) {
    Cell &c = cells[i];
    if (!raced) {
      if (unordered(c.wThread, c.wStamp)) {
        raceReport(kind, Access::Write, c.wThread, c.wPc, where(a), n, shared, pc);
        raced = true;
      } else if (kind != Access::Read && unordered(c.rThread, c.rStamp)) {
        // Several readers: the first this access is not ordered after, where they are known.
        uint32_t reader = c.rThread;
        Pc readerPc = c.rPc;
        if (c.rThread == kMany) {
          auto set = g_readers.find(&c);
          if (set != g_readers.end()) {
            reader = me;
            for (const Reader &r : set->second.readers)
              if (unordered(r.thread, r.stamp)) {
                reader = r.thread, readerPc = r.pc;
                break;
              }
          }
        }
        if (reader != me) {
          raceReport(kind, Access::Read, reader, readerPc, where(a), n, shared, pc);
          raced = true;
        }
      } else if (kind != Access::Atomic && unordered(c.aThread, c.aStamp)) {
        raceReport(kind, Access::Atomic, c.aThread, c.aPc, where(a), n, shared, pc);
        raced = true;
      }
    }
    // Records this access among the cell's reads (or atomic updates): it replaces the one there
    // when that is this thread's or ordered before it; otherwise both are kept as "several
    // threads" with the later stamp, which only a barrier orders.
    auto record = [&](uint32_t &thread, uint32_t &stamp, Pc &where) {
      if (thread == me || ordered_before_current(thread, stamp))
        thread = me, stamp = seg, where = pc;
      else
        thread = kMany, stamp = std::max(stamp, seg), where = pc;
    };
    switch (kind) {
    case Access::Read:
      if (c.rThread != kMany || c.rStamp < g_launch->barrierStamp) {
        const uint32_t before = c.rThread;
        const Reader first{c.rThread, c.rStamp, c.rPc};
        record(c.rThread, c.rStamp, c.rPc);
        if (c.rThread == kMany && before != kMany) // two unordered readers: both kept
          g_readers[&c] = ReaderSet{{first, {me, seg, pc}}, {}};
        break;
      }
      {
        // Already several: drop the readers ordered before this one, then add it.
        ReaderSet &set = g_readers[&c];
        c.rStamp = std::max(c.rStamp, seg), c.rPc = pc;
        if (!set.index.empty()) { // many readers: this thread's latest read
          auto [at, added] = set.index.try_emplace(me, set.readers.size());
          if (added)
            set.readers.push_back({me, seg, pc});
          else
            set.readers[at->second] = {me, seg, pc};
          break;
        }
        std::vector<Reader> kept;
        for (const Reader &r : set.readers)
          if (r.thread != me && !ordered_before_current(r.thread, r.stamp))
            kept.push_back(r);
        kept.push_back({me, seg, pc});
        if (kept.size() == 1) { // this thread alone
          c.rThread = me, c.rStamp = seg;
          g_readers.erase(&c);
          break;
        }
        set.readers = std::move(kept);
        if (set.readers.size() > kReaders)
          for (size_t r = 0; r < set.readers.size(); ++r)
            set.index[set.readers[r].thread] = r;
      }
      break;
    case Access::Write:
      c.wStamp = seg, c.wThread = me, c.wPc = pc;
      c.writtenInBlock = g_launch->blockSerial;
      break;
    case Access::Atomic:
      record(c.aThread, c.aStamp, c.aPc);
      c.writtenInBlock = g_launch->blockSerial;
      break;
    }
  }
  return raced;
}

void checkShared(SharedVar &v, uintptr_t a, size_t n, Access kind, Pc pc) {
  if (v.shadow.empty())
    v.shadow.resize(v.hi - v.lo);
  Cell *cells = &v.shadow[a - v.lo];
  // A read of bytes a cp.async has not delivered yet: the wait is missing, or comes too late (the
  // bytes are also unwritten: one report says why).
  bool inFlight = false;
  if (kind != Access::Write)
    for (size_t i = 0; i < n && !inFlight; ++i)
      if (cells[i].asyncInBlock == g_launch->blockSerial) {
        inFlight = true;
        report(FindingKind::AsyncCopyInFlight, {pc, cells[i].asyncPc},
               std::string("read of shared memory that ") +
                   (cells[i].asyncBulk ? "a bulk (TMA) copy" : "a cp.async") +
                   " has not delivered: " + std::to_string(n) +
                   " bytes at " + describeShared(a) + "\n  by " + describe_thread(*g_current) +
                   " at {pc:0}\n  the copy was started at {pc:1} and " +
                   (cells[i].asyncBulk ? "the mbarrier phase it completes on has not completed\n"
                                       : "no cp_async_wait has completed it\n"));
      }
  // Uninitialized reads first: the race check records this access.
  if (kind != Access::Write && !inFlight)
    for (size_t i = 0; i < n; ++i)
      if (cells[i].writtenInBlock != g_launch->blockSerial) {
        report(FindingKind::UninitializedShared, {pc},
               "read of uninitialized shared memory: " + std::to_string(n) + " bytes at " +
                   describeShared(a) + "\n  by " + describe_thread(*g_current) +
                   " at {pc:0}\n  no thread of this block has written " +
                   (n == 1   ? std::string("it")
                    : i == 0 ? "them"
                             : "byte " + std::to_string(i) + " of them") +
                   "\n");
        break;
      }
  checkRaces(cells, a, n, kind, pc, true, describeShared);
}

/// "global 0x... (byte 8 of a 400-byte buffer at 0x...)".
std::string describeGlobal(const Buffer &b, uintptr_t a) {
  return "global " + hex(a) + " (byte " + std::to_string(a - b.lo) + " of a " +
         std::to_string(b.hi - b.lo) + "-byte buffer at " + hex(b.lo) + ")";
}

[[noreturn]] void fault(const std::string &what, uintptr_t a, size_t n, const std::string &where,
                        Pc pc, FindingKind kind) {
  report(kind, {pc},
         what + " of " + std::to_string(n) + " bytes at " + hex(a) + "\n  by " +
             describe_thread(*g_current) + " at {pc:0}\n  " + where +
             "\n  the thread stops here and the launch fails, as on the GPU\n");
  stop_thread(ErrorIllegalAddress);
}

} // namespace

void begin_block() {
  // Garbage, as on the GPU: a kernel that reads shared memory before writing it gets NaNs and -1s.
  for (SharedVar *v : kernelVars())
    std::memset(reinterpret_cast<void *>(v->lo), 0xFF, v->hi - v->lo);
  std::memset(g_dynamicRegion, 0xFF, g_dynamic.hi - g_dynamic.lo);
}

void prepare_launch() {
  if (!g_imageScanned)
    scanImage();
  (void)kernelVars();
  // The launch checked its size against kDynamicCapacity (max_dynamic_shared_bytes).
  const size_t bytes = g_launch->config.dynamicSharedBytes;
  g_dynamic.lo = reinterpret_cast<uintptr_t>(g_dynamicRegion);
  g_dynamic.hi = g_dynamic.lo + bytes;
  if (g_dynamic.shadow.size() < bytes)
    g_dynamic.shadow.resize(bytes);
}

void check_access(uintptr_t a, size_t n, Access kind, bool checkAlignment, Pc pc) {
  InEmulator inside;
  const Thread &t = *g_current;
  if (a >= t.stackLo && a + n <= t.stackHi)
    return;
  if (a >= g_launch->argsLo && a + n <= g_launch->argsHi && kind == Access::Read)
    return;
  SharedVar *var = findSharedVar(a);
  const bool shared = var || (a >= sharedLo() && a < sharedHi()) || inDynamicRegion(a);
  const char *space = shared ? "shared" : "global";
  if (checkAlignment && n > 1 && a % std::min<size_t>(n, 16) != 0)
    fault(std::string("misaligned ") + space + " " + accessName(kind), a, n,
          "the address is " + std::to_string(a % n) + " bytes past a multiple of " +
              std::to_string(n),
          pc, FindingKind::Misaligned);
  if (shared) {
    if (!var)
      fault("out-of-bounds shared " + std::string(accessName(kind)), a, n, nearestSharedVar(a), pc,
            FindingKind::OutOfBounds);
    if (a + n > var->hi)
      fault("out-of-bounds shared " + std::string(accessName(kind)), a, n,
            "it runs past the end of " + describeShared(a), pc, FindingKind::OutOfBounds);
    checkShared(*var, a, n, kind, pc);
    return;
  }
  if (Buffer *b = findBuffer(a)) {
    if (a + n <= b->hi) {
      // Two threads of the block on one byte since the last barrier, one writing: the order is
      // the GPU's timing, not the program's (docs/emulation.md "Global-memory races").
      if (b->shadow.empty())
        b->shadow.resize(b->hi - b->lo);
      checkRaces(&b->shadow[a - b->lo], a, n, kind, pc, false,
                 [b](uintptr_t x) { return describeGlobal(*b, x); });
      return;
    }
  }
  if (kind == Access::Read && inReadOnlyImage(a, n))
    return; // constants of the program
  fault("out-of-bounds global " + std::string(accessName(kind)), a, n, nearestBuffer(a, n), pc,
        FindingKind::OutOfBounds);
}

} // namespace tilec::emu::internal

// ---- the instrumentation's entry points ---------------------------------------------------------
using tilec::emu::internal::Access;
using tilec::emu::internal::check_access;
using tilec::emu::internal::g_current;

#define TILEC_EMU_ACCESS(NAME, SIZE, KIND, ALIGNED)                                                \
  extern "C" void NAME(void *a) {                                                                  \
    if (g_current && !tilec::emu::internal::g_inEmulator)                                          \
      check_access(reinterpret_cast<uintptr_t>(a), SIZE, Access::KIND, ALIGNED,                    \
                   __builtin_return_address(0));                                                   \
  }
#define TILEC_EMU_SIZES(N)                                                                         \
  TILEC_EMU_ACCESS(__tsan_read##N, N, Read, true)                                                  \
  TILEC_EMU_ACCESS(__tsan_write##N, N, Write, true)                                                \
  TILEC_EMU_ACCESS(__tsan_unaligned_read##N, N, Read, false)                                       \
  TILEC_EMU_ACCESS(__tsan_unaligned_write##N, N, Write, false)
TILEC_EMU_SIZES(1)
TILEC_EMU_SIZES(2)
TILEC_EMU_SIZES(4)
TILEC_EMU_SIZES(8)
TILEC_EMU_SIZES(16)
#undef TILEC_EMU_SIZES
#undef TILEC_EMU_ACCESS

extern "C" {
void __tsan_init() { tilec::emu::internal::g_instrumented = true; }
void __tsan_func_entry(void *) {}
void __tsan_func_exit() {}
void __tsan_read_range(void *a, unsigned long n) {
  if (g_current && !tilec::emu::internal::g_inEmulator && n)
    check_access(reinterpret_cast<uintptr_t>(a), n, Access::Read, false,
                 __builtin_return_address(0));
}
void __tsan_write_range(void *a, unsigned long n) {
  if (g_current && !tilec::emu::internal::g_inEmulator && n)
    check_access(reinterpret_cast<uintptr_t>(a), n, Access::Write, false,
                 __builtin_return_address(0));
}
void *__tsan_memcpy(void *d, const void *s, unsigned long n) {
  if (g_current && !tilec::emu::internal::g_inEmulator && n) {
    check_access(reinterpret_cast<uintptr_t>(s), n, Access::Read, false,
                 __builtin_return_address(0));
    check_access(reinterpret_cast<uintptr_t>(d), n, Access::Write, false,
                 __builtin_return_address(0));
  }
  return std::memcpy(d, s, n);
}
void *__tsan_memmove(void *d, const void *s, unsigned long n) {
  if (g_current && !tilec::emu::internal::g_inEmulator && n) {
    check_access(reinterpret_cast<uintptr_t>(s), n, Access::Read, false,
                 __builtin_return_address(0));
    check_access(reinterpret_cast<uintptr_t>(d), n, Access::Write, false,
                 __builtin_return_address(0));
  }
  return std::memmove(d, s, n);
}
// A function-local static (a launcher sets its kernel's attribute once per process) tests its guard
// byte with an acquire load, which the instrumentation turns into this call: host code, not checked.
char __tsan_atomic8_load(const volatile char *a, int) { return __atomic_load_n(a, __ATOMIC_ACQUIRE); }
void __tsan_vptr_update(void **, void *) {} // virtual calls: not kernel code
void __tsan_vptr_read(void **) {}
void *__tsan_memset(void *d, int c, unsigned long n) {
  if (g_current && !tilec::emu::internal::g_inEmulator && n)
    check_access(reinterpret_cast<uintptr_t>(d), n, Access::Write, false,
                 __builtin_return_address(0));
  return std::memset(d, c, n);
}
}

// ---- device memory, atomics, the host runtime ---------------------------------------------------
namespace tilec::emu {
using namespace internal;

void *dynamic_shared_memory() { return g_dynamicRegion; }

void register_buffer(const void *p, size_t bytes) {
  uintptr_t lo = reinterpret_cast<uintptr_t>(p);
  g_buffers[lo] = {lo, lo + bytes, nullptr};
}
void unregister_buffer(const void *p) { g_buffers.erase(reinterpret_cast<uintptr_t>(p)); }

Error device_malloc(void **p, size_t bytes) {
  if (sticky_error() != Success)
    return sticky_error(); // as CUDA after a faulting launch
  if (!p)
    return set_error(ErrorInvalidValue);
  const size_t rounded = (bytes + kRedZone - 1) / kRedZone * kRedZone;
  void *m = std::aligned_alloc(kRedZone, rounded + 2 * kRedZone);
  if (!m)
    return set_error(ErrorMemoryAllocation);
  // Garbage, as cudaMalloc's memory: 0xA5 bytes are neither 0 nor a small number.
  std::memset(m, 0xA5, rounded + 2 * kRedZone);
  uintptr_t lo = reinterpret_cast<uintptr_t>(m) + kRedZone;
  g_buffers[lo] = {lo, lo + bytes, m};
  *p = reinterpret_cast<void *>(lo);
  return Success;
}

Error device_free(void *p) {
  if (sticky_error() != Success)
    return sticky_error(); // as CUDA after a faulting launch
  if (!p)
    return Success;
  auto it = g_buffers.find(reinterpret_cast<uintptr_t>(p));
  if (it == g_buffers.end() || !it->second.allocation) {
    report(FindingKind::HostApi, {__builtin_return_address(0)},
           "cudaFree/hipFree at {pc:0} of " + hex(reinterpret_cast<uintptr_t>(p)) +
               ", which no cudaMalloc/hipMalloc returned (or it was freed already)\n");
    flush_reports();
    return set_error(ErrorInvalidValue);
  }
  std::free(it->second.allocation);
  g_buffers.erase(it);
  return Success;
}

namespace {
/// Whether [p, p + n) lies inside one device buffer.
bool inBuffer(const void *p, size_t n) {
  uintptr_t a = reinterpret_cast<uintptr_t>(p);
  const Buffer *b = findBuffer(a);
  return b && a + n <= b->hi;
}
Error badHostRange(const char *call, const char *side, const void *p, size_t n, Pc pc) {
  uintptr_t a = reinterpret_cast<uintptr_t>(p);
  report(FindingKind::HostApi, {pc},
         std::string(call) + " at {pc:0}: the " + side + " range of " + std::to_string(n) +
             " bytes at " + hex(a) + " is not inside one device buffer: " + nearestBuffer(a, n) +
             "\n");
  flush_reports();
  return set_error(ErrorInvalidValue);
}
} // namespace

Error device_memcpy(void *dst, const void *src, size_t n, MemcpyKind kind) {
  Pc pc = __builtin_return_address(0);
  if (sticky_error() != Success)
    return sticky_error(); // as CUDA after a faulting launch
  if (n == 0)
    return Success;
  bool dstDev =
      kind == HostToDevice || kind == DeviceToDevice || (kind == Default && inBuffer(dst, 1));
  bool srcDev =
      kind == DeviceToHost || kind == DeviceToDevice || (kind == Default && inBuffer(src, 1));
  if (dstDev && !inBuffer(dst, n))
    return badHostRange("cudaMemcpy/hipMemcpy", "destination", dst, n, pc);
  if (srcDev && !inBuffer(src, n))
    return badHostRange("cudaMemcpy/hipMemcpy", "source", src, n, pc);
  std::memmove(dst, src, n);
  return Success;
}

Error device_memset(void *dst, int byte, size_t n) {
  Pc pc = __builtin_return_address(0);
  if (sticky_error() != Success)
    return sticky_error(); // as CUDA after a faulting launch
  if (n == 0)
    return Success;
  if (!inBuffer(dst, n))
    return badHostRange("cudaMemset/hipMemset", "destination", dst, n, pc);
  std::memset(dst, byte, n);
  return Success;
}

Error synchronize() { return sticky_error(); }
Error get_last_error() { return take_last_error(); }
Error peek_last_error() { return last_error(); }

uint64_t atomic_rmw(void *p, AtomicType type, AtomicOp op, uint64_t operand, uint64_t compare) {
  Pc pc = __builtin_return_address(0);
  const size_t n = type == AtomicType::F16 || type == AtomicType::BF16 ? 2
                   : type == AtomicType::I32 || type == AtomicType::U32 || type == AtomicType::F32
                       ? 4
                       : 8;
  if (g_current)
    check_access(reinterpret_cast<uintptr_t>(p), n, Access::Atomic, true, pc);
  uint64_t old = 0;
  std::memcpy(&old, p, n);
  auto apply = [&](auto oldV, auto opV, auto cmpV) -> decltype(oldV) {
    switch (op) {
    case AtomicOp::Add:
      return oldV + opV;
    case AtomicOp::Min:
      return opV < oldV ? opV : oldV;
    case AtomicOp::Max:
      return oldV < opV ? opV : oldV;
    case AtomicOp::Exch:
      return opV;
    case AtomicOp::Cas:
      return oldV == cmpV ? opV : oldV;
    default:
      if constexpr (std::is_integral_v<decltype(oldV)>) {
        if (op == AtomicOp::And)
          return oldV & opV;
        if (op == AtomicOp::Or)
          return oldV | opV;
        return oldV ^ opV;
      }
      return oldV;
    }
  };
  auto run = [&](auto tag) {
    using T = decltype(tag);
    T o, v, c;
    std::memcpy(&o, &old, sizeof(T));
    std::memcpy(&v, &operand, sizeof(T));
    std::memcpy(&c, &compare, sizeof(T));
    T r = apply(o, v, c);
    std::memcpy(p, &r, sizeof(T));
  };
  switch (type) {
  case AtomicType::I32:
    run(int32_t{});
    break;
  case AtomicType::U32:
    run(uint32_t{});
    break;
  case AtomicType::I64:
    run(int64_t{});
    break;
  case AtomicType::U64:
    run(uint64_t{});
    break;
  case AtomicType::F32:
    run(float{});
    break;
  case AtomicType::F64:
    run(double{});
    break;
  case AtomicType::F16:
  case AtomicType::BF16: {
    // The sum in float rounded once to 16 bits, as the GPU's atom.add.noftz.f16/.bf16.
    uint16_t o = 0, v = 0;
    std::memcpy(&o, &old, 2);
    std::memcpy(&v, &operand, 2);
    uint16_t r;
    if (type == AtomicType::F16)
      r = tl::half(float(tl::half::fromBits(o)) + float(tl::half::fromBits(v))).bits;
    else
      r = tl::bfloat16(float(tl::bfloat16::fromBits(o)) + float(tl::bfloat16::fromBits(v))).bits;
    std::memcpy(p, &r, 2);
    break;
  }
  }
  return old;
}

void device_assert_failed(const char *message, const char *condition, const char *file, int line,
                          const void *pc) {
  InEmulator inside; // (the report's strings are the emulator's accesses, not the kernel's)
  report(FindingKind::DeviceAssert, {pc},
         std::string(file) + ":" + std::to_string(line) + ": device_assert(" + condition +
             ") failed" + (*message ? std::string(": ") + message : std::string()) + "\n  by " +
             describe_thread(*g_current) +
             " at {pc:0}\n  the thread stops here and the launch fails, as on the GPU\n");
  stop_thread(ErrorAssert);
}

// ---- cp.async ----------------------------------------------------------------------------------
namespace internal {
namespace {
/// The shadow cells of `n` bytes of a __shared__ variable at `a`, or null outside every one.
Cell *sharedCells(uintptr_t a, size_t n) {
  SharedVar *v = findSharedVar(a);
  if (!v || a + n > v->hi)
    return nullptr;
  if (v->shadow.empty())
    v->shadow.resize(v->hi - v->lo);
  return &v->shadow[a - v->lo];
}
} // namespace

void forget_readers() { g_readers.clear(); }

bool ordered_before_current(uint32_t thread, uint32_t segment) {
  if (segment < g_launch->barrierStamp)
    return true;
  if (thread == kManyThreads)
    return false;
  const auto &known = g_current->known;
  auto it = known.find(thread);
  return it != known.end() && segment < it->second;
}

uint32_t release_segment(Thread &t) {
  const uint32_t end = ++g_launch->clock;
  t.segment = end;
  return end;
}

void join_knowledge(std::unordered_map<uint32_t, uint32_t> &to,
                    const std::unordered_map<uint32_t, uint32_t> &from) {
  for (const auto &[thread, stamp] : from)
    if (stamp > g_launch->barrierStamp) {
      uint32_t &mine = to[thread];
      mine = std::max(mine, stamp);
    }
}

bool mark_bulk_in_flight(uintptr_t dst, size_t bytes, Pc pc) {
  Cell *cells = sharedCells(dst, bytes);
  if (!cells)
    return false;
  for (size_t i = 0; i < bytes; ++i)
    cells[i].asyncInBlock = g_launch->blockSerial, cells[i].asyncPc = pc, cells[i].asyncBulk = true;
  return true;
}

bool is_shared_range(uintptr_t a, size_t n) { return sharedCells(a, n) != nullptr; }

std::string describe_shared_address(uintptr_t a) { return describeShared(a); }

void land_bulk(uintptr_t dst, size_t bytes, Pc pc) {
  Cell *cells = sharedCells(dst, bytes);
  for (size_t i = 0; cells && i < bytes; ++i)
    if (cells[i].asyncPc == pc && cells[i].asyncBulk)
      cells[i].asyncInBlock = 0;
}

void check_async_at_exit(const Thread &t) {
  size_t n = t.asyncOpen.size();
  const void *pc = n ? t.asyncOpen.front().pc : nullptr;
  for (const auto &g : t.asyncGroups) {
    n += g.size();
    if (!pc && !g.empty())
      pc = g.front().pc;
  }
  if (!n)
    return;
  InEmulator inside;
  report(FindingKind::AsyncCopyInFlight, {pc},
         describe_thread(t) + " returned with " + std::to_string(n) +
             " cp.async copies in flight (the first started at {pc:0}): no cp_async_wait completed "
             "them, so their bytes never land\n");
}
} // namespace internal

void async_copy(void *dst, const void *data, unsigned bytes) {
  Pc pc = __builtin_return_address(0);
  Thread *t = g_current;
  if (!t)
    return;
  InEmulator inside;
  const uintptr_t a = reinterpret_cast<uintptr_t>(dst);
  if (bytes > sizeof(AsyncCopy::data) || a % bytes != 0 || !internal::sharedCells(a, bytes)) {
    report(FindingKind::Misaligned, {pc},
           "cp.async of " + std::to_string(bytes) + " bytes to " + hex(a) + "\n  by " +
               describe_thread(*t) + " at {pc:0}\n  the destination must be " +
               std::to_string(bytes) +
               "-byte aligned shared memory\n  the thread stops here and the launch fails, as on "
               "the GPU\n");
    stop_thread(ErrorIllegalAddress);
  }
  AsyncCopy c;
  c.dst = a;
  c.bytes = bytes;
  std::memcpy(c.data, data, bytes);
  c.pc = pc;
  Cell *cells = internal::sharedCells(a, bytes);
  for (unsigned i = 0; i < bytes; ++i)
    cells[i].asyncInBlock = g_launch->blockSerial, cells[i].asyncPc = pc,
    cells[i].asyncBulk = false;
  t->asyncOpen.push_back(c);
}

void async_commit() {
  Thread *t = g_current;
  if (!t)
    return;
  InEmulator inside;
  t->asyncGroups.push_back(std::move(t->asyncOpen));
  t->asyncOpen.clear();
}

void async_wait(int pending) {
  Thread *t = g_current;
  if (!t)
    return;
  InEmulator inside;
  while (t->asyncGroups.size() > size_t(std::max(pending, 0))) {
    for (const AsyncCopy &c : t->asyncGroups.front()) {
      Cell *cells = internal::sharedCells(c.dst, c.bytes);
      for (unsigned i = 0; i < c.bytes; ++i)
        if (cells[i].asyncPc == c.pc)
          cells[i].asyncInBlock = 0;
      // The bytes land now, as this thread's write (a race with another thread's access to them
      // in this barrier interval is reported as for a store).
      check_access(c.dst, c.bytes, Access::Write, true, c.pc);
      std::memcpy(reinterpret_cast<void *>(c.dst), c.data, c.bytes);
    }
    t->asyncGroups.erase(t->asyncGroups.begin());
  }
}

void check_vector_alignment(const void *p, size_t bytes) {
  Pc pc = __builtin_return_address(0);
  uintptr_t a = reinterpret_cast<uintptr_t>(p);
  if (g_current && a % bytes != 0) {
    InEmulator inside;
    report(FindingKind::Misaligned, {pc},
           "misaligned " + std::to_string(bytes) + "-byte vector access at " + hex(a) + "\n  by " +
               describe_thread(*g_current) + " at {pc:0}\n  the address is " +
               std::to_string(a % bytes) + " bytes past a multiple of " + std::to_string(bytes) +
               "\n  the thread stops here and the launch fails, as on the GPU\n");
    stop_thread(ErrorIllegalAddress);
  }
}

} // namespace tilec::emu
