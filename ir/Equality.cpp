#include "ir/Equality.h"

#include <cmath>

namespace tilec::ir {

bool equalTypes(const Type &a, const Type &b) {
  return a.elem == b.elem && a.pointer == b.pointer && a.constPointee == b.constPointee &&
         a.argPair == b.argPair && a.shape == b.shape && sameLayout(a.layout, b.layout);
}

namespace {

bool equalExprs(const std::vector<Expr> &a, const std::vector<Expr> &b) {
  if (a.size() != b.size())
    return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (!equal(a[i], b[i]))
      return false;
  return true;
}

// Fields and children of two nodes of the same kind `N`.
bool same(const IntImm *a, const IntImm *b) { return a->value == b->value; }
bool same(const FloatImm *a, const FloatImm *b) {
  // Bitwise identity of the value: 0.0 and -0.0 differ, NaN equals NaN.
  return a->value == b->value ? std::signbit(a->value) == std::signbit(b->value)
                              : (a->value != a->value && b->value != b->value);
}
bool same(const VarRef *a, const VarRef *b) { return a->var == b->var; }
bool same(const Unary *a, const Unary *b) { return a->op == b->op && equal(a->a, b->a); }
bool same(const Binary *a, const Binary *b) {
  return a->op == b->op && equal(a->a, b->a) && equal(a->b, b->b);
}
bool same(const Math *a, const Math *b) {
  return a->op == b->op && a->asmFn == b->asmFn && !a->asmEffects && !b->asmEffects &&
         equalExprs(a->args, b->args);
}
bool same(const Select *a, const Select *b) {
  return equal(a->cond, b->cond) && equal(a->a, b->a) && equal(a->b, b->b);
}
bool same(const Cast *a, const Cast *b) { return a->mode == b->mode && equal(a->a, b->a); }
bool same(const ProgramId *a, const ProgramId *b) {
  return a->axis == b->axis && a->count == b->count;
}
bool same(const Arange *a, const Arange *b) { return a->start == b->start && a->end == b->end; }
bool same(const Splat *a, const Splat *b) { return equal(a->a, b->a); }
bool same(const ExpandDims *a, const ExpandDims *b) {
  return a->axis == b->axis && equal(a->a, b->a);
}
bool same(const Broadcast *a, const Broadcast *b) { return equal(a->a, b->a); }
bool same(const Trans *a, const Trans *b) { return a->perm == b->perm && equal(a->a, b->a); }
bool same(const Load *a, const Load *b) {
  return a->vec == b->vec && a->aligned == b->aligned && a->maskAtLast == b->maskAtLast &&
         a->maskAllOrNone == b->maskAllOrNone && a->hints == b->hints && equal(a->ptr, b->ptr) &&
         equal(a->mask, b->mask) && equal(a->other, b->other);
}
bool same(const Reduce *a, const Reduce *b) {
  return a->op == b->op && a->axis == b->axis && a->combineFn == b->combineFn && equal(a->a, b->a);
}
bool same(const Scan *a, const Scan *b) {
  return a->op == b->op && a->axis == b->axis && a->reverse == b->reverse && a->part == b->part &&
         a->buffer == b->buffer && a->combineFn == b->combineFn && equal(a->a, b->a);
}
bool same(const Dot *a, const Dot *b) {
  return a->precision == b->precision && equal(a->a, b->a) && equal(a->b, b->b) &&
         equal(a->acc, b->acc);
}
bool same(const Hint *a, const Hint *b) {
  return a->hint == b->hint && a->values == b->values && equal(a->a, b->a);
}
bool same(const ConvertLayout *a, const ConvertLayout *b) { return equal(a->a, b->a); }
bool same(const ThreadReduce *a, const ThreadReduce *b) {
  return a->op == b->op && a->axis == b->axis && a->combineFn == b->combineFn && equal(a->a, b->a);
}
bool same(const WarpReduce *a, const WarpReduce *b) {
  return a->op == b->op && a->laneMasks == b->laneMasks && a->warpSize == b->warpSize &&
         a->combineFn == b->combineFn && equal(a->a, b->a);
}
bool same(const SharedRead *a, const SharedRead *b) {
  return a->buffer == b->buffer && a->combine == b->combine && a->op == b->op &&
         a->numParts == b->numParts && a->combineFn == b->combineFn &&
         a->gatherAxis == b->gatherAxis && a->reshape == b->reshape && a->bufferB == b->bufferB &&
         a->prefix == b->prefix && equal(a->index, b->index);
}
bool same(const Sort *a, const Sort *b) {
  return a->descending == b->descending && equal(a->a, b->a);
}
bool same(const Reshape *a, const Reshape *b) {
  return a->how == b->how && equal(a->a, b->a) && equal(a->b, b->b);
}
bool same(const Histogram *a, const Histogram *b) {
  return a->numBins == b->numBins && equal(a->a, b->a) && equal(a->mask, b->mask);
}
bool same(const Gather *a, const Gather *b) {
  return a->axis == b->axis && equal(a->src, b->src) && equal(a->index, b->index);
}
bool same(const SharedDot *a, const SharedDot *b) {
  return a->bufferA == b->bufferA && a->bufferB == b->bufferB && a->precision == b->precision &&
         a->transA == b->transA && a->transB == b->transB && a->inFlight == b->inFlight &&
         equal(a->acc, b->acc) && equal(a->stage, b->stage);
}
bool same(const PairValue *a, const PairValue *b) {
  return a->index == b->index && equal(a->a, b->a);
}

bool same(const Block *a, const Block *b) {
  if (a->stmts.size() != b->stmts.size())
    return false;
  for (size_t i = 0; i < a->stmts.size(); ++i)
    if (!equal(a->stmts[i], b->stmts[i]))
      return false;
  return true;
}
bool same(const Decl *a, const Decl *b) { return a->var == b->var && equal(a->init, b->init); }
bool same(const Assign *a, const Assign *b) {
  return a->var == b->var && equal(a->value, b->value);
}
bool same(const Store *a, const Store *b) {
  return a->vec == b->vec && a->aligned == b->aligned && a->maskAtLast == b->maskAtLast &&
         a->maskAllOrNone == b->maskAllOrNone && equal(a->ptr, b->ptr) &&
         equal(a->value, b->value) && equal(a->mask, b->mask) && a->atomic == b->atomic &&
         equal(a->cmp, b->cmp) && a->result == b->result && a->sem == b->sem &&
         a->scope == b->scope && a->hints == b->hints;
}
bool same(const For *a, const For *b) {
  return a->var == b->var && a->unroll == b->unroll && a->inclusive == b->inclusive &&
         a->numStages == b->numStages && equal(a->begin, b->begin) && equal(a->end, b->end) &&
         equal(a->step, b->step) && equal(a->body, b->body);
}
bool same(const While *a, const While *b) {
  return equal(a->cond, b->cond) && equal(a->body, b->body);
}
bool same(const If *a, const If *b) {
  return a->prefetch == b->prefetch && a->earlyReturn == b->earlyReturn &&
         equal(a->cond, b->cond) && equal(a->thenS, b->thenS) && equal(a->elseS, b->elseS);
}
bool same(const Barrier *a, const Barrier *b) { return a->debug == b->debug; }
bool same(const Assert *a, const Assert *b) {
  return a->message == b->message && a->text == b->text && equal(a->cond, b->cond);
}
bool same(const Print *a, const Print *b) {
  return a->prefix == b->prefix && a->operand == b->operand && a->operands == b->operands &&
         a->hex == b->hex && equal(a->value, b->value);
}
bool same(const AsyncCopy *a, const AsyncCopy *b) {
  return a->buffer == b->buffer && a->vec == b->vec && equal(a->stage, b->stage) &&
         equal(a->ptr, b->ptr) && equal(a->mask, b->mask) && equal(a->row, b->row) &&
         equal(a->col, b->col);
}
bool same(const AsyncCommit *, const AsyncCommit *) { return true; }
bool same(const AsyncWait *a, const AsyncWait *b) {
  return equal(a->pending, b->pending) && a->ring == b->ring && equal(a->stage, b->stage) &&
         equal(a->phase, b->phase);
}
bool same(const StageFree *a, const StageFree *b) {
  return a->ring == b->ring && equal(a->stage, b->stage) && equal(a->phase, b->phase);
}
bool same(const WarpSpecialize *a, const WarpSpecialize *b) {
  return equal(a->producer, b->producer) && equal(a->consumers, b->consumers);
}
bool same(const SharedWrite *a, const SharedWrite *b) {
  return a->buffer == b->buffer && a->partials == b->partials && a->scanTotals == b->scanTotals &&
         a->reverse == b->reverse && a->axis == b->axis && sameLayout(a->srcLayout, b->srcLayout) &&
         a->srcShape == b->srcShape && a->count == b->count && a->sort == b->sort &&
         a->descending == b->descending && equal(a->mask, b->mask) && equal(a->stage, b->stage) &&
         equal(a->value, b->value);
}

} // namespace

bool equal(const Expr &a, const Expr &b) {
  if (a == b)
    return true;
  if (!a || !b || a->kind != b->kind || !equalTypes(a->type, b->type))
    return false;
  switch (a->kind) {
#define TILEC_EXPR(N)                                                                              \
  case ExprKind::N:                                                                                \
    return same(static_cast<const N *>(a.get()), static_cast<const N *>(b.get()));
#include "ir/Nodes.def"
  }
  return false;
}

bool equal(const Stmt &a, const Stmt &b) {
  if (a == b)
    return true;
  if (!a || !b || a->kind != b->kind)
    return false;
  switch (a->kind) {
#define TILEC_STMT(N)                                                                              \
  case StmtKind::N:                                                                                \
    return same(static_cast<const N *>(a.get()), static_cast<const N *>(b.get()));
#include "ir/Nodes.def"
  }
  return false;
}

} // namespace tilec::ir
