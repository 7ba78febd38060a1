#pragma once
/// \file Helpers shared by the lowering passes of the back half (lower-reductions,
/// lower-layout-conversions): hoisting a kind of expression node to its own `Decl` so that it can be
/// lowered to a statement sequence, and the lane/warp arithmetic of blocked layouts
/// (docs/internals.md, "Layouts").

#include "ir/IR.h"
#include "ir/IRVisitor.h"

#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace tilec::passes::lowering {

[[noreturn]] inline void internalError(const std::string &what) {
  throw std::logic_error("internal error: " + what);
}

/// How one tile dimension of a (possibly sliced) layout maps onto its blocked root layout.
struct RootView {
  const ir::Layout *root = nullptr;
  std::vector<int64_t> rootShape; ///< the tile shape with every sliced dim re-inserted as size 1
  std::vector<int> rootDim;       ///< tile dim -> root dim
};

inline RootView rootView(const ir::Layout &l, const std::vector<int64_t> &shape) {
  if (l.kind != ir::Layout::Kind::Slice) {
    RootView v{&l, shape, {}};
    for (size_t d = 0; d < shape.size(); ++d)
      v.rootDim.push_back(static_cast<int>(d));
    return v;
  }
  std::vector<int64_t> parentShape = shape;
  parentShape.insert(parentShape.begin() + l.sliceDim, 1);
  RootView pv = rootView(*l.parent, parentShape);
  RootView v{pv.root, pv.rootShape, {}};
  for (int d = 0; d < static_cast<int>(shape.size()); ++d)
    v.rootDim.push_back(pv.rootDim[d < l.sliceDim ? d : d + 1]);
  return v;
}

inline int log2Exact(int64_t v) {
  int r = 0;
  while ((int64_t(1) << r) < v)
    ++r;
  return r;
}

/// Which lanes and warps of a layout hold distinct data along one tile dimension.
struct AxisDistribution {
  std::vector<int> laneMasks; ///< lane bits of the dim holding distinct data, highest first
  int numParts = 1;           ///< warps along the dim holding distinct data
  int rootAxis = 0;
};

/// Along root dim d of shape S, the distinct thread positions are `D = ceil(S[d] / spt[d])`
/// (coordinates repeat modulo S[d]: replication). Lanes of dim d occupy lane bits starting at the
/// product of tpw over the dims before d in `order`; the low log2(min(tpw[d], D)) of them hold
/// distinct data. Warps along d hold distinct data for the first min(wpb[d], ceil(D / tpw[d])).
inline AxisDistribution axisDistribution(const ir::Layout &l, const std::vector<int64_t> &shape,
                                         int axis) {
  RootView v = rootView(l, shape);
  const ir::Layout &r = *v.root;
  int d = v.rootDim.at(axis);
  AxisDistribution out;
  out.rootAxis = d;
  int64_t laneStride = 1;
  for (int o : r.order) {
    if (o == d)
      break;
    laneStride *= r.threadsPerWarp[o];
  }
  int64_t spt = r.sizePerThread[d], tpw = r.threadsPerWarp[d], wpb = r.warpsPerBlock[d];
  int64_t distinct = (v.rootShape[d] + spt - 1) / spt;
  int bits = log2Exact(std::min(tpw, distinct));
  for (int j = bits - 1; j >= 0; --j)
    out.laneMasks.push_back(static_cast<int>(laneStride << j));
  out.numParts = static_cast<int>(std::min(wpb, std::max<int64_t>(1, (distinct + tpw - 1) / tpw)));
  return out;
}

/// Bytes of one element of a shared buffer. argPair: `struct { T value; int32 index; }` with C
/// layout rules (value first, aligned to max(sizeof(T), 4)).
inline int64_t sharedElemBytes(const ir::Type &t) {
  int64_t b = ir::byteSize(t.elem);
  if (!t.argPair)
    return b;
  int64_t align = std::max<int64_t>(b, 4);
  int64_t size = (b + 3) / 4 * 4 + 4;
  return (size + align - 1) / align * align;
}

/// Size in bytes of a buffer: every dim but the last times rowStride, times the element size.
inline int64_t bufferBytes(const ir::SharedBuffer &b) {
  int64_t rows = 1;
  for (size_t d = 0; d + 1 < b.shape.size(); ++d)
    rows *= b.shape[d];
  return b.stages * rows * b.rowStride * sharedElemBytes(b.elemType);
}

/// Appends to the kernel's buffers one named `name` of `shape` holding the scalars of `elem`, rows
/// `shape.back()` elements apart (unpadded); returns its index.
inline int addBuffer(ir::Kernel &k, std::string name, const ir::Type &elem,
                     std::vector<int64_t> shape) {
  ir::SharedBuffer b;
  b.name = std::move(name);
  b.elemType = elem.scalarOf();
  b.elemType.layout = nullptr;
  b.shape = std::move(shape);
  b.rowStride = b.shape.back();
  b.sizeBytes = bufferBytes(b);
  k.buffers.push_back(b);
  return static_cast<int>(k.buffers.size()) - 1;
}

