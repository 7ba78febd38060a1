/// \file The emulator's reports: recorded during a launch, symbolized after it (addr2line on the
/// program, which the kernel was compiled into with -g), printed once each, and counted into the
/// exit status.

#include "Internal.h"

#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <set>

namespace tilec::emu::internal {
namespace {

struct Record {
  PendingFinding f;
  int occurrences = 1;
  bool printed = false;
};
std::vector<Record> g_records;                            // every distinct finding of the program
std::map<std::pair<int, std::vector<Pc>>, size_t> g_seen; // kind and pcs -> g_records index
size_t g_firstUntaken = 0;                                // take_findings() returns from here
long g_errors = 0;
bool g_print = true;
bool g_exitHookInstalled = false;

/// A symbolized frame: function, file (base name and path) and line.
struct Frame {
  std::string function, file, path;
  int line = 0;
};
std::map<Pc, std::vector<Frame>> g_frames; // innermost frame first

std::string baseName(const std::string &path) {
  auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

/// "tilec::rt::load_vec" from "void tilec::rt::load_vec<4, false, 1, float>(float*, ...)".
std::string shortFunction(std::string f) {
  int depth = 0;
  std::string out;
  for (char c : f) {
    if (c == '<')
      ++depth;
    else if (c == '>')
      depth = depth > 0 ? depth - 1 : 0;
    else if (c == '(' && depth == 0)
      break;
    else if (depth == 0)
      out += c;
  }
  auto space = out.find_last_of(' ');
  return space == std::string::npos ? out : out.substr(space + 1);
}

/// Symbolizes the pcs not seen before with one addr2line run per module.
void symbolize(const std::set<Pc> &pcs) {
  std::map<std::string, std::vector<std::pair<Pc, uintptr_t>>> byModule;
  for (Pc pc : pcs) {
    if (!pc || g_frames.count(pc))
      continue;
    g_frames[pc] = {};
    Dl_info info{};
    if (!dladdr(pc, &info) || !info.dli_fname)
      continue;
    const auto *eh = static_cast<const ElfW(Ehdr) *>(info.dli_fbase);
    uintptr_t addr = reinterpret_cast<uintptr_t>(pc) - 1; // inside the call instruction
    if (eh->e_type == ET_DYN)
      addr -= reinterpret_cast<uintptr_t>(info.dli_fbase);
    std::string module = info.dli_fname[0] ? info.dli_fname : "/proc/self/exe";
    byModule[module].push_back({pc, addr});
  }
  for (auto &[module, list] : byModule) {
    if (module.find('\'') != std::string::npos)
      continue;
    std::string cmd = "addr2line -C -f -i -a -e '" + module + "'";
    for (auto &[pc, addr] : list)
      cmd += " " + hex(addr);
    cmd += " 2>/dev/null";
    std::unique_ptr<FILE, int (*)(FILE *)> p(popen(cmd.c_str(), "r"), pclose);
    if (!p)
      continue;
    char buf[8192];
    std::vector<std::string> lines;
    while (std::fgets(buf, sizeof buf, p.get())) {
      std::string l = buf;
      while (!l.empty() && (l.back() == '\n' || l.back() == '\r'))
        l.pop_back();
      lines.push_back(l);
    }
    size_t i = 0, k = 0;
    while (i < lines.size() && k < list.size()) {
      if (lines[i].rfind("0x", 0) != 0) {
        ++i;
        continue;
      }
      ++i; // the address line
      std::vector<Frame> frames;
      while (i + 1 < lines.size() && lines[i].rfind("0x", 0) != 0) {
        Frame f;
        f.function = lines[i];
        std::string loc = lines[i + 1];
        auto disc = loc.find(" (discriminator");
        if (disc != std::string::npos)
          loc.resize(disc);
        auto colon = loc.find_last_of(':');
        std::string path = loc.substr(0, colon);
        f.file = baseName(path);
        f.path = path;
        f.line = colon == std::string::npos ? 0 : std::atoi(loc.c_str() + colon + 1);
        // The emulator's own built-ins (tilec/emu/*.hpp) are not worth naming.
        if (std::filesystem::path(path).lexically_normal().string().find("/tilec/emu/") ==
            std::string::npos)
          frames.push_back(f);
        i += 2;
      }
      g_frames[list[k].first] = frames;
      ++k;
    }
  }
}

std::string render(const PendingFinding &f) {
  std::string out;
  const std::string &t = f.text;
  for (size_t i = 0; i < t.size();) {
    if (t.compare(i, 4, "{pc:") == 0) {
      size_t end = t.find('}', i);
      size_t idx = std::stoul(t.substr(i + 4, end - i - 4));
      out += idx < f.pcs.size() ? describe_pc(f.pcs[idx]) : "?";
      i = end + 1;
    } else {
      out += t[i++];
    }
  }
  return out;
}

void atExit() {
  if (g_errors == 0)
    return;
  const char *env = std::getenv("TILEC_EMU_EXITCODE");
  int code = env ? std::atoi(env) : 66;
  std::fflush(stdout);
  size_t distinct = g_records.size() - g_firstUntaken;
  std::fprintf(stderr, "tilec-emu: %ld error%s reported (%zu distinct)\n", g_errors,
               g_errors == 1 ? "" : "s", distinct);
  std::fflush(stderr);
  if (code != 0)
    _exit(code);
}

} // namespace

std::string hex(uintptr_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

/// The kernel source's line that tilec's nearest provenance comment at or above `line` of an
/// emitted file names ("layer_norm.cpp:17" from "  // layer_norm.cpp:17: auto a = ..."), or "".
static std::string sourceLineOf(const std::string &path, int line) {
  static std::map<std::string, std::vector<std::string>> files;
  auto it = files.find(path);
  if (it == files.end()) {
    std::vector<std::string> lines;
    if (FILE *f = std::fopen(path.c_str(), "r")) {
      char buf[4096];
      std::string cur;
      while (std::fgets(buf, sizeof buf, f)) {
        cur += buf;
        if (!cur.empty() && cur.back() == '\n') {
          cur.pop_back();
          lines.push_back(cur);
          cur.clear();
        }
      }
      std::fclose(f);
    }
    it = files.emplace(path, std::move(lines)).first;
  }
  const std::vector<std::string> &lines = it->second;
  for (int i = std::min<int>(line, static_cast<int>(lines.size())) - 1; i >= 0; --i) {
    const std::string &l = lines[i];
    size_t p = l.find_first_not_of(' ');
    if (p == std::string::npos || l.compare(p, 3, "// ") != 0)
      continue;
    // "// NAME:LINE:" or "// NAME:LINE" at the end: a provenance comment.
    size_t colon = l.find(':', p + 3);
    if (colon == std::string::npos || l.find(' ', p + 3) < colon)
      continue;
    size_t digits = colon + 1;
    while (digits < l.size() && std::isdigit(static_cast<unsigned char>(l[digits])))
      ++digits;
    if (digits == colon + 1 || (digits < l.size() && l[digits] != ':'))
      continue;
    return l.substr(p + 3, digits - p - 3);
  }
  return "";
}

std::string describe_pc(Pc pc) {
  auto it = g_frames.find(pc);
  if (it == g_frames.end() || it->second.empty() || it->second.back().line == 0) {
    Dl_info info{};
    if (pc && dladdr(pc, &info) && info.dli_fname)
      return baseName(info.dli_fname) + "+" +
             hex(reinterpret_cast<uintptr_t>(pc) - reinterpret_cast<uintptr_t>(info.dli_fbase));
    return "an unknown location";
  }
  const std::vector<Frame> &frames = it->second;
  // The emitted line, then the helper it called (not a detail that helper calls in turn) and the
  // innermost line: "vector_add.cu:36 (in tilec::rt::load_vec, core.hpp:202)".
  const Frame &outer = frames.back(), &inner = frames.front();
  std::string s = outer.file + ":" + std::to_string(outer.line);
  std::string from = sourceLineOf(outer.path, outer.line);
  if (!from.empty())
    s += " (from " + from + ")";
  if (frames.size() > 1)
    s += " (in " + shortFunction(frames[frames.size() - 2].function) + ", " + inner.file + ":" +
         std::to_string(inner.line) + ")";
  return s;
}

std::string describe_thread(const Thread &t) {
  const dim3 bd = g_launch->config.block;
  const unsigned W = unsigned(g_launch->config.warpSize);
  std::string s = "thread ";
  if (bd.y == 1 && bd.z == 1)
    s += std::to_string(t.linear);
  else
    s += "(" + std::to_string(t.idx.x) + "," + std::to_string(t.idx.y) + "," +
         std::to_string(t.idx.z) + ")";
  s += " (warp " + std::to_string(t.linear / W) + ", lane " + std::to_string(t.linear % W) + ")";
  const uint3 b = g_launch->block;
  s += " of block (" + std::to_string(b.x) + "," + std::to_string(b.y) + "," + std::to_string(b.z) +
       ")";
  return s;
}

void report(FindingKind kind, std::vector<Pc> pcs, std::string text) {
  auto key = std::make_pair(int(kind), pcs);
  ++g_errors; // every occurrence counts; identical ones are printed once
  auto it = g_seen.find(key);
  if (it != g_seen.end() && it->second >= g_firstUntaken) {
    ++g_records[it->second].occurrences;
    return;
  }
  if (!g_exitHookInstalled) {
    g_exitHookInstalled = true;
    std::atexit(atExit);
  }
  g_seen[key] = g_records.size();
  g_records.push_back({{kind, std::move(pcs), std::move(text)}});
}

void flush_reports() {
  std::set<Pc> pcs;
  for (const Record &r : g_records)
    if (!r.printed)
      pcs.insert(r.f.pcs.begin(), r.f.pcs.end());
  if (pcs.empty())
    return;
  symbolize(pcs);
  for (Record &r : g_records) {
    if (r.printed)
      continue;
    r.printed = true;
    if (g_print) {
      std::fflush(stdout);
      std::fprintf(stderr, "tilec-emu: error: %s", render(r.f).c_str());
      std::fflush(stderr);
    }
  }
}

} // namespace tilec::emu::internal

namespace tilec::emu {
using namespace internal;

const char *finding_kind_name(FindingKind k) {
  switch (k) {
  case FindingKind::OutOfBounds:
    return "out-of-bounds";
  case FindingKind::Misaligned:
    return "misaligned";
  case FindingKind::SharedRace:
    return "shared-race";
  case FindingKind::GlobalRace:
    return "global-race";
  case FindingKind::UninitializedShared:
    return "uninitialized-shared";
  case FindingKind::BarrierNotReached:
    return "barrier-not-reached";
  case FindingKind::BarrierDivergence:
    return "barrier-divergence";
  case FindingKind::WarpOpNotReached:
    return "warp-op-not-reached";
  case FindingKind::WarpOpDivergence:
    return "warp-op-divergence";
  case FindingKind::BadShuffleSource:
    return "bad-shuffle-source";
  case FindingKind::Deadlock:
    return "deadlock";
  case FindingKind::AsyncCopyInFlight:
    return "async-copy-in-flight";
  case FindingKind::HostApi:
    return "host-api";
  case FindingKind::WgmmaInFlight:
    return "wgmma-in-flight";
  case FindingKind::WgmmaNoFence:
    return "wgmma-no-fence";
  case FindingKind::Mbarrier:
    return "mbarrier";
  case FindingKind::WgmmaDescriptor:
    return "wgmma-descriptor";
  case FindingKind::DeviceAssert:
    return "device-assert";
  }
  return "?";
}

std::vector<Finding> take_findings() {
  flush_reports();
  std::vector<Finding> out;
  for (size_t i = g_firstUntaken; i < g_records.size(); ++i)
    out.push_back({g_records[i].f.kind, render(g_records[i].f), g_records[i].occurrences});
  g_firstUntaken = g_records.size();
  g_errors = 0;
  return out;
}

long error_count() { return g_errors; }
void set_print_findings(bool on) { g_print = on; }

const char *error_name(Error e) {
  switch (e) {
  case Success:
    return "cudaSuccess";
  case ErrorInvalidValue:
    return "cudaErrorInvalidValue";
  case ErrorMemoryAllocation:
    return "cudaErrorMemoryAllocation";
  case ErrorInvalidConfiguration:
    return "cudaErrorInvalidConfiguration";
  case ErrorIllegalAddress:
    return "cudaErrorIllegalAddress";
  case ErrorAssert:
    return "cudaErrorAssert";
  case ErrorIllegalInstruction:
    return "cudaErrorIllegalInstruction";
  case ErrorLaunchFailure:
    return "cudaErrorLaunchFailure";
  }
  return "cudaErrorUnknown";
}

const char *error_string(Error e) {
  switch (e) {
  case Success:
    return "no error";
  case ErrorInvalidValue:
    return "invalid argument";
  case ErrorMemoryAllocation:
    return "out of memory";
  case ErrorInvalidConfiguration:
    return "invalid configuration argument";
  case ErrorIllegalAddress:
    return "an illegal memory access was encountered (tilec-emu reported it above)";
  case ErrorAssert:
    return "device-side assert triggered (tilec-emu reported it above)";
  case ErrorIllegalInstruction:
    return "an illegal instruction was encountered (tilec-emu reported it above)";
  case ErrorLaunchFailure:
    return "unspecified launch failure (tilec-emu reported it above)";
  }
  return "unknown error";
}

} // namespace tilec::emu
