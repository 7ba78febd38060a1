#include "ir/IR.h"
#include "ir/Clone.h"
#include "ir/Equality.h"
#include "ir/IRVisitor.h"
#include "ir/Printer.h"

#include <gtest/gtest.h>
#include <set>
#include <sstream>

using namespace tilec::ir;

namespace {

Kernel vectorAddKernel() {
  Kernel k;
  k.name = "add_kernel";
  k.instanceName = "add_kernel_1024";
  k.templateArgs = "<1024>";
  k.metaParams = {MetaParam::ofInt("BLOCK", 1024)};
  Var x = k.newVar("x", Type::ptr(ScalarType::F32, true), VarKind::Param, {});
  Var out = k.newVar("out", Type::ptr(ScalarType::F32, false), VarKind::Param, {});
  Var n = k.newVar("n", Type::scalar(ScalarType::I32), VarKind::Param, {});
  k.params = {x, out, n};
  Var pid = k.newVar("pid", Type::scalar(ScalarType::I32), VarKind::Local, {});
  Expr base = Binary::make(BinaryOp::Mul, VarRef::make(pid), IntImm::make(ScalarType::I32, 1024));
  Expr offsE = Binary::make(BinaryOp::Add, Splat::make(base, {1024}), Arange::make(0, 1024));
  Var offs = k.newVar("offs", offsE->type, VarKind::Local, {});
  Expr mask = Binary::make(BinaryOp::Lt, VarRef::make(offs), Splat::make(VarRef::make(n), {1024}));
  Expr ptrs = Binary::make(BinaryOp::Add, Splat::make(VarRef::make(x), {1024}), VarRef::make(offs));
  Expr outPtrs =
      Binary::make(BinaryOp::Add, Splat::make(VarRef::make(out), {1024}), VarRef::make(offs));
  k.body = Block::make({
      Decl::make(pid, ProgramId::make(0, false)),
      Decl::make(offs, offsE),
      Store::make(outPtrs, Load::make(ptrs, mask, nullptr), mask),
  });
  return k;
}

TEST(IR, TypesInferredByMake) {
  Expr a = Arange::make(0, 128);
  EXPECT_EQ(a->type.str(), "tile<128xi32>");
  Expr cmp = Binary::make(BinaryOp::Lt, a, Splat::make(IntImm::make(ScalarType::I32, 7), {128}));
  EXPECT_EQ(cmp->type.elem, ScalarType::Bool);
  Expr e = ExpandDims::make(a, 1);
  EXPECT_EQ(e->type.shape, (std::vector<int64_t>{128, 1}));
  Expr r = Reduce::make(ReduceOp::Sum, 0, Cast::make(ScalarType::I8, a));
  EXPECT_TRUE(r->type.isScalar());
  EXPECT_EQ(r->type.elem, ScalarType::I32) << "sum of i8 accumulates in i32";
  EXPECT_EQ(Reduce::make(ReduceOp::ArgMax, 0, Cast::make(ScalarType::F32, a))->type.elem,
            ScalarType::I32);
}

// tl::dot: [M, K] x [K, N] -> [M, N] in the result type asked for; the printer shows the
// accumulator and a precision other than ieee; equality compares all of it.
TEST(IR, Dot) {
  auto tile = [](ScalarType t, int64_t m, int64_t n) {
    return Cast::make(t, Broadcast::make(ExpandDims::make(Arange::make(0, n), 0), {m, n}));
  };
  Expr a = tile(ScalarType::F16, 16, 32), b = tile(ScalarType::F16, 32, 64);
  Expr d = Dot::make(a, b, nullptr, ScalarType::F32, DotPrecision::Ieee);
  EXPECT_EQ(d->type.str(), "tile<16x64xf32>");
  Expr acc = tile(ScalarType::F32, 16, 64);
  Expr d2 = Dot::make(a, b, acc, ScalarType::F32, DotPrecision::Tf32);
  const std::string text = toString(d2);
  EXPECT_EQ(text.rfind("dot(cast<f16>(", 0), 0u) << text;
  EXPECT_NE(text.find(", acc=cast<f32>("), std::string::npos) << text;
  EXPECT_NE(text.find(", precision=tf32) : tile<16x64xf32>"), std::string::npos) << text;
  EXPECT_TRUE(equal(d2, Dot::make(a, b, acc, ScalarType::F32, DotPrecision::Tf32)));
  EXPECT_FALSE(equal(d2, Dot::make(a, b, acc, ScalarType::F32, DotPrecision::Tf32x3)));
  EXPECT_FALSE(equal(d2, d));
  EXPECT_THROW(Dot::make(a, a, nullptr, ScalarType::F32, DotPrecision::Ieee), std::logic_error);
  EXPECT_THROW(Dot::make(a, b, tile(ScalarType::F32, 16, 32), ScalarType::F32, DotPrecision::Ieee),
               std::logic_error);
  // Rebuilt by a mutator when a child changes, kept when none does.
  struct Swap : IRMutator {
    Expr from, to;
    using IRMutator::mutate;
    Expr mutate(const Cast *n, const Expr &self) override { return self == from ? to : self; }
  } swap;
  swap.from = acc;
  swap.to = tile(ScalarType::F32, 16, 64);
  EXPECT_NE(swap.mutate(d2), d2);
  swap.from = nullptr;
  EXPECT_EQ(swap.mutate(d2), d2);
}

TEST(IR, MakeRejectsBrokenInvariants) {
  Expr a = Arange::make(0, 128), b = Arange::make(0, 64);
  EXPECT_THROW(Binary::make(BinaryOp::Add, a, b), std::logic_error);
  EXPECT_THROW(Broadcast::make(a, {64}), std::logic_error);
  EXPECT_THROW(Reduce::make(ReduceOp::Sum, 1, a), std::logic_error);
}

TEST(IR, PrinterIsCanonical) {
  Kernel k = vectorAddKernel();
  std::ostringstream os;
  print(os, k);
  EXPECT_EQ(os.str(), R"(kernel @add_kernel<1024> instance=add_kernel_1024 num_warps=4 {
  meta BLOCK = 1024
  param %x: ptr<const f32>
  param %out: ptr<f32>
  param %n: i32
  decl %pid: i32 = program_id(0)
  decl %offs: tile<1024xi32> = add(splat(mul(%pid, 1024:i32)) : tile<1024xi32>, arange(0, 1024) : tile<1024xi32>)
  store(add(splat(%out) : tile<1024xptr<f32>>, %offs), load(add(splat(%x) : tile<1024xptr<const f32>>, %offs), mask=lt(%offs, splat(%n) : tile<1024xi32>)) : tile<1024xf32>, mask=lt(%offs, splat(%n) : tile<1024xi32>))
}
)");
}

