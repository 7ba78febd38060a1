#include "FrontTestUtil.h"

#include <gtest/gtest.h>

using namespace tilec::ir;
using namespace tilec::testing;

namespace {

/// Simplifies `e` as the init of a decl in a one-statement kernel; returns the printed init.
std::string simplified(Kernel &k, Expr e) {
  Var v = k.newVar("v", e->type, VarKind::Local, {});
  k.body = Block::make({Decl::make(v, e)});
  Module m = moduleOf(k);
  Runner r;
  r.run(m, {"simplify"});
  return toString(as<Decl>(as<Block>(m.kernels[0].body)->stmts[0])->init);
}

TEST(Simplify, FoldsIntegerConstants) {
  Kernel k;
  EXPECT_EQ(simplified(k, bin(BinaryOp::Mul, I32(4), I32(256))), "1024:i32");
  EXPECT_EQ(simplified(k, bin(BinaryOp::Div, I32(-7), I32(2))), "-3:i32") << "C truncation";
  EXPECT_EQ(simplified(k, bin(BinaryOp::Mod, I32(-7), I32(2))), "-1:i32");
  EXPECT_EQ(simplified(k, bin(BinaryOp::Lt, I32(1), I32(2))), "1:i1");
  EXPECT_EQ(simplified(k, bin(BinaryOp::Shl, I32(1), I32(4))), "16:i32");
  EXPECT_EQ(simplified(k, Unary::make(UnaryOp::Neg, I32(5))), "-5:i32");
  // Splatted constants fold to a splat.
  EXPECT_EQ(simplified(k, bin(BinaryOp::Add, splat(I32(2), {8}), splat(I32(3), {8}))),
            "splat(5:i32) : tile<8xi32>");
}

TEST(Simplify, DoesNotFoldOverflowOrUndefined) {
  Kernel k;
  EXPECT_EQ(simplified(k, bin(BinaryOp::Add, I32(2147483647), I32(1))), "add(2147483647:i32, 1:i32)");
  EXPECT_EQ(simplified(k, bin(BinaryOp::Div, I32(1), I32(0))), "div(1:i32, 0:i32)");
  EXPECT_EQ(simplified(k, bin(BinaryOp::Shl, I32(1), I32(40))), "shl(1:i32, 40:i32)");
  EXPECT_EQ(simplified(k, bin(BinaryOp::Mul, IntImm::make(ScalarType::I8, 100), IntImm::make(ScalarType::I8, 2))),
            "mul(100:i8, 2:i8)");
}

TEST(Simplify, FloatsAndCasts) {
  Kernel k;
  auto f = [](double v) { return FloatImm::make(ScalarType::F32, v); };
  EXPECT_EQ(simplified(k, bin(BinaryOp::Mul, f(1.5), f(2))), toString(f(3)));
  EXPECT_EQ(simplified(k, Cast::make(ScalarType::F32, I32(3))), toString(f(3)));
  EXPECT_EQ(simplified(k, Cast::make(ScalarType::I32, f(-2.75))), "-2:i32");
  EXPECT_EQ(simplified(k, Cast::make(ScalarType::I8, I32(300))), "cast<i8>(300:i32)") << "does not fit";
  Expr big = IntImm::make(ScalarType::I32, 16777217);
  EXPECT_EQ(simplified(k, Cast::make(ScalarType::F32, big)), "cast<f32>(16777217:i32)") << "inexact";
  Expr f16 = FloatImm::make(ScalarType::F16, 1.0);
  EXPECT_EQ(simplified(k, bin(BinaryOp::Add, f16, f16)), toString(bin(BinaryOp::Add, f16, f16)))
      << "f16 arithmetic is not folded";
}

TEST(Simplify, Identities) {
  Kernel k;
  Var x = k.newVar("x", Type::scalar(ScalarType::I32).withShape({64}), VarKind::Param, {});
  Var y = k.newVar("y", Type::scalar(ScalarType::F32), VarKind::Param, {});
  Var p = k.newVar("p", Type::ptr(ScalarType::F32, true), VarKind::Param, {});
  EXPECT_EQ(simplified(k, bin(BinaryOp::Add, vr(x), splat(I32(0), {64}))), "%x");
  EXPECT_EQ(simplified(k, bin(BinaryOp::Mul, splat(I32(1), {64}), vr(x))), "%x");
  EXPECT_EQ(simplified(k, bin(BinaryOp::Mul, vr(x), splat(I32(0), {64}))), "splat(0:i32) : tile<64xi32>");
  EXPECT_EQ(simplified(k, bin(BinaryOp::Sub, vr(x), splat(I32(0), {64}))), "%x");
  EXPECT_EQ(simplified(k, Cast::make(ScalarType::I32, vr(x))), "%x");
  EXPECT_EQ(simplified(k, bin(BinaryOp::Add, vr(p), I32(0))), "%p");
  // An integer compared with itself is a constant (hipcc warns about the self-comparison); a float
  // is not (x != x is true for NaN).
  EXPECT_EQ(simplified(k, bin(BinaryOp::Ne, vr(x), vr(x))), "splat(0:i1) : tile<64xi1>");
  EXPECT_EQ(simplified(k, bin(BinaryOp::Le, vr(x), vr(x))), "splat(1:i1) : tile<64xi1>");
  EXPECT_EQ(simplified(k, bin(BinaryOp::Ne, vr(y), vr(y))), "ne(%y, %y)");
  EXPECT_EQ(simplified(k, bin(BinaryOp::Mul, vr(y), FloatImm::make(ScalarType::F32, 1))), "%y");
  EXPECT_EQ(simplified(k, bin(BinaryOp::Add, vr(y), FloatImm::make(ScalarType::F32, 0))),
            "add(%y, 0:f32)")
      << "x + 0.0 is not x for x = -0.0";
  EXPECT_EQ(simplified(k, bin(BinaryOp::Mul, vr(y), FloatImm::make(ScalarType::F32, 0))),
            "mul(%y, 0:f32)")
      << "x * 0.0 is not 0 for NaN/inf";
}

TEST(Simplify, CseReusesEarlierDecl) {
  Kernel k = vectorAdd();
  auto *b = as<Block>(k.body);
  Var offs = as<Decl>(b->stmts[1])->var, n = k.params[3];
  Var mask2 = k.newVar("mask2", as<Decl>(b->stmts[2])->var->type, VarKind::Local, {});
  std::vector<Stmt> s = b->stmts;
  // decl mask2 = lt(offs, splat(n)) again, inside an if; the store uses mask2.
  Var c = k.newVar("c", Type::scalar(ScalarType::Bool), VarKind::Param, {});
  k.params.push_back(c);
  auto *st = as<Store>(s.back());
  s.back() = If::make(vr(c), Block::make({Decl::make(mask2, bin(BinaryOp::Lt, vr(offs), splat(vr(n), {1024}))),
                                          Store::make(st->ptr, st->value, vr(mask2))}),
                      nullptr);
  k.body = Block::make(s);
  Module m = moduleOf(std::move(k));
  Runner r;
  r.run(m, {"simplify"});
  std::string t = str(m.kernels[0]);
  EXPECT_EQ(t.find("mask2"), std::string::npos) << t;
  EXPECT_NE(t.find("add(%a, %b), mask=%mask)"), std::string::npos) << t;
}

TEST(Simplify, CseNotAcrossAssignmentOrStore) {
  Kernel k;
  k.name = "neg";
  Var p = k.newVar("p", Type::ptr(ScalarType::I32, false), VarKind::Param, {});
  Var i = k.newVar("i", Type::scalar(ScalarType::I32), VarKind::Local, {});
  Var a = k.newVar("a", Type::scalar(ScalarType::I32), VarKind::Local, {});
  Var b = k.newVar("b", Type::scalar(ScalarType::I32), VarKind::Local, {});
  Var l1 = k.newVar("l1", Type::scalar(ScalarType::I32), VarKind::Local, {});
  Var l2 = k.newVar("l2", Type::scalar(ScalarType::I32), VarKind::Local, {});
  Var l3 = k.newVar("l3", Type::scalar(ScalarType::I32), VarKind::Local, {});
  Var j = k.newVar("j", Type::scalar(ScalarType::I32), VarKind::LoopIndex, {});
  Var c1 = k.newVar("c1", Type::scalar(ScalarType::I32), VarKind::Local, {});
  Var c2 = k.newVar("c2", Type::scalar(ScalarType::I32), VarKind::Local, {});
  k.params = {p};
  auto twice = [&] { return bin(BinaryOp::Mul, vr(i), I32(2)); };
  auto ld = [&] { return Load::make(vr(p), nullptr, nullptr); };
  k.body = Block::make({
      Decl::make(i, ProgramId::make(0, false)),
      Decl::make(a, twice()),
      Assign::make(i, I32(3)),
      Decl::make(b, twice()),             // i changed: no reuse
      Decl::make(l1, ld()),
      Decl::make(l2, ld()),               // reuses l1
      Store::make(vr(p), I32(1), nullptr),
      Decl::make(l3, ld()),               // a store in between: no reuse
      Decl::make(c1, bin(BinaryOp::Add, vr(l1), I32(5))),
      For::make(j, I32(0), I32(4), I32(1),
                Block::make({Decl::make(c2, bin(BinaryOp::Add, vr(l1), I32(5)))}), false), // reuses c1
  });
  Module m = moduleOf(std::move(k));
  Runner r;
  r.run(m, {"simplify"});
  EXPECT_EQ(str(m.kernels[0]), R"(kernel @neg instance= num_warps=4 {
  param %p: ptr<i32>
  decl %i: i32 = program_id(0)
  decl %a: i32 = mul(%i, 2:i32)
  %i = 3:i32
  decl %b: i32 = mul(%i, 2:i32)
  decl %l1: i32 = load(%p) : i32
  store(%p, 1:i32)
  decl %l3: i32 = load(%p) : i32
  decl %c1: i32 = add(%l1, 5:i32)
  for %j = 0:i32 to 4:i32 step 1:i32 {
  }
}
)");
}

TEST(Simplify, CseNotForVariablesAssignedInLoop) {
  Kernel k;
  k.name = "loop";
  Var x = k.newVar("x", Type::scalar(ScalarType::I32), VarKind::Local, {});
  Var a = k.newVar("a", Type::scalar(ScalarType::I32), VarKind::Local, {});
  Var b = k.newVar("b", Type::scalar(ScalarType::I32), VarKind::Local, {});
  Var j = k.newVar("j", Type::scalar(ScalarType::I32), VarKind::LoopIndex, {});
  k.body = Block::make({
      Decl::make(x, ProgramId::make(0, false)),
      Decl::make(a, bin(BinaryOp::Add, vr(x), I32(1))),
      For::make(j, I32(0), I32(4), I32(1),
                Block::make({Decl::make(b, bin(BinaryOp::Add, vr(x), I32(1))),
                             Assign::make(x, vr(b))}),
                false),
  });
  Module m = moduleOf(std::move(k));
  Runner r;
  r.run(m, {"simplify"});
  EXPECT_NE(str(m.kernels[0]).find("decl %b: i32 = add(%x, 1:i32)"), std::string::npos)
      << "x is assigned in the loop";
}

} // namespace
