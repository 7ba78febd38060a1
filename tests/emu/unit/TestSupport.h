#pragma once
/// \file The GoogleTest side of the emulator's unit tests (CudaTest.cpp, HipTest.cpp): a fixture
/// that makes every test account for each report it provokes, report text with its run-dependent
/// addresses blanked, device buffers, the expected "file:line" of a marked kernel statement, and a
/// child process for the launches that fault.

#include "Lines.h"

#include <tilec/emu/host.hpp>

#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

namespace emu_test {

using tilec::emu::Error;
using tilec::emu::Finding;
using tilec::emu::FindingKind;

/// Every "0x..." address in a report becomes "0x?": buffers and shared memory move between runs.
/// Lane masks ("mask 0xffff") stay.
inline std::string blankAddresses(const std::string &text) {
  std::string out;
  for (size_t i = 0; i < text.size();) {
    if (text.compare(i, 2, "0x") == 0 && i + 2 < text.size() &&
        std::isxdigit(static_cast<unsigned char>(text[i + 2])) &&
        !(i >= 5 && text.compare(i - 5, 5, "mask ") == 0)) {
      out += "0x?";
      i += 2;
      while (i < text.size() && std::isxdigit(static_cast<unsigned char>(text[i])))
        ++i;
    } else {
      out += text[i++];
    }
  }
  return out;
}

/// The findings as printed, for failure messages.
inline std::string describe(const std::vector<Finding> &findings) {
  std::string s;
  for (const Finding &f : findings)
    s += std::string("[") + tilec::emu::finding_kind_name(f.kind) + " x" +
         std::to_string(f.occurrences) + "] " + f.text;
  return s.empty() ? "(none)\n" : s;
}

/// Takes the reports since the last call and expects exactly one, of `kind`, seen `occurrences`
/// times. Returns its text with addresses blanked ("" when the expectation failed).
inline std::string takeOnly(FindingKind kind, int occurrences = 1) {
  const std::vector<Finding> findings = tilec::emu::take_findings();
  EXPECT_EQ(findings.size(), 1u) << describe(findings);
  if (findings.size() != 1)
    return "";
  EXPECT_EQ(findings[0].kind, kind) << "got " << tilec::emu::finding_kind_name(findings[0].kind)
                                    << ", expected " << tilec::emu::finding_kind_name(kind);
  EXPECT_EQ(findings[0].occurrences, occurrences) << describe(findings);
  return blankAddresses(findings[0].text);
}

/// "CudaKernels.cpp:123": where reports must place the statement marked EMU_TEST_LINE(Tag).
template <class Tag> std::string lineIn(const char *file) {
  EXPECT_GT(line<Tag>, 0) << "no kernel marks this tag";
  return std::string(file) + ":" + std::to_string(line<Tag>);
}

/// n elements of T in device memory (cudaMalloc), freed on scope exit.
template <class T> class DeviceBuffer {
public:
  /// Every byte `fill`.
  explicit DeviceBuffer(size_t n, int fill = 0) : n_(n) {
    EXPECT_EQ(tilec::emu::device_malloc(reinterpret_cast<void **>(&p_), n * sizeof(T)), Error::Success);
    EXPECT_EQ(tilec::emu::device_memset(p_, fill, n * sizeof(T)), Error::Success);
  }
  explicit DeviceBuffer(const std::vector<T> &host) : DeviceBuffer(host.size()) {
    EXPECT_EQ(tilec::emu::device_memcpy(p_, host.data(), n_ * sizeof(T), tilec::emu::HostToDevice),
              Error::Success);
  }
  ~DeviceBuffer() { tilec::emu::device_free(p_); }
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;

  T *get() const { return p_; }
  std::vector<T> toHost() const {
    std::vector<T> host(n_);
    EXPECT_EQ(tilec::emu::device_memcpy(host.data(), p_, n_ * sizeof(T), tilec::emu::DeviceToHost),
              Error::Success);
    return host;
  }

private:
  T *p_ = nullptr;
  size_t n_;
};

/// Each test must take (and check) every report it provokes, and leave no launch error behind.
class EmuTest : public ::testing::Test {
protected:
  void SetUp() override { tilec::emu::set_print_findings(false); }
  void TearDown() override {
    const std::vector<Finding> left = tilec::emu::take_findings();
    EXPECT_TRUE(left.empty()) << "reports the test did not take:\n" << describe(left);
    EXPECT_EQ(tilec::emu::get_last_error(), Error::Success) << "a launch error the test did not take";
  }
};

/// Launch checks of every thread's coordinates (the kernels of CudaKernels.h and HipKernels.h):
/// `launch` runs grid x block threads that each write their 12 coordinates.
inline void expectIndices(dim3 grid, dim3 block, Error (*launch)(dim3, dim3, unsigned *)) {
  const unsigned threads = block.x * block.y * block.z, blocks = grid.x * grid.y * grid.z;
  DeviceBuffer<unsigned> out(12 * threads * blocks, 0xFF);
  ASSERT_EQ(launch(grid, block, out.get()), Error::Success);
  const std::vector<unsigned> got = out.toHost();
  int wrong = 0;
  for (unsigned bz = 0; bz < grid.z; ++bz)
    for (unsigned by = 0; by < grid.y; ++by)
      for (unsigned bx = 0; bx < grid.x; ++bx)
        for (unsigned tz = 0; tz < block.z; ++tz)
          for (unsigned ty = 0; ty < block.y; ++ty)
            for (unsigned tx = 0; tx < block.x; ++tx) {
              const unsigned b = bx + grid.x * (by + grid.y * bz), t = tx + block.x * (ty + block.y * tz);
              const std::vector<unsigned> expected{tx,      ty,      tz,      bx,     by,     bz,
                                                   block.x, block.y, block.z, grid.x, grid.y, grid.z};
              const std::vector<unsigned> actual(got.begin() + 12 * (b * threads + t),
                                                 got.begin() + 12 * (b * threads + t + 1));
              if (actual != expected && ++wrong <= 3)
                ADD_FAILURE() << "thread (" << tx << "," << ty << "," << tz << ") of block (" << bx << ","
                              << by << "," << bz << ") wrote wrong coordinates";
            }
  EXPECT_EQ(wrong, 0);
}

/// The shuffles for lane l of a warp (CUDA C++ Programming Guide, "Warp Shuffle Functions"; HIP's
/// __shfl_xor, __shfl_up, __shfl_down and __shfl with srcLane < width agree): the source lane, or l
/// itself where the lane keeps its own value.
inline int xorSource(int l, int laneMask, int width) {
  const int s = l ^ laneMask;
  return s >= l / width * width + width ? l : s; // a later group: the own value
}
inline int idxSource(int l, int srcLane, int width) { return l / width * width + srcLane % width; }
inline int upSource(int l, int delta, int width) { return l - delta < l / width * width ? l : l - delta; }
inline int downSource(int l, int delta, int width) { return l + delta >= l / width * width + width ? l : l + delta; }

/// One float -> f16 / bf16 conversion: the input, the 16-bit patterns and their exact values.
struct Conversion {
  float in;
  uint16_t f16;
  float f16Value;
  uint16_t bf16;
  float bf16Value;
};
/// Round to nearest even at both widths, overflow to infinity, f16 subnormals.
inline const std::vector<Conversion> kConversions = {
    {1.0f, 0x3C00, 1.0f, 0x3F80, 1.0f},
    {-2.5f, 0xC100, -2.5f, 0xC020, -2.5f},
    {1.0f / 3.0f, 0x3555, 0.333251953125f, 0x3EAB, 0.333984375f},
    {1.0f + 0x1p-11f, 0x3C00, 1.0f, 0x3F80, 1.0f},               // f16 tie: to even (down)
    {1.0f + 0x3p-11f, 0x3C02, 1.0f + 0x1p-9f, 0x3F80, 1.0f},     // f16 tie: to even (up)
    {1.0f + 0x1p-8f, 0x3C04, 1.0f + 0x1p-8f, 0x3F80, 1.0f},      // bf16 tie: to even (down)
    {1.0f + 0x3p-8f, 0x3C0C, 1.0f + 0x3p-8f, 0x3F82, 1.0f + 0x1p-6f}, // bf16 tie: to even (up)
    {65504.0f, 0x7BFF, 65504.0f, 0x4780, 65536.0f},
    {65520.0f, 0x7C00, INFINITY, 0x4780, 65536.0f}, // f16: the tie with 2^16 rounds to infinity
    {0x1p-24f, 0x0001, 0x1p-24f, 0x3380, 0x1p-24f}, // the smallest f16 subnormal
    {0x1p-25f, 0x0000, 0.0f, 0x3300, 0x1p-25f},     // f16 tie with 0: to even
    {0x3p-25f, 0x0002, 0x1p-23f, 0x33C0, 0x3p-25f}, // f16 tie: to even (up)
};

/// Ends a death test's child process: its status says whether every check in it passed, and the
/// failures go to stderr, which the parent shows (the child's own printing of them is lost).
[[noreturn]] inline void exitChildProcess() {
  const ::testing::TestResult &result = *::testing::UnitTest::GetInstance()->current_test_info()->result();
  for (int i = 0; i < result.total_part_count(); ++i) {
    const ::testing::TestPartResult &part = result.GetTestPartResult(i);
    if (part.failed())
      std::fprintf(stderr, "%s:%d: in the child process:\n%s\n", part.file_name() ? part.file_name() : "?",
                   part.line_number(), part.message());
  }
  std::fflush(stdout);
  std::fflush(stderr);
  std::_Exit(result.Failed() ? 1 : 0);
}

} // namespace emu_test

/// Runs the statements in a child process (a gtest death test) and expects the child to finish with
/// every check in it passed (its failures print as usual). For launches that fault: the error they
/// leave is sticky for the rest of the process, as on a GPU, and must not reach the other tests.
#define EXPECT_IN_CHILD_PROCESS(...)                                                               \
  do {                                                                                             \
    auto childBody_ = [&] { __VA_ARGS__; };                                                        \
    EXPECT_EXIT(                                                                                   \
        {                                                                                          \
          tilec::emu::set_print_findings(false);                                                   \
          childBody_();                                                                            \
          ::emu_test::exitChildProcess();                                                          \
        },                                                                                         \
        ::testing::ExitedWithCode(0), "");                                                         \
  } while (0)
