#include "FrontTestUtil.h"

#include <gtest/gtest.h>

using namespace tilec::ir;
using namespace tilec::testing;

namespace {

/// The Decl of the variable named `name` (first one).
const Decl *declOf(const Stmt &s, const std::string &name) {
  if (auto *d = as<Decl>(s))
    return d->var->name == name ? d : nullptr;
  if (auto *b = as<Block>(s))
    for (auto &c : b->stmts)
      if (auto *r = declOf(c, name))
        return r;
  if (auto *f = as<For>(s))
    return declOf(f->body, name);
  return nullptr;
}
const Store *firstStore(const Stmt &s) {
  if (auto *st = as<Store>(s))
    return st;
  if (auto *b = as<Block>(s))
    for (auto &c : b->stmts)
      if (auto *r = firstStore(c))
        return r;
  if (auto *f = as<For>(s))
    return firstStore(f->body);
  return nullptr;
}
std::string layoutOf(const Kernel &k, const std::string &var) {
  auto *d = declOf(k.body, var);
  return d && d->var->type.layout ? d->var->type.layout->str() : "<none>";
}

/// The alias (`#blockedN`) a printed kernel declares for the blocked layout `text`, or "<none>".
std::string aliasOf(const std::string &printed, const std::string &text) {
  size_t eq = printed.find(" = " + text + "\n");
  if (eq == std::string::npos)
    return "<none>";
  size_t start = printed.rfind("  #blocked", eq) + 2;
  return printed.substr(start, eq - start);
}

TEST(LayoutAssignment, VectorAddF32Cuda) {
  Module m = moduleOf(vectorAdd());
  Runner r;
  r.run(m, {"materialize", "layout-assignment"});
  const Kernel &k = m.kernels[0];
  const std::string L = "#blocked<spt=[4], tpw=[32], wpb=[4], order=[0]>";
  EXPECT_EQ(layoutOf(k, "offs"), L);
  EXPECT_EQ(layoutOf(k, "mask"), L);
  EXPECT_EQ(layoutOf(k, "a"), L);
  auto *a = as<Load>(declOf(k.body, "a")->init);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->vec, 4);
  EXPECT_FALSE(a->aligned) << "parameters are only known to be 4-byte aligned";
  EXPECT_EQ(geometry(*a->type.layout, a->type.shape).totalElemsPerThread(), 8);
  auto *st = firstStore(k.body);
  EXPECT_EQ(st->vec, 4);
  EXPECT_EQ(st->value->type.layout->str(), L);
  EXPECT_EQ(r.diags.errorCount(), 0);
  EXPECT_EQ(str(k).find("convert_layout"), std::string::npos);
}

