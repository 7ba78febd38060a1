#include "ir/Verifier.h"

#include "ir/IRVisitor.h"
#include "ir/Printer.h"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <tuple>
#include <utility>

namespace tilec::ir {

// The check, and only on failure the message: formatting types and layouts for every node the
// verifier passes (it runs after every pass) used to cost more than the passes themselves.
#define TILEC_REQUIRE(ok, ...)                                                                     \
  do {                                                                                             \
    if (!(ok))                                                                                     \
      fail(__VA_ARGS__);                                                                           \
  } while (0)

// ---- buffer lifetimes ----------------------------------------------------------------------------

namespace {

class LifetimeWalker {
public:
  explicit LifetimeWalker(const Kernel &k) : lt(k.buffers.size()) {}

  std::vector<BufferLifetime> run(const Stmt &body) {
    walk(body);
    return lt;
  }

private:
  void use(int buf, int pos) {
    if (buf < 0 || buf >= static_cast<int>(lt.size()))
      return;
    int lo = pos, hi = pos;
    if (!loops.empty()) {
      lo = loops.back().first;
      hi = loops.back().second;
    }
    auto &l = lt[buf];
    l.first = l.first < 0 ? lo : std::min(l.first, lo);
    l.last = std::max(l.last, hi);
  }

  // Last pre-order number inside `s`.
  int extent(const Stmt &s, int pos) {
    int n = pos;
    countFrom(s, n);
    return n;
  }
  void countFrom(const Stmt &s, int &n) {
    if (!s)
      return;
    switch (s->kind) {
    case StmtKind::Block:
      for (auto &c : as<Block>(s)->stmts) {
        ++n;
        countFrom(c, n);
      }
      return;
    case StmtKind::For:
      ++n;
      countFrom(as<For>(s)->body, n);
      return;
    case StmtKind::While:
      ++n;
      countFrom(as<While>(s)->body, n);
      return;
    case StmtKind::If:
      ++n;
      countFrom(as<If>(s)->thenS, n);
      if (as<If>(s)->elseS) {
        ++n;
        countFrom(as<If>(s)->elseS, n);
      }
      return;
    case StmtKind::WarpSpecialize:
      ++n;
      countFrom(as<WarpSpecialize>(s)->producer, n);
      ++n;
      countFrom(as<WarpSpecialize>(s)->consumers, n);
      return;
    default:
      return;
    }
  }

  void walk(const Stmt &s) {
    if (!s)
      return;
    int pos = next++;
    switch (s->kind) {
    case StmtKind::Block:
      for (auto &c : as<Block>(s)->stmts)
        walk(c);
      return;
    case StmtKind::For:
    case StmtKind::While: {
      const Stmt &body = s->kind == StmtKind::For ? as<For>(s)->body : as<While>(s)->body;
      loops.push_back({pos, extent(s, pos)});
      exprs(s, pos);
      walk(body);
      loops.pop_back();
      return;
    }
    case StmtKind::If:
      exprs(s, pos);
      walk(as<If>(s)->thenS);
      walk(as<If>(s)->elseS);
      return;
    case StmtKind::WarpSpecialize: // both roles run at once: a buffer either uses lives through
                                   // both
      loops.push_back({pos, extent(s, pos)});
      walk(as<WarpSpecialize>(s)->producer);
      walk(as<WarpSpecialize>(s)->consumers);
      loops.pop_back();
      return;
    case StmtKind::SharedWrite:
      use(as<SharedWrite>(s)->buffer, pos);
      exprs(s, pos);
      return;
    case StmtKind::AsyncCopy:
      use(as<AsyncCopy>(s)->buffer, pos);
      exprs(s, pos);
      return;
    default:
      exprs(s, pos);
      return;
    }
  }

  // Shared reads (SharedRead, SharedDot) in the statement's own expressions (not in nested
  // statements).
  void exprs(const Stmt &s, int pos) {
    auto f = [&](const ExprNode *e) {
      for (int b : sharedBuffersRead(*e))
        use(b, pos);
    };
    auto one = [&](const Expr &e) {
      if (e)
        forEachExpr(Decl::make(std::make_shared<VarNode>(), e), f);
    };
    switch (s->kind) {
    case StmtKind::Decl: one(as<Decl>(s)->init); break;
    case StmtKind::Assign: one(as<Assign>(s)->value); break;
    case StmtKind::Store:
      one(as<Store>(s)->ptr);
      one(as<Store>(s)->value);
      one(as<Store>(s)->mask);
      one(as<Store>(s)->cmp);
      break;
    case StmtKind::For:
      one(as<For>(s)->begin);
      one(as<For>(s)->end);
      one(as<For>(s)->step);
      break;
    case StmtKind::While: one(as<While>(s)->cond); break;
    case StmtKind::If: one(as<If>(s)->cond); break;
    case StmtKind::Assert:
      one(as<Assert>(s)->cond);
      break;
    case StmtKind::Print:
      one(as<Print>(s)->value);
      break;
    case StmtKind::SharedWrite:
      one(as<SharedWrite>(s)->stage);
      one(as<SharedWrite>(s)->value);
      break;
    case StmtKind::AsyncCopy:
      one(as<AsyncCopy>(s)->stage);
      if (as<AsyncCopy>(s)->tma()) {
        one(as<AsyncCopy>(s)->row);
        one(as<AsyncCopy>(s)->col);
        break;
      }
      one(as<AsyncCopy>(s)->ptr);
      one(as<AsyncCopy>(s)->mask);
      break;
    default: break;
    }
  }

