#include "FrontTestUtil.h"
#include "ir/Equality.h"

#include <gtest/gtest.h>

using namespace tilec::ir;
using namespace tilec::testing;

namespace {

TEST(Equality, StructurallyEqualTreesBuiltTwice) {
  Kernel k;
  Var n = k.newVar("n", Type::scalar(ScalarType::I32), VarKind::Param, {});
  auto build = [&] { return bin(BinaryOp::Lt, Arange::make(0, 64), splat(vr(n), {64})); };
  EXPECT_TRUE(equal(build(), build()));
  EXPECT_TRUE(equal(Expr(), Expr()));
  EXPECT_FALSE(equal(build(), Expr()));
}

TEST(Equality, VarsByIdentityNotName) {
  Kernel k;
  Var a = k.newVar("x", Type::scalar(ScalarType::I32), VarKind::Local, {});
  Var b = k.newVar("x", Type::scalar(ScalarType::I32), VarKind::Local, {});
  EXPECT_TRUE(equal(vr(a), vr(a)));
  EXPECT_FALSE(equal(vr(a), vr(b)));
}

TEST(Equality, FieldsAndTypesMatter) {
  EXPECT_FALSE(equal(I32(1), I32(2)));
  EXPECT_FALSE(equal(I32(1), IntImm::make(ScalarType::I64, 1)));
  EXPECT_FALSE(equal(Arange::make(0, 64), Arange::make(64, 128)));
  EXPECT_FALSE(equal(bin(BinaryOp::Add, I32(1), I32(2)), bin(BinaryOp::Sub, I32(1), I32(2))));
  EXPECT_FALSE(equal(FloatImm::make(ScalarType::F32, 0.0), FloatImm::make(ScalarType::F32, -0.0)));
  EXPECT_FALSE(equal(ProgramId::make(0, false), ProgramId::make(0, true)));
  Expr x = Cast::make(ScalarType::F32, Arange::make(0, 64));
  EXPECT_FALSE(equal(Reduce::make(ReduceOp::Sum, 0, x), Reduce::make(ReduceOp::Max, 0, x)));
  EXPECT_FALSE(equal(ExpandDims::make(x, 0), ExpandDims::make(x, 1)));
  // Layouts are part of the type.
  Expr a = Arange::make(0, 128);
  Expr c1 = ConvertLayout::make(a, Layout::blocked({4}, {32}, {1}, {0}));
  Expr c2 = ConvertLayout::make(a, Layout::blocked({1}, {32}, {4}, {0}));
  EXPECT_FALSE(equal(c1, c2));
  EXPECT_TRUE(equal(c1, ConvertLayout::make(a, Layout::blocked({4}, {32}, {1}, {0}))));
  // Hints and loads compare their fields.
  EXPECT_FALSE(equal(Hint::make(HintKind::MultipleOf, a, {16}), Hint::make(HintKind::MultipleOf, a, {8})));
  Kernel k;
  Var p = k.newVar("p", Type::ptr(ScalarType::F32, true), VarKind::Param, {});
  Expr ptrs = bin(BinaryOp::Add, splat(vr(p), {128}), a);
  Expr l1 = Load::make(ptrs, nullptr, nullptr);
  auto l2 = std::make_shared<Load>(*as<Load>(l1));
  EXPECT_TRUE(equal(l1, Expr(l2)));
  l2->vec = 4;
  EXPECT_FALSE(equal(l1, Expr(l2)));
}

TEST(Equality, Statements) {
  Kernel k1 = vectorAdd(), k2 = vectorAdd();
  EXPECT_TRUE(equal(k1.body, k1.body));
  EXPECT_FALSE(equal(k1.body, k2.body)) << "different variables";
  Var v = k1.newVar("v", Type::scalar(ScalarType::I32), VarKind::Local, {});
  EXPECT_TRUE(equal(Decl::make(v, I32(1)), Decl::make(v, I32(1))));
  EXPECT_FALSE(equal(Decl::make(v, I32(1)), Assign::make(v, I32(1))));
  EXPECT_TRUE(equal(Block::make({Barrier::make(), Assign::make(v, I32(2))}),
                    Block::make({Barrier::make(), Assign::make(v, I32(2))})));
  EXPECT_FALSE(equal(If::make(vr(v), Barrier::make(), nullptr),
                     If::make(vr(v), Barrier::make(), Barrier::make())));
}

} // namespace
