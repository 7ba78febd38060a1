#pragma once
// Shared helpers of the front-half pass tests (passes_front_tests): kernels built in code like the
// examples, and running passes.
#include "ir/IR.h"
#include "ir/Printer.h"
#include "passes/Passes.h"

#include <cmath>
#include <sstream>
#include <string>

namespace tilec::testing {

using namespace ir;

inline Expr I32(int64_t v) { return IntImm::make(ScalarType::I32, v); }
inline Expr vr(const Var &v) { return VarRef::make(v); }
inline Expr bin(BinaryOp op, Expr a, Expr b) { return Binary::make(op, std::move(a), std::move(b)); }
inline Expr splat(Expr a, std::vector<int64_t> s) { return Splat::make(std::move(a), std::move(s)); }

inline std::string str(const Kernel &k) {
  std::ostringstream os;
  print(os, k);
  return os.str();
}

/// Runs the named passes in order on `m`; diagnostics text goes to `diagOut`.
struct Runner {
  std::ostringstream diagOut;
  DiagnosticEngine diags{diagOut};
  passes::PassContext ctx{diags, Target{}};
  explicit Runner(TargetKind t = TargetKind::Cuda) { ctx.target.kind = t; }
  void run(Module &m, std::initializer_list<const char *> names) {
    for (auto *n : names) {
      std::string s = n;
      std::unique_ptr<passes::Pass> p;
      if (s == "simplify")
        p = passes::createSimplifyPass();
      else if (s == "materialize")
        p = passes::createMaterializePass();
      else
        p = passes::createLayoutAssignmentPass();
      p->run(m, ctx);
    }
  }
};

/// Triton tutorial 01 (examples/vector_add): out = x + y over BLOCK elements of `elem`.
inline Kernel vectorAdd(int64_t block = 1024, int numWarps = 4, ScalarType elem = ScalarType::F32) {
  Kernel k;
  k.name = "add_kernel";
  k.instanceName = "add_kernel_" + std::to_string(block);
  k.settings.numWarps = numWarps;
  Var x = k.newVar("x", Type::ptr(elem, true), VarKind::Param, {});
  Var y = k.newVar("y", Type::ptr(elem, true), VarKind::Param, {});
  Var out = k.newVar("out", Type::ptr(elem, false), VarKind::Param, {});
  Var n = k.newVar("n", Type::scalar(ScalarType::I32), VarKind::Param, {});
  k.params = {x, y, out, n};
  Var pid = k.newVar("pid", Type::scalar(ScalarType::I32), VarKind::Local, {});
  Expr offsE = bin(BinaryOp::Add, splat(bin(BinaryOp::Mul, vr(pid), I32(block)), {block}),
                   Arange::make(0, block));
  Var offs = k.newVar("offs", offsE->type, VarKind::Local, {});
  Expr maskE = bin(BinaryOp::Lt, vr(offs), splat(vr(n), {block}));
  Var mask = k.newVar("mask", maskE->type, VarKind::Local, {});
  Expr la = Load::make(bin(BinaryOp::Add, splat(vr(x), {block}), vr(offs)), vr(mask), nullptr);
  Var a = k.newVar("a", la->type, VarKind::Local, {});
  Expr lb = Load::make(bin(BinaryOp::Add, splat(vr(y), {block}), vr(offs)), vr(mask), nullptr);
  Var b = k.newVar("b", lb->type, VarKind::Local, {});
  k.body = Block::make({
      Decl::make(pid, ProgramId::make(0, false)),
      Decl::make(offs, offsE),
      Decl::make(mask, maskE),
      Decl::make(a, la),
      Decl::make(b, lb),
      Store::make(bin(BinaryOp::Add, splat(vr(out), {block}), vr(offs)),
                  bin(BinaryOp::Add, vr(a), vr(b)), vr(mask)),
  });
  return k;
}

/// examples/transpose with BM = BN = 64: out[j, i] = in[i, j].
inline Kernel transpose(int64_t bm = 64, int64_t bn = 64) {
  Kernel k;
  k.name = "transpose_kernel";
  k.instanceName = "transpose_kernel_64_64";
  Var in = k.newVar("in", Type::ptr(ScalarType::F32, true), VarKind::Param, {});
  Var out = k.newVar("out", Type::ptr(ScalarType::F32, false), VarKind::Param, {});
  Var M = k.newVar("M", Type::scalar(ScalarType::I32), VarKind::Param, {});
  Var N = k.newVar("N", Type::scalar(ScalarType::I32), VarKind::Param, {});
  Var is = k.newVar("in_stride", Type::scalar(ScalarType::I32), VarKind::Param, {});
  Var os = k.newVar("out_stride", Type::scalar(ScalarType::I32), VarKind::Param, {});
  k.params = {in, out, M, N, is, os};
  Var pm = k.newVar("pid_m", Type::scalar(ScalarType::I32), VarKind::Local, {});
  Var pn = k.newVar("pid_n", Type::scalar(ScalarType::I32), VarKind::Local, {});
  Expr rmE = bin(BinaryOp::Add, splat(bin(BinaryOp::Mul, vr(pm), I32(bm)), {bm}), Arange::make(0, bm));
  Expr rnE = bin(BinaryOp::Add, splat(bin(BinaryOp::Mul, vr(pn), I32(bn)), {bn}), Arange::make(0, bn));
  Var rm = k.newVar("rm", rmE->type, VarKind::Local, {});
  Var rn = k.newVar("rn", rnE->type, VarKind::Local, {});
  auto col = [&] { return ExpandDims::make(vr(rm), 1); }; // [bm, 1]
  auto row = [&] { return ExpandDims::make(vr(rn), 0); }; // [1, bn]
  std::vector<int64_t> S = {bm, bn};
  Expr maskE = bin(BinaryOp::And,
                   Broadcast::make(bin(BinaryOp::Lt, col(), splat(vr(M), {bm, 1})), S),
                   Broadcast::make(bin(BinaryOp::Lt, row(), splat(vr(N), {1, bn})), S));
  Var mask = k.newVar("mask", maskE->type, VarKind::Local, {});
  Expr inPtr = bin(BinaryOp::Add,
                   Broadcast::make(bin(BinaryOp::Add, splat(vr(in), {bm, 1}),
                                       bin(BinaryOp::Mul, col(), splat(vr(is), {bm, 1}))),
                                   S),
                   Broadcast::make(row(), S));
  Expr ld = Load::make(inPtr, vr(mask), nullptr);
  Var tile = k.newVar("tile", ld->type, VarKind::Local, {});
  Expr outPtr = bin(BinaryOp::Add,
                    Broadcast::make(bin(BinaryOp::Add, splat(vr(out), {1, bn}),
                                        bin(BinaryOp::Mul, row(), splat(vr(os), {1, bn}))),
                                    S),
                    Broadcast::make(col(), S));
  k.body = Block::make({
      Decl::make(pm, ProgramId::make(0, false)),
      Decl::make(pn, ProgramId::make(1, false)),
      Decl::make(rm, rmE),
      Decl::make(rn, rnE),
      Decl::make(mask, maskE),
      Decl::make(tile, ld),
      Store::make(outPtr, vr(tile), vr(mask)),
  });
  return k;
}

/// examples/softmax: one row of BLOCK f32 per program; the reductions are nested in expressions
/// (as the translator produces them) so materialize binds them.
inline Kernel softmax(int64_t block = 4096, int numWarps = 8) {
  Kernel k;
  k.name = "softmax_kernel";
  k.instanceName = "softmax_kernel_" + std::to_string(block);
  k.settings.numWarps = numWarps;
  Var out = k.newVar("out", Type::ptr(ScalarType::F32, false), VarKind::Param, {});
  Var in = k.newVar("in", Type::ptr(ScalarType::F32, true), VarKind::Param, {});
  Var irs = k.newVar("in_row_stride", Type::scalar(ScalarType::I32), VarKind::Param, {});
  Var ors = k.newVar("out_row_stride", Type::scalar(ScalarType::I32), VarKind::Param, {});
  Var nc = k.newVar("n_cols", Type::scalar(ScalarType::I32), VarKind::Param, {});
  k.params = {out, in, irs, ors, nc};
  Var row = k.newVar("row", Type::scalar(ScalarType::I32), VarKind::Local, {});
  Expr colsE = Arange::make(0, block);
  Var cols = k.newVar("cols", colsE->type, VarKind::Local, {});
  Expr maskE = bin(BinaryOp::Lt, vr(cols), splat(vr(nc), {block}));
  Var mask = k.newVar("mask", maskE->type, VarKind::Local, {});
  Expr xE = Load::make(
      bin(BinaryOp::Add, splat(bin(BinaryOp::Add, vr(in), bin(BinaryOp::Mul, vr(row), vr(irs))), {block}),
          vr(cols)),
      vr(mask), splat(FloatImm::make(ScalarType::F32, -INFINITY), {block}));
  Var x = k.newVar("x", xE->type, VarKind::Local, {});
  Expr shE = bin(BinaryOp::Sub, vr(x), splat(Reduce::make(ReduceOp::Max, 0, vr(x)), {block}));
  Var shifted = k.newVar("shifted", shE->type, VarKind::Local, {});
  Var num = k.newVar("num", shE->type, VarKind::Local, {});
  Var den = k.newVar("den", Type::scalar(ScalarType::F32), VarKind::Local, {});
  k.body = Block::make({
      Decl::make(row, ProgramId::make(0, false)),
      Decl::make(cols, colsE),
      Decl::make(mask, maskE),
      Decl::make(x, xE),
      Decl::make(shifted, shE),
      Decl::make(num, Math::make(MathOp::Exp, {vr(shifted)})),
      Decl::make(den, Reduce::make(ReduceOp::Sum, 0, vr(num))),
      Store::make(bin(BinaryOp::Add,
                      splat(bin(BinaryOp::Add, vr(out), bin(BinaryOp::Mul, vr(row), vr(ors))), {block}),
                      vr(cols)),
                  bin(BinaryOp::Div, vr(num), splat(vr(den), {block})), vr(mask)),
  });
  return k;
}

inline Module moduleOf(Kernel k) {
  Module m;
  m.kernels.push_back(std::move(k));
  return m;
}

} // namespace tilec::testing