  std::vector<BufferLifetime> lt;
  std::vector<std::pair<int, int>> loops;
  int next = 0;
};

} // namespace

std::vector<BufferLifetime> sharedBufferLifetimes(const Kernel &k) {
  return LifetimeWalker(k).run(k.body);
}

// ---- the verifier --------------------------------------------------------------------------------

namespace {

struct VerifyError {
  std::string msg;
};

bool isPow2(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

class KernelVerifier {
public:
  KernelVerifier(const Kernel &k, bool lowered) : k(k), lowered(lowered) {}

  void run() {
    layoutMode = lowered || anyLayout();
    for (size_t i = 0; i < k.buffers.size(); ++i) {
      auto &b = k.buffers[i];
      if (b.shape.empty() || b.elemType.isTile() || b.elemType.pointer)
        fail("shared buffer " + std::to_string(i) + " '" + b.name + "' has a bad shape or type");
      if (b.rowStride < b.shape.back())
        fail("shared buffer " + std::to_string(i) + " has rowStride below its last dim");
      const SharedSwizzle &z = b.swizzle;
      if (z.on() && (b.shape.size() != 2 || b.rowStride != b.shape.back() || !isPow2(z.vec) ||
                     !isPow2(z.perPhase) || !isPow2(z.maxPhase) ||
                     b.rowStride % (int64_t(z.vec) * z.maxPhase) != 0))
        fail("shared buffer " + std::to_string(i) + " '" + b.name +
             "' has a swizzle its rows cannot hold (rank 2, unpadded rows of at least maxPhase "
             "chunks)");
      if (b.colBlock && (!z.on() || b.colBlock % (int64_t(z.vec) * z.maxPhase) != 0 ||
                         b.rowStride % b.colBlock != 0))
        fail("shared buffer " + std::to_string(i) + " '" + b.name +
             "' has column blocks that its swizzle or its rows cannot hold");
      if (b.alignBytes < 16 || !isPow2(b.alignBytes) ||
          (b.stages > 1 && b.sizeBytes / b.stages % b.alignBytes != 0))
        fail("shared buffer " + std::to_string(i) + " '" + b.name +
             "' has an alignment that is no power of two of at least 16 bytes, or stages that "
             "break it");
    }
    scopes.emplace_back();
    for (auto &p : k.params) {
      if (!p || p->kind != VarKind::Param)
        fail("kernel parameter is null or not a Param");
      if (p->type.isTile())
        fail("kernel parameter '" + p->name + "' is a tile");
      declare(p);
    }
    if (k.programs) {
      TILEC_REQUIRE(k.programs->kind == VarKind::Param && k.programs->type.isScalar() &&
                        k.programs->type.elem == ScalarType::I32,
                    "the programs of a persistent kernel are an int parameter");
      declare(k.programs);
    }
    for (size_t i = 0; i < k.asms.size(); ++i) {
      const AsmFunction &a = k.asms[i];
      const std::string what = "inline asm " + std::to_string(i);
      TILEC_REQUIRE(a.reference && a.reference->type.isScalar() && !a.reference->type.pointer &&
                        a.reference->type.elem == a.result && !a.params.empty(),
                    what + " computes a scalar of its result type");
      ExprFacts f;
      f.add(a.reference);
      for (const VarNode *v : f.reads)
        TILEC_REQUIRE(std::any_of(a.params.begin(), a.params.end(),
                                  [&](const Var &p) { return p.get() == v; }),
                      what + " reads '" + v->name + "', not one of its arguments");
      TILEC_REQUIRE(f.elementwise, what + " loads, reduces or scans");
    }
    for (size_t i = 0; i < k.combines.size(); ++i) {
      const CombineFunction &c = k.combines[i];
      const std::string what = "combine function " + std::to_string(i);
      TILEC_REQUIRE(c.a && c.b && c.body && c.a->type.isScalar() && c.b->type == c.a->type &&
                        c.body->type == c.a->type && !c.a->type.pointer,
                    what + " combines scalars of one element type into one");
      ExprFacts f;
      f.add(c.body);
      for (const VarNode *v : f.reads)
        TILEC_REQUIRE(v == c.a.get() || v == c.b.get(),
                      what + " reads '" + v->name + "', not one of its arguments");
      TILEC_REQUIRE(f.elementwise, what + " loads, reduces or scans");
    }
    checkWarpSpecialize();
    stmt(k.body);
    if (lowered) {
      checkAllocation();
      checkBarriers();
    }
  }

private:
  [[noreturn]] void fail(const std::string &msg) {
    std::string where = current ? "\n  in: " + toString(current) : std::string();
    while (!where.empty() && where.back() == '\n')
      where.pop_back();
    throw VerifyError{"kernel '" + k.name + "': " + msg + where};
  }

  bool anyLayout() {
    bool any = false;
    auto f = [&](const ExprNode *e) {
      any |= e->type.layout != nullptr;
      if (auto *r = e->kind == ExprKind::VarRef ? static_cast<const VarRef *>(e) : nullptr)
        any |= r->var->type.layout != nullptr;
    };
    forEachExpr(k.body, f);
    // Decls without init still carry var types.
    std::function<void(const Stmt &)> walk = [&](const Stmt &s) {
      if (!s)
        return;
      if (auto *d = as<Decl>(s))
        any |= d->var->type.layout != nullptr;
      if (auto *b = as<Block>(s))
        for (auto &c : b->stmts)
          walk(c);
      if (auto *f2 = as<For>(s))
        walk(f2->body);
      if (auto *w = as<While>(s))
        walk(w->body);
      if (auto *i = as<If>(s)) {
        walk(i->thenS);
        walk(i->elseS);
      }
    };
    walk(k.body);
    return any;
  }

  // ---- types and layouts -----------------------------------------------------------------------
  void checkLayout(const Layout &l, int rank, const std::string &what) {
    TILEC_REQUIRE(l.rank() == rank, what + ": layout " + l.str() + " has rank " +
                                        std::to_string(l.rank()) + ", expected " +
                                        std::to_string(rank));
    if (l.kind == Layout::Kind::Slice) {
      TILEC_REQUIRE(l.parent && l.sliceDim >= 0 && l.sliceDim < l.parent->rank(),
                    what + ": malformed slice layout");
      return checkLayout(*l.parent, rank + 1, what);
    }
    if (l.kind == Layout::Kind::Mma) {
      TILEC_REQUIRE(
          l.warpsPerBlock.size() == 2 && isPow2(l.warpsPerBlock[0]) && isPow2(l.warpsPerBlock[1]) &&
              l.warpsPerBlock[0] * l.warpsPerBlock[1] == k.settings.numWarps &&
              k.warpSize == (Layout::mfmaSize(l.instr) ? 64 : 32),
          what + ": layout " + l.str() + " does not fit " + std::to_string(k.settings.numWarps) +
              " warps of " + std::to_string(k.warpSize) + " lanes");
      return;
    }
    size_t r = l.order.size();
    TILEC_REQUIRE(l.sizePerThread.size() == r && l.threadsPerWarp.size() == r &&
                      l.warpsPerBlock.size() == r,
                  what + ": malformed blocked layout " + l.str());
    std::vector<int> ord = l.order;
    std::sort(ord.begin(), ord.end());
    int64_t lanes = 1, warps = 1;
    for (size_t d = 0; d < r; ++d) {
      TILEC_REQUIRE(ord[d] == static_cast<int>(d), what + ": layout order is not a permutation");
      TILEC_REQUIRE(isPow2(l.sizePerThread[d]) && isPow2(l.threadsPerWarp[d]) &&
                        isPow2(l.warpsPerBlock[d]),
                    what + ": layout sizes must be powers of two: " + l.str());
      lanes *= l.threadsPerWarp[d];
      warps *= l.warpsPerBlock[d];
    }
    TILEC_REQUIRE(lanes == k.warpSize,
                  what + ": layout " + l.str() + " has " + std::to_string(lanes) +
                      " threads per warp; the warp size is " + std::to_string(k.warpSize));
    TILEC_REQUIRE(warps == k.settings.numWarps,
                  what + ": layout " + l.str() + " spans " + std::to_string(warps) +
                      " warps; the kernel has num_warps=" + std::to_string(k.settings.numWarps));
  }

  void checkType(const Type &t, const std::string &what) {
    if (t.isScalar()) {
      TILEC_REQUIRE(!t.layout, what + ": scalar with a layout");
      return;
    }
    for (int64_t s : t.shape)
      TILEC_REQUIRE(isPow2(s), what + ": tile dims must be powers of two: " + t.str());
    if (lowered)
      TILEC_REQUIRE(t.rank() <= 3, what + ": tile of rank " + std::to_string(t.rank()));
    if (layoutMode)
      TILEC_REQUIRE(t.layout != nullptr, what + ": tile without a layout: " + t.str());
    if (t.layout)
      checkLayout(*t.layout, t.rank(), what);
  }

  void sameLayoutAs(const Expr &operand, const Type &result, const char *node) {
    if (!layoutMode || operand->type.isScalar())
      return;
    TILEC_REQUIRE(sameLayout(operand->type.layout, result.layout),
                  std::string(node) + " operand " + operand->type.str() +
                      " is not in the result layout " + result.str());
  }

  static Type reducedType(ReduceOp op, int axis, const Type &in) {
    Type t = in;
    t.shape.erase(t.shape.begin() + axis);
    if (op == ReduceOp::ArgMax || op == ReduceOp::ArgMin)
      t.elem = ScalarType::I32;
    else if (op == ReduceOp::Sum && (t.elem == ScalarType::Bool || t.elem == ScalarType::I8))
      t.elem = ScalarType::I32;
    t.argPair = false;
    t.layout = nullptr;
    return t;
  }

  void sliceOf(const Type &result, const Expr &a, int axis, const char *node) {
    if (!layoutMode || result.isScalar())
      return;
    LayoutRef want = Layout::slice(a->type.layout, axis);
    TILEC_REQUIRE(sameLayout(result.layout, want),
                  std::string(node) + " result " + result.str() + " is not in " + want->str());
  }

  /// A reduction's or scan's combine function: the kernel's entry `fn` for op Combine, of the
  /// operand's element type `elem`; none for the built-in ops.
  void checkCombine(bool isCombine, int fn, ScalarType elem) {
    TILEC_REQUIRE(isCombine == (fn >= 0), "combine function index with another op");
    if (isCombine)
      TILEC_REQUIRE(fn < static_cast<int>(k.combines.size()) && k.combines[fn].a->type.elem == elem,
                    "combine function " + std::to_string(fn) + " of another element type");
  }

  void checkBuffer(int b) {
    TILEC_REQUIRE(b >= 0 && b < static_cast<int>(k.buffers.size()),
                  "shared buffer index " + std::to_string(b) + " out of range");
  }

  // `top`: the expression is the whole init of a Decl or value of an Assign.
  void expr(const Expr &e, bool top = false) {
    TILEC_REQUIRE(e != nullptr, "null expression");
    const Type &t = e->type;
    std::string what = std::string(name(e->kind));
    checkType(t, what);
    switch (e->kind) {
    case ExprKind::IntImm:
      TILEC_REQUIRE(t.isScalar() && (isInt(t.elem) || t.elem == ScalarType::Bool) && !t.pointer,
                    "IntImm of type " + t.str());
      return;
    case ExprKind::FloatImm:
      TILEC_REQUIRE(t.isScalar() && isFloat(t.elem) && !t.pointer, "FloatImm of type " + t.str());
      return;
    case ExprKind::VarRef: {
      auto *r = as<VarRef>(e);
      TILEC_REQUIRE(r->var != nullptr, "VarRef of a null var");
      TILEC_REQUIRE(declared(r->var.get()), "'" + r->var->name + "' used before its declaration");
      TILEC_REQUIRE(sameShapeAndElem(t, r->var->type) &&
                        (!layoutMode || sameLayout(t.layout, r->var->type.layout)),
                    "reference to '" + r->var->name + "' has type " + t.str() + " but the var is " +
                        r->var->type.str());
      return;
    }
    case ExprKind::Unary: {
      auto *u = as<Unary>(e);
      expr(u->a);
      TILEC_REQUIRE(sameShapeAndElem(t, u->a->type) && !t.pointer, "unary operand type " + u->a->type.str());
      if (u->op == UnaryOp::Not)
        TILEC_REQUIRE(t.elem == ScalarType::Bool, "not of a non-bool");
      if (u->op == UnaryOp::BitNot)
        TILEC_REQUIRE(isInt(t.elem) || t.elem == ScalarType::Bool, "bitnot of a non-integer");
      sameLayoutAs(u->a, t, "unary");
      return;
    }
    case ExprKind::Binary: {
      auto *b = as<Binary>(e);
      expr(b->a);
      expr(b->b);
      const Type &ta = b->a->type, &tb = b->b->type;
      TILEC_REQUIRE(ta.shape == tb.shape && t.shape == ta.shape,
                    std::string("binary ") + name(b->op) + " operand shapes " + ta.str() + " and " +
                        tb.str());
      if (ta.pointer || tb.pointer) {
        bool arith = (b->op == BinaryOp::Add || b->op == BinaryOp::Sub) &&
                     (ta.pointer != tb.pointer) && isInt(ta.pointer ? tb.elem : ta.elem);
        bool cmp = isComparison(b->op) && ta.pointer && tb.pointer;
        TILEC_REQUIRE(arith || cmp, std::string("binary ") + name(b->op) + " on pointers " +
                                        ta.str() + ", " + tb.str());
        if (arith)
          TILEC_REQUIRE(t.pointer && t.elem == (ta.pointer ? ta.elem : tb.elem),
                        "pointer arithmetic result " + t.str());
      } else {
        TILEC_REQUIRE(ta.elem == tb.elem, std::string("binary ") + name(b->op) +
                                              " operand element types " + ta.str() + " and " +
                                              tb.str());
        ScalarType want = isComparison(b->op) ? ScalarType::Bool : ta.elem;
        TILEC_REQUIRE(t.elem == want && !t.pointer,
                      std::string("binary ") + name(b->op) + " result type " + t.str());
        if (b->op == BinaryOp::LAnd || b->op == BinaryOp::LOr)
          TILEC_REQUIRE(ta.elem == ScalarType::Bool, "logical op on non-bool operands");
      }
      sameLayoutAs(b->a, t, "binary");
      sameLayoutAs(b->b, t, "binary");
      return;
    }
    case ExprKind::Math: {
      auto *m = as<Math>(e);
      if (m->op == MathOp::InlineAsm) { // operands of the assembly's types, the result of its
        const bool known = m->asmFn >= 0 && m->asmFn < static_cast<int>(k.asms.size());
        TILEC_REQUIRE(known && k.asms[m->asmFn].params.size() == m->args.size() &&
                          t.elem == k.asms[m->asmFn].result && !t.pointer,
                      "inline asm " + std::to_string(m->asmFn) + " of " + t.str());
        for (size_t i = 0; i < m->args.size(); ++i) {
          const Expr &a = m->args[i];
          expr(a);
          TILEC_REQUIRE(a->type.shape == t.shape && !a->type.pointer &&
                            a->type.elem == k.asms[m->asmFn].params[i]->type.elem,
                        "inline asm operand " + a->type.str());
          sameLayoutAs(a, t, "inline asm");
        }
        return;
      }
      TILEC_REQUIRE(static_cast<int>(m->args.size()) == arity(m->op), "math arity");
      // The random-number ops' operands: (u64, u32 or u64, u32), (u32) and (u32, u32, u32).
      auto operandElem = [&](size_t i) {
        switch (m->op) {
        case MathOp::Philox: // a 64-bit offset as u64
          return i == 0 || (i == 1 && m->args[1]->type.elem == ScalarType::U64) ? ScalarType::U64
                                                                                : ScalarType::U32;
        case MathOp::UniformFromBits:
        case MathOp::NormalFromBits: return ScalarType::U32;
        default:
          return t.elem;
        }
      };
      TILEC_REQUIRE(t.elem == resultElem(m->op, m->args[0]->type.elem),
                    std::string("math ") + name(m->op) + " result " + t.str());
      for (size_t i = 0; i < m->args.size(); ++i) {
        const Expr &a = m->args[i];
        expr(a);
        TILEC_REQUIRE(a->type.shape == t.shape && a->type.elem == operandElem(i) &&
                          !a->type.pointer && !t.pointer,
                      std::string("math ") + name(m->op) + " operand " + a->type.str());
        sameLayoutAs(a, t, "math");
      }
      return;
    }
    case ExprKind::Select: {
      auto *s = as<Select>(e);
      expr(s->cond);
      expr(s->a);
      expr(s->b);
      TILEC_REQUIRE(s->cond->type.elem == ScalarType::Bool && s->cond->type.shape == t.shape &&
                        !s->cond->type.pointer,
                    "select condition " + s->cond->type.str() +
                        " must be bool of the result shape");
      TILEC_REQUIRE(sameShapeAndElem(s->a->type, t) && sameShapeAndElem(s->b->type, t),
                    "select operands " + s->a->type.str() + ", " + s->b->type.str());
      sameLayoutAs(s->cond, t, "select");
      sameLayoutAs(s->a, t, "select");
      sameLayoutAs(s->b, t, "select");
      return;
    }
    case ExprKind::Cast: {
      auto *c = as<Cast>(e);
      expr(c->a);
      TILEC_REQUIRE(c->a->type.shape == t.shape && !t.pointer && !c->a->type.pointer,
                    "cast of " + c->a->type.str() + " to " + t.str());
      const ScalarType from = c->a->type.elem;
      if (c->mode == CastMode::Bitcast)
        TILEC_REQUIRE(bitWidth(from) == bitWidth(t.elem) && from != ScalarType::Bool &&
                          (isFloat(from) || isFloat(t.elem)),
                      "bitcast of " + c->a->type.str() + " to " + t.str());
      if (c->mode == CastMode::ConvertTowardZero)
        TILEC_REQUIRE(isFloat(from) && isFloat(t.elem) && bitWidth(t.elem) < bitWidth(from),
                      "cast rounding toward zero of " + c->a->type.str() + " to " + t.str());
      sameLayoutAs(c->a, t, "cast");
      return;
    }
    case ExprKind::ProgramId:
      TILEC_REQUIRE(t.isScalar() && t.elem == ScalarType::I32, "program_id type " + t.str());
      return;
    case ExprKind::Arange: {
      auto *a = as<Arange>(e);
      TILEC_REQUIRE(t.rank() == 1 && t.elem == ScalarType::I32 && t.shape[0] == a->end - a->start,
                    "arange type " + t.str());
      return;
    }
    case ExprKind::Splat: {
      auto *s = as<Splat>(e);
      expr(s->a);
      TILEC_REQUIRE(s->a->type.isScalar() && t.isTile() && s->a->type.elem == t.elem &&
                        s->a->type.pointer == t.pointer,
                    "splat of " + s->a->type.str() + " to " + t.str());
      return;
    }
    case ExprKind::ExpandDims: {
      auto *x = as<ExpandDims>(e);
      expr(x->a);
      auto shape = x->a->type.shape;
      TILEC_REQUIRE(x->axis >= 0 && x->axis <= static_cast<int>(shape.size()), "expand_dims axis");
      shape.insert(shape.begin() + x->axis, 1);
      TILEC_REQUIRE(t.shape == shape && x->a->type.elem == t.elem &&
                        x->a->type.pointer == t.pointer,
                    "expand_dims of " + x->a->type.str() + " gives " + t.str());
      if (layoutMode)
        TILEC_REQUIRE(sameLayout(x->a->type.layout, Layout::slice(t.layout, x->axis)),
                      "expand_dims operand " + x->a->type.str() + " is not in the slice of " +
                          t.str());
      return;
    }
    case ExprKind::Broadcast: {
      auto *b = as<Broadcast>(e);
      expr(b->a);
      const Type &ta = b->a->type;
      TILEC_REQUIRE(ta.rank() == t.rank() && ta.elem == t.elem && ta.pointer == t.pointer,
                    "broadcast of " + ta.str() + " to " + t.str());
      for (int d = 0; d < t.rank(); ++d)
        TILEC_REQUIRE(ta.shape[d] == t.shape[d] || ta.shape[d] == 1,
                      "broadcast of " + ta.str() + " to " + t.str());
      sameLayoutAs(b->a, t, "broadcast");
      return;
    }
    case ExprKind::Trans: {
      auto *x = as<Trans>(e);
      expr(x->a);
      const Type &ta = x->a->type;
      bool shaped = isPermutation(x->perm) && static_cast<int>(x->perm.size()) == ta.rank() &&
                    t.rank() == ta.rank() && ta.elem == t.elem && ta.pointer == t.pointer;
      for (size_t d = 0; shaped && d < x->perm.size(); ++d)
        shaped = t.shape[d] == ta.shape[x->perm[d]];
      TILEC_REQUIRE(shaped, "trans of " + ta.str() + " gives " + t.str());
      if (layoutMode)
        TILEC_REQUIRE(t.layout && sameLayout(ta.layout, Layout::permuted(
                                                            t.layout, inversePermutation(x->perm))),
                      "trans operand " + ta.str() + " is not in the permuted layout of " + t.str());
      return;
    }
    case ExprKind::Load: {
      auto *l = as<Load>(e);
      if (lowered)
        TILEC_REQUIRE(top, "load must be the whole init of a decl or value of an assign");
      expr(l->ptr);
      TILEC_REQUIRE(l->ptr->type.pointer, "load of a non-pointer " + l->ptr->type.str());
      TILEC_REQUIRE(!t.pointer && t.elem == l->ptr->type.elem && t.shape == l->ptr->type.shape,
                    "load result " + t.str() + " from " + l->ptr->type.str());
      sameLayoutAs(l->ptr, t, "load");
      if (l->mask) {
        expr(l->mask);
        TILEC_REQUIRE(l->mask->type.elem == ScalarType::Bool && l->mask->type.shape == t.shape &&
                          !l->mask->type.pointer,
                      "load mask " + l->mask->type.str());
        sameLayoutAs(l->mask, t, "load");
      }
      if (l->other) {
        expr(l->other);
        TILEC_REQUIRE(sameShapeAndElem(l->other->type, t), "load other " + l->other->type.str());
        sameLayoutAs(l->other, t, "load");
      }
      checkVec(l->vec, t, "load");
      return;
    }
    case ExprKind::Reduce: {
      auto *r = as<Reduce>(e);
      TILEC_REQUIRE(!lowered, "reduce remains after the pipeline");
      expr(r->a);
      TILEC_REQUIRE(r->a->type.isTile() && r->axis >= 0 && r->axis < r->a->type.rank(),
                    "reduce axis " + std::to_string(r->axis) + " of " + r->a->type.str());
      TILEC_REQUIRE(!r->a->type.pointer, "reduce of pointers");
      checkCombine(r->op == ReduceOp::Combine, r->combineFn, r->a->type.elem);
      TILEC_REQUIRE(sameShapeAndElem(t, reducedType(r->op, r->axis, r->a->type)),
                    "reduce result " + t.str() + " of " + r->a->type.str());
      sliceOf(t, r->a, r->axis, "reduce");
      return;
    }
    case ExprKind::Scan: {
      auto *r = as<Scan>(e);
      TILEC_REQUIRE(!lowered || r->part != ScanPart::Whole, "scan remains after the pipeline");
      if (lowered)
        TILEC_REQUIRE(top, "a scan's part must be the whole init of a decl or value of an assign");
      expr(r->a);
      TILEC_REQUIRE(r->a->type.isTile() && r->axis >= 0 && r->axis < r->a->type.rank() &&
                        !r->a->type.pointer && !r->a->type.argPair,
                    "scan axis " + std::to_string(r->axis) + " of " + r->a->type.str());
      TILEC_REQUIRE(sameShapeAndElem(t, r->a->type),
                    "scan result " + t.str() + " of " + r->a->type.str());
      TILEC_REQUIRE((r->part == ScanPart::Carry) == (r->buffer >= 0), "scan totals buffer");
      checkCombine(r->op == ScanOp::Combine, r->combineFn, t.elem);
      if (r->part == ScanPart::Carry) {
        checkBuffer(r->buffer);
        TILEC_REQUIRE(k.buffers[r->buffer].elemType.elem == t.elem,
                      "scan_carry of " + t.str() + " from buffer '" + k.buffers[r->buffer].name +
                          "'");
      }
      if (layoutMode) {
        sameLayoutAs(r->a, t, "scan");
        TILEC_REQUIRE(t.layout && t.layout->root().kind == Layout::Kind::Blocked,
                      "scan in a layout that is not blocked (or a slice of one)");
      }
      return;
    }
    case ExprKind::Histogram: {
      auto *h = as<Histogram>(e);
      TILEC_REQUIRE(!lowered, "histogram remains after the pipeline");
      expr(h->a);
      if (h->mask)
        expr(h->mask);
      TILEC_REQUIRE(h->a->type.rank() == 1 && isInt(h->a->type.elem) && t.rank() == 1 &&
                        t.shape[0] == h->numBins && t.elem == ScalarType::I32 &&
                        (!h->mask || (h->mask->type.shape == h->a->type.shape &&
                                      h->mask->type.elem == ScalarType::Bool)),
                    "histogram of " + h->a->type.str() + " gives " + t.str());
      if (layoutMode && h->mask)
        sameLayoutAs(h->mask, h->a->type, "histogram");
      return;
    }
    case ExprKind::Sort: {
      auto *so = as<Sort>(e);
      TILEC_REQUIRE(!lowered, "sort remains after the pipeline");
      expr(so->a);
      const Type &a = so->a->type;
      bool shapes = a.isTile() && !a.pointer && t.elem == a.elem && t.rank() == a.rank() &&
                    t.shape.back() >= 1 && t.shape.back() <= a.shape.back();
      for (int d = 0; shapes && d + 1 < t.rank(); ++d)
        shapes = t.shape[d] == a.shape[d];
      TILEC_REQUIRE(shapes, "sort of " + a.str() + " gives " + t.str());
      return;
    }
    case ExprKind::Reshape: {
      auto *r = as<Reshape>(e);
      TILEC_REQUIRE(!lowered, "reshape remains after the pipeline");
      expr(r->a);
      const bool two = reshapeTakesTwo(r->how);
      if (r->b)
        expr(r->b);
      const Type &a = r->a->type;
      TILEC_REQUIRE(a.isTile() && !a.pointer && t.elem == a.elem && (r->b != nullptr) == two &&
                        (!r->b || (r->b->type.shape == a.shape && r->b->type.elem == a.elem)) &&
                        t.numElements() == reshapedCount(r->how, a.numElements()),
                    std::string(name(r->how)) + " of " + a.str() + " gives " + t.str());
      if (layoutMode && r->b)
        sameLayoutAs(r->b, a, name(r->how));
      return;
    }
    case ExprKind::Gather: {
      auto *g = as<Gather>(e);
      TILEC_REQUIRE(!lowered, "gather remains after the pipeline");
      expr(g->src);
      expr(g->index);
      const Type &s = g->src->type, &it = g->index->type;
      bool shapes = s.isTile() && !s.pointer && isInt(it.elem) && it.rank() == s.rank() &&
                    g->axis >= 0 && g->axis < s.rank() && t.shape == it.shape && t.elem == s.elem;
      for (int d = 0; shapes && d < s.rank(); ++d)
        shapes = d == g->axis || it.shape[d] == s.shape[d];
      TILEC_REQUIRE(shapes, "gather of " + s.str() + " at " + it.str() + " gives " + t.str());
      if (layoutMode)
        sameLayoutAs(g->index, t, "gather");
      return;
    }
    case ExprKind::Hint: {
      auto *h = as<Hint>(e);
      expr(h->a);
      TILEC_REQUIRE(sameShapeAndElem(h->a->type, t), "hint changes the type");
      TILEC_REQUIRE(h->values.size() == static_cast<size_t>(std::max(1, t.rank())), "hint values");
      sameLayoutAs(h->a, t, "hint");
      return;
    }
    case ExprKind::Dot: {
      auto *d = as<Dot>(e);
      TILEC_REQUIRE(!lowered, "dot remains after the pipeline");
      expr(d->a);
      expr(d->b);
      if (d->acc)
        expr(d->acc);
      const Type &a = d->a->type, &b = d->b->type;
      TILEC_REQUIRE(a.rank() == 2 && b.rank() == 2 && a.shape[1] == b.shape[0] && !a.pointer &&
                        !b.pointer && a.elem == b.elem,
                    "dot operands " + a.str() + " and " + b.str());
      TILEC_REQUIRE(t.rank() == 2 && t.shape[0] == a.shape[0] && t.shape[1] == b.shape[1],
                    "dot result " + t.str());
      const bool f16Out = a.elem == ScalarType::F16 && t.elem == ScalarType::F16;
      TILEC_REQUIRE(f16Out ||
                        t.elem == (a.elem == ScalarType::I8 ? ScalarType::I32 : ScalarType::F32),
                    "dot of " + std::string(ir::name(a.elem)) + " gives " + t.str());
      TILEC_REQUIRE(!d->acc || sameShapeAndElem(d->acc->type, t),
                    "dot accumulator " + (d->acc ? d->acc->type.str() : ""));
      return;
    }
    case ExprKind::ConvertLayout: {
      auto *c = as<ConvertLayout>(e);
      TILEC_REQUIRE(!lowered, "convert_layout remains after the pipeline");
      expr(c->a);
      TILEC_REQUIRE(sameShapeAndElem(c->a->type, t) && t.isTile(), "convert_layout changes the type");
      return;
    }
    case ExprKind::ThreadReduce: {
      auto *r = as<ThreadReduce>(e);
      if (lowered)
        TILEC_REQUIRE(top, "thread_reduce must be the whole init of a decl or value of an assign");
      expr(r->a);
      TILEC_REQUIRE(r->a->type.isTile() && r->axis >= 0 && r->axis < r->a->type.rank() &&
                        !r->a->type.pointer,
                    "thread_reduce axis " + std::to_string(r->axis) + " of " + r->a->type.str());
      auto shape = r->a->type.shape;
      shape.erase(shape.begin() + r->axis);
      bool arg = r->op == ReduceOp::ArgMax || r->op == ReduceOp::ArgMin;
      checkCombine(r->op == ReduceOp::Combine, r->combineFn, t.elem);
      TILEC_REQUIRE(t.shape == shape && t.elem == r->a->type.elem && t.argPair == arg && !t.pointer,
                    "thread_reduce result " + t.str() + " of " + r->a->type.str());
      sliceOf(t, r->a, r->axis, "thread_reduce");
      return;
    }
    case ExprKind::WarpReduce: {
      auto *w = as<WarpReduce>(e);
      if (lowered)
        TILEC_REQUIRE(top, "warp_reduce must be the whole init of a decl or value of an assign");
      expr(w->a);
      TILEC_REQUIRE(t == w->a->type, "warp_reduce changes the type");
      bool arg = w->op == ReduceOp::ArgMax || w->op == ReduceOp::ArgMin;
      TILEC_REQUIRE(t.argPair == arg, "warp_reduce partial type " + t.str());
      checkCombine(w->op == ReduceOp::Combine, w->combineFn, t.elem);
      std::set<int> seen;
      for (int m : w->laneMasks)
        TILEC_REQUIRE(isPow2(m) && m < w->warpSize && seen.insert(m).second,
                      "warp_reduce lane mask " + std::to_string(m));
      if (lowered)
        TILEC_REQUIRE(w->warpSize == k.warpSize, "warp_reduce warp size differs from the kernel's");
      return;
    }
    case ExprKind::SharedRead: {
      auto *r = as<SharedRead>(e);
      if (lowered)
        TILEC_REQUIRE(top, "shared_read must be the whole init of a decl or value of an assign");
      checkBuffer(r->buffer);
      const SharedBuffer &b = k.buffers[r->buffer];
      if (r->index) {
        expr(r->index);
        const Type &it = r->index->type;
        bool shapes = !r->combine && t.isTile() && it.shape == t.shape && isInt(it.elem) &&
                      r->gatherAxis >= 0 && r->gatherAxis < t.rank() &&
                      b.shape.size() == t.shape.size() && t.elem == b.elemType.elem;
        for (int d = 0; shapes && d < t.rank(); ++d)
          shapes = d == r->gatherAxis || b.shape[d] == t.shape[d];
        TILEC_REQUIRE(shapes, "shared_read gather of " + t.str() + " from buffer '" + b.name + "'");
        if (layoutMode)
          sameLayoutAs(r->index, t, "shared_read gather");
      } else if (r->prefix) {
        bool shapes = !r->combine && t.isTile() && !t.pointer && t.elem == b.elemType.elem &&
                      b.shape.size() == t.shape.size() && t.shape.back() <= b.shape.back() &&
                      b.stages == 1 && !b.swizzle.on();
        for (size_t d = 0; shapes && d + 1 < t.shape.size(); ++d)
          shapes = t.shape[d] == b.shape[d];
        TILEC_REQUIRE(shapes, "shared_read prefix " + t.str() + " from buffer '" + b.name + "'");
      } else if (r->reshape) {
        const bool two = reshapeTakesTwo(*r->reshape);
        int64_t n = 1;
        for (int64_t d : b.shape)
          n *= d;
        TILEC_REQUIRE(!r->combine && t.isTile() && !t.pointer && t.elem == b.elemType.elem &&
                          b.rowStride == b.shape.back() && !b.swizzle.on() && b.stages == 1 &&
                          (r->bufferB >= 0) == two &&
                          t.numElements() == reshapedCount(*r->reshape, n),
                      "shared_read " + std::string(name(*r->reshape)) + " of " + t.str() +
                          " from buffer '" + b.name + "'");
        if (two) {
          checkBuffer(r->bufferB);
          const SharedBuffer &bb = k.buffers[r->bufferB];
          TILEC_REQUIRE(bb.shape == b.shape && bb.rowStride == b.rowStride && !bb.swizzle.on() &&
                            bb.elemType.elem == b.elemType.elem && bb.stages == 1,
                        "shared_read " + std::string(name(*r->reshape)) + " from buffers '" +
                            b.name + "' and '" + bb.name + "'");
        }
      } else if (!r->combine) {
        TILEC_REQUIRE(t.isTile() && t.shape == b.shape && t.elem == b.elemType.elem &&
                          t.argPair == b.elemType.argPair && !t.pointer,
                      "shared_read of " + t.str() + " from buffer '" + b.name + "'");
      } else {
        std::vector<int64_t> want = {r->numParts};
        want.insert(want.end(), t.shape.begin(), t.shape.end());
        TILEC_REQUIRE(b.shape == want && t.elem == b.elemType.elem &&
                          t.argPair == b.elemType.argPair,
                      "shared_combine of " + t.str() + " from buffer '" + b.name + "'");
        bool arg = r->op == ReduceOp::ArgMax || r->op == ReduceOp::ArgMin;
        TILEC_REQUIRE(t.argPair == arg, "shared_combine result " + t.str());
        checkCombine(r->op == ReduceOp::Combine, r->combineFn, t.elem);
      }
      return;
    }
    case ExprKind::SharedDot: {
      auto *d = as<SharedDot>(e);
      if (lowered)
        TILEC_REQUIRE(top, "shared_dot must be the whole init of a decl or value of an assign");
      checkBuffer(d->bufferA);
      checkBuffer(d->bufferB);
      const SharedBuffer &a = k.buffers[d->bufferA], &b = k.buffers[d->bufferB];
      TILEC_REQUIRE(a.shape.size() == 2 && b.shape.size() == 2, "shared_dot of 2-D buffers");
      // The operands' [M, K] and [K, N] shapes, whichever way the buffers hold them.
      const int64_t m = a.shape[d->transA ? 1 : 0], ka = a.shape[d->transA ? 0 : 1],
                    kb = b.shape[d->transB ? 1 : 0], n = b.shape[d->transB ? 0 : 1];
      TILEC_REQUIRE(ka == kb && a.elemType.elem == b.elemType.elem && t.rank() == 2 &&
                        t.shape[0] == m && t.shape[1] == n && t.layout,
                    "shared_dot of buffers '" + a.name + "' and '" + b.name + "' gives " + t.str());
      TILEC_REQUIRE(!(d->transA || d->transB) || t.layout->kind == Layout::Kind::Mma,
                    "shared_dot with a transposed operand buffer computes an mma layout");
      TILEC_REQUIRE((a.stages > 1 || b.stages > 1) == (d->stage != nullptr) &&
                        (!d->stage || (d->stage->type.isScalar() && isInt(d->stage->type.elem))),
                    "shared_dot of buffers with stages reads one stage (a scalar integer)");
      if (d->stage)
        expr(d->stage);
      TILEC_REQUIRE(!d->inFlight || inFlightDots.count(d),
                    "shared_dot in flight outside `acc = shared_dot(..., acc=acc)` directly in a "
                    "loop's body");
      if (d->acc) {
        expr(d->acc);
        TILEC_REQUIRE(sameShapeAndElem(d->acc->type, t),
                      "shared_dot accumulator " + d->acc->type.str());
        sameLayoutAs(d->acc, t, "shared_dot accumulator");
      }
      return;
    }
    case ExprKind::PairValue: {
      auto *p = as<PairValue>(e);
      expr(p->a);
      TILEC_REQUIRE(p->a->type.argPair && p->a->type.shape == t.shape && !t.argPair &&
                        t.elem == (p->index ? ScalarType::I32 : p->a->type.elem),
                    "pair access of " + p->a->type.str() + " gives " + t.str());
      sameLayoutAs(p->a, t, "pair access");
      return;
    }
    }
  }

  /// The products `f` leaves in flight (SharedDot::inFlight): each the value of `acc = ...`
  /// directly in the loop's body, on wgmma, reading stages of a ring, and the loop's only access to
  /// `acc`.
  void checkInFlight(const For *f) {
    for (auto [a, d] : productsInFlight(*f)) {
      TILEC_REQUIRE(d->stage && canStayInFlight(*f, *a),
                    "shared_dot in flight: not a wgmma product on stages accumulating in fp32 "
                    "into '" + a->var->name + "', which the loop accesses nowhere else");
      inFlightDots.insert(d);
    }
  }

  void checkVec(int vec, const Type &t, const char *what) {
    TILEC_REQUIRE(vec >= 1 && isPow2(vec), std::string(what) + " vec must be a power of two");
    if (!lowered || vec == 1)
      return;
    TILEC_REQUIRE(t.isTile(), std::string(what) + " of a scalar with vec > 1");
    const Layout &l = *t.layout;
    TILEC_REQUIRE(l.kind == Layout::Kind::Blocked && l.sizePerThread[l.order[0]] % vec == 0,
                  std::string(what) + " vec=" + std::to_string(vec) +
                      " does not divide spt[order[0]] of " + l.str());
  }

  // ---- statements and scopes -------------------------------------------------------------------
  bool declared(const VarNode *v) {
    for (auto &s : scopes)
      if (s.count(v))
        return true;
    return false;
  }
  void declare(const Var &v) {
    TILEC_REQUIRE(!everDeclared.count(v.get()), "'" + v->name + "' is declared twice");
    everDeclared.insert(v.get());
    scopes.back().insert(v.get());
    checkType(v->type, "var '" + v->name + "'");
  }

  void scalarCond(const Expr &c, const char *what) {
    expr(c);
    TILEC_REQUIRE(c->type.isScalar() && !c->type.pointer &&
                      (c->type.elem == ScalarType::Bool || isInt(c->type.elem)),
                  std::string(what) + " condition must be a scalar bool or integer, got " +
                      c->type.str());
  }

  void valueFor(const Var &v, const Expr &e) {
    expr(e, true);
    TILEC_REQUIRE(sameShapeAndElem(v->type, e->type) &&
                      (!layoutMode || sameLayout(v->type.layout, e->type.layout)),
                  "value of type " + e->type.str() + " for '" + v->name + "' of type " +
                      v->type.str());
  }

  /// A WarpSpecialize node is the body's last statement, in a kernel with a producer warpgroup.
  void checkWarpSpecialize() {
    int count = 0;
    forEachStmt(k.body, [&](const Stmt &s) { count += s->kind == StmtKind::WarpSpecialize; });
    auto *top = as<Block>(k.body);
    const bool last =
        top && !top->stmts.empty() && top->stmts.back()->kind == StmtKind::WarpSpecialize;
    TILEC_REQUIRE(count == 0 || (count == 1 && last && k.producerThreads > 0),
                  "warp specialization is one node, the body's last statement, in a kernel with "
                  "producer threads");
    TILEC_REQUIRE(count == 1 || k.producerThreads == 0,
                  "producer threads in a kernel without warp specialization");
  }
  /// The producer runs scalar code, TMA copies and stage waits only.
  void producerStmt(const Stmt &s) {
    switch (s->kind) {
    case StmtKind::Block:
    case StmtKind::For:
    case StmtKind::While:
    case StmtKind::If:
      return;
    case StmtKind::Decl:
    case StmtKind::Assign: {
      const Var &v = s->kind == StmtKind::Decl ? as<Decl>(s)->var : as<Assign>(s)->var;
      TILEC_REQUIRE(v->type.isScalar(), "the producer computes scalars only");
      return;
    }
    case StmtKind::AsyncCopy:
      TILEC_REQUIRE(as<AsyncCopy>(s)->tma(), "the producer's copies are TMA's");
      return;
    case StmtKind::StageFree:
      TILEC_REQUIRE(as<StageFree>(s)->wait(), "the producer waits for free stages");
      return;
    default:
      fail("the producer runs scalar code, TMA copies and stage waits only");
    }
  }

  void scoped(const Stmt &s) {
    scopes.emplace_back();
    stmt(s);
    scopes.pop_back();
  }

  void stmt(const Stmt &s) {
    TILEC_REQUIRE(s != nullptr, "null statement");
    Stmt saved = current;
    current = s;
    switch (s->kind) {
    case StmtKind::Block:
      current = saved;
      scopes.emplace_back();
      for (auto &c : as<Block>(s)->stmts)
        stmt(c);
      scopes.pop_back();
      return;
    case StmtKind::Decl: {
      auto *d = as<Decl>(s);
      TILEC_REQUIRE(d->var && d->var->kind == VarKind::Local, "decl of a non-local var");
      if (d->init)
        valueFor(d->var, d->init);
      declare(d->var);
      break;
    }
    case StmtKind::Assign: {
      auto *a = as<Assign>(s);
      TILEC_REQUIRE(a->var && declared(a->var.get()),
                    "assignment to '" + (a->var ? a->var->name : std::string("?")) +
                        "' before its declaration");
      TILEC_REQUIRE(a->var->kind != VarKind::LoopIndex, "assignment to a loop index");
      valueFor(a->var, a->value);
      break;
    }
    case StmtKind::Store: {
      auto *st = as<Store>(s);
      expr(st->ptr);
      expr(st->value);
      const Type &p = st->ptr->type, &v = st->value->type;
      TILEC_REQUIRE(p.pointer, "store through a non-pointer " + p.str());
      TILEC_REQUIRE(v.shape == p.shape && v.elem == p.elem && !v.pointer && !v.argPair,
                    "store of " + v.str() + " through " + p.str());
      TILEC_REQUIRE(!p.constPointee, "store through a pointer to const");
      sameLayoutAs(st->value, p, "store");
      if (st->mask) {
        expr(st->mask);
        TILEC_REQUIRE(st->mask->type.elem == ScalarType::Bool && st->mask->type.shape == p.shape &&
                          !st->mask->type.pointer,
                      "store mask " + st->mask->type.str());
        sameLayoutAs(st->mask, p, "store");
      }
      checkVec(st->vec, p, "store");
      if (st->atomic != AtomicOp::None) {
        TILEC_REQUIRE(st->vec == 1 || (st->atomic == AtomicOp::Add && !st->result &&
                                       (st->value->type.elem == ScalarType::F32 ||
                                        st->value->type.elem == ScalarType::F16 ||
                                        st->value->type.elem == ScalarType::BF16)),
                      "an atomic store has vector width 1, but for an add of float or 16-bit "
                      "float elements whose old values are not kept");
        TILEC_REQUIRE((st->atomic == AtomicOp::Cas) == (st->cmp != nullptr),
                      "only atomic_cas compares");
        if (st->cmp) {
          expr(st->cmp);
          TILEC_REQUIRE(st->cmp->type.shape == p.shape && st->cmp->type.elem == p.elem &&
                            !st->cmp->type.pointer,
                        "atomic_cas comparand " + st->cmp->type.str());
          sameLayoutAs(st->cmp, p, "atomic_cas");
        }
        if (st->result) {
          TILEC_REQUIRE(declared(st->result.get()),
                        "atomic result '" + st->result->name + "' is not declared");
          TILEC_REQUIRE(st->result->type.shape == p.shape && st->result->type.elem == p.elem &&
                            !st->result->type.pointer,
                        "atomic result " + st->result->type.str() + " for " + p.str());
          if (p.isTile() && p.layout) // (after layout assignment)
            TILEC_REQUIRE(st->result->type.layout && *st->result->type.layout == *p.layout,
                          "atomic result '" + st->result->name +
                              "' in another layout than its pointers");
        }
      } else {
        TILEC_REQUIRE(!st->cmp && !st->result, "a plain store has no comparand or result");
      }
      break;
    }
    case StmtKind::For: {
      auto *f = as<For>(s);
      for (const Expr *b : {&f->begin, &f->end, &f->step}) {
        expr(*b);
        TILEC_REQUIRE((*b)->type.isScalar() && isInt((*b)->type.elem) && !(*b)->type.pointer,
                      "for bounds must be scalar integers, got " + (*b)->type.str());
      }
      TILEC_REQUIRE(f->var && f->var->type.isScalar() && isInt(f->var->type.elem),
                    "for variable must be a scalar integer");
      checkInFlight(f);
      scopes.emplace_back();
      declare(f->var);
      scoped(f->body);
      scopes.pop_back();
      break;
    }
    case StmtKind::While:
      scalarCond(as<While>(s)->cond, "while");
      scoped(as<While>(s)->body);
      break;
    case StmtKind::If: {
      auto *i = as<If>(s);
      scalarCond(i->cond, "if");
      scoped(i->thenS);
      if (i->elseS)
        scoped(i->elseS);
      break;
    }
    case StmtKind::Barrier:
      break;
    case StmtKind::Print: {
      auto *pr = as<Print>(s);
      if (pr->value)
        expr(pr->value);
      TILEC_REQUIRE(pr->value ? pr->operand >= 0 && pr->operand < pr->operands : pr->operands == 0,
                    "device_print operand " + std::to_string(pr->operand) + " of " +
                        std::to_string(pr->operands));
      break;
    }
    case StmtKind::Assert: {
      auto *a = as<Assert>(s);
      expr(a->cond);
      TILEC_REQUIRE(a->cond->type.elem == ScalarType::Bool && !a->cond->type.pointer,
                    "device_assert of a " + a->cond->type.str());
      break;
    }
    case StmtKind::SharedWrite: {
      auto *w = as<SharedWrite>(s);
      checkBuffer(w->buffer);
      expr(w->value);
      const SharedBuffer &b = k.buffers[w->buffer];
      const Type &v = w->value->type;
      TILEC_REQUIRE((b.stages > 1) == (w->stage != nullptr) &&
                        (!w->stage || (!w->partials && !w->scanTotals)),
                    "shared_write to buffer '" + b.name + "' of " + std::to_string(b.stages) +
                        (w->stage ? " stage with a stage" : " stages without a stage"));
      if (w->stage) {
        expr(w->stage);
        TILEC_REQUIRE(w->stage->type.isScalar() && isInt(w->stage->type.elem),
                      "shared_write stage must be a scalar int");
      }
      TILEC_REQUIRE(
          (w->count || v.elem == b.elemType.elem) && v.argPair == b.elemType.argPair && !v.pointer,
          "shared_write of " + v.str() + " to buffer '" + b.name + "' of " + b.elemType.str());
      if (w->sort) {
        const int64_t n = v.isTile() ? v.shape.back() : 0;
        TILEC_REQUIRE(!w->partials && !w->scanTotals && !w->count && !w->stage && n > 0 &&
                          (n & (n - 1)) == 0 && b.rowStride == n && !b.swizzle.on(),
                      "shared_write_sort of " + v.str() + " to buffer '" + b.name + "'");
      }
      if (w->count) {
        const bool ok = !w->partials && !w->scanTotals && v.isTile() && isInt(v.elem) &&
                        b.shape.size() == 1 && b.elemType.elem == ScalarType::I32;
        TILEC_REQUIRE(ok, "shared_write_count of " + v.str() + " into buffer '" + b.name + "'");
        if (w->mask) {
          expr(w->mask);
          TILEC_REQUIRE(w->mask->type.shape == v.shape && w->mask->type.elem == ScalarType::Bool,
                        "shared_write_count mask " + w->mask->type.str());
          if (layoutMode)
            sameLayoutAs(w->mask, v, "shared_write_count");
        }
      } else if (w->scanTotals) {
        TILEC_REQUIRE(!w->partials && v.isTile() && w->axis >= 0 && w->axis < v.rank() &&
                          w->srcShape == v.shape && static_cast<int>(b.shape.size()) == v.rank() &&
                          (v.rank() == 1 || b.shape[1] == v.shape[1 - w->axis]),
                      "shared_write_scan_totals of " + v.str() + " to buffer '" + b.name + "'");
        if (layoutMode)
          TILEC_REQUIRE(sameLayout(v.layout, w->srcLayout),
                        "shared_write_scan_totals in another layout than its scan");
      } else if (!w->partials) {
        TILEC_REQUIRE(v.isTile() && v.layout && v.shape == b.shape, "shared_write of " + v.str() +
                                                                        " to buffer '" + b.name +
                                                                        "' of another shape");
      } else {
        TILEC_REQUIRE(w->srcLayout &&
                          static_cast<int>(w->srcShape.size()) == w->srcLayout->rank() &&
                          w->axis >= 0 && w->axis < static_cast<int>(w->srcShape.size()),
                      "shared_write_partials source layout/shape/axis");
        auto red = w->srcShape;
        red.erase(red.begin() + w->axis);
        TILEC_REQUIRE(v.shape == red && b.shape.size() == red.size() + 1 &&
                          std::equal(red.begin(), red.end(), b.shape.begin() + 1),
                      "shared_write_partials of " + v.str() + " to buffer '" + b.name + "'");
        if (layoutMode && v.isTile())
          TILEC_REQUIRE(sameLayout(v.layout, Layout::slice(w->srcLayout, w->axis)),
                        "shared_write_partials partial is not in the slice of its source layout");
      }
      break;
    }
    case StmtKind::AsyncCopy: {
      auto *c = as<AsyncCopy>(s);
      checkBuffer(c->buffer);
      expr(c->stage);
      if (c->tma()) {
        expr(c->row);
        expr(c->col);
        const SharedBuffer &b = k.buffers[c->buffer];
        auto scalarInt = [](const Expr &e) {
          return e && e->type.isScalar() && isInt(e->type.elem);
        };
        TILEC_REQUIRE(b.tma && !c->ptr && !c->mask,
                      "tma_copy into buffer '" + b.name +
                          "', which has no tensor (SharedBuffer::tma)");
        TILEC_REQUIRE(scalarInt(c->stage) && scalarInt(c->row) && scalarInt(c->col),
                      "tma_copy stage, row and column must be scalar integers");
        TILEC_REQUIRE(b.tma->ring >= 0 && b.tma->ring < static_cast<int>(k.buffers.size()) &&
                          k.buffers[b.tma->ring].tma && k.buffers[b.tma->ring].stages == b.stages,
                      "tma_copy into buffer '" + b.name + "' of no ring");
        break;
      }
      expr(c->ptr);
      if (c->mask)
        expr(c->mask);
      const SharedBuffer &b = k.buffers[c->buffer];
      const Type &p = c->ptr->type;
      TILEC_REQUIRE(c->stage->type.isScalar() && isInt(c->stage->type.elem),
                    "async_copy stage must be a scalar integer");
      TILEC_REQUIRE(p.isTile() && p.pointer && p.elem == b.elemType.elem && p.shape == b.shape &&
                        p.layout && p.layout->kind == Layout::Kind::Blocked,
                    "async_copy from " + p.str() + " to buffer '" + b.name + "' of " +
                        b.elemType.str());
      const int64_t bytes = c->vec * byteSize(p.elem);
      TILEC_REQUIRE((bytes == 4 || bytes == 8 || bytes == 16) &&
                        p.layout->order[0] == p.rank() - 1 &&
                        p.layout->sizePerThread.back() % c->vec == 0 &&
                        b.rowStride * byteSize(p.elem) % bytes == 0 &&
                        (!b.swizzle.on() || b.swizzle.vec % c->vec == 0),
                    "async_copy copies 4-, 8- or 16-byte vectors along rows aligned to them, "
                    "within a swizzled chunk");
      if (c->mask)
        TILEC_REQUIRE(c->mask->type.elem == ScalarType::Bool && c->mask->type.shape == p.shape,
                      "async_copy mask " + c->mask->type.str());
      break;
    }
    case StmtKind::AsyncCommit: break;
    case StmtKind::AsyncWait: {
      auto *w = as<AsyncWait>(s);
      if (w->tma()) {
        expr(w->stage);
        expr(w->phase);
        checkBuffer(w->ring);
        TILEC_REQUIRE(k.buffers[w->ring].tma && k.buffers[w->ring].tma->ring == w->ring,
                      "tma_wait on a ring that is not one");
        TILEC_REQUIRE(w->stage->type.isScalar() && isInt(w->stage->type.elem) &&
                          w->phase->type.isScalar() && isInt(w->phase->type.elem),
                      "tma_wait stage and parity must be scalar integers");
        break;
      }
      expr(w->pending);
      TILEC_REQUIRE(w->pending->type.isScalar(), "async_wait count must be a scalar");
      break;
    }
    case StmtKind::StageFree: {
      auto *f = as<StageFree>(s);
      expr(f->stage);
      TILEC_REQUIRE(f->stage->type.isScalar() && isInt(f->stage->type.elem),
                    "stage_free's stage must be a scalar integer");
      if (f->wait()) {
        expr(f->phase);
        TILEC_REQUIRE(f->phase->type.isScalar() && isInt(f->phase->type.elem),
                      "stage_free_wait's parity must be a scalar integer");
      }
      checkBuffer(f->ring);
      TILEC_REQUIRE(k.buffers[f->ring].tma && k.buffers[f->ring].tma->ring == f->ring,
                    "stage_free on a ring that is not one");
      TILEC_REQUIRE(role == (f->wait() ? Role::Producer : Role::Consumers),
                    "stage_free in the consumers, stage_free_wait in the producer");
      break;
    }
    case StmtKind::WarpSpecialize: {
      auto *ws = as<WarpSpecialize>(s);
      TILEC_REQUIRE(role == Role::None, "warp specialization inside warp specialization");
      role = Role::Producer;
      forEachStmt(ws->producer, [&](const Stmt &c) {
        current = c;
        producerStmt(c);
      });
      current = s;
      scoped(ws->producer);
      role = Role::Consumers;
      forEachStmt(ws->consumers, [&](const Stmt &c) {
        current = c;
        TILEC_REQUIRE(!(c->kind == StmtKind::AsyncCopy && as<AsyncCopy>(c)->tma()),
                      "TMA copies in the consumers of a warp-specialized kernel");
      });
      current = s;
      scoped(ws->consumers);
      role = Role::None;
      break;
    }
    }
    current = saved;
  }

  // ---- allocation and barriers (lowered only) ---------------------------------------------------
  void checkAllocation() {
    current = nullptr;
    auto lt = sharedBufferLifetimes(k);
    int64_t total = 0;
    for (size_t i = 0; i < k.buffers.size(); ++i) {
      auto &b = k.buffers[i];
      int64_t rows = 1;
      for (size_t d = 0; d + 1 < b.shape.size(); ++d)
        rows *= b.shape[d];
      TILEC_REQUIRE(b.offsetBytes >= 0, "shared buffer '" + b.name + "' has no offset");
      TILEC_REQUIRE(b.stages >= 1 &&
                        b.sizeBytes >= b.stages * rows * b.rowStride * byteSize(b.elemType.elem),
                    "shared buffer '" + b.name + "' is smaller than its shape");
      total = std::max(total, b.offsetBytes + b.sizeBytes);
      for (size_t j = 0; j < i; ++j) {
        auto &c = k.buffers[j];
        bool bytes = b.offsetBytes < c.offsetBytes + c.sizeBytes &&
                     c.offsetBytes < b.offsetBytes + b.sizeBytes;
        TILEC_REQUIRE(!(bytes && lt[i].overlaps(lt[j])), "shared buffers '" + c.name + "' and '" +
                                                             b.name +
                                                             "' are live together but share bytes");
      }
    }
    TILEC_REQUIRE(k.sharedBytes >= total, "Kernel::sharedBytes is below the buffers' extent");
  }

  /// `async`: an AsyncCopy's write, in flight until an AsyncWait (pipeline-dots reads other
  /// stages of the buffer meanwhile, which the emulator checks; a barrier does not land it).
  /// `stage`: the stage of a two-stage buffer, relative to a variable (ir::StageRef): accesses of
  /// the stages `v` and `1 - v` do not meet while `v` keeps its value.
  struct Access {
    int64_t lo, hi;
    bool write;
    bool async = false;
    StageRef stage;
    bool operator<(const Access &o) const {
      return std::tie(lo, hi, write, async, stage.var, stage.other) <
             std::tie(o.lo, o.hi, o.write, o.async, o.stage.var, o.stage.other);
    }
  };
  /// The shared-memory accesses since the last barrier on some path to the current statement.
  using Pending = std::set<Access>;

  std::pair<int64_t, int64_t> range(int buf) {
    auto &b = k.buffers[buf];
    return {b.offsetBytes, b.offsetBytes + b.sizeBytes};
  }
  void access(Pending &p, int buf, bool write, bool async = false, StageRef stage = {}) {
    auto [lo, hi] = range(buf);
    for (auto &a : p) {
      const bool otherStage =
          a.stage.var && a.stage.var == stage.var && a.stage.other != stage.other;
      if (!a.async && !otherStage && a.lo < hi && lo < a.hi && (write || a.write))
        fail(std::string(write ? (a.write ? "write-after-write" : "write-after-read")
                               : "read-after-write") +
             " hazard on shared buffer '" + k.buffers[buf].name + "' without a barrier");
    }
    p.insert({lo, hi, write, async, stage});
  }
  /// `v` takes a new value: the pending accesses of stages named after it name some stage.
  static void changes(Pending &p, const VarNode *v) {
    Pending out;
    for (Access a : p) {
      if (a.stage.var == v)
        a.stage = {};
      out.insert(a);
    }
    p = std::move(out);
  }
  /// After a wait, the copies in flight have landed: plain writes (kept across barriers until then).
  static Pending landed(const Pending &p) {
    Pending out;
    for (Access a : p) {
      a.async = false;
      out.insert(a);
    }
    return out;
  }
  /// After a TMA wait: the copies in flight have landed for every thread (each waits).
  static Pending completed(const Pending &p) {
    Pending out;
    for (const Access &a : p)
      if (!a.async)
        out.insert(a);
    return out;
  }
  static Pending inFlight(const Pending &p) {
    Pending out;
    for (const Access &a : p)
      if (a.async)
        out.insert(a);
    return out;
  }
  void reads(Pending &p, const Expr &e) {
    if (!e)
      return;
    std::vector<std::pair<int, StageRef>> bufs;
    forEachExpr(Decl::make(std::make_shared<VarNode>(), e), [&](const ExprNode *n) {
      for (int b : sharedBuffersRead(*n))
        bufs.emplace_back(b, stageRead(*n));
    });
    for (auto [b, stage] : bufs)
      access(p, b, false, false, stage);
  }
  static void merge(Pending &into, const Pending &from) { into.insert(from.begin(), from.end()); }
  /// Whether `s` reads or writes shared memory or holds a barrier: the statements that hazards()
  /// must look into. Memoized per node, so the walk over a loop nest stays linear.
  bool touchesShared(const Stmt &s) {
    if (!s)
      return false;
    if (auto it = touches.find(s.get()); it != touches.end())
      return it->second;
    bool r = false;
    switch (s->kind) {
    case StmtKind::Block:
      for (auto &c : as<Block>(s)->stmts)
        r = touchesShared(c) || r;
      break;
    case StmtKind::If: r = touchesShared(as<If>(s)->thenS) | touchesShared(as<If>(s)->elseS); break;
    case StmtKind::For: r = touchesShared(as<For>(s)->body); break;
    case StmtKind::While: r = touchesShared(as<While>(s)->body); break;
    case StmtKind::Barrier:
    case StmtKind::SharedWrite:
    case StmtKind::AsyncCopy:
    case StmtKind::AsyncWait: r = true; break;
    case StmtKind::AsyncCommit: break;
    case StmtKind::StageFree:
      break;
    case StmtKind::WarpSpecialize:
      r = touchesShared(as<WarpSpecialize>(s)->consumers);
      break;
    case StmtKind::Decl:
    case StmtKind::Assign:
    case StmtKind::Store:
    case StmtKind::Assert:
    case StmtKind::Print:
      forEachExpr(s, [&](const ExprNode *n) { r = r || !sharedBuffersRead(*n).empty(); });
      break;
    }
    // A new value of a variable that names stages changes what the pending accesses name.
    if (auto d = as<Decl>(s); d && stageVars().count(d->var.get()))
      r = true;
    if (auto a = as<Assign>(s); a && stageVars().count(a->var.get()))
      r = true;
    touches.emplace(s.get(), r);
    return r;
  }
  /// The accesses pending after `s` when `p` is pending before it; reports a hazard on the way.
  /// A loop's body is walked for its first iteration and again for a later one, which sees the
  /// first one's accesses; a body in a nest of loops would be walked 2^depth times, so each loop's
  /// result is memoized by its entry state, and statements without shared memory are skipped.
  Pending hazards(const Stmt &s, Pending p) {
    if (!s || !touchesShared(s))
      return p;
    current = s;
    switch (s->kind) {
    case StmtKind::Block:
      for (auto &c : as<Block>(s)->stmts)
        p = hazards(c, std::move(p));
      return p;
    case StmtKind::Decl:
      reads(p, as<Decl>(s)->init);
      changes(p, as<Decl>(s)->var.get());
      return p;
    case StmtKind::Assign:
      reads(p, as<Assign>(s)->value);
      changes(p, as<Assign>(s)->var.get());
      return p;
    case StmtKind::Store:
      reads(p, as<Store>(s)->ptr);
      reads(p, as<Store>(s)->value);
      reads(p, as<Store>(s)->mask);
      return p;
    case StmtKind::Assert:
      reads(p, as<Assert>(s)->cond);
      return p;
    case StmtKind::Print:
      reads(p, as<Print>(s)->value);
      return p;
    case StmtKind::Barrier: return inFlight(p);
    case StmtKind::AsyncWait:
      return as<AsyncWait>(s)->tma() ? completed(p) : landed(p);
    case StmtKind::AsyncCommit: return p;
    case StmtKind::StageFree:
      return p;
    // The consumers' barriers among themselves; the producer's copies are ordered against their
    // reads by the ring's mbarriers (the emulator checks the handshake), not by barriers.
    case StmtKind::WarpSpecialize:
      return hazards(as<WarpSpecialize>(s)->consumers, std::move(p));
    case StmtKind::AsyncCopy:
      reads(p, as<AsyncCopy>(s)->ptr);
      reads(p, as<AsyncCopy>(s)->mask);
      current = s;
      access(p, as<AsyncCopy>(s)->buffer, true, true);
      return p;
    case StmtKind::SharedWrite:
      reads(p, as<SharedWrite>(s)->value);
      current = s;
      access(p, as<SharedWrite>(s)->buffer, true, false, stageRef(as<SharedWrite>(s)->stage));
      return p;
    case StmtKind::If: {
      Pending t = hazards(as<If>(s)->thenS, p);
      Pending e = hazards(as<If>(s)->elseS, p);
      merge(t, e);
      return t;
    }
    case StmtKind::For:
    case StmtKind::While: {
      auto key = std::make_pair(s.get(), p);
      if (auto it = loopResults.find(key); it != loopResults.end())
        return it->second;
      const Stmt &body = s->kind == StmtKind::For ? as<For>(s)->body : as<While>(s)->body;
      Pending once = hazards(body, p); // the first iteration
      merge(once, p);
      Pending twice = hazards(body, once); // a later iteration sees the previous one
      merge(twice, p);                     // zero iterations
      // A product the loop leaves in flight reads its stages until the wgmma_wait after the loop.
      if (s->kind == StmtKind::For) {
        current = s;
        for (const auto &[assign, dot] : productsInFlight(*as<For>(s)))
          for (int b : {dot->bufferA, dot->bufferB})
            access(twice, b, false, false);
      }
      loopResults.emplace(std::move(key), twice);
      return twice;
    }
    }
    return p;
  }
  void checkBarriers() { hazards(k.body, {}); }

  const Kernel &k;
  bool lowered;
  bool layoutMode = false;
  Stmt current;
  std::map<const StmtNode *, bool> touches;
  /// The variables stages are named after (ir::StageRef), found once.
  const std::set<const VarNode *> &stageVars() {
    struct Finder : IRVisitor {
      std::set<const VarNode *> vars;
      using IRVisitor::visit;
      void visit(const SharedWrite *n) override {
        if (const VarNode *v = stageRef(n->stage).var)
          vars.insert(v);
        IRVisitor::visit(n);
      }
      void visit(const SharedDot *n) override {
        if (const VarNode *v = stageRef(n->stage).var)
          vars.insert(v);
        IRVisitor::visit(n);
      }
    };
    if (!stageVars_) {
      Finder f;
      f.visit(k.body);
      stageVars_ = std::move(f.vars);
    }
    return *stageVars_;
  }
  std::optional<std::set<const VarNode *>> stageVars_;
  std::map<std::pair<const StmtNode *, Pending>, Pending> loopResults;
  std::vector<std::set<const VarNode *>> scopes;
  std::set<const VarNode *> everDeclared;
  std::set<const SharedDot *> inFlightDots; // checked by checkInFlight
  enum class Role { None, Producer, Consumers } role = Role::None; // inside WarpSpecialize
};

bool verifyImpl(const Module &m, std::string *why, bool lowered) {
  for (auto &k : m.kernels) {
    try {
      KernelVerifier(k, lowered).run();
    } catch (const VerifyError &e) {
      if (why)
        *why = e.msg;
      return false;
    }
  }
  return true;
}

} // namespace

bool verify(const Module &m, std::string *why) { return verifyImpl(m, why, false); }
bool verifyLowered(const Module &m, std::string *why) { return verifyImpl(m, why, true); }

#undef TILEC_REQUIRE

} // namespace tilec::ir
