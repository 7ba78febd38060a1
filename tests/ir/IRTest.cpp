#include "ir/IR.h"
#include "ir/Printer.h"

#include <gtest/gtest.h>
#include <sstream>

using namespace tilec::ir;

namespace {

Kernel vectorAddKernel() {
  Kernel k;
  k.name = "add_kernel";
  k.instanceName = "add_kernel_1024";
  k.templateArgs = "<1024>";
  k.metaParams = {{"BLOCK", 1024, false}};
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

} // namespace