/// The XOR swizzle of 16-byte chunks for a buffer whose rows hold `rowElems` elements of
/// `elemBytes` bytes (ir::SharedSwizzle): the rows of one phase fill a 128-byte line (perPhase =
/// 8 / chunks per row, at least 1) and eight consecutive phases, or as many as a row has chunks,
/// permute them. Rows of fewer than two chunks are left unswizzled (vec 0).
inline ir::SharedSwizzle chunkSwizzle(int64_t rowElems, int elemBytes) {
  ir::SharedSwizzle z;
  if (elemBytes <= 0 || 16 % elemBytes != 0 || rowElems * elemBytes % 16 != 0)
    return z;
  const int64_t chunks = rowElems * elemBytes / 16;
  if (chunks < 2)
    return z;
  z.vec = 16 / elemBytes;
  z.perPhase = static_cast<int>(std::max<int64_t>(1, 8 / chunks));
  z.maxPhase = static_cast<int>(std::min<int64_t>(8, chunks));
  return z;
}

/// Rewrites every statement so that each node `isTarget` accepts ends up as the whole init of a
/// `Decl` or value of an `Assign`, then asks `lower` to replace that statement by a sequence.
/// Nested targets are hoisted innermost first into new Decls (named `<base>_<suffix>`) placed just
/// before the statement; for a `While` condition the hoisted Decls go before the loop and are
/// re-assigned at the end of the body.
class HoistingRewriter {
public:
  using IsTarget = std::function<bool(const ir::Expr &)>;
  /// Lower `dest = node` (node a target whose operands hold no targets); `isDecl` when the
  /// statement declares dest. Append the replacement statements to `out`.
  using Lower = std::function<void(const ir::Expr &node, const ir::Var &dest, bool isDecl,
                                   ir::SourceLoc loc, std::vector<ir::Stmt> &out)>;
  using Suffix = std::function<std::string(const ir::Expr &)>;

  HoistingRewriter(ir::Kernel &k, IsTarget isTarget, Lower lower, Suffix suffix)
      : k(k), isTarget(std::move(isTarget)), lower(std::move(lower)), suffix(std::move(suffix)) {}

  ir::Stmt rewriteBody(const ir::Stmt &s) {
    std::vector<ir::Stmt> out;
    rewrite(s, out);
    if (out.size() == 1)
      return out[0];
    return ir::Block::make(std::move(out), s ? s->loc : ir::SourceLoc{});
  }

private:
  // Replaces nested targets (post-order) by VarRefs of new Decls appended to `hoisted`.
  class Extractor : public ir::IRMutator {
  public:
    Extractor(HoistingRewriter &h, const std::string &base, std::vector<ir::Stmt> &hoisted)
        : h(h), base(base), hoisted(hoisted) {}
    using ir::IRMutator::mutate;
    /// Mutate the children of a top-level target only (it stays where it is).
    ir::Expr mutateTop(const ir::Expr &e) {
      if (!e)
        return e;
      top = e.get();
      return mutate(e);
    }

  protected:
#define TILEC_EXPR(N)                                                                              \
  ir::Expr mutate(const ir::N *n, const ir::Expr &self) override {                                 \
    bool isTop = n == top;                                                                         \
    ir::Expr r = ir::IRMutator::mutate(n, self);                                                   \
    return isTop ? r : hoist(r);                                                                   \
  }
#include "ir/Nodes.def"

  private:
    ir::Expr hoist(const ir::Expr &e) {
      if (!h.isTarget(e))
        return e;
      ir::Var v = h.k.newVar(base + "_" + h.suffix(e), e->type, ir::VarKind::Local, e->loc);
      hoisted.push_back(ir::Decl::make(v, e, e->loc));
      return ir::VarRef::make(v, e->loc);
    }
    HoistingRewriter &h;
    std::string base;
    std::vector<ir::Stmt> &hoisted;
    const ir::ExprNode *top = nullptr;
  };

  // Expressions of a statement with targets hoisted into `pre` (already lowered).
  ir::Expr extract(const ir::Expr &e, const std::string &base, std::vector<ir::Stmt> &pre,
                   bool keepTop) {
    if (!e)
      return e;
    std::vector<ir::Stmt> hoisted;
    Extractor x(*this, base, hoisted);
    ir::Expr r = keepTop && isTarget(e) ? x.mutateTop(e) : x.mutate(e);
    for (auto &d : hoisted)
      emitAssignLike(d, pre);
    return r;
  }

  // A Decl/Assign whose init is free of nested targets: lower it if its init is a target.
  void emitAssignLike(const ir::Stmt &s, std::vector<ir::Stmt> &out) {
    if (auto *d = ir::as<ir::Decl>(s)) {
      if (d->init && isTarget(d->init))
        return lower(d->init, d->var, true, s->loc, out);
    } else if (auto *a = ir::as<ir::Assign>(s)) {
      if (isTarget(a->value))
        return lower(a->value, a->var, false, s->loc, out);
    }
    out.push_back(s);
  }