TEST(LayoutAssignment, VectorAddPrinted) {
  Module m = moduleOf(vectorAdd(256, 2));
  Runner r;
  r.run(m, {"materialize", "layout-assignment"});
  EXPECT_EQ(str(m.kernels[0]), R"(kernel @add_kernel instance=add_kernel_256 num_warps=2 {
  param %x: ptr<const f32>
  param %y: ptr<const f32>
  param %out: ptr<f32>
  param %n: i32
  #blocked0 = #blocked<spt=[4], tpw=[32], wpb=[2], order=[0]>
  decl %pid: i32 = program_id(0)
  decl %offs: tile<256xi32, #blocked0> = add(splat(mul(%pid, 256:i32)) : tile<256xi32, #blocked0>, arange(0, 256) : tile<256xi32, #blocked0>)
  decl %mask: tile<256xi1, #blocked0> = lt(%offs, splat(%n) : tile<256xi32, #blocked0>)
  decl %a: tile<256xf32, #blocked0> = load(add(splat(%x) : tile<256xptr<const f32>, #blocked0>, %offs), mask=%mask) {vec=4, mask_at_last} : tile<256xf32, #blocked0>
  decl %b: tile<256xf32, #blocked0> = load(add(splat(%y) : tile<256xptr<const f32>, #blocked0>, %offs), mask=%mask) {vec=4, mask_at_last} : tile<256xf32, #blocked0>
  store(add(splat(%out) : tile<256xptr<f32>, #blocked0>, %offs), add(%a, %b), mask=%mask) {vec=4, mask_at_last}
}
)");
}

TEST(LayoutAssignment, VectorAddWarp64) {
  Module m = moduleOf(vectorAdd());
  Runner r(TargetKind::Hip);
  r.run(m, {"materialize", "layout-assignment"});
  const Kernel &k = m.kernels[0];
  EXPECT_EQ(layoutOf(k, "a"), "#blocked<spt=[4], tpw=[64], wpb=[4], order=[0]>");
  EXPECT_EQ(as<Load>(declOf(k.body, "a")->init)->vec, 4);
  EXPECT_EQ(geometry(*declOf(k.body, "a")->var->type.layout, {1024}).totalElemsPerThread(), 4);
}

TEST(LayoutAssignment, SwigluF16UsesEightPerThread) {
  Module m = moduleOf(vectorAdd(2048, 4, ScalarType::F16));
  Runner r;
  r.run(m, {"materialize", "layout-assignment"});
  const Kernel &k = m.kernels[0];
  EXPECT_EQ(layoutOf(k, "a"), "#blocked<spt=[8], tpw=[32], wpb=[4], order=[0]>");
  EXPECT_EQ(as<Load>(declOf(k.body, "a")->init)->vec, 8);
}

TEST(LayoutAssignment, SoftmaxEightWarps) {
  Module m = moduleOf(softmax(4096, 8));
  Runner r;
  r.run(m, {"materialize", "layout-assignment"});
  const Kernel &k = m.kernels[0];
  const std::string L = "#blocked<spt=[4], tpw=[32], wpb=[8], order=[0]>";
  EXPECT_EQ(layoutOf(k, "x"), L);
  EXPECT_EQ(layoutOf(k, "num"), L);
  EXPECT_EQ(layoutOf(k, "max_x"), "<none>") << "scalar";
  EXPECT_EQ(str(k).find("convert_layout"), std::string::npos);
}

TEST(LayoutAssignment, TransposeConvertsAndRematerializes) {
  Module m = moduleOf(transpose());
  Runner r;
  r.run(m, {"materialize", "layout-assignment"});
  const Kernel &k = m.kernels[0];
  const std::string load = "#blocked<spt=[1,4], tpw=[2,16], wpb=[4,1], order=[1,0]>";
  const std::string store = "#blocked<spt=[4,1], tpw=[16,2], wpb=[1,4], order=[0,1]>";
  EXPECT_EQ(layoutOf(k, "tile"), load);
  EXPECT_EQ(layoutOf(k, "mask"), load);
  EXPECT_EQ(layoutOf(k, "mask_store"), store);
  EXPECT_EQ(layoutOf(k, "rm"), "#slice<dim=1, " + load + ">");
  EXPECT_EQ(layoutOf(k, "rm_store"), "#slice<dim=1, " + store + ">");
  EXPECT_EQ(layoutOf(k, "rn_store"), "#slice<dim=0, " + store + ">");
  auto *st = firstStore(k.body);
  ASSERT_TRUE(as<ConvertLayout>(st->value));
  EXPECT_EQ(st->value->type.layout->str(), store);
  EXPECT_EQ(st->vec, 4);
  EXPECT_EQ(as<Load>(declOf(k.body, "tile")->init)->vec, 4);
  // Declaration order: each copy right after its original; the loaded tile converted at the store.
  std::string text = str(k);
  std::vector<std::string> order = {"decl %rm:", "decl %rm_store:", "decl %rn:", "decl %rn_store:",
                                    "decl %mask:", "decl %mask_store:", "decl %tile:", "store("};
  size_t at = 0;
  for (auto &o : order) {
    size_t p = text.find(o, at);
    ASSERT_NE(p, std::string::npos) << o;
    at = p;
  }
  EXPECT_NE(text.find("convert_layout(%tile) : tile<64x64xf32, " + aliasOf(text, store) +
                      ">, mask=%mask_store) {vec=4, mask_at_last}"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("expand_dims(%rm_store, 1)"), std::string::npos);
  EXPECT_EQ(text.find("convert_layout", text.find("convert_layout") + 1), std::string::npos)
      << "exactly one conversion";
}

/// A 2-D row reduction: the result is a slice of the operand's layout; expand_dims of it goes back
/// to the parent layout without a conversion.
TEST(LayoutAssignment, ReduceGivesSliceAndExpandDimsReturnsToParent) {
  Kernel k;
  k.name = "rows";
  Var in = k.newVar("in", Type::ptr(ScalarType::F32, true), VarKind::Param, {});
  Var out = k.newVar("out", Type::ptr(ScalarType::F32, false), VarKind::Param, {});
  k.params = {in, out};
  std::vector<int64_t> S = {32, 128};
  Expr offs = bin(BinaryOp::Add,
                  Broadcast::make(bin(BinaryOp::Mul, ExpandDims::make(Arange::make(0, 32), 1),
                                      splat(I32(128), {32, 1})), S),
                  Broadcast::make(ExpandDims::make(Arange::make(0, 128), 0), S));
  Var o = k.newVar("offs", offs->type, VarKind::Local, {});
  Expr ld = Load::make(bin(BinaryOp::Add, splat(vr(in), S), vr(o)), nullptr, nullptr);
  Var x = k.newVar("x", ld->type, VarKind::Local, {});
  Expr centered = bin(BinaryOp::Sub, vr(x),
                      Broadcast::make(ExpandDims::make(Reduce::make(ReduceOp::Max, 1, vr(x)), 1), S));
  k.body = Block::make({Decl::make(o, offs), Decl::make(x, ld),
                        Store::make(bin(BinaryOp::Add, splat(vr(out), S), vr(o)), centered, nullptr)});
  Module m = moduleOf(std::move(k));
  Runner r;
  r.run(m, {"materialize", "layout-assignment"});
  const Kernel &kk = m.kernels[0];
  const std::string L = "#blocked<spt=[1,4], tpw=[1,32], wpb=[4,1], order=[1,0]>";
  EXPECT_EQ(layoutOf(kk, "x"), L);
  EXPECT_EQ(layoutOf(kk, "max_x"), "#slice<dim=1, " + L + ">");
  EXPECT_EQ(str(kk).find("convert_layout"), std::string::npos);
  auto *ld2 = as<Load>(declOf(kk.body, "x")->init);
  EXPECT_EQ(ld2->vec, 4);
  EXPECT_FALSE(ld2->aligned) << "the f32 param is only known to be 4-byte aligned";
}

/// Hints: multiple_of on the offsets makes a 16-byte aligned pointer only together with an
/// aligned base, so `aligned` stays false with a plain param; max_contiguous limits the vector.
TEST(LayoutAssignment, HintLimitsVectorWidth) {
  Module m = moduleOf(vectorAdd());
  Kernel &k = m.kernels[0];
  // Wrap the offsets of every access in max_contiguous(offs, 2).
  auto *b = as<Block>(k.body);
  auto *d = as<Decl>(b->stmts[1]);
  std::vector<Stmt> stmts = b->stmts;
  stmts[1] = Decl::make(d->var, Hint::make(HintKind::MaxContiguous, d->init, {2}));
  k.body = Block::make(stmts);
  Runner r;
  r.run(m, {"materialize", "layout-assignment"});
  EXPECT_EQ(layoutOf(k, "a"), "#blocked<spt=[2], tpw=[32], wpb=[4], order=[0]>");
  EXPECT_EQ(as<Load>(declOf(k.body, "a")->init)->vec, 2);
}

TEST(LayoutAssignment, AlignedWithMultipleOfHintOnPointer) {
  Module m = moduleOf(vectorAdd());
  Kernel &k = m.kernels[0];
  // a = load(multiple_of(x, 16) + offs): pointer divisibility 16 bytes; offs = pid*1024 + arange.
  auto *b = as<Block>(k.body);
  std::vector<Stmt> stmts = b->stmts;
  Var x = k.params[0], offs = as<Decl>(stmts[1])->var, mask = as<Decl>(stmts[2])->var,
      a = as<Decl>(stmts[3])->var;
  stmts[3] = Decl::make(a, Load::make(bin(BinaryOp::Add,
                                          splat(Hint::make(HintKind::MultipleOf, vr(x), {16}), {1024}),
                                          vr(offs)),
                                      vr(mask), nullptr));
  k.body = Block::make(stmts);
  Runner r;
  r.run(m, {"materialize", "layout-assignment"});
  auto *l = as<Load>(declOf(k.body, "a")->init);
  EXPECT_EQ(l->vec, 4);
  EXPECT_TRUE(l->aligned);
  EXPECT_FALSE(as<Load>(declOf(k.body, "b")->init)->aligned);
}

TEST(LayoutAssignment, TooManyRegisters) {
  Module m = moduleOf(vectorAdd(65536, 1));
  Runner r;
  r.run(m, {"materialize", "layout-assignment"});
  EXPECT_GT(r.diags.errorCount(), 0);
  EXPECT_NE(r.diagOut.str().find("needs 2048 elements per thread; at most 256"), std::string::npos)
      << r.diagOut.str();
}

TEST(LayoutAssignment, SmallTileIsReplicatedNotOverSized) {
  Module m = moduleOf(vectorAdd(64, 4));
  Runner r;
  r.run(m, {"materialize", "layout-assignment"});
  const Kernel &k = m.kernels[0];
  EXPECT_EQ(layoutOf(k, "a"), "#blocked<spt=[1], tpw=[32], wpb=[4], order=[0]>");
  EXPECT_EQ(geometry(*declOf(k.body, "a")->var->type.layout, {64}).totalElemsPerThread(), 1);
}

/// A loop-carried accumulator takes the layout of the loaded data it accumulates; a load assigned
/// to a variable of another layout is bound first and converted.
TEST(LayoutAssignment, AccumulatorInLoop) {
  Kernel k;
  k.name = "acc";
  k.settings.numWarps = 4;
  Var in = k.newVar("in", Type::ptr(ScalarType::F32, true), VarKind::Param, {});
  Var out = k.newVar("out", Type::ptr(ScalarType::F32, false), VarKind::Param, {});
  Var n = k.newVar("n", Type::scalar(ScalarType::I32), VarKind::Param, {});
  k.params = {in, out, n};
  Var acc = k.newVar("acc", Type::scalar(ScalarType::F32).withShape({512}), VarKind::Local, {});
  Var off = k.newVar("off", Type::scalar(ScalarType::I32), VarKind::LoopIndex, {});
  Expr cols = bin(BinaryOp::Add, splat(vr(off), {512}), Arange::make(0, 512));
  Var c = k.newVar("cols", cols->type, VarKind::Local, {});
  Expr ld = Load::make(bin(BinaryOp::Add, splat(vr(in), {512}), vr(c)), nullptr, nullptr);
  Var a = k.newVar("a", ld->type, VarKind::Local, {});
  k.body = Block::make({
      Decl::make(acc, splat(FloatImm::make(ScalarType::F32, 0), {512})),
      For::make(off, I32(0), vr(n), I32(512),
                Block::make({Decl::make(c, cols), Decl::make(a, ld),
                             Assign::make(acc, bin(BinaryOp::Add, vr(acc), vr(a)))}),
                false),
      Store::make(bin(BinaryOp::Add, splat(vr(out), {512}), Arange::make(0, 512)), vr(acc), nullptr),
  });
  Module m = moduleOf(std::move(k));
  Runner r;
  r.run(m, {"materialize", "layout-assignment"});
  const Kernel &kk = m.kernels[0];
  const std::string L = "#blocked<spt=[4], tpw=[32], wpb=[4], order=[0]>";
  EXPECT_EQ(layoutOf(kk, "acc"), L);
  EXPECT_EQ(layoutOf(kk, "cols"), L);
  EXPECT_EQ(str(kk).find("convert_layout"), std::string::npos);
  auto *l = as<Load>(declOf(kk.body, "a")->init);
  EXPECT_EQ(l->vec, 4) << "off is a multiple of 512: gcd(begin 0, step 512)";
}

} // namespace

namespace {
TEST(FrontPipeline, ExamplesThroughAllFrontPasses) {
  for (Kernel k : {vectorAdd(), transpose(), softmax(4096, 8), vectorAdd(2048, 4, ScalarType::F16)}) {
    Module m = moduleOf(std::move(k));
    Runner r;
    r.run(m, {"simplify", "materialize", "layout-assignment"});
    EXPECT_EQ(r.diags.errorCount(), 0) << r.diagOut.str();
  }
}
} // namespace
