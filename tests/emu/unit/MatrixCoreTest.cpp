/// \file The emulator's model of the matrix-core instructions (tilec/hip/matrix_core.hpp) on the
/// kernels of MatrixCoreKernels.cpp: an MFMA computes A B + C from the fragments AMD's tables
/// assign to each lane of the wavefront.

#include "MatrixCoreKernels.h"
#include "TestSupport.h"

#include <tilec/tl.hpp>

namespace emu_test::matrix_core {
namespace {

using MatrixCore = EmuTest;

template <class T> std::vector<float> run(const Operands<T> &ops) {
  DeviceBuffer<uint16_t> a(ops.a), b(ops.b);
  DeviceBuffer<float> c(ops.c), d(ops.n * ops.n, 0xFF);
  EXPECT_EQ(launchMfma(ops.n, std::is_same_v<T, tl::bfloat16>, a.get(), b.get(), c.get(), d.get()),
            Error::Success);
  return d.toHost();
}

// Fragments packed by Mfma<N>'s maps give exactly A B + C in the emulator's order, for both
// shapes, fp16 and bf16, with no finding.
TEST_F(MatrixCore, MfmaThroughSharedMemory) {
  for (int n : {32, 16}) {
    const Operands<tl::half> h(n, 10 + n);
    const Operands<tl::bfloat16> bf(n, 20 + n);
    EXPECT_EQ(run(h), h.reference()) << "fp16, n = " << n;
    EXPECT_EQ(run(bf), bf.reference()) << "bf16, n = " << n;
  }
  EXPECT_TRUE(tilec::emu::take_findings().empty());
}

// The int8 forms: exact wrapping int32 sums of A B + C (C near INT32_MAX, so that about half of
// them wrap), from one register of four bytes per operand.
TEST_F(MatrixCore, MfmaInt8) {
  for (int n : {32, 16}) {
    const int k = n == 32 ? 8 : 16;
    std::mt19937 rng(30 + n);
    std::vector<int8_t> a(n * k), b(k * n);
    std::vector<int> c(n * n), ref(n * n);
    for (auto &x : a)
      x = int8_t(rng());
    for (auto &x : b)
      x = int8_t(rng());
    for (auto &x : c)
      x = int(0x7FFFF000u + (rng() & 0x1FFFu));
    for (int r = 0; r < n; ++r)
      for (int j = 0; j < n; ++j) {
        uint32_t s = uint32_t(c[r * n + j]);
        for (int i = 0; i < k; ++i)
          s += uint32_t(int(a[r * k + i]) * int(b[i * n + j]));
        ref[r * n + j] = int(s);
      }
    DeviceBuffer<int8_t> da(a), db(b);
    DeviceBuffer<int> dc(c), dd(n * n, 0xFF);
    EXPECT_EQ(launchMfmaI8(n, da.get(), db.get(), dc.get(), dd.get()), Error::Success);
    EXPECT_EQ(dd.toHost(), ref) << "n = " << n;
  }
  EXPECT_TRUE(tilec::emu::take_findings().empty());
}

// Entries of AMD's Matrix Instruction Calculator for CDNA2 (`--get-register`): the lane and the
// element (register * 2 + half for 16-bit operands) that hold them. E.g. v_mfma_f32_32x32x8f16
// A[9][5] = v0{41}.[31:16]: lane 41, element 1; D[21][30] = v9{62}: lane 62, element 9. The int8
// forms' tables hold the same lanes and elements, four bytes a register (v_mfma_i32_32x32x8i8
// A[9][5] = v0{41}.[15:8], v_mfma_i32_16x16x16i8 B[10][7] = v0{39}.[23:16]).
TEST_F(MatrixCore, FragmentMapsAreAmdsTables) {
  struct Entry {
    int n;
    char matrix;
    int row, col, lane, elem;
  };
  const Entry entries[] = {
      {32, 'A', 9, 5, 41, 1},   // v0{41}.[31:16]
      {32, 'B', 6, 17, 49, 2},  // v1{49}.[15:0]
      {32, 'D', 21, 30, 62, 9}, // v9{62}
      {32, 'D', 12, 3, 35, 4},  // v4{35}
      {16, 'A', 3, 13, 51, 1},  // v0{51}.[31:16]
      {16, 'B', 10, 7, 39, 2},  // v1{39}.[15:0]
      {16, 'D', 14, 9, 57, 2},  // v2{57}
  };
  for (const Entry &e : entries) {
    const Held h = mfmaHolder(e.n, e.matrix, e.row, e.col);
    EXPECT_EQ(h.lane, e.lane) << e.n << " " << e.matrix << "[" << e.row << "][" << e.col << "]";
    EXPECT_EQ(h.elem, e.elem) << e.n << " " << e.matrix << "[" << e.row << "][" << e.col << "]";
  }
}

} // namespace
} // namespace emu_test::matrix_core