  void rewrite(const ir::Stmt &s, std::vector<ir::Stmt> &out) {
    using namespace ir;
    if (!s)
      return;
    switch (s->kind) {
    case StmtKind::Block: {
      std::vector<Stmt> stmts;
      for (auto &c : as<Block>(s)->stmts)
        rewrite(c, stmts);
      out.push_back(Block::make(std::move(stmts), s->loc));
      return;
    }
    case StmtKind::Decl: {
      auto *d = as<Decl>(s);
      Expr init = extract(d->init, d->var->name, out, true);
      emitAssignLike(init == d->init ? s : Decl::make(d->var, init, s->loc), out);
      return;
    }
    case StmtKind::Assign: {
      auto *a = as<Assign>(s);
      Expr v = extract(a->value, a->var->name, out, true);
      emitAssignLike(v == a->value ? s : Assign::make(a->var, v, s->loc), out);
      return;
    }
    case StmtKind::Store: {
      auto *st = as<Store>(s);
      Expr p = extract(st->ptr, "store", out, false), v = extract(st->value, "store", out, false),
           m = extract(st->mask, "store", out, false), q = extract(st->cmp, "store", out, false);
      if (p == st->ptr && v == st->value && m == st->mask && q == st->cmp)
        return out.push_back(s);
      auto c = std::make_shared<Store>(*st);
      c->ptr = p;
      c->value = v;
      c->mask = m;
      c->cmp = q;
      out.push_back(c);
      return;
    }
    case StmtKind::Assert: {
      auto *a = as<Assert>(s);
      Expr cond = extract(a->cond, "cond", out, false);
      if (cond == a->cond)
        return out.push_back(s);
      auto c = std::make_shared<Assert>(*a);
      c->cond = cond;
      out.push_back(c);
      return;
    }
    case StmtKind::Print: {
      auto *p = as<Print>(s);
      Expr v = extract(p->value, "print", out, false);
      if (v == p->value)
        return out.push_back(s);
      auto c = std::make_shared<Print>(*p);
      c->value = v;
      out.push_back(c);
      return;
    }
    case StmtKind::SharedWrite: {
      auto *w = as<SharedWrite>(s);
      Expr v = extract(w->value, "shared", out, false);
      if (v == w->value)
        return out.push_back(s);
      auto c = std::make_shared<SharedWrite>(*w);
      c->value = v;
      out.push_back(c);
      return;
    }
    case StmtKind::For: {
      auto *f = as<For>(s);
      std::string base = f->var->name;
      Expr b = extract(f->begin, base + "_begin", out, false),
           e = extract(f->end, base + "_end", out, false),
           st = extract(f->step, base + "_step", out, false);
      Stmt body = rewriteBody(f->body);
      auto c = std::make_shared<For>(*f);
      c->begin = b;
      c->end = e;
      c->step = st;
      c->body = body;
      out.push_back(c);
      return;
    }
    case StmtKind::If: {
      auto *i = as<If>(s);
      Expr cond = extract(i->cond, "cond", out, false);
      auto c = std::make_shared<If>(*i);
      c->cond = cond;
      c->thenS = rewriteBody(i->thenS);
      c->elseS = i->elseS ? rewriteBody(i->elseS) : nullptr;
      out.push_back(c);
      return;
    }
    case StmtKind::While: {
      auto *w = as<While>(s);
      std::vector<Stmt> hoisted;
      Extractor x(*this, "cond", hoisted);
      Expr cond = x.mutate(w->cond);
      std::vector<Stmt> again; // the hoisted values, recomputed at the end of each iteration
      for (auto &h : hoisted) {
        auto *d = as<Decl>(h);
        emitAssignLike(h, out);
        emitAssignLike(Assign::make(d->var, d->init, h->loc), again);
      }
      Stmt body = rewriteBody(w->body);
      if (!again.empty()) {
        std::vector<Stmt> stmts;
        if (auto *blk = as<Block>(body))
          stmts = blk->stmts;
        else
          stmts.push_back(body);
        stmts.insert(stmts.end(), again.begin(), again.end());
        body = Block::make(std::move(stmts), w->body->loc);
      }
      auto c = std::make_shared<While>(*w);
      c->cond = cond;
      c->body = body;
      out.push_back(c);
      return;
    }
    case StmtKind::WarpSpecialize: {
      auto c = std::make_shared<WarpSpecialize>(*as<WarpSpecialize>(s));
      c->producer = rewriteBody(c->producer);
      c->consumers = rewriteBody(c->consumers);
      out.push_back(c);
      return;
    }
    case StmtKind::Barrier:
    case StmtKind::AsyncCopy:
    case StmtKind::AsyncCommit:
    case StmtKind::AsyncWait:
    case StmtKind::StageFree:
      out.push_back(s);
      return;
    }
  }

  ir::Kernel &k;
  IsTarget isTarget;
  Lower lower;
  Suffix suffix;
};

} // namespace tilec::passes::lowering
