#pragma once
// Helpers for the back-half pass tests: build kernels with layouts in code, run one pass, print.
#include "ir/IR.h"
#include "ir/Printer.h"
#include "ir/Verifier.h"
#include "passes/Passes.h"

#include <gtest/gtest.h>
#include <sstream>

namespace tilec::testing {

using namespace ir;

/// Sets the layout of a freshly made node (tests only: nodes are immutable once shared).
inline Expr lay(Expr e, LayoutRef l) {
  std::const_pointer_cast<ExprNode>(e)->type.layout = std::move(l);
  return e;
}

inline Expr i32(int64_t v) { return IntImm::make(ScalarType::I32, v); }
inline Expr f32(double v) { return FloatImm::make(ScalarType::F32, v); }

/// A kernel `@k` with params `%out: ptr<f32>` and `%a: f32`; `warp` 32 (CUDA) or 64 (HIP).
struct TestKernel {
  Module m;
  Var out, a;
  explicit TestKernel(int warp = 32, int numWarps = 4) {
    m.kernels.emplace_back();
    Kernel &k = m.kernels.back();
    k.name = std::string("k"); // (not `= "k"`: GCC 12 warns falsely, -Wrestrict)
    k.instanceName = k.name;
    k.warpSize = warp;
    k.settings.numWarps = numWarps;
    out = k.newVar("out", Type::ptr(ScalarType::F32, false), VarKind::Param, {});
    a = k.newVar("a", Type::scalar(ScalarType::F32), VarKind::Param, {});
    k.params = {out, a};
  }
  Kernel &k() { return m.kernels.back(); }
  Var local(const std::string &name, Type t) { return k().newVar(name, t, VarKind::Local, {}); }
  /// `decl %name = splat(%a)` (cast to `elem`) of `shape` in layout `l`.
  Var tile(std::vector<Stmt> &body, const std::string &name, std::vector<int64_t> shape,
           LayoutRef l, ScalarType elem = ScalarType::F32) {
    Expr s = elem == ScalarType::F32
                 ? lay(Splat::make(VarRef::make(a), shape), l)
                 : lay(Cast::make(elem, lay(Splat::make(VarRef::make(a), shape), l)), l);
    Var v = local(name, s->type);
    body.push_back(Decl::make(v, s));
    return v;
  }
  /// `store(%out, cast<f32>(e))` for a scalar.
  Stmt storeScalar(Expr e) {
    if (e->type.elem != ScalarType::F32)
      e = Cast::make(ScalarType::F32, e);
    return Store::make(VarRef::make(out), e, nullptr);
  }
  std::string str() const {
    std::ostringstream os;
    print(os, m);
    return os.str();
  }
};

inline Target cuda() { return Target{}; }
inline Target hip() {
  Target t;
  t.kind = TargetKind::Hip;
  t.arch = "gfx90a";
  return t;
}

/// Runs the registered pass `name` on `m`; returns the diagnostics text.
inline std::string runPass(Module &m, const std::string &name, Target target = cuda()) {
  std::ostringstream diagOut;
  DiagnosticEngine diags(diagOut);
  diags.setModule(&m);
  passes::PassContext ctx{diags, target};
  auto p = passes::createPass(name);
  EXPECT_TRUE(p) << name;
  if (p)
    p->run(m, ctx);
  return diagOut.str();
}

/// Runs the back half (lower-reductions .. insert-barriers) on `m`.
inline void runBackHalf(Module &m, Target target = cuda()) {
  for (const char *n :
       {"lower-reductions", "lower-layout-conversions", "allocate-shared", "insert-barriers"})
    runPass(m, n, target);
}

inline ::testing::AssertionResult verifies(const Module &m, bool lowered = false) {
  std::string why;
  bool ok = lowered ? verifyLowered(m, &why) : verify(m, &why);
  if (ok)
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << why;
}

} // namespace tilec::testing
