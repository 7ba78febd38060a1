#include "FrontTestUtil.h"

#include <gtest/gtest.h>

using namespace tilec::ir;
using namespace tilec::testing;

namespace {

TEST(Materialize, ReductionsInExpressionsAreBound) {
  Module m = moduleOf(softmax(1024, 4));
  Runner r;
  r.run(m, {"materialize"});
  std::string t = str(m.kernels[0]);
  EXPECT_NE(t.find("  decl %max_x: f32 = reduce.max(%x, axis=0) : f32\n"
                   "  decl %shifted: tile<1024xf32> = sub(%x, splat(%max_x) : tile<1024xf32>)\n"),
            std::string::npos)
      << t;
  EXPECT_NE(t.find("decl %den: f32 = reduce.sum(%num, axis=0)"), std::string::npos)
      << "a reduction that is the whole init stays";
}

TEST(Materialize, LoadInStoreAndNestedLoad) {
  Kernel k;
  k.name = "copy";
  Var x = k.newVar("x", Type::ptr(ScalarType::F32, true), VarKind::Param, {});
  Var idx = k.newVar("idx", Type::ptr(ScalarType::I32, true), VarKind::Param, {});
  Var out = k.newVar("out", Type::ptr(ScalarType::F32, false), VarKind::Param, {});
  k.params = {x, idx, out};
  // store(out + arange, load(x + splat(load(idx))) * 2)
  Expr gather = Load::make(bin(BinaryOp::Add, splat(vr(x), {64}),
                               bin(BinaryOp::Add, splat(Load::make(vr(idx), nullptr, nullptr), {64}),
                                   Arange::make(0, 64))),
                           nullptr, nullptr);
  k.body = Block::make({Store::make(bin(BinaryOp::Add, splat(vr(out), {64}), Arange::make(0, 64)),
                                    bin(BinaryOp::Mul, gather, splat(FloatImm::make(ScalarType::F32, 2), {64})),
                                    nullptr)});
  Module m = moduleOf(std::move(k));
  Runner r;
  r.run(m, {"materialize"});
  EXPECT_EQ(str(m.kernels[0]), R"(kernel @copy instance= num_warps=4 {
  param %x: ptr<const f32>
  param %idx: ptr<const i32>
  param %out: ptr<f32>
  decl %idx_load: i32 = load(%idx) : i32
  decl %x_load: tile<64xf32> = load(add(splat(%x) : tile<64xptr<const f32>>, add(splat(%idx_load) : tile<64xi32>, arange(0, 64) : tile<64xi32>))) : tile<64xf32>
  store(add(splat(%out) : tile<64xptr<f32>>, arange(0, 64) : tile<64xi32>), mul(%x_load, splat(2:f32) : tile<64xf32>))
}
)");
}

TEST(Materialize, WhileConditionLoadIsReevaluatedAtEndOfBody) {
  Kernel k;
  k.name = "spin";
  Var flag = k.newVar("flag", Type::ptr(ScalarType::I32, true), VarKind::Param, {});
  Var n = k.newVar("n", Type::scalar(ScalarType::I32), VarKind::Local, {});
  k.params = {flag};
  k.body = Block::make({
      Decl::make(n, I32(0)),
      While::make(bin(BinaryOp::Eq, Load::make(vr(flag), nullptr, nullptr), I32(0)),
                  Block::make({Assign::make(n, bin(BinaryOp::Add, vr(n), I32(1)))}))});
  Module m = moduleOf(std::move(k));
  Runner r;
  r.run(m, {"materialize"});
  EXPECT_EQ(str(m.kernels[0]), R"(kernel @spin instance= num_warps=4 {
  param %flag: ptr<const i32>
  decl %n: i32 = 0:i32
  decl %flag_load: i32 = load(%flag) : i32
  while eq(%flag_load, 0:i32) {
    %n = add(%n, 1:i32)
    %flag_load = load(%flag) : i32
  }
}
)");
}

TEST(Materialize, IfConditionAndLoopBodies) {
  Kernel k;
  k.name = "cond";
  Var p = k.newVar("p", Type::ptr(ScalarType::I32, true), VarKind::Param, {});
  Var s = k.newVar("s", Type::scalar(ScalarType::I32), VarKind::Local, {});
  Var i = k.newVar("i", Type::scalar(ScalarType::I32), VarKind::LoopIndex, {});
  k.params = {p};
  Expr sum = Reduce::make(ReduceOp::Sum, 0, Load::make(bin(BinaryOp::Add, splat(vr(p), {32}), Arange::make(0, 32)), nullptr, nullptr));
  k.body = Block::make({
      Decl::make(s, I32(0)),
      For::make(i, I32(0), I32(4), I32(1),
                Block::make({If::make(bin(BinaryOp::Gt, sum, I32(0)),
                                      Assign::make(s, bin(BinaryOp::Add, vr(s), I32(1))), nullptr)}),
                false)});
  Module m = moduleOf(std::move(k));
  Runner r;
  r.run(m, {"materialize"});
  EXPECT_EQ(str(m.kernels[0]), R"(kernel @cond instance= num_warps=4 {
  param %p: ptr<const i32>
  decl %s: i32 = 0:i32
  for %i = 0:i32 to 4:i32 step 1:i32 {
    decl %p_load: tile<32xi32> = load(add(splat(%p) : tile<32xptr<const i32>>, arange(0, 32) : tile<32xi32>)) : tile<32xi32>
    decl %sum_p_load: i32 = reduce.sum(%p_load, axis=0) : i32
    if gt(%sum_p_load, 0:i32) {
      %s = add(%s, 1:i32)
    }
  }
}
)");
}

TEST(Materialize, LoadInForBoundIsReported) {
  Kernel k;
  k.name = "bound";
  Var p = k.newVar("p", Type::ptr(ScalarType::I32, true), VarKind::Param, {});
  Var i = k.newVar("i", Type::scalar(ScalarType::I32), VarKind::LoopIndex, {});
  k.params = {p};
  k.body = Block::make({For::make(i, I32(0), Load::make(vr(p), nullptr, nullptr), I32(1),
                                  Block::make({}), false)});
  Module m = moduleOf(std::move(k));
  Runner r;
  r.run(m, {"materialize"});
  ASSERT_EQ(r.diags.errorCount(), 1);
  EXPECT_EQ(r.diags.reported()[0].id, tilec::DiagId::LoadInLoopBound);
  EXPECT_NE(r.diags.reported()[0].message.find("in the bound of a 'for' loop"), std::string::npos);
}

TEST(Materialize, NothingToDoKeepsTree) {
  Module m = moduleOf(vectorAdd());
  Stmt before = m.kernels[0].body;
  Runner r;
  r.run(m, {"materialize"});
  EXPECT_EQ(m.kernels[0].body, before) << "loads already at roots: the same tree";
}

} // namespace
