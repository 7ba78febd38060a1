#include "FrontTestUtil.h"
#include "passes/analysis/AxisInfo.h"

#include <gtest/gtest.h>

using namespace tilec::ir;
using namespace tilec::passes;
using namespace tilec::testing;

namespace {

using V = std::vector<int64_t>;

TEST(AxisInfo, ArangeConstantsSplat) {
  Kernel k;
  k.body = Block::make({});
  AxisAnalysis a(k);
  auto r = a.get(Arange::make(0, 128));
  EXPECT_EQ(r.contiguity, V{128});
  EXPECT_EQ(r.divisibility, V{AxisInfo::kMaxDivisibility});
  EXPECT_EQ(r.constancy, V{1});
  EXPECT_EQ(a.get(Arange::make(64, 128)).divisibility, V{64});
  EXPECT_EQ(a.get(I32(48)).divisibility, V{16});
  auto s = a.get(splat(I32(96), {32}));
  EXPECT_EQ(s.constancy, V{32});
  EXPECT_EQ(s.divisibility, V{32});
}

TEST(AxisInfo, ParamsPointerAndOffsets) {
  Kernel k = vectorAdd();
  AxisAnalysis a(k);
  EXPECT_EQ(a.var(k.params[0]).divisibility, V{4}) << "f32 pointer: element alignment only";
  EXPECT_EQ(a.var(k.params[3]).divisibility, V{1});
  auto *b = as<Block>(k.body);
  Var offs = as<Decl>(b->stmts[1])->var;
  auto o = a.var(offs);
  EXPECT_EQ(o.contiguity, V{1024});
  EXPECT_EQ(o.divisibility, V{1024}) << "pid * 1024 + arange(0, 1024)";
  auto p = a.get(bin(BinaryOp::Add, splat(vr(k.params[0]), {1024}), vr(offs)));
  EXPECT_EQ(p.contiguity, V{1024});
  EXPECT_EQ(p.divisibility, V{4}) << "bytes: gcd(4, 1024 * 4)";
  auto mask = a.var(as<Decl>(b->stmts[2])->var);
  EXPECT_EQ(mask.contiguity, V{1});
  auto ld = a.get(as<Decl>(b->stmts[3])->init);
  EXPECT_EQ(ld.contiguity, V{1});
  EXPECT_EQ(ld.divisibility, V{1});
}

TEST(AxisInfo, MulAddExpandBroadcast) {
  Kernel k = transpose();
  AxisAnalysis a(k);
  auto *b = as<Block>(k.body);
  Var rm = as<Decl>(b->stmts[2])->var;
  Var stride = k.params[4];
  Expr col = ExpandDims::make(vr(rm), 1);
  auto c = a.get(col);
  EXPECT_EQ(c.contiguity, (V{64, 1}));
  auto m = a.get(bin(BinaryOp::Mul, col, splat(vr(stride), {64, 1})));
  EXPECT_EQ(m.contiguity, (V{1, 1}));
  EXPECT_EQ(m.divisibility, (V{1, 1})) << "consecutive values times an unknown stride";
  auto m2 = a.get(bin(BinaryOp::Mul, col, splat(I32(1), {64, 1})));
  EXPECT_EQ(m2.contiguity, (V{64, 1})) << "times constant 1 keeps contiguity";
  auto m3 = a.get(bin(BinaryOp::Mul, splat(I32(8), {64, 1}), splat(I32(4), {64, 1})));
  EXPECT_EQ(m3.divisibility, (V{32, 32}));
  auto br = a.get(Broadcast::make(col, {64, 64}));
  EXPECT_EQ(br.contiguity, (V{64, 1}));
  EXPECT_EQ(br.constancy, (V{1, 64}));
  // The load pointer of the example: contiguous along dim 1, the store pointer along dim 0.
  auto *ld = as<Load>(as<Decl>(b->stmts[5])->init);
  EXPECT_EQ(a.get(ld->ptr).contiguity, (V{1, 64}));
  EXPECT_EQ(a.get(as<Store>(b->stmts[6])->ptr).contiguity, (V{64, 1}));
  // Comparisons keep constancy, not contiguity.
  auto cmp = a.get(bin(BinaryOp::Lt, col, splat(vr(k.params[2]), {64, 1})));
  EXPECT_EQ(cmp.contiguity, (V{1, 1}));
}

TEST(AxisInfo, HintsOverride) {
  Kernel k = vectorAdd();
  AxisAnalysis a(k);
  Var n = k.params[3];
  EXPECT_EQ(a.get(Hint::make(HintKind::MultipleOf, vr(n), {16})).divisibility, V{16});
  Expr h = Hint::make(HintKind::MaxContiguous, Arange::make(0, 256), {8});
  EXPECT_EQ(a.get(h).contiguity, V{8});
}

TEST(AxisInfo, VariablesAssignedSeveralTimesAndLoops) {
  Kernel k;
  Var x = k.newVar("x", Type::scalar(ScalarType::I32), VarKind::Local, {});
  Var i = k.newVar("i", Type::scalar(ScalarType::I32), VarKind::LoopIndex, {});
  Var j = k.newVar("j", Type::scalar(ScalarType::I32), VarKind::LoopIndex, {});
  Var z = k.newVar("z", Type::scalar(ScalarType::I32), VarKind::Local, {});
  k.body = Block::make({
      Decl::make(x, I32(64)),
      Decl::make(z, I32(64)),
      For::make(i, I32(0), I32(1000), I32(32),
                Block::make({Assign::make(x, bin(BinaryOp::Add, vr(x), I32(16))),
                             Assign::make(z, bin(BinaryOp::Mul, vr(z), I32(3)))}),
                false),
      For::make(j, I32(8), I32(1000), I32(32), Block::make({}), false),
  });
  AxisAnalysis a(k);
  EXPECT_EQ(a.var(x).divisibility, V{16})
      << "an increment by the same amount: the first value's facts met with the step's";
  EXPECT_EQ(a.var(z).divisibility, V{1}) << "any other loop-carried self reference: nothing known";
  EXPECT_EQ(a.var(i).divisibility, V{32});
  EXPECT_EQ(a.var(j).divisibility, V{8});
  Kernel k2;
  Var y = k2.newVar("y", Type::scalar(ScalarType::I32), VarKind::Local, {});
  Var c = k2.newVar("c", Type::scalar(ScalarType::Bool), VarKind::Param, {});
  k2.params = {c};
  k2.body = Block::make({Decl::make(y, I32(64)),
                         If::make(vr(c), Assign::make(y, I32(16)), nullptr)});
  AxisAnalysis a2(k2);
  EXPECT_EQ(a2.var(y).divisibility, V{16}) << "meet of all assignments";
}

} // namespace
