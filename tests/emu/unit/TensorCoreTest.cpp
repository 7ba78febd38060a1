/// \file The emulator's model of the matrix instructions (tilec/cuda/tensor_core.cuh) on the
/// kernels of TensorCoreKernels.cpp: mma.sync m16n8k16 computes A B + C from the fragments the PTX
/// ISA assigns to each lane, ldmatrix hands out the elements it assigns, and cp.async data lands
/// only when waited for. tests/gpu/tensor_core.cu runs the same kernels on the GPU.

#include "TensorCoreKernels.h"
#include "TestSupport.h"

#include <tilec/tl.hpp>

namespace emu_test::tensor_core {
namespace {

using TensorCore = EmuTest;

template <class T> std::vector<float> run(MmaPath path, const Operands<T> &ops) {
  DeviceBuffer<uint16_t> a(ops.a), b(ops.b);
  DeviceBuffer<float> c(ops.c), d(kM * kN, 0xFF);
  EXPECT_EQ(launchMma(std::is_same_v<T, tl::bfloat16>, path, a.get(), b.get(), c.get(), d.get()),
            Error::Success);
  return d.toHost();
}

// Fragments packed by Mma16816's maps give exactly A B + C in the emulator's order, for fp16 and
// bf16; through cp.async, ldmatrix_x4 and ldmatrix_x4_trans the same bits.
TEST_F(TensorCore, MmaFromRegistersAndThroughSharedMemory) {
  const Operands<tl::half> h(1);
  const Operands<tl::bfloat16> bf(2);
  EXPECT_EQ(run(MmaPath::Registers, h), h.reference());
  EXPECT_EQ(run(MmaPath::Pipeline, h), h.reference());
  EXPECT_EQ(run(MmaPath::Registers, bf), bf.reference());
  EXPECT_EQ(run(MmaPath::Pipeline, bf), bf.reference());
}

// m16n8k8 (tf32) and m16n8k32 (int8): fragments packed by Mma1688Tf32's and Mma16832S8's maps,
// read with ldmatrix_x4 and the gather_* helpers from [M, K] / [K, N] buffers and from transposed
// ones, give exactly c + a b in the emulator's order (tf32: operands rounded to nearest, ties
// away; int8: wrapping int32 sums), with no finding.
TEST_F(TensorCore, Tf32AndInt8ProductsOnEveryFragmentPath) {
  const Tf32Operands f(7);
  const S8Operands s(8);
  const std::vector<float> fRef = f.reference<float>(tl::detail::roundTf32);
  const std::vector<int> sRef = s.reference();
  for (FragmentPath path : {FragmentPath::Registers, FragmentPath::Shared, FragmentPath::SharedT}) {
    DeviceBuffer<float> fa(f.a), fb(f.b), fc(f.c), fd(16 * 16, 0xFF);
    EXPECT_EQ(launchMmaTf32(path, fa.get(), fb.get(), fc.get(), fd.get()), Error::Success);
    EXPECT_EQ(fd.toHost(), fRef) << "tf32, path " << int(path);
    DeviceBuffer<int8_t> sa(s.a), sb(s.b);
    DeviceBuffer<int> sc(s.c), sd(16 * 16, 0xFF);
    EXPECT_EQ(launchMmaS8(path, sa.get(), sb.get(), sc.get(), sd.get()), Error::Success);
    EXPECT_EQ(sd.toHost(), sRef) << "int8, path " << int(path);
  }
  EXPECT_TRUE(tilec::emu::take_findings().empty());
}

// ldmatrix_x4: lane l gets (row l / 4, columns 2 (l % 4), + 1) of each matrix; .trans gets (rows
// 2 (l % 4), + 1, column l / 4).
TEST_F(TensorCore, LdmatrixFragments) {
  std::vector<uint16_t> m(4 * 64);
  for (int i = 0; i < 4 * 64; ++i)
    m[i] = uint16_t(1000 + i);
  DeviceBuffer<uint16_t> dm(m);
  for (bool trans : {false, true}) {
    DeviceBuffer<uint32_t> out(32 * 4, 0xFF);
    ASSERT_EQ(launchLdmatrix(trans, dm.get(), out.get()), Error::Success);
    const std::vector<uint32_t> got = out.toHost();
    for (int lane = 0; lane < 32; ++lane)
      for (int j = 0; j < 4; ++j)
        EXPECT_EQ(got[4 * lane + j], ldmatrixRegister(m, lane, j, trans))
            << (trans ? "trans " : "") << "lane " << lane << ", matrix " << j;
  }
}

// Planted bug: the wait after the fragment reads. Each lane's ldmatrix reads bytes whose cp.async
// has not completed: reported at the read, with where the copy started; the late wait then writes
// bytes other lanes read in the same barrier interval (a race, reported too).
TEST_F(TensorCore, ReadBeforeTheWaitIsReported) {
  const Operands<tl::half> h(3);
  (void)run(MmaPath::LateWait, h);
  const std::vector<Finding> findings = tilec::emu::take_findings();
  int atARead = 0; // the reads of A's fragments (B's are reported at their own line)
  for (const Finding &f : findings) {
    EXPECT_TRUE(f.kind == FindingKind::AsyncCopyInFlight || f.kind == FindingKind::SharedRace)
        << describe(findings);
    if (f.kind != FindingKind::AsyncCopyInFlight)
      continue;
    EXPECT_NE(f.text.find("read of shared memory that a cp.async has not delivered"),
              std::string::npos)
        << f.text;
    atARead += f.text.find("at " + lineIn<at::LateWaitRead>("TensorCoreKernels.cpp") +
                           " (in tilec::rt::ldmatrix_x4,") != std::string::npos;
  }
  EXPECT_GT(atARead, 0) << describe(findings);
}

// Planted bug: no wait at all. The reads are reported as above, and every thread returns with its
// two copies in flight: their bytes never land.
TEST_F(TensorCore, CopiesNeverWaitedForAreReported) {
  const Operands<tl::half> h(5);
  (void)run(MmaPath::NoWait, h);
  const std::vector<Finding> findings = tilec::emu::take_findings();
  bool exit = false;
  for (const Finding &f : findings) {
    EXPECT_EQ(f.kind, FindingKind::AsyncCopyInFlight) << describe(findings);
    if (f.text.find("returned with 2 cp.async copies in flight (the first started at " +
                    std::string("TensorCoreKernels.cpp:")) != std::string::npos) {
      exit = true;
      EXPECT_EQ(f.occurrences, 32) << f.text; // every lane of the warp, reported once
    }
  }
  EXPECT_TRUE(exit) << describe(findings);
}

// Planted bug: no barrier between the copies and the fragment reads. A lane reads rows that other
// lanes copied: before their copy landed (uninitialized) or in the same barrier interval (a race).
TEST_F(TensorCore, MissingBarrierIsReported) {
  const Operands<tl::half> h(4);
  (void)run(MmaPath::NoBarrier, h);
  const std::vector<Finding> findings = tilec::emu::take_findings();
  ASSERT_FALSE(findings.empty());
  bool race = false;
  for (const Finding &f : findings) {
    EXPECT_TRUE(f.kind == FindingKind::SharedRace || f.kind == FindingKind::UninitializedShared)
        << describe(findings);
    race = race || f.kind == FindingKind::SharedRace;
  }
  EXPECT_TRUE(race) << describe(findings);
}

} // namespace
} // namespace emu_test::tensor_core