/// Every VarNode a kernel refers to: parameters, declarations, assignments, loop indices, reads
/// (body and grid).
std::set<const VarNode *> varsOf(const Kernel &k) {
  struct Collect : IRVisitor {
    std::set<const VarNode *> vars;
    using IRVisitor::visit;
    void visit(const VarRef *n) override { vars.insert(n->var.get()); }
    void visit(const Decl *n) override {
      vars.insert(n->var.get());
      IRVisitor::visit(n);
    }
    void visit(const Assign *n) override {
      vars.insert(n->var.get());
      IRVisitor::visit(n);
    }
    void visit(const For *n) override {
      vars.insert(n->var.get());
      IRVisitor::visit(n);
    }
  } c;
  for (const Var &p : k.params)
    c.vars.insert(p.get());
  c.visit(k.body);
  for (const Expr &g : k.settings.grid)
    c.visit(g);
  return c.vars;
}

std::string printed(const Module &m) {
  std::ostringstream os;
  print(os, m);
  return os.str();
}

TEST(IR, CloneHasVariablesOfItsOwn) {
  // vector add, plus a loop that assigns a tile and a grid over a parameter.
  Module m;
  m.kernels.push_back(vectorAddKernel());
  Kernel &k = m.kernels.back();
  Var n = k.params[2];
  Var acc = k.newVar("acc", Type::scalar(ScalarType::I32).withShape({1024}), VarKind::Local, {});
  Var i = k.newVar("i", Type::scalar(ScalarType::I32), VarKind::LoopIndex, {});
  Expr one = IntImm::make(ScalarType::I32, 1);
  Stmt loop = For::make(i, IntImm::make(ScalarType::I32, 0), VarRef::make(n), one,
                        Assign::make(acc, Binary::make(BinaryOp::Add, VarRef::make(acc),
                                                       Splat::make(VarRef::make(i), {1024}))),
                        false);
  auto body = std::make_shared<Block>(*as<Block>(k.body));
  body->stmts.push_back(Decl::make(acc, Arange::make(0, 1024)));
  body->stmts.push_back(loop);
  k.body = body;
  k.settings.grid = {Math::make(MathOp::Cdiv, {VarRef::make(n), IntImm::make(ScalarType::I32, 1024)})};

  Module c = clone(m);
  EXPECT_EQ(printed(c), printed(m));
  std::set<const VarNode *> original = varsOf(m.kernels[0]), copied = varsOf(c.kernels[0]);
  EXPECT_EQ(original.size(), 7u); // x out n pid offs acc i
  EXPECT_EQ(copied.size(), original.size());
  for (const VarNode *v : copied)
    EXPECT_EQ(original.count(v), 0u) << "variable '" << v->name << "' is shared with the original";

  // What layout assignment does to a variable, done to the copy, leaves the original alone.
  std::string before = printed(m);
  for (const VarNode *v : copied)
    if (v->type.isTile())
      const_cast<VarNode *>(v)->type.layout = Layout::blocked({4}, {32}, {4}, {0});
  EXPECT_EQ(printed(m), before);
  EXPECT_NE(printed(c), before);
}

