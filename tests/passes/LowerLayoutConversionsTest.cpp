#include "BackTestUtil.h"

using namespace tilec::ir;
using namespace tilec::testing;

namespace {

// Rows walked by lanes (order [1,0]) vs columns walked by lanes (order [0,1]).
LayoutRef rowsL() { return Layout::blocked({1, 4}, {8, 4}, {4, 1}, {1, 0}); }
LayoutRef colsL() { return Layout::blocked({4, 1}, {4, 8}, {1, 4}, {0, 1}); }

TEST(LowerLayoutConversions, Transpose64x64F32IsPaddedByOneElement) {
  TestKernel t;
  std::vector<Stmt> body;
  Var x = t.tile(body, "x", {64, 64}, rowsL());
  Expr cv = ConvertLayout::make(VarRef::make(x), colsL());
  Var y = t.local("y", cv->type);
  body.push_back(Decl::make(y, cv));
  t.k().body = Block::make(body);
  runPass(t.m, "lower-layout-conversions");
  std::string R = rowsL()->str(), C = colsL()->str();
  EXPECT_EQ(t.str(), R"(kernel @k instance=k num_warps=4 {
  param %out: ptr<f32>
  param %a: f32
  shared 0 y_smem: f32[64x64] row_stride=65 bytes=16640
  #blocked0 = )" + R + R"(
  #blocked1 = )" + C + R"(
  decl %x: tile<64x64xf32, #blocked0> = splat(%a) : tile<64x64xf32, #blocked0>
  shared_write 0, %x
  barrier
  decl %y: tile<64x64xf32, #blocked1> = shared_read(0) : tile<64x64xf32, #blocked1>
}
)");
  EXPECT_TRUE(verifies(t.m));
}

TEST(LowerLayoutConversions, NoPaddingWhenBothSidesWalkRows) {
  TestKernel t;
  std::vector<Stmt> body;
  Var x = t.tile(body, "x", {64, 64}, rowsL());
  Expr cv = ConvertLayout::make(VarRef::make(x), Layout::blocked({1, 1}, {1, 32}, {4, 1}, {1, 0}));
  Var y = t.local("y", cv->type);
  body.push_back(Decl::make(y, cv));
  t.k().body = Block::make(body);
  runPass(t.m, "lower-layout-conversions");
  ASSERT_EQ(t.k().buffers.size(), 1u);
  EXPECT_EQ(t.k().buffers[0].rowStride, 64);
  EXPECT_EQ(t.k().buffers[0].sizeBytes, 64 * 64 * 4);
}

TEST(LowerLayoutConversions, HalfPrecisionPadsOneBank) {
  TestKernel t;
  std::vector<Stmt> body;
  Var x = t.tile(body, "x", {32, 64}, rowsL(), ScalarType::F16);
  Expr cv = ConvertLayout::make(VarRef::make(x), colsL());
  Var y = t.local("y", cv->type);
  body.push_back(Decl::make(y, cv));
  t.k().body = Block::make(body);
  runPass(t.m, "lower-layout-conversions");
  ASSERT_EQ(t.k().buffers.size(), 1u);
  EXPECT_EQ(t.k().buffers[0].rowStride, 66) << "2 halves = one 4-byte bank";
  EXPECT_EQ(t.k().buffers[0].sizeBytes, 32 * 66 * 2);
}

TEST(LowerLayoutConversions, NestedConversionsAreHoisted) {
  // store(splat(out), convert(x + 1)) with the store's layout = colsL.
  TestKernel t;
  std::vector<Stmt> body;
  Var x = t.tile(body, "x", {64, 64}, rowsL());
  Expr sum = lay(Binary::make(BinaryOp::Add, VarRef::make(x),
                              lay(Splat::make(f32(1), {64, 64}), rowsL())),
                 rowsL());
  Expr ptr = lay(Splat::make(VarRef::make(t.out), {64, 64}), colsL());
  body.push_back(Store::make(ptr, ConvertLayout::make(sum, colsL()), nullptr));
  t.k().body = Block::make(body);
  runPass(t.m, "lower-layout-conversions");
  std::string s = t.str();
  for (const char *line : {"shared 0 store_cvt_smem: f32[64x64] row_stride=65",
                           "  shared_write 0, add(%x, splat(1:f32)",
                           "  barrier\n  decl %store_cvt: tile<64x64xf32, ",
                           "= shared_read(0) : tile<64x64xf32, ",
                           "  store(splat(%out) : tile<64x64xptr<f32>, "})
    EXPECT_NE(s.find(line), std::string::npos) << line << "\n" << s;
  EXPECT_NE(s.find(", %store_cvt)\n"), std::string::npos) << s;
  EXPECT_EQ(s.find("convert_layout"), std::string::npos) << s;
  EXPECT_TRUE(verifies(t.m));
}

TEST(LowerLayoutConversions, AssignTargetReadsBack) {
  TestKernel t;
  std::vector<Stmt> body;
  Var x = t.tile(body, "x", {128}, Layout::blocked({4}, {32}, {4}, {0}));
  Var y = t.tile(body, "y", {128}, Layout::blocked({1}, {32}, {4}, {0}));
  body.push_back(Assign::make(y, ConvertLayout::make(VarRef::make(x), y->type.layout)));
  t.k().body = Block::make(body);
  runPass(t.m, "lower-layout-conversions");
  std::string s = t.str();
  EXPECT_NE(s.find("shared 0 y_smem: f32[128] row_stride=128 bytes=512"), std::string::npos) << s;
  EXPECT_NE(s.find("  shared_write 0, %x\n  barrier\n  %y = shared_read(0) : tile<128xf32, "),
            std::string::npos)
      << s;
  EXPECT_TRUE(verifies(t.m));
}

} // namespace
