#include "ir/IR.h"

#include <numeric>
#include <stdexcept>

namespace tilec::ir {

const char *name(ExprKind k) {
  switch (k) {
#define TILEC_EXPR(N)                                                                              \
  case ExprKind::N:                                                                                \
    return #N;
#include "ir/Nodes.def"
  }
  return "?";
}

const char *name(StmtKind k) {
  switch (k) {
#define TILEC_STMT(N)                                                                              \
  case StmtKind::N:                                                                                \
    return #N;
#include "ir/Nodes.def"
  }
  return "?";
}

const char *name(UnaryOp o) {
  switch (o) {
  case UnaryOp::Neg: return "neg";
  case UnaryOp::Not: return "not";
  case UnaryOp::BitNot: return "bitnot";
  }
  return "?";
}

const char *name(BinaryOp o) {
  static const char *names[] = {"add", "sub", "mul", "div", "mod", "and", "or", "xor", "shl", "shr",
                                "land", "lor", "lt", "le", "gt", "ge", "eq", "ne", "min", "max"};
  return names[static_cast<int>(o)];
}

const char *name(MathOp o) {
  static const char *names[] = {"exp",
                                "exp2",
                                "log",
                                "log2",
                                "sqrt",
                                "rsqrt",
                                "sigmoid",
                                "tanh",
                                "erf",
                                "abs",
                                "floor",
                                "ceil",
                                "fma",
                                "cdiv",
                                "sin",
                                "cos",
                                "tan",
                                "asin",
                                "acos",
                                "atan",
                                "sinh",
                                "cosh",
                                "asinh",
                                "acosh",
                                "atanh",
                                "expm1",
                                "log1p",
                                "log10",
                                "cbrt",
                                "erfc",
                                "lgamma",
                                "rint",
                                "round",
                                "trunc",
                                "pow",
                                "atan2",
                                "hypot",
                                "copysign",
                                "fmod",
                                "remainder",
                                "div_rn",
                                "div_rz",
                                "fdiv",
                                "sqrt_rn",
                                "popc",
                                "clz",
                                "umulhi",
                                "philox",
                                "uniform_from_bits",
                                "normal_from_bits",
                                "inline_asm"};
  return names[static_cast<int>(o)];
}

const char *name(AtomicOp o) {
  static const char *names[] = {"", "add", "max", "min", "and", "or", "xor", "xchg", "cas"};
  return names[static_cast<int>(o)];
}
const char *name(MemSem s) {
  static const char *names[] = {"relaxed", "acquire", "release", "acq_rel"};
  return names[static_cast<int>(s)];
}
const char *name(MemScope s) {
  static const char *names[] = {"cta", "gpu", "sys"};
  return names[static_cast<int>(s)];
}
const char *name(CacheModifier c) {
  static const char *names[] = {"", "ca", "cg", "cv", "wb", "cs", "wt"};
  return names[static_cast<int>(c)];
}
const char *name(EvictionPolicy e) {
  static const char *names[] = {"evict_normal", "evict_first", "evict_last"};
  return names[static_cast<int>(e)];
}
const char *name(CastMode m) {
  static const char *names[] = {"convert", "rtz", "bitcast"};
  return names[static_cast<int>(m)];
}

const char *name(ReduceOp o) {
  static const char *names[] = {"sum", "max", "min", "argmax", "argmin", "combine"};
  return names[static_cast<int>(o)];
}

const char *name(ScanOp o) {
  static const char *names[] = {"sum", "prod", "max", "min", "combine"};
  return names[static_cast<int>(o)];
}

const char *name(ReshapeKind k) {
  static const char *names[] = {"reshape", "cat", "interleave", "even", "odd"};
  return names[static_cast<int>(k)];
}

bool reshapeTakesTwo(ReshapeKind k) {
  return k == ReshapeKind::Cat || k == ReshapeKind::Interleave;
}

int64_t reshapedCount(ReshapeKind k, int64_t n) {
  switch (k) {
  case ReshapeKind::Reshape:
    return n;
  case ReshapeKind::Cat:
  case ReshapeKind::Interleave:
    return 2 * n;
  case ReshapeKind::Even:
  case ReshapeKind::Odd:
    return n / 2;
  }
  return n;
}

std::string resultStem(ReduceOp o) { return o == ReduceOp::Combine ? "reduce" : name(o); }
std::string resultStem(ScanOp o) {
  return o == ScanOp::Combine ? "scan" : "cum" + std::string(name(o));
}

const char *name(DotPrecision p) {
  static const char *names[] = {"ieee", "tf32", "tf32x3"};
  return names[static_cast<int>(p)];
}

const char *name(HintKind k) {
  return k == HintKind::MultipleOf ? "multiple_of" : "max_contiguous";
}

bool isComparison(BinaryOp o) { return o >= BinaryOp::Lt && o <= BinaryOp::Ne; }

int arity(MathOp o) {
  switch (o) {
  case MathOp::Fma:
  case MathOp::Philox:
  case MathOp::NormalFromBits: return 3;
  case MathOp::SqrtRn:
  case MathOp::Popc:
  case MathOp::Clz:
  case MathOp::UniformFromBits: return 1;
  case MathOp::InlineAsm:
    return -1; // any
  default: return o == MathOp::Cdiv || o >= MathOp::Pow ? 2 : 1;
  }
}

ScalarType resultElem(MathOp o, ScalarType firstOperand) {
  switch (o) {
  case MathOp::Philox: return ScalarType::U32;
  case MathOp::UniformFromBits:
  case MathOp::NormalFromBits: return ScalarType::F32;
  default: return firstOperand;
  }
}

namespace {
[[noreturn]] void internalError(const std::string &what) {
  throw std::logic_error("internal error: Tile IR invariant violated: " + what);
}
void check(bool ok, const char *what) {
  if (!ok)
    internalError(what);
}
template <class T> std::shared_ptr<T> node(SourceLoc loc) {
  auto n = std::make_shared<T>();
  n->loc = loc;
  return n;
}
} // namespace

Expr IntImm::make(ScalarType t, int64_t v, SourceLoc loc) {
  check(isInt(t) || t == ScalarType::Bool, "IntImm of a non-integer type");
  auto n = node<IntImm>(loc);
  n->type = Type::scalar(t);
  n->value = v;
  return n;
}

Expr IntImm::makeSymbol(ScalarType t, int64_t v, std::string symbol, SourceLoc loc) {
  auto e = std::static_pointer_cast<const IntImm>(make(t, v, loc));
  auto n = std::make_shared<IntImm>(*e);
  n->symbol = std::move(symbol);
  return n;
}

Expr FloatImm::makeSymbol(ScalarType t, double v, std::string symbol, SourceLoc loc) {
  auto e = std::static_pointer_cast<const FloatImm>(make(t, v, loc));
  auto n = std::make_shared<FloatImm>(*e);
  n->symbol = std::move(symbol);
  return n;
}

Expr FloatImm::make(ScalarType t, double v, SourceLoc loc) {
  check(isFloat(t), "FloatImm of a non-float type");
  auto n = node<FloatImm>(loc);
  n->type = Type::scalar(t);
  n->value = v;
  return n;
}

Expr VarRef::make(Var v, SourceLoc loc) {
  check(v != nullptr, "VarRef of null var");
  auto n = node<VarRef>(loc);
  n->type = v->type;
  n->var = std::move(v);
  return n;
}

Expr Unary::make(UnaryOp op, Expr a, SourceLoc loc) {
  check(a != nullptr, "Unary operand");
  auto n = node<Unary>(loc);
  n->type = a->type;
  n->op = op;
  n->a = std::move(a);
  return n;
}

Expr Binary::make(BinaryOp op, Expr a, Expr b, SourceLoc loc) {
  check(a && b, "Binary operands");
  check(a->type.shape == b->type.shape, "Binary operand shapes differ");
  auto n = node<Binary>(loc);
  n->type = a->type;
  if (isComparison(op)) {
    n->type = a->type.withElem(ScalarType::Bool);
  } else if (b->type.pointer && !a->type.pointer) {
    n->type = b->type;
  }
  n->op = op;
  n->a = std::move(a);
  n->b = std::move(b);
  return n;
}

Expr Math::makeAsm(int fn, bool effects, ScalarType result, std::vector<Expr> args, SourceLoc loc) {
  check(fn >= 0 && !args.empty(), "InlineAsm operands");
  for (const Expr &a : args)
    check(a && a->type.shape == args[0]->type.shape && !a->type.pointer,
          "InlineAsm operand shapes");
  auto n = node<Math>(loc);
  n->type = args[0]->type.withElem(result);
  n->op = MathOp::InlineAsm;
  n->asmFn = fn;
  n->asmEffects = effects;
  n->args = std::move(args);
  return n;
}

Expr Math::make(MathOp op, std::vector<Expr> args, SourceLoc loc) {
  check(op != MathOp::InlineAsm && static_cast<int>(args.size()) == arity(op), "Math arity");
  auto n = node<Math>(loc);
  n->type = args[0]->type.withElem(resultElem(op, args[0]->type.elem));
  n->op = op;
  n->args = std::move(args);
  return n;
}

Expr Select::make(Expr cond, Expr a, Expr b, SourceLoc loc) {
  check(cond && a && b, "Select operands");
  check(cond->type.shape == a->type.shape && a->type.shape == b->type.shape,
        "Select operand shapes differ");
  auto n = node<Select>(loc);
  n->type = a->type;
  n->cond = std::move(cond);
  n->a = std::move(a);
  n->b = std::move(b);
  return n;
}

Expr Cast::make(ScalarType to, Expr a, SourceLoc loc, CastMode mode) {
  check(a != nullptr, "Cast operand");
  auto n = node<Cast>(loc);
  n->type = a->type.withElem(to);
  n->a = std::move(a);
  n->mode = mode;
  return n;
}

Expr ProgramId::make(int axis, bool count, SourceLoc loc) {
  check(axis >= 0 && axis < 3, "ProgramId axis");
  auto n = node<ProgramId>(loc);
  n->type = Type::scalar(ScalarType::I32);
  n->axis = axis;
  n->count = count;
  return n;
}

Expr Arange::make(int64_t start, int64_t end, SourceLoc loc) {
  check(end > start, "Arange bounds");
  auto n = node<Arange>(loc);
  n->type = Type::scalar(ScalarType::I32).withShape({end - start});
  n->start = start;
  n->end = end;
  return n;
}

Expr Splat::make(Expr a, std::vector<int64_t> shape, SourceLoc loc) {
  check(a && a->type.isScalar() && !shape.empty(), "Splat of a non-scalar");
  auto n = node<Splat>(loc);
  n->type = a->type.withShape(std::move(shape));
  n->a = std::move(a);
  return n;
}

Expr ExpandDims::make(Expr a, int axis, SourceLoc loc) {
  check(a && a->type.isTile() && axis >= 0 && axis <= a->type.rank(), "ExpandDims axis");
  auto n = node<ExpandDims>(loc);
  auto shape = a->type.shape;
  shape.insert(shape.begin() + axis, 1);
  n->type = a->type.withShape(shape).withLayout(nullptr);
  n->a = std::move(a);
  n->axis = axis;
  return n;
}

Expr Trans::make(Expr a, SourceLoc loc) {
  check(a && a->type.rank() == 2, "Trans of a rank-2 tile");
  return permute(std::move(a), {1, 0}, loc);
}

Expr Trans::permute(Expr a, std::vector<int> perm, SourceLoc loc) {
  check(a && isPermutation(perm) && static_cast<int>(perm.size()) == a->type.rank(),
        "Trans: a permutation of the tile's dims");
  std::vector<int> identity(perm.size());
  std::iota(identity.begin(), identity.end(), 0);
  check(perm != identity, "Trans: not the identity");
  auto n = node<Trans>(loc);
  std::vector<int64_t> shape(perm.size());
  for (size_t e = 0; e < perm.size(); ++e)
    shape[e] = a->type.shape[perm[e]];
  n->type = a->type.withShape(std::move(shape)).withLayout(Layout::permuted(a->type.layout, perm));
  n->a = std::move(a);
  n->perm = std::move(perm);
  return n;
}

Expr Broadcast::make(Expr a, std::vector<int64_t> shape, SourceLoc loc) {
  check(a && a->type.rank() == static_cast<int>(shape.size()), "Broadcast rank");
  for (size_t d = 0; d < shape.size(); ++d)
    check(a->type.shape[d] == shape[d] || a->type.shape[d] == 1, "Broadcast of a non-1 dim");
  auto n = node<Broadcast>(loc);
  n->type = a->type.withShape(std::move(shape));
  n->a = std::move(a);
  return n;
}

Expr Load::make(Expr ptr, Expr mask, Expr other, SourceLoc loc, MemHints hints) {
  check(ptr && ptr->type.pointer, "Load of a non-pointer");
  check(!mask || mask->type.shape == ptr->type.shape, "Load mask shape");
  auto n = node<Load>(loc);
  n->type = ptr->type.withElem(ptr->type.elem);
  n->type.layout = ptr->type.layout;
  check(!other || other->type.shape == n->type.shape, "Load other shape");
  n->ptr = std::move(ptr);
  n->mask = std::move(mask);
  n->other = std::move(other);
  n->hints = hints;
  return n;
}

static Type reducedType(ReduceOp op, int axis, const Type &in) {
  auto shape = in.shape;
  shape.erase(shape.begin() + axis);
  ScalarType elem = in.elem;
  if (op == ReduceOp::ArgMax || op == ReduceOp::ArgMin)
    elem = ScalarType::I32;
  else if (op == ReduceOp::Sum && (elem == ScalarType::Bool || elem == ScalarType::I8))
    elem = ScalarType::I32;
  Type t = in.withElem(elem).withShape(shape);
  t.layout = nullptr;
  return t;
}

Expr Reduce::make(ReduceOp op, int axis, Expr a, SourceLoc loc, int combineFn) {
  check(a && a->type.isTile() && axis >= 0 && axis < a->type.rank(), "Reduce axis");
  check((op == ReduceOp::Combine) == (combineFn >= 0), "Reduce combine function");
  auto n = node<Reduce>(loc);
  n->combineFn = combineFn;
  n->type = reducedType(op, axis, a->type);
  n->op = op;
  n->axis = axis;
  n->a = std::move(a);
  return n;
}

Expr Scan::make(ScanOp op, int axis, bool reverse, Expr a, SourceLoc loc, int combineFn) {
  check(a && a->type.isTile() && axis >= 0 && axis < a->type.rank() && !a->type.pointer,
        "Scan axis");
  check((op == ScanOp::Combine) == (combineFn >= 0), "Scan combine function");
  auto n = node<Scan>(loc);
  n->combineFn = combineFn;
  n->type = a->type;
  n->op = op;
  n->axis = axis;
  n->reverse = reverse;
  n->a = std::move(a);
  return n;
}

Expr Scan::makePart(const Scan &whole, ScanPart part, Expr a, int buffer) {
  check(a && sameShapeAndElem(a->type, whole.type) && (part == ScanPart::Carry) == (buffer >= 0),
        "Scan part");
  auto n = node<Scan>(whole.loc);
  n->type = a->type;
  n->op = whole.op;
  n->axis = whole.axis;
  n->reverse = whole.reverse;
  n->part = part;
  n->buffer = buffer;
  n->combineFn = whole.combineFn;
  n->a = std::move(a);
  return n;
}

Expr Histogram::make(Expr a, Expr mask, int64_t numBins, SourceLoc loc) {
  check(a && a->type.rank() == 1 && isInt(a->type.elem) && numBins > 0 &&
            (!mask || (mask->type.shape == a->type.shape && mask->type.elem == ScalarType::Bool)),
        "Histogram operands");
  auto n = node<Histogram>(loc);
  n->type = Type::scalar(ScalarType::I32).withShape({numBins});
  n->a = std::move(a);
  n->mask = std::move(mask);
  n->numBins = numBins;
  return n;
}

Expr Sort::make(Expr a, bool descending, int64_t keep, SourceLoc loc) {
  check(a && a->type.isTile() && !a->type.pointer && keep > 0 && keep <= a->type.shape.back(),
        "Sort operand");
  const int64_t n = a->type.shape.back();
  check((n & (n - 1)) == 0, "Sort of rows whose length is not a power of two");
  auto s = node<Sort>(loc);
  std::vector<int64_t> shape = a->type.shape;
  shape.back() = keep;
  s->type = a->type.withShape(std::move(shape));
  s->type.layout = nullptr;
  s->descending = descending;
  s->a = std::move(a);
  return s;
}

Expr Reshape::make(ReshapeKind how, Expr a, Expr b, std::vector<int64_t> shape, SourceLoc loc) {
  const bool two = reshapeTakesTwo(how);
  check(a && a->type.isTile() && !a->type.pointer && (b != nullptr) == two &&
            (!b || (b->type.elem == a->type.elem && b->type.shape == a->type.shape &&
                    !b->type.pointer)) &&
            shape.size() >= 1 && shape.size() <= 3,
        "Reshape operands");
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  check(n == reshapedCount(how, a->type.numElements()), "Reshape shape");
  auto r = node<Reshape>(loc);
  r->type = a->type.withShape(std::move(shape));
  r->type.layout = nullptr;
  r->how = how;
  r->a = std::move(a);
  r->b = std::move(b);
  return r;
}

Expr Gather::make(Expr src, Expr index, int axis, SourceLoc loc) {
  check(src && index && src->type.isTile() && !src->type.pointer && isInt(index->type.elem) &&
            index->type.rank() == src->type.rank() && axis >= 0 && axis < src->type.rank(),
        "Gather operands");
  for (int d = 0; d < src->type.rank(); ++d)
    check(d == axis || index->type.shape[d] == src->type.shape[d], "Gather shapes");
  auto n = node<Gather>(loc);
  n->type = src->type.withShape(index->type.shape);
  n->type.layout = index->type.layout;
  n->src = std::move(src);
  n->index = std::move(index);
  n->axis = axis;
  return n;
}

Expr Dot::make(Expr a, Expr b, Expr acc, ScalarType result, DotPrecision precision, SourceLoc loc) {
  check(a && b && a->type.rank() == 2 && b->type.rank() == 2 &&
            a->type.shape[1] == b->type.shape[0],
        "Dot operand shapes");
  auto n = node<Dot>(loc);
  n->type = Type::scalar(result).withShape({a->type.shape[0], b->type.shape[1]});
  check(!acc || sameShapeAndElem(acc->type, n->type), "Dot accumulator type");
  n->a = std::move(a);
  n->b = std::move(b);
  n->acc = std::move(acc);
  n->precision = precision;
  return n;
}

Expr Hint::make(HintKind k, Expr a, std::vector<int64_t> values, SourceLoc loc) {
  check(a != nullptr, "Hint operand");
  check(values.size() == static_cast<size_t>(std::max(1, a->type.rank())), "Hint values");
  auto n = node<Hint>(loc);
  n->type = a->type;
  n->hint = k;
  n->a = std::move(a);
  n->values = std::move(values);
  return n;
}

Expr ConvertLayout::make(Expr a, LayoutRef to, SourceLoc loc) {
  check(a && a->type.isTile() && to && to->rank() == a->type.rank(), "ConvertLayout");
  auto n = node<ConvertLayout>(loc);
  n->type = a->type.withLayout(std::move(to));
  n->a = std::move(a);
  return n;
}

Expr ThreadReduce::make(ReduceOp op, int axis, Expr a, Type resultType, SourceLoc loc,
                        int combineFn) {
  check(a && a->type.isTile(), "ThreadReduce operand");
  auto n = node<ThreadReduce>(loc);
  n->combineFn = combineFn;
  n->type = std::move(resultType);
  n->op = op;
  n->axis = axis;
  n->a = std::move(a);
  return n;
}

Expr WarpReduce::make(ReduceOp op, Expr a, std::vector<int> laneMasks, int warpSize, SourceLoc loc,
                      int combineFn) {
  check(a != nullptr, "WarpReduce operand");
  auto n = node<WarpReduce>(loc);
  n->combineFn = combineFn;
  n->type = a->type;
  n->op = op;
  n->a = std::move(a);
  n->laneMasks = std::move(laneMasks);
  n->warpSize = warpSize;
  return n;
}

Expr SharedRead::makeTile(int buffer, Type type, SourceLoc loc) {
  auto n = node<SharedRead>(loc);
  n->type = std::move(type);
  n->buffer = buffer;
  return n;
}

Expr SharedRead::makeGather(int buffer, Type type, Expr index, int axis, SourceLoc loc) {
  check(index && index->type.shape == type.shape, "SharedRead gather index");
  auto n = node<SharedRead>(loc);
  n->type = std::move(type);
  n->buffer = buffer;
  n->index = std::move(index);
  n->gatherAxis = axis;
  return n;
}

Expr SharedRead::makeReshape(ReshapeKind how, int buffer, int bufferB, Type type, SourceLoc loc) {
  check(buffer >= 0 && (reshapeTakesTwo(how) == (bufferB >= 0)), "SharedRead reshape buffers");
  auto n = node<SharedRead>(loc);
  n->type = std::move(type);
  n->buffer = buffer;
  n->bufferB = bufferB;
  n->reshape = how;
  return n;
}

Expr SharedRead::makePrefix(int buffer, Type type, SourceLoc loc) {
  auto n = node<SharedRead>(loc);
  n->type = std::move(type);
  n->buffer = buffer;
  n->prefix = true;
  return n;
}

Expr SharedRead::makeCombine(int buffer, ReduceOp op, int numParts, Type type, SourceLoc loc,
                             int combineFn) {
  auto n = node<SharedRead>(loc);
  n->combineFn = combineFn;
  n->type = std::move(type);
  n->buffer = buffer;
  n->combine = true;
  n->op = op;
  n->numParts = numParts;
  return n;
}

Expr SharedDot::make(int bufferA, int bufferB, Expr acc, DotPrecision precision, Type type,
                     SourceLoc loc, Expr stage, bool transA, bool transB, bool inFlight) {
  check(type.rank() == 2 && (!acc || sameShapeAndElem(acc->type, type)), "SharedDot types");
  auto n = node<SharedDot>(loc);
  n->type = std::move(type);
  n->bufferA = bufferA;
  n->bufferB = bufferB;
  n->acc = std::move(acc);
  n->precision = precision;
  n->stage = std::move(stage);
  n->transA = transA;
  n->transB = transB;
  n->inFlight = inFlight;
  return n;
}

std::vector<int> sharedBuffersRead(const ExprNode &n) {
  if (n.kind == ExprKind::SharedRead) {
    auto &r = static_cast<const SharedRead &>(n);
    if (r.bufferB >= 0)
      return {r.buffer, r.bufferB};
    return {r.buffer};
  }
  if (n.kind == ExprKind::Scan && static_cast<const Scan &>(n).part == ScanPart::Carry)
    return {static_cast<const Scan &>(n).buffer};
  if (n.kind == ExprKind::SharedDot) {
    auto &d = static_cast<const SharedDot &>(n);
    return {d.bufferA, d.bufferB};
  }
  return {};
}

std::vector<std::pair<const Assign *, const SharedDot *>> productsInFlight(const For &f) {
  std::vector<std::pair<const Assign *, const SharedDot *>> out;
  auto *body = as<Block>(f.body);
  for (const Stmt &c : body ? body->stmts : std::vector<Stmt>{}) {
    auto *a = as<Assign>(c);
    auto *d = a ? as<SharedDot>(a->value) : nullptr;
    if (d && d->inFlight)
      out.emplace_back(a, d);
  }
  return out;
}

StageRef stageRef(const Expr &stage) {
  if (auto v = as<VarRef>(stage))
    return {v->var.get(), false};
  auto b = as<Binary>(stage);
  auto one = b ? as<IntImm>(b->a) : nullptr;
  auto v = b ? as<VarRef>(b->b) : nullptr;
  if (b && b->op == BinaryOp::Sub && one && one->value == 1 && v)
    return {v->var.get(), true};
  return {};
}

StageRef stageRead(const ExprNode &n) {
  if (n.kind == ExprKind::SharedDot)
    return stageRef(static_cast<const SharedDot &>(n).stage);
  return {};
}

Expr PairValue::make(Expr a, bool index, SourceLoc loc) {
  check(a && a->type.argPair, "PairValue of a non-pair");
  auto n = node<PairValue>(loc);
  n->type = a->type;
  n->type.argPair = false;
  if (index)
    n->type.elem = ScalarType::I32;
  n->a = std::move(a);
  n->index = index;
  return n;
}

Stmt Block::make(std::vector<Stmt> stmts, SourceLoc loc) {
  auto n = node<Block>(loc);
  n->stmts = std::move(stmts);
  return n;
}

Stmt Decl::make(Var var, Expr init, SourceLoc loc) {
  check(var != nullptr, "Decl var");
  auto n = node<Decl>(loc);
  n->var = std::move(var);
  n->init = std::move(init);
  return n;
}

Stmt Assign::make(Var var, Expr value, SourceLoc loc) {
  check(var && value, "Assign operands");
  auto n = node<Assign>(loc);
  n->var = std::move(var);
  n->value = std::move(value);
  return n;
}

Stmt Store::make(Expr ptr, Expr value, Expr mask, SourceLoc loc, MemHints hints) {
  check(ptr && ptr->type.pointer && value, "Store operands");
  check(value->type.shape == ptr->type.shape, "Store value shape");
  check(!mask || mask->type.shape == ptr->type.shape, "Store mask shape");
  auto n = node<Store>(loc);
  n->ptr = std::move(ptr);
  n->value = std::move(value);
  n->mask = std::move(mask);
  n->hints = hints;
  return n;
}

Stmt Store::makeAtomic(AtomicOp op, Expr ptr, Expr value, Expr cmp, Expr mask, Var result,
                       MemSem sem, MemScope scope, SourceLoc loc) {
  check(op != AtomicOp::None && (op == AtomicOp::Cas) == (cmp != nullptr), "atomic operands");
  check(!cmp || cmp->type.shape == ptr->type.shape, "atomic cmp shape");
  auto s = make(std::move(ptr), std::move(value), std::move(mask), loc);
  auto n = std::const_pointer_cast<Store>(std::static_pointer_cast<const Store>(s));
  n->atomic = op;
  n->cmp = std::move(cmp);
  n->result = std::move(result);
  n->sem = sem;
  n->scope = scope;
  return n;
}

Stmt For::make(Var var, Expr begin, Expr end, Expr step, Stmt body, bool unroll, SourceLoc loc,
               bool inclusive, int numStages) {
  check(var && begin && end && step && body, "For operands");
  auto n = node<For>(loc);
  n->var = std::move(var);
  n->begin = std::move(begin);
  n->end = std::move(end);
  n->step = std::move(step);
  n->body = std::move(body);
  n->unroll = unroll;
  n->inclusive = inclusive;
  n->numStages = numStages;
  return n;
}

Stmt While::make(Expr cond, Stmt body, SourceLoc loc) {
  check(cond && body, "While operands");
  auto n = node<While>(loc);
  n->cond = std::move(cond);
  n->body = std::move(body);
  return n;
}

Stmt If::make(Expr cond, Stmt thenS, Stmt elseS, SourceLoc loc) {
  check(cond && thenS, "If operands");
  auto n = node<If>(loc);
  n->cond = std::move(cond);
  n->thenS = std::move(thenS);
  n->elseS = std::move(elseS);
  return n;
}

Stmt Barrier::make(SourceLoc loc, bool debug) {
  auto b = node<Barrier>(loc);
  b->debug = debug;
  return b;
}

Stmt Assert::make(Expr cond, std::string message, std::string text, SourceLoc loc) {
  check(cond && cond->type.elem == ScalarType::Bool && !cond->type.pointer,
        "Assert needs a Bool condition");
  auto a = node<Assert>(loc);
  a->cond = std::move(cond);
  a->message = std::move(message);
  a->text = std::move(text);
  return a;
}

Stmt Print::make(Expr value, std::string prefix, int operand, int operands, bool hex,
                 SourceLoc loc) {
  check(value ? operand >= 0 && operand < operands : operands == 0, "Print operand out of range");
  auto p = node<Print>(loc);
  p->value = std::move(value);
  p->prefix = std::move(prefix);
  p->operand = operand;
  p->operands = operands;
  p->hex = hex;
  return p;
}

Stmt SharedWrite::makeTile(int buffer, Expr value, SourceLoc loc, Expr stage) {
  check(value && value->type.isTile() && value->type.layout, "SharedWrite tile needs a layout");
  check(!stage || stage->type.isScalar(), "SharedWrite stage must be a scalar");
  auto n = node<SharedWrite>(loc);
  n->buffer = buffer;
  n->value = std::move(value);
  n->stage = std::move(stage);
  return n;
}

Stmt SharedWrite::makeSort(int buffer, Expr value, bool descending, SourceLoc loc) {
  auto n = std::const_pointer_cast<StmtNode>(makeTile(buffer, std::move(value), loc));
  auto *w = static_cast<SharedWrite *>(n.get());
  w->sort = true;
  w->descending = descending;
  return n;
}

Stmt AsyncCopy::make(int buffer, Expr stage, Expr ptr, Expr mask, int vec, SourceLoc loc) {
  check(stage && stage->type.isScalar() && ptr && ptr->type.isTile() && ptr->type.pointer &&
            ptr->type.layout && vec >= 1,
        "AsyncCopy needs a scalar stage and a pointer tile with a layout");
  auto n = node<AsyncCopy>(loc);
  n->buffer = buffer;
  n->stage = std::move(stage);
  n->ptr = std::move(ptr);
  n->mask = std::move(mask);
  n->vec = vec;
  return n;
}

Stmt AsyncCopy::makeTma(int buffer, Expr stage, Expr row, Expr col, SourceLoc loc) {
  check(stage && stage->type.isScalar() && row && row->type.isScalar() && col &&
            col->type.isScalar(),
        "AsyncCopy's TMA form needs a scalar stage, row and column");
  auto n = node<AsyncCopy>(loc);
  n->buffer = buffer;
  n->stage = std::move(stage);
  n->row = std::move(row);
  n->col = std::move(col);
  return n;
}

Stmt AsyncCommit::make(SourceLoc loc) { return node<AsyncCommit>(loc); }

Stmt AsyncWait::make(Expr pending, SourceLoc loc) {
  check(pending && pending->type.isScalar(), "AsyncWait needs a scalar count");
  auto n = node<AsyncWait>(loc);
  n->pending = std::move(pending);
  return n;
}

Stmt AsyncWait::makeTma(int ring, Expr stage, Expr phase, SourceLoc loc) {
  check(ring >= 0 && stage && stage->type.isScalar() && phase && phase->type.isScalar(),
        "AsyncWait's TMA form needs a ring, a scalar stage and a scalar phase");
  auto n = node<AsyncWait>(loc);
  n->ring = ring;
  n->stage = std::move(stage);
  n->phase = std::move(phase);
  return n;
}

Stmt StageFree::make(int ring, Expr stage, SourceLoc loc) {
  check(ring >= 0 && stage && stage->type.isScalar(), "StageFree needs a ring and a scalar stage");
  auto n = node<StageFree>(loc);
  n->ring = ring;
  n->stage = std::move(stage);
  return n;
}

Stmt StageFree::makeWait(int ring, Expr stage, Expr phase, SourceLoc loc) {
  check(ring >= 0 && stage && stage->type.isScalar() && phase && phase->type.isScalar(),
        "StageFree's wait form needs a ring, a scalar stage and a scalar phase");
  auto n = node<StageFree>(loc);
  n->ring = ring;
  n->stage = std::move(stage);
  n->phase = std::move(phase);
  return n;
}

Stmt WarpSpecialize::make(Stmt producer, Stmt consumers, SourceLoc loc) {
  check(producer && consumers, "WarpSpecialize needs a producer and consumers");
  auto n = node<WarpSpecialize>(loc);
  n->producer = std::move(producer);
  n->consumers = std::move(consumers);
  return n;
}

Stmt SharedWrite::makePartials(int buffer, Expr partial, int axis, LayoutRef srcLayout,
                               std::vector<int64_t> srcShape, SourceLoc loc) {
  check(partial && srcLayout, "SharedWrite partials");
  auto n = node<SharedWrite>(loc);
  n->buffer = buffer;
  n->value = std::move(partial);
  n->partials = true;
  n->axis = axis;
  n->srcLayout = std::move(srcLayout);
  n->srcShape = std::move(srcShape);
  return n;
}

Stmt SharedWrite::makeCount(int buffer, Expr values, Expr mask, SourceLoc loc) {
  check(values && values->type.isTile() && isInt(values->type.elem), "SharedWrite count");
  auto n = node<SharedWrite>(loc);
  n->buffer = buffer;
  n->count = true;
  n->value = std::move(values);
  n->mask = std::move(mask);
  return n;
}

Stmt SharedWrite::makeScanTotals(int buffer, Expr inWarp, int axis, bool reverse, SourceLoc loc) {
  check(inWarp && inWarp->type.isTile() && inWarp->type.layout, "SharedWrite scan totals");
  auto n = node<SharedWrite>(loc);
  n->buffer = buffer;
  n->scanTotals = true;
  n->reverse = reverse;
  n->axis = axis;
  n->srcLayout = inWarp->type.layout;
  n->srcShape = inWarp->type.shape;
  n->value = std::move(inWarp);
  return n;
}

Var Kernel::newVar(std::string name, Type type, VarKind kind, SourceLoc loc) {
  auto v = std::make_shared<VarNode>();
  v->name = std::move(name);
  v->type = std::move(type);
  v->kind = kind;
  v->loc = loc;
  v->id = nextVarId++;
  return v;
}

std::pair<std::string, int> SourceFile::presumed(int line) const {
  const Origin *o = nullptr;
  for (const Origin &c : origins)
    if (c.from <= line)
      o = &c;
  if (!o)
    return {name, line};
  return {o->file, o->line + (line - o->from)};
}

} // namespace tilec::ir