TEST(IR, CloneKeepsSharedNodesShared) {
  // One node used twice (as the translator shares the row argmax in tl::argmax of a 2-D tile) is
  // one node in the copy too: materialize binds a shared node once, so a copy that split it would
  // compile to different code.
  Module m;
  m.kernels.push_back(vectorAddKernel());
  Kernel &k = m.kernels.back();
  Var offs = as<Decl>(as<Block>(k.body)->stmts[1])->var;
  Expr shared = Reduce::make(ReduceOp::Sum, 0, VarRef::make(offs));
  Var twice = k.newVar("twice", Type::scalar(ScalarType::I32), VarKind::Local, {});
  auto body = std::make_shared<Block>(*as<Block>(k.body));
  body->stmts.push_back(Decl::make(twice, Binary::make(BinaryOp::Add, shared, shared)));
  k.body = body;

  Module c = clone(m);
  auto *sum = as<Binary>(as<Decl>(as<Block>(c.kernels[0].body)->stmts.back())->init);
  ASSERT_NE(sum, nullptr);
  EXPECT_EQ(sum->a, sum->b);
  EXPECT_NE(sum->a, shared);
  EXPECT_NE(as<VarRef>(as<Reduce>(sum->a)->a)->var, offs);
}

TEST(IR, LayoutGeometry) {
  // 4 elements per thread, 32 lanes, 4 warps: coverage 512; a 1024 tile gives 8 per thread.
  LayoutRef l = Layout::blocked({4}, {32}, {4}, {0});
  EXPECT_EQ(geometry(*l, {1024}).elemsPerThread, (std::vector<int64_t>{8}));
  EXPECT_EQ(geometry(*l, {256}).elemsPerThread, (std::vector<int64_t>{4})) << "replicated";
  LayoutRef l2 = Layout::blocked({1, 4}, {2, 16}, {4, 1}, {1, 0});
  EXPECT_EQ(geometry(*l2, {64, 64}).elemsPerThread, (std::vector<int64_t>{8, 4}));
  LayoutRef s = Layout::slice(l2, 1);
  EXPECT_EQ(s->rank(), 1);
  EXPECT_EQ(geometry(*s, {64}).elemsPerThread, (std::vector<int64_t>{8}));
  EXPECT_EQ(s->str(), "#slice<dim=1, #blocked<spt=[1,4], tpw=[2,16], wpb=[4,1], order=[1,0]>>");
  EXPECT_TRUE(*s == *Layout::slice(Layout::blocked({1, 4}, {2, 16}, {4, 1}, {1, 0}), 1));
}

// The (lane, warp) of the thread owning element q of a tile in blocked layout l (the first
// owner where the tile is smaller than the layout's pattern): lane and warp ids are split over the
// dims in l's order, fastest first.
std::pair<int64_t, int64_t> blockedOwner(const Layout &l, const std::vector<int64_t> &q) {
  int64_t lane = 0, warp = 0, laneScale = 1, warpScale = 1;
  for (int d : l.order) {
    const int64_t spt = l.sizePerThread[d], tpw = l.threadsPerWarp[d];
    lane += (q[d] / spt) % tpw * laneScale;
    warp += (q[d] / (spt * tpw)) % l.warpsPerBlock[d] * warpScale;
    laneScale *= tpw;
    warpScale *= l.warpsPerBlock[d];
  }
  return {lane, warp};
}

// A permute is a view: Layout::permuted gives each element of the permuted tile the thread that
// holds it in the operand, and Trans with the inverse permutation brings the layout back.
TEST(IR, PermutedLayoutsAndTrans) {
  LayoutRef l = Layout::blocked({1, 2, 4}, {2, 4, 4}, {1, 2, 2}, {2, 1, 0});
  const std::vector<int> perm = {2, 0, 1};
  LayoutRef p = Layout::permuted(l, perm);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->str(), "#blocked<spt=[4,1,2], tpw=[4,2,4], wpb=[2,1,2], order=[0,2,1]>");
  EXPECT_TRUE(*Layout::permuted(p, inversePermutation(perm)) == *l);
  EXPECT_EQ(inversePermutation(perm), (std::vector<int>{1, 2, 0}));
  const std::vector<int64_t> shape = {4, 16, 32}; // the operand's; the result is [32, 4, 16]
  for (int64_t i = 0; i < shape[0]; ++i)
    for (int64_t j = 0; j < shape[1]; ++j)
      for (int64_t k = 0; k < shape[2]; ++k) {
        const std::vector<int64_t> q = {i, j, k}, r = {k, i, j}; // r[e] = q[perm[e]]
        ASSERT_EQ(blockedOwner(*l, q), blockedOwner(*p, r)) << i << " " << j << " " << k;
      }
  EXPECT_TRUE(*Layout::transposed(Layout::blocked({1, 4}, {2, 16}, {4, 1}, {1, 0})) ==
              *Layout::blocked({4, 1}, {16, 2}, {1, 4}, {0, 1}));
  EXPECT_FALSE(Layout::permuted(l, {1, 0})) << "a permutation of another rank";
  EXPECT_FALSE(Layout::permuted(Layout::slice(l, 0), {1, 0})) << "not a blocked layout";

  Expr x =
      Broadcast::make(ExpandDims::make(ExpandDims::make(Arange::make(0, 32), 0), 0), {4, 16, 32});
  Expr t = Trans::permute(x, perm);
  EXPECT_EQ(t->type.str(), "tile<32x4x16xi32>");
  EXPECT_EQ(toString(t).rfind("permute<2,0,1>(broadcast(", 0), 0u) << toString(t);
  EXPECT_TRUE(equal(t, Trans::permute(x, perm)));
  EXPECT_FALSE(equal(t, Trans::permute(x, {1, 2, 0})));
  EXPECT_EQ(as<Trans>(t)->operandIndex(std::vector<int64_t>{5, 1, 2}),
            (std::vector<int64_t>{1, 2, 5}));
  EXPECT_THROW(Trans::permute(x, {0, 1, 2}), std::logic_error) << "the identity";
  EXPECT_THROW(Trans::permute(x, {0, 0, 1}), std::logic_error) << "not a permutation";
  EXPECT_THROW(Trans::permute(x, {1, 0}), std::logic_error) << "another rank";
  Expr m = Broadcast::make(ExpandDims::make(Arange::make(0, 8), 0), {4, 8});
  EXPECT_EQ(toString(Trans::make(m)).rfind("trans(", 0), 0u);
  EXPECT_EQ(Trans::make(m)->type.str(), "tile<8x4xi32>");
}

TEST(IR, MmaLayoutsOfEachInstruction) {
  // mma.sync: per 16 x 16 unit of a warp 2 x 4 elements a thread; MFMA 32x32x8: per 32 x 32 unit
  // of a wavefront a column of 16; 16x16x16: a column of 4. A dim under one unit replicates.
  using I = Layout::MmaInstr;
  LayoutRef sync = Layout::mma(2, 2), m32 = Layout::mma(2, 2, I::Mfma32x32x8),
            m16 = Layout::mma(2, 2, I::Mfma16x16x16);
  EXPECT_EQ(geometry(*sync, {128, 128}).elemsPerThread, (std::vector<int64_t>{8, 16}));
  EXPECT_EQ(geometry(*m32, {128, 128}).elemsPerThread, (std::vector<int64_t>{32, 2}));
  EXPECT_EQ(geometry(*m16, {128, 128}).elemsPerThread, (std::vector<int64_t>{16, 4}));
  EXPECT_EQ(geometry(*m32, {1, 128}).elemsPerThread, (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(geometry(*m32, {64, 64}).coverage, (std::vector<int64_t>{64, 64}));
  EXPECT_EQ(sync->str(), "#mma<m16n8k16, wpb=[2,2]>");
  EXPECT_EQ(m32->str(), "#mma<mfma32x32x8, wpb=[2,2]>");
  EXPECT_EQ(m16->str(), "#mma<mfma16x16x16, wpb=[2,2]>");
  EXPECT_FALSE(*sync == *m32);
  EXPECT_FALSE(*m32 == *m16);
  EXPECT_TRUE(*m16 == *Layout::mma(2, 2, I::Mfma16x16x16));
}

} // namespace
