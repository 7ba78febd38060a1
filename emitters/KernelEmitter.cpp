// Prints one kernel instantiation as CUDA/HIP C++ (see docs/internals.md for the IR accepted here:
// the invariants after the whole pass pipeline).
//
// Tiles become per-thread arrays indexed by per-thread element indices; an elementwise expression
// tree is printed once per element inside unrolled loops, with ExpandDims/Broadcast turning into
// index choices and Arange into the layout helper's coordinates. Everything that is more than an
// expression (vector accesses, reductions, shared memory) is a call into the runtime headers.
#include "emitters/KernelEmitter.h"

#include "ir/IRVisitor.h"
#include "ir/Printer.h"

#include <algorithm>
#include <memory>

#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace tilec::emitters {

using namespace ir;

void internalError(const std::string &what) {
  throw std::logic_error("internal error: emitter: " + what);
}

namespace {

const char *scalarName(ScalarType t, const TargetHooks &hooks) {
  switch (t) {
  case ScalarType::Bool: return "bool";
  case ScalarType::I8: return "int8_t";
  case ScalarType::I32: return "int";
  case ScalarType::I64: return "int64_t";
  case ScalarType::F16: return "__half";
  case ScalarType::BF16: return hooks.bf16Type;
  case ScalarType::F32: return "float";
  }
  return "int";
}

bool is16(ScalarType t) { return t == ScalarType::F16 || t == ScalarType::BF16; }

std::string upper(const std::string &s) {
  std::string r;
  for (char c : s)
    r += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return r;
}

std::string trim(const std::string &s) {
  size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos)
    return "";
  size_t e = s.find_last_not_of(" \t\r\n\\");
  return s.substr(b, e - b + 1);
}

std::string shapeText(const std::vector<int64_t> &shape) {
  std::string r;
  for (size_t d = 0; d < shape.size(); ++d)
    r += (d ? "x" : "") + std::to_string(shape[d]);
  return r;
}

/// The first pointer-typed scalar variable in `e` (the base a store writes through).
const VarNode *basePointer(const Expr &e) {
  if (auto v = as<VarRef>(e))
    return v->var->type.pointer && v->var->type.isScalar() ? v->var.get() : nullptr;
  if (auto b = as<Binary>(e))
    if (auto r = basePointer(b->a))
      return r;
  if (auto s = as<Splat>(e))
    return basePointer(s->a);
  if (auto b = as<Broadcast>(e))
    return basePointer(b->a);
  if (auto x = as<ExpandDims>(e))
    return basePointer(x->a);
  if (auto h = as<Hint>(e))
    return basePointer(h->a);
  return nullptr;
}

} // namespace

std::string cppType(const Type &t, const TargetHooks &hooks) {
  std::string s = scalarName(t.elem, hooks);
  if (t.argPair)
    return "tilec::rt::ArgPair<" + s + ">";
  return s;
}

std::string paramDecl(const Type &t, const std::string &name, const TargetHooks &hooks,
                      bool unnamed) {
  if (t.isTile())
    internalError("tile-typed kernel parameter '" + name + "'");
  std::string n = unnamed ? "/*" + name + "*/" : name;
  if (t.pointer)
    return (t.constPointee ? "const " : "") + cppType(t, hooks) + (unnamed ? " * " : " *") + n;
  return cppType(t, hooks) + " " + n;
}

KernelEmitter::KernelEmitter(const Module &m, const Kernel &k, const EmitOptions &opts)
    : m_(m), k_(k), opts_(opts), hooks_(targetHooks(opts.target.kind)) {
  collect();
}

// ---- preparation --------------------------------------------------------------------------------

void KernelEmitter::nameVars() {
  // Kernel-scope names first: tunables and the kernel itself, so no local can shadow them.
  for (const MetaParam &p : k_.metaParams)
    names_.reserve(p.name);
  names_.reserve(k_.name);
  numWarpsName_ = "NUM_WARPS";
  bool metaNumWarps = false;
  for (const MetaParam &p : k_.metaParams)
    if (p.name == "NUM_WARPS")
      metaNumWarps = p.value == k_.settings.numWarps;
  if (!metaNumWarps)
    numWarpsName_ = names_.unique("NUM_WARPS");
  names_.reserve("NUM_THREADS");
  names_.reserve("SMEM_BYTES");

  // Every variable of the kernel, with the chain of scopes it is declared in (a scope is a block
  // or a for statement, numbered in pre-order). Parameters live in the root scope.
  std::map<int, Var> vars;
  std::map<int, std::vector<int>> scopeOf; // var id -> scope chain, outermost first
  for (const Var &p : k_.params) {
    vars[p->id] = p;
    scopeOf[p->id] = {0};
  }
  struct Collect : IRVisitor {
    std::map<int, Var> &vars;
    std::map<int, std::vector<int>> &scopeOf;
    std::set<int> &assigned, &read;
    std::vector<int> chain{0};
    int nextScope = 1;
    Collect(std::map<int, Var> &v, std::map<int, std::vector<int>> &s, std::set<int> &a,
            std::set<int> &r)
        : vars(v), scopeOf(s), assigned(a), read(r) {}
    using IRVisitor::visit;
    void declare(const Var &v) {
      vars[v->id] = v;
      scopeOf.emplace(v->id, chain);
    }
    void visit(const Block *b) override {
      chain.push_back(nextScope++);
      IRVisitor::visit(b);
      chain.pop_back();
    }
    void visit(const Decl *d) override {
      declare(d->var);
      IRVisitor::visit(d);
    }
    void visit(const Assign *a) override {
      assigned.insert(a->var->id);
      IRVisitor::visit(a);
    }
    void visit(const For *f) override {
      chain.push_back(nextScope++);
      declare(f->var);
      IRVisitor::visit(f);
      chain.pop_back();
    }
    void visit(const VarRef *r) override { read.insert(r->var->id); }
  } c(vars, scopeOf, assigned_, read_);
  if (k_.body)
    c.visit(k_.body);
  // The user's name unless a variable whose scope encloses or is enclosed by this one's already has
  // it: variables of sibling scopes (two loops one after the other) keep the same name, as in the
  // source. Creation order (ids) decides, so names do not depend on anything else.
  auto nested = [](const std::vector<int> &a, const std::vector<int> &b) {
    size_t n = std::min(a.size(), b.size());
    return std::equal(a.begin(), a.begin() + n, b.begin());
  };
  std::map<std::string, std::vector<int>> holders; // name -> ids of the variables named so
  for (const auto &[id, v] : vars) {
    std::string base = v->name.empty() ? "v" : v->name, name = base;
    for (int n = 1;; name = base + "_" + std::to_string(n++)) {
      auto held = holders.find(name);
      if (held == holders.end()) {
        if (!names_.isTaken(name))
          break; // free everywhere
        continue; // reserved: keyword, built-in, tunable, kernel name
      }
      bool clash = false;
      for (int other : held->second)
        clash |= nested(scopeOf[id], scopeOf[other]);
      if (!clash)
        break;
    }
    if (!holders.count(name))
      name = names_.unique(name); // reserves it (and makes it a valid identifier)
    holders[name].push_back(id);
    varNames_[id] = name;
  }
  for (const Var &p : k_.params)
    paramNames_.push_back(varNames_[p->id]);
  for (const SharedBuffer &b : k_.buffers)
    bufferNames_.push_back(names_.unique(b.name.empty() ? "buffer_smem" : b.name));
  idxNames_[0] = names_.unique("i");
  idxNames_[1] = names_.unique("j");
  vecIdx_ = names_.unique("v");
  valsName_ = names_.unique("vals");
  bitsName_ = names_.unique("bits");
}

std::string KernelEmitter::dimConst(int64_t v) {
  // A tile dimension printed as the meta-parameter it most likely came from, when exactly one
  // meta-parameter has that value (BLOCK rather than 1024); otherwise the number.
  std::string found;
  int n = 0;
  for (const MetaParam &p : k_.metaParams)
    if (!p.isBool && p.value == v) {
      found = p.name;
      ++n;
    }
  if (n != 1)
    return std::to_string(v);
  usedMeta_.insert(found);
  return found;
}

std::string KernelEmitter::blockedType(const Layout &l, const std::vector<int64_t> &shape,
                                       const std::string &sptOverride) {
  auto wpb = [&](int d) {
    bool allHere = l.warpsPerBlock[d] == k_.settings.numWarps && k_.settings.numWarps > 1;
    return allHere ? numWarpsName_ : std::to_string(l.warpsPerBlock[d]);
  };
  auto spt = [&](int d) {
    return !sptOverride.empty() && d == l.order[0] ? sptOverride : std::to_string(l.sizePerThread[d]);
  };
  if (l.rank() == 1)
    return "tilec::rt::Blocked1<" + spt(0) + ", TILEC_WARP_SIZE, " + wpb(0) + ", " +
           dimConst(shape[0]) + ">";
  if (l.rank() != 2)
    internalError("layout of rank " + std::to_string(l.rank()));
  return "tilec::rt::Blocked2<" + spt(0) + ", " + spt(1) + ", " +
         std::to_string(l.threadsPerWarp[0]) + ", " + std::to_string(l.threadsPerWarp[1]) + ", " +
         wpb(0) + ", " + wpb(1) + ", " + std::to_string(l.order[0]) + ", " + dimConst(shape[0]) +
         ", " + dimConst(shape[1]) + ">";
}

const KernelEmitter::LayoutAlias &KernelEmitter::alias(const LayoutRef &l,
                                                        const std::vector<int64_t> &shape) {
  if (!l)
    internalError("tile without a layout");
  if (l->rank() != static_cast<int>(shape.size()))
    internalError("layout rank does not match the tile " + l->str());
  std::string key = l->str() + " " + shapeText(shape);
  auto it = aliasIndex_.find(key);
  if (it != aliasIndex_.end())
    return aliases_[it->second];
  LayoutAlias a;
  a.name = names_.unique("L" + std::to_string(aliases_.size()));
  LayoutGeometry g = geometry(*l, shape);
  std::string per;
  for (size_t d = 0; d < g.elemsPerThread.size(); ++d)
    per += (d ? "x" : "") + std::to_string(g.elemsPerThread[d]);
  if (l->kind == Layout::Kind::Blocked) {
    if (l->sizePerThread.size() != shape.size() || l->threadsPerWarp.size() != shape.size() ||
        l->warpsPerBlock.size() != shape.size() || l->order.size() != shape.size())
      internalError("malformed layout " + l->str());
    auto sv = sptVec_.find(l->str());
    a.type = blockedType(*l, shape, sv == sptVec_.end() ? "" : sv->second);
    auto list = [](const std::vector<int> &v) {
      std::string r;
      for (size_t d = 0; d < v.size(); ++d)
        r += (d ? "x" : "") + std::to_string(v[d]);
      return r;
    };
    a.comment = "tile " + shapeText(shape) + ": " + list(l->sizePerThread) + " contiguous per thread, " +
                list(l->threadsPerWarp) + " lanes, " + list(l->warpsPerBlock) + " warps" +
                (l->rank() == 2 ? ", dim " + std::to_string(l->order[0]) + " fastest" : "") + "; " +
                per + " elements per thread";
    geometry(*l, shape); // validated above
    for (size_t d = 0; d < shape.size(); ++d)
      if (shape[d] < g.coverage[d]) {
        a.comment += ", replicated";
        break;
      }
  } else {
    const Layout &p = *l->parent;
    if (p.kind != Layout::Kind::Blocked || p.rank() != 2 || shape.size() != 1)
      internalError("only slices of rank-2 blocked layouts are supported: " + l->str());
    std::vector<int64_t> pshape = shape;
    pshape.insert(pshape.begin() + l->sliceDim, 1);
    auto sv = sptVec_.find(p.str());
    a.type = "tilec::rt::Slice1<" + blockedType(p, pshape, sv == sptVec_.end() ? "" : sv->second) + ", " +
             std::to_string(l->sliceDim) + ">";
    a.comment = "tile " + shapeText(shape) + ": dim " + std::to_string(l->sliceDim) +
                " of a 2-D layout removed (same values in every thread along it); " + per +
                " elements per thread";
  }
  aliasIndex_[key] = aliases_.size();
  aliases_.push_back(a);
  return aliases_.back();
}

std::string KernelEmitter::vecConst(const void *node, int vec, const std::string &hint,
                                    const Type &elem, const LayoutRef &layout, bool isStore) {
  std::string name = names_.unique(upper(hint) + "_VEC");
  vecNames_[node] = name;
  int bytes = vec * byteSize(elem.elem);
  tunables_.push_back("constexpr int " + name + " = " + std::to_string(vec) + ";  // " +
                      (isStore ? "store" : "load") + " width: " + std::to_string(vec) +
                      " contiguous elements (" + std::to_string(bytes) + " bytes) per access");
  if (layout && layout->kind == Layout::Kind::Blocked &&
      layout->sizePerThread[layout->order[0]] == vec) {
    std::string key = layout->str();
    if (!sptVec_.count(key))
      sptVec_[key] = name;
  }
  return name;
}

void KernelEmitter::collect() {
  nameVars();
  // Vector widths first (a layout whose contiguous run equals a width names that constant), then
  // every layout in order of first use.
  int storeCount = 0;
  struct Walk : IRVisitor {
    KernelEmitter &e;
    int &storeCount;
    Walk(KernelEmitter &e, int &n) : e(e), storeCount(n) {}
    using IRVisitor::visit;
    void visit(const Decl *d) override {
      if (auto ld = as<Load>(d->init); ld && ld->vec > 1)
        e.vecConst(ld, ld->vec, e.varNames_[d->var->id], ld->type, ld->type.layout, false);
      IRVisitor::visit(d);
    }
    void visit(const Assign *a) override {
      if (auto ld = as<Load>(a->value); ld && ld->vec > 1)
        e.vecConst(ld, ld->vec, e.varNames_[a->var->id], ld->type, ld->type.layout, false);
      IRVisitor::visit(a);
    }
    void visit(const Store *s) override {
      if (s->vec > 1) {
        const VarNode *base = basePointer(s->ptr);
        std::string hint = base ? e.varNames_[base->id] + "_store" : "store" + std::to_string(storeCount++);
        e.vecConst(s, s->vec, hint, s->value->type, s->ptr->type.layout, true);
      }
      IRVisitor::visit(s);
    }
  } walk(*this, storeCount);
  if (k_.body)
    walk.visit(k_.body);
  // Layout aliases are created when the body first uses them (so only layouts the code refers to
  // get one, in order of first use); the tunables block is printed after the body.
}

// ---- expressions --------------------------------------------------------------------------------

std::string KernelEmitter::asFloat(const Code &c, ScalarType t) {
  return is16(t) ? "tilec::rt::to_float(" + c.text + ")" : c.text;
}

Code KernelEmitter::roundTo(ScalarType t, const std::string &floatExpr) {
  if (t == ScalarType::F16)
    return {"tilec::rt::to_f16(" + floatExpr + ")", Prec::Postfix};
  return {"tilec::rt::to_bf16(" + floatExpr + ")", Prec::Postfix};
}

std::string KernelEmitter::zero(const Type &t) {
  switch (t.elem) {
  case ScalarType::Bool: return "false";
  case ScalarType::F32: return "0.0f";
  case ScalarType::F16: return "tilec::rt::to_f16(0.0f)";
  case ScalarType::BF16: return "tilec::rt::to_bf16(0.0f)";
  case ScalarType::I8: return "int8_t{0}";
  case ScalarType::I64: return "int64_t{0}";
  default: return "0";
  }
}

Code KernelEmitter::intImm(const IntImm *i, bool host) {
  if (i->type.elem == ScalarType::Bool)
    return {i->value ? "true" : "false"};
  if (!i->symbol.empty() && i->type.elem == ScalarType::I32) {
    if (host)
      return {k_.instanceName + "::" + i->symbol};
    usedMeta_.insert(i->symbol);
    return {i->symbol};
  }
  std::string lit = std::to_string(i->value);
  if (i->type.elem == ScalarType::I64)
    return {"int64_t{" + lit + "}", Prec::Postfix};
  if (i->type.elem == ScalarType::I8)
    return {"int8_t{" + lit + "}", Prec::Postfix};
  if (i->value == INT32_MIN)
    return {"(-2147483647 - 1)"};
  return {lit, i->value < 0 ? Prec::Unary : Prec::Primary};
}

Code KernelEmitter::cast(Code a, const Type &from, ScalarType to) {
  ScalarType f = from.elem;
  if (f == to && !from.pointer)
    return a;
  if (to == ScalarType::Bool) {
    if (isFloat(f))
      return {operand({asFloat(a, f), is16(f) ? Prec::Postfix : a.prec}, Prec::Equality) + " != 0.0f",
              Prec::Equality};
    return {operand(a, Prec::Equality) + " != 0", Prec::Equality};
  }
  if (is16(to)) {
    std::string fl = f == ScalarType::F32   ? a.text
                     : is16(f)              ? asFloat(a, f)
                                            : "static_cast<float>(" + a.text + ")";
    return roundTo(to, fl);
  }
  if (is16(f) && to == ScalarType::F32)
    return {asFloat(a, f), Prec::Postfix};
  std::string src = is16(f) ? asFloat(a, f) : a.text;
  return {"static_cast<" + std::string(scalarName(to, hooks_)) + ">(" + src + ")", Prec::Postfix};
}

std::string KernelEmitter::deref(const Expr &ptr, const Idx &idx) {
  // `base[offset]` for pointer + offset, `*p` otherwise.
  if (auto b = as<Binary>(ptr); b && b->op == BinaryOp::Add && b->a->type.pointer)
    return operand(elem(b->a, idx), Prec::Postfix) + "[" + elem(b->b, idx).text + "]";
  return "*" + operand(elem(ptr, idx), Prec::Unary);
}

Code KernelEmitter::binary(const Binary *b, const Idx &idx) {
  Code a = elem(b->a, idx), c = elem(b->b, idx);
  ScalarType t = b->a->type.elem;
  bool ptr = b->a->type.pointer;
  struct Info {
    const char *op;
    Prec prec;
  };
  Info info{};
  switch (b->op) {
  case BinaryOp::Add: info = {"+", Prec::Additive}; break;
  case BinaryOp::Sub: info = {"-", Prec::Additive}; break;
  case BinaryOp::Mul: info = {"*", Prec::Multiplicative}; break;
  case BinaryOp::Div: info = {"/", Prec::Multiplicative}; break;
  case BinaryOp::Mod: info = {"%", Prec::Multiplicative}; break;
  case BinaryOp::And: info = {"&", Prec::BitAnd}; break;
  case BinaryOp::Or: info = {"|", Prec::BitOr}; break;
  case BinaryOp::Xor: info = {"^", Prec::BitXor}; break;
  case BinaryOp::Shl: info = {"<<", Prec::Shift}; break;
  case BinaryOp::Shr: info = {">>", Prec::Shift}; break;
  case BinaryOp::LAnd: info = {"&&", Prec::LogicalAnd}; break;
  case BinaryOp::LOr: info = {"||", Prec::LogicalOr}; break;
  case BinaryOp::Lt: info = {"<", Prec::Relational}; break;
  case BinaryOp::Le: info = {"<=", Prec::Relational}; break;
  case BinaryOp::Gt: info = {">", Prec::Relational}; break;
  case BinaryOp::Ge: info = {">=", Prec::Relational}; break;
  case BinaryOp::Eq: info = {"==", Prec::Equality}; break;
  case BinaryOp::Ne: info = {"!=", Prec::Equality}; break;
  case BinaryOp::Min:
  case BinaryOp::Max: {
    bool mx = b->op == BinaryOp::Max;
    if (isFloat(t)) {
      std::string call = std::string(mx ? "fmaxf(" : "fminf(") + asFloat(a, t) + ", " + asFloat(c, t) + ")";
      return is16(t) ? roundTo(t, call) : Code{call, Prec::Postfix};
    }
    return {std::string(mx ? "tilec::rt::maximum(" : "tilec::rt::minimum(") + a.text + ", " + c.text + ")",
            Prec::Postfix};
  }
  }
  if (!ptr && isFloat(t) && b->op == BinaryOp::Mod) {
    std::string call = "fmodf(" + asFloat(a, t) + ", " + asFloat(c, t) + ")";
    return is16(t) ? roundTo(t, call) : Code{call, Prec::Postfix};
  }
  if (!ptr && is16(t)) {
    // 16-bit floats: compute in float; arithmetic results round back, comparisons do not.
    Code fa{asFloat(a, t), Prec::Postfix}, fc{asFloat(c, t), Prec::Postfix};
    std::string text = operand(fa, info.prec) + " " + info.op + " " + operand(fc, info.prec, true);
    if (isComparison(b->op))
      return {text, info.prec};
    return roundTo(t, text);
  }
  Code r{operand(a, info.prec) + " " + info.op + " " + operand(c, info.prec, true), info.prec};
  // int8 arithmetic wraps like the reference: C++ computes in int, so narrow right away.
  if (!ptr && b->type.elem == ScalarType::I8)
    return {"static_cast<int8_t>(" + r.text + ")", Prec::Postfix};
  return r;
}

Code KernelEmitter::math(const Math *m, const Idx &idx) {
  std::vector<Code> args;
  for (const Expr &a : m->args)
    args.push_back(elem(a, idx));
  ScalarType t = m->args[0]->type.elem;
  if (m->op == MathOp::Cdiv)
    return {"tilec::rt::cdiv(" + args[0].text + ", " + args[1].text + ")", Prec::Postfix};
  if (m->op == MathOp::Abs && !isFloat(t)) {
    Code r{"tilec::rt::iabs(" + args[0].text + ")", Prec::Postfix};
    return r;
  }
  std::string x = asFloat(args[0], t);
  Code xc{x, is16(t) ? Prec::Postfix : args[0].prec};
  std::string f;
  switch (m->op) {
  case MathOp::Exp: f = "expf(" + x + ")"; break;
  case MathOp::Exp2: f = "exp2f(" + x + ")"; break;
  case MathOp::Log: f = "logf(" + x + ")"; break;
  case MathOp::Log2: f = "log2f(" + x + ")"; break;
  case MathOp::Sqrt: f = "sqrtf(" + x + ")"; break;
  case MathOp::Rsqrt: f = "rsqrtf(" + x + ")"; break;
  case MathOp::Sigmoid: f = "1.0f / (1.0f + expf(-" + operand(xc, Prec::Unary) + "))"; break;
  case MathOp::Tanh: f = "tanhf(" + x + ")"; break;
  case MathOp::Erf: f = "erff(" + x + ")"; break;
  case MathOp::Abs: f = "fabsf(" + x + ")"; break;
  case MathOp::Floor: f = "floorf(" + x + ")"; break;
  case MathOp::Ceil: f = "ceilf(" + x + ")"; break;
  case MathOp::Fma:
    f = "fmaf(" + x + ", " + asFloat(args[1], t) + ", " + asFloat(args[2], t) + ")";
    break;
  case MathOp::Cdiv: break;
  }
  if (is16(t))
    return roundTo(t, f);
  return {f, m->op == MathOp::Sigmoid ? Prec::Multiplicative : Prec::Postfix};
}

std::string KernelEmitter::elemCount(const Type &t, int dim) {
  std::string l = layoutName(t);
  return t.rank() == 1 ? l + "::ELEMS" : l + "::ELEMS" + std::to_string(dim);
}

Code KernelEmitter::elem(const Expr &e, const Idx &idx) {
  if (e->type.isTile() && static_cast<int>(idx.size()) != e->type.rank())
    internalError("element index of the wrong rank for " + toString(e));
  switch (e->kind) {
  case ExprKind::IntImm: return intImm(as<IntImm>(e), false);
  case ExprKind::FloatImm: {
    double v = as<FloatImm>(e)->value;
    std::string lit;
    if (std::isnan(v))
      lit = "NAN";
    else if (std::isinf(v))
      lit = v > 0 ? "INFINITY" : "-INFINITY";
    else {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.9g", v);
      lit = buf;
      if (lit.find_first_of(".en") == std::string::npos)
        lit += ".0";
      lit += "f";
    }
    Code c{lit, lit[0] == '-' ? Prec::Unary : Prec::Primary};
    if (is16(e->type.elem))
      return roundTo(e->type.elem, c.text);
    return c;
  }
  case ExprKind::VarRef: {
    auto r = as<VarRef>(e);
    return {lhs(r->var, idx), r->var->type.isTile() ? Prec::Postfix : Prec::Primary};
  }
  case ExprKind::Unary: {
    auto u = as<Unary>(e);
    Code a = elem(u->a, idx);
    ScalarType t = u->a->type.elem;
    if (u->op == UnaryOp::Neg && is16(t))
      return roundTo(t, "-" + operand({asFloat(a, t), Prec::Postfix}, Prec::Unary));
    const char *op = u->op == UnaryOp::Neg ? "-" : u->op == UnaryOp::Not ? "!" : "~";
    std::string inner = operand(a, Prec::Unary);
    if (inner[0] == '-' || inner[0] == '~' || inner[0] == '!')
      inner = parens(inner); // never print `--x`
    Code r{op + inner, Prec::Unary};
    if (u->op != UnaryOp::Not && t == ScalarType::I8)
      return {"static_cast<int8_t>(" + r.text + ")", Prec::Postfix};
    return r;
  }
  case ExprKind::Binary: return binary(as<Binary>(e), idx);
  case ExprKind::Math: return math(as<Math>(e), idx);
  case ExprKind::Select: {
    auto s = as<Select>(e);
    Code c = elem(s->cond, idx), a = elem(s->a, idx), b = elem(s->b, idx);
    return {operand(c, Prec::LogicalOr) + " ? " + operand(a, Prec::LogicalOr) + " : " +
                operand(b, Prec::LogicalOr),
            Prec::Conditional};
  }
  case ExprKind::Cast: {
    auto c = as<Cast>(e);
    return cast(elem(c->a, idx), c->a->type, c->type.elem);
  }
  case ExprKind::ProgramId: {
    auto p = as<ProgramId>(e);
    static const char *const dims[] = {"x", "y", "z"};
    if (p->axis < 0 || p->axis > 2)
      internalError("program_id axis out of range");
    return {std::string("static_cast<int>(") + (p->count ? "gridDim." : "blockIdx.") + dims[p->axis] + ")",
            Prec::Postfix};
  }
  case ExprKind::Arange: {
    auto a = as<Arange>(e);
    std::string c = layoutName(e->type) + "::coord0(" + idx[0] + ")";
    if (a->start == 0)
      return {c, Prec::Postfix};
    return {std::to_string(a->start) + " + " + c, Prec::Additive};
  }
  case ExprKind::Splat: return scalar(as<Splat>(e)->a);
  case ExprKind::ExpandDims: {
    auto x = as<ExpandDims>(e);
    if (x->a->type.isScalar())
      return scalar(x->a);
    if (e->type.rank() != 2)
      internalError("expand_dims to rank " + std::to_string(e->type.rank()));
    return elem(x->a, {idx[1 - x->axis]});
  }
  case ExprKind::Broadcast: {
    auto b = as<Broadcast>(e);
    if (b->a->type.isScalar())
      return scalar(b->a);
    Idx sub = idx;
    for (int d = 0; d < e->type.rank(); ++d)
      if (b->a->type.shape[d] == 1 && e->type.shape[d] != 1)
        sub[d] = "0";
    return elem(b->a, sub);
  }
  case ExprKind::Hint: return elem(as<Hint>(e)->a, idx);
  case ExprKind::PairValue: {
    auto p = as<PairValue>(e);
    return {operand(elem(p->a, idx), Prec::Postfix) + (p->index ? ".index" : ".value"), Prec::Postfix};
  }
  case ExprKind::Load:
    if (e->type.isScalar()) {
      // A scalar load used inside an expression (scalar code): plain or masked access.
      auto ld = as<Load>(e);
      std::string d = deref(ld->ptr, idx);
      if (!ld->mask)
        return {d, Prec::Postfix};
      return {operand(scalar(ld->mask), Prec::LogicalOr) + " ? " + d + " : " +
                  (ld->other ? operand(scalar(ld->other), Prec::LogicalOr) : zero(e->type)),
              Prec::Conditional};
    }
    internalError("tile load inside an expression (must be a whole Decl/Assign value)");
  case ExprKind::Reduce: internalError("Reduce reached the emitter (reductions must be lowered)");
  case ExprKind::ConvertLayout: internalError("ConvertLayout reached the emitter (must be lowered)");
  case ExprKind::ThreadReduce:
  case ExprKind::WarpReduce:
  case ExprKind::SharedRead:
    internalError(std::string(name(e->kind)) + " inside an expression (must be a whole Decl/Assign value)");
  }
  internalError("unknown expression kind");
}

std::string KernelEmitter::hostExpr(const Expr &e) {
  switch (e->kind) {
  case ExprKind::IntImm: return intImm(as<IntImm>(e), true).text;
  case ExprKind::VarRef: {
    auto v = as<VarRef>(e)->var;
    if (v->kind != VarKind::Param || v->type.isTile())
      internalError("grid expression reads a non-parameter '" + v->name + "'");
    return varNames_[v->id];
  }
  case ExprKind::Binary: {
    auto b = as<Binary>(e);
    const char *op = nullptr;
    Prec p = Prec::Additive;
    switch (b->op) {
    case BinaryOp::Add: op = "+"; break;
    case BinaryOp::Sub: op = "-"; break;
    case BinaryOp::Mul: op = "*"; p = Prec::Multiplicative; break;
    case BinaryOp::Div: op = "/"; p = Prec::Multiplicative; break;
    case BinaryOp::Mod: op = "%"; p = Prec::Multiplicative; break;
    default: internalError("grid expression operator");
    }
    // Operands are parenthesized conservatively (they are short): `(a + b) * c`.
    auto sub = [&](const Expr &x, bool right) {
      std::string t = hostExpr(x);
      auto xb = as<Binary>(x);
      if (!xb)
        return t;
      Prec xp = (xb->op == BinaryOp::Add || xb->op == BinaryOp::Sub) ? Prec::Additive : Prec::Multiplicative;
      return operand({t, xp}, p, right);
    };
    return sub(b->a, false) + " " + op + " " + sub(b->b, true);
  }
  case ExprKind::Math: {
    auto m = as<Math>(e);
    if (m->op != MathOp::Cdiv)
      internalError("grid expression function");
    return "tilec::rt::cdiv(" + hostExpr(m->args[0]) + ", " + hostExpr(m->args[1]) + ")";
  }
  default: internalError("grid expression node " + std::string(name(e->kind)));
  }
}

// ---- statements ---------------------------------------------------------------------------------

std::string KernelEmitter::lhs(const Var &v, const Idx &idx) {
  auto it = varNames_.find(v->id);
  if (it == varNames_.end())
    internalError("variable '" + v->name + "' used but never declared");
  std::string s = it->second;
  if (v->type.isTile())
    for (const std::string &i : idx)
      s += "[" + i + "]";
  return s;
}

std::string KernelEmitter::varDecl(const Var &v, bool isConst) {
  // `const T name`, `const T *const name` (a const pointer local keeps its pointee's const), and
  // for tiles `T name[E0][E1]`; a pointer tile is an array of per-element pointers.
  std::string s = cppType(v->type, hooks_);
  if (v->type.pointer)
    s = (v->type.constPointee ? "const " : "") + s + " *" + (isConst ? "const " : "");
  else
    s = (isConst ? "const " : "") + s + " ";
  s += varNames_[v->id];
  if (v->type.isTile())
    for (int d = 0; d < v->type.rank(); ++d)
      s += "[" + elemCount(v->type, d) + "]";
  return s;
}

void KernelEmitter::call(const std::string &head, const std::vector<std::string> &args,
                         const std::string &tail) {
  w_->lines(wrapList(head, args, tail, w_->indentWidth()));
}

std::string KernelEmitter::indexed(const std::string &name, const Idx &idx) {
  std::string s = name;
  for (const std::string &i : idx)
    s += "[" + i + "]";
  return s;
}

std::string KernelEmitter::vecStride(const Type &t, int vecDim) {
  // Per-thread storage is `T name[E0][E1]`: consecutive elements along dim 0 are E1 apart.
  return t.rank() == 2 && vecDim == 0 ? elemCount(t, 1) : "";
}

const std::string *KernelEmitter::directTile(const Expr &e, const Type &t) {
  // A tile variable whose per-thread array has the shape of `t`'s, so that a pointer to one of its
  // elements walks the same elements as `t`'s own storage.
  Expr x = e;
  while (auto h = as<Hint>(x))
    x = h->a;
  auto r = as<VarRef>(x);
  if (!r || !r->var->type.isTile() || r->var->type.shape != t.shape ||
      !sameLayout(r->var->type.layout, t.layout))
    return nullptr;
  auto it = varNames_.find(r->var->id);
  return it == varNames_.end() ? nullptr : &it->second;
}

template <class F>
void KernelEmitter::forEachElem(const Type &t, F body, int vecDim, const std::string &vecStep) {
  int r = t.rank();
  auto header = [&](int d) {
    const std::string &i = idxNames_[d];
    std::string step = d == vecDim ? i + " += " + vecStep : "++" + i;
    return "for (int " + i + " = 0; " + i + " < " + elemCount(t, d) + "; " + step + ")";
  };
  CodeWriter &w = *w_;
  w.line("TILEC_UNROLL");
  if (r == 1) {
    auto s = w.block(header(0));
    body(Idx{idxNames_[0]});
  } else {
    auto s = w.block(header(0));
    w.line("TILEC_UNROLL");
    auto s2 = w.block(header(1));
    body(Idx{idxNames_[0], idxNames_[1]});
  }
}

std::string KernelEmitter::opType(ReduceOp op) {
  switch (op) {
  case ReduceOp::Sum: return "tilec::rt::Sum";
  case ReduceOp::Max: return "tilec::rt::Max";
  case ReduceOp::Min: return "tilec::rt::Min";
  case ReduceOp::ArgMax: return "tilec::rt::ArgMax";
  case ReduceOp::ArgMin: return "tilec::rt::ArgMin";
  }
  return "";
}

int64_t KernelEmitter::partStride(const SharedBuffer &b) {
  if (b.shape.size() <= 1)
    return 1;
  int64_t n = 1;
  for (size_t d = 1; d < b.shape.size(); ++d)
    n *= b.shape[d];
  return b.rowStride > n ? b.rowStride : n;
}

void KernelEmitter::provenance(const SourceLoc &loc) {
  if (!loc.valid() || (loc.file == lastFile_ && loc.line == lastLine_))
    return;
  if (loc.file >= static_cast<int>(m_.files.size()))
    return;
  lastFile_ = loc.file;
  lastLine_ = loc.line;
  const SourceFile &f = m_.files[loc.file];
  if (opts_.lineDirectives)
    w_->raw("#line " + std::to_string(loc.line) + " \"" + f.name + "\"");
  if (!opts_.provenance)
    return;
  std::string text = loc.line <= static_cast<int>(f.lines.size()) ? trim(f.lines[loc.line - 1]) : "";
  w_->line("// " + f.name + ":" + std::to_string(loc.line) + (text.empty() ? "" : ": " + text));
}

void KernelEmitter::tileLoad(const std::string &dst, const Type &t, const Load *ld) {
  const Layout &l = *t.layout;
  if (ld->vec <= 1) {
    forEachElem(t, [&](const Idx &idx) {
      std::string target = dst;
      for (const auto &i : idx)
        target += "[" + i + "]";
      std::string d = deref(ld->ptr, idx);
      if (!ld->mask) {
        w_->line(target + " = " + d + ";");
        return;
      }
      std::string other = ld->other ? operand(elem(ld->other, idx), Prec::LogicalOr) : zero(t);
      w_->line(target + " = " + operand(elem(ld->mask, idx), Prec::LogicalOr) + " ? " + d + " : " +
               other + ";");
    });
    return;
  }
  int vd = l.kind == Layout::Kind::Blocked ? l.order[0] : 0;
  const std::string &vec = vecNames_.at(ld);
  LayoutGeometry g = geometry(l, t.shape);
  if (g.elemsPerThread[vd] % ld->vec)
    internalError("load vector width does not divide the per-thread elements");
  std::string T = cppType(t, hooks_);
  std::string stride = vecStride(t, vd);
  const std::string *maskVar = ld->mask ? directTile(ld->mask, t) : nullptr;
  bool uniformOther = !ld->mask || !ld->other || !ld->other->type.isTile() || as<Splat>(ld->other);
  // One call into the thread's own storage when the mask is a variable (or absent) and `other` is
  // one value; a mask computed per element goes through a `bits` temporary (stride 1 only).
  bool direct = uniformOther && (!ld->mask || maskVar || stride.empty());
  forEachElem(t, [&](const Idx &idx) {
    Idx vi = idx;
    vi[vd] = idx[vd] + " + " + vecIdx_;
    std::string addr = elem(ld->ptr, idx).text;
    if (direct) {
      std::string mask;
      if (ld->mask && maskVar) {
        mask = "&" + indexed(*maskVar, idx);
      } else if (ld->mask) {
        w_->line("bool " + bitsName_ + "[" + vec + "];");
        w_->line("TILEC_UNROLL");
        w_->line("for (int " + vecIdx_ + " = 0; " + vecIdx_ + " < " + vec + "; ++" + vecIdx_ + ")");
        auto in = w_->indent();
        w_->line(bitsName_ + "[" + vecIdx_ + "] = " + elem(ld->mask, vi).text + ";");
        mask = bitsName_;
      }
      std::string other = !ld->mask ? "" : ld->other ? elem(ld->other, idx).text : zero(t);
      std::vector<std::string> args{"&" + indexed(dst, idx), addr};
      if (ld->mask) {
        args.push_back(mask);
        args.push_back(other);
      }
      call("tilec::rt::load_vec<" + vec + ", " + (ld->aligned ? "true" : "false") +
               (stride.empty() ? "" : ", " + stride) + ">(",
           args, ");");
      return;
    }
    // General form: load into temporaries, then pick `other` per element where masked off.
    w_->line(T + " " + valsName_ + "[" + vec + "];");
    w_->line("bool " + bitsName_ + "[" + vec + "];");
    w_->line("TILEC_UNROLL");
    w_->line("for (int " + vecIdx_ + " = 0; " + vecIdx_ + " < " + vec + "; ++" + vecIdx_ + ")");
    {
      auto in = w_->indent();
      w_->line(bitsName_ + "[" + vecIdx_ + "] = " + elem(ld->mask, vi).text + ";");
    }
    call("tilec::rt::load_vec<" + vec + ", " + (ld->aligned ? "true" : "false") + ">(",
         {valsName_, addr, bitsName_, zero(t)}, ");");
    w_->line("TILEC_UNROLL");
    w_->line("for (int " + vecIdx_ + " = 0; " + vecIdx_ + " < " + vec + "; ++" + vecIdx_ + ")");
    auto in = w_->indent();
    std::string other = ld->other ? operand(elem(ld->other, vi), Prec::LogicalOr) : zero(t);
    w_->line(indexed(dst, vi) + " = " + bitsName_ + "[" + vecIdx_ + "] ? " + valsName_ + "[" + vecIdx_ +
             "] : " + other + ";");
  }, vd, vec);
}

void KernelEmitter::store(const Store *st) {
  const Type &pt = st->ptr->type;
  if (pt.isScalar()) {
    std::string cond = "threadIdx.x == 0";
    if (st->mask)
      cond += " && " + operand(scalar(st->mask), Prec::LogicalAnd);
    w_->line("if (" + cond + ")  // one thread stores a scalar");
    auto in = w_->indent();
    w_->line(deref(st->ptr, {}) + " = " + scalar(st->value).text + ";");
    return;
  }
  const Layout &l = *pt.layout;
  LayoutGeometry g = geometry(l, pt.shape);
  bool replicated = l.kind == Layout::Kind::Slice;
  for (size_t d = 0; d < pt.shape.size(); ++d)
    replicated = replicated || pt.shape[d] < g.coverage[d];
  std::unique_ptr<CodeWriter::Scope> owner;
  if (replicated)
    owner = std::make_unique<CodeWriter::Scope>(*w_, "if (" + layoutName(pt) + "::is_owner())  // replicas skip", "");
  if (st->vec <= 1) {
    forEachElem(pt, [&](const Idx &idx) {
      std::string s = deref(st->ptr, idx) + " = " + elem(st->value, idx).text + ";";
      if (!st->mask) {
        w_->line(s);
        return;
      }
      w_->line("if (" + elem(st->mask, idx).text + ")");
      auto in = w_->indent();
      w_->line(s);
    });
    return;
  }
  int vd = l.kind == Layout::Kind::Blocked ? l.order[0] : 0;
  const std::string &vec = vecNames_.at(st);
  if (g.elemsPerThread[vd] % st->vec)
    internalError("store vector width does not divide the per-thread elements");
  std::string T = cppType(st->value->type, hooks_);
  std::string stride = vecStride(pt, vd);
  const std::string *valueVar = directTile(st->value, pt);
  const std::string *maskVar = st->mask ? directTile(st->mask, pt) : nullptr;
  // Variables are passed as they are (elements `stride` apart); a value or mask computed per
  // element goes through a VEC-element temporary, which has stride 1: with a stride, both do.
  bool strided = !stride.empty() && !(valueVar && (!st->mask || maskVar));
  if (strided) {
    valueVar = nullptr;
    maskVar = nullptr;
  }
  forEachElem(pt, [&](const Idx &idx) {
    Idx vi = idx;
    vi[vd] = idx[vd] + " + " + vecIdx_;
    bool tmpValue = !valueVar, tmpMask = st->mask && !maskVar;
    if (tmpValue)
      w_->line(T + " " + valsName_ + "[" + vec + "];");
    if (tmpMask)
      w_->line("bool " + bitsName_ + "[" + vec + "];");
    if (tmpValue || tmpMask) {
      w_->line("TILEC_UNROLL");
      std::string header = "for (int " + vecIdx_ + " = 0; " + vecIdx_ + " < " + vec + "; ++" + vecIdx_ + ")";
      std::unique_ptr<CodeWriter::Scope> braces;
      std::unique_ptr<CodeWriter::Indent> in;
      if (tmpValue && tmpMask)
        braces = std::make_unique<CodeWriter::Scope>(*w_, header, "");
      else {
        w_->line(header);
        in = std::make_unique<CodeWriter::Indent>(*w_);
      }
      if (tmpValue)
        w_->line(valsName_ + "[" + vecIdx_ + "] = " + elem(st->value, vi).text + ";");
      if (tmpMask)
        w_->line(bitsName_ + "[" + vecIdx_ + "] = " + elem(st->mask, vi).text + ";");
    }
    std::string value = tmpValue ? valsName_ : "&" + indexed(*valueVar, idx);
    std::string mask = !st->mask ? "" : tmpMask ? bitsName_ : "&" + indexed(*maskVar, idx);
    bool useStride = !stride.empty() && !tmpValue;
    std::vector<std::string> args{elem(st->ptr, idx).text, value};
    if (st->mask)
      args.push_back(mask);
    call("tilec::rt::store_vec<" + vec + ", " + (st->aligned ? "true" : "false") +
             (useStride ? ", " + stride : "") + ">(",
         args, ");");
  }, vd, vec);
}

void KernelEmitter::threadReduce(const std::string &dst, const Type &dstType, const ThreadReduce *r,
                                 bool isDecl) {
  const Type &src = r->a->type;
  std::string L = layoutName(src);
  std::string op = opType(r->op);
  bool pair = r->op == ReduceOp::ArgMax || r->op == ReduceOp::ArgMin;
  auto value = [&](const Idx &idx) {
    Code v = elem(r->a, idx);
    if (pair) {
      std::string c = L + "::coord" + (src.rank() == 1 ? "0" : std::to_string(r->axis)) + "(" + idx[r->axis] + ")";
      return "tilec::rt::make_pair(" + v.text + ", " + c + ")";
    }
    if (src.elem != dstType.elem)
      return cast(v, src, dstType.elem).text;
    return v.text;
  };
  const std::string &red = idxNames_[r->axis];
  if (src.rank() == 1) {
    if (!dstType.isScalar())
      internalError("thread_reduce of a 1-D tile must give a scalar");
    w_->line((isDecl ? cppType(dstType, hooks_) + " " : "") + dst + " = " + value({"0"}) + ";");
    w_->line("TILEC_UNROLL");
    w_->line("for (int " + red + " = 1; " + red + " < " + L + "::ELEMS; ++" + red + ")");
    auto in = w_->indent();
    call(dst + " = " + op + "::combine(", {dst, value({red})}, ");");
    return;
  }
  if (src.rank() != 2 || dstType.rank() != 1)
    internalError("thread_reduce shapes");
  int keep = 1 - r->axis;
  const std::string &k = idxNames_[keep];
  w_->line("TILEC_UNROLL");
  auto s = w_->block("for (int " + k + " = 0; " + k + " < " + L + "::ELEMS" + std::to_string(keep) +
                     "; ++" + k + ")");
  Idx first(2), each(2);
  first[keep] = k;
  first[r->axis] = "0";
  each[keep] = k;
  each[r->axis] = red;
  std::string target = dst + "[" + k + "]";
  w_->line(target + " = " + value(first) + ";");
  w_->line("TILEC_UNROLL");
  w_->line("for (int " + red + " = 1; " + red + " < " + L + "::ELEMS" + std::to_string(r->axis) +
           "; ++" + red + ")");
  auto in = w_->indent();
  call(target + " = " + op + "::combine(", {target, value(each)}, ");");
}

void KernelEmitter::assignValue(const Var &v, const Expr &value, bool isDecl) {
  const Type &t = v->type;
  std::string name = varNames_[v->id];
  if (t.isScalar()) {
    if (auto r = as<ThreadReduce>(value))
      return threadReduce(name, t, r, isDecl);
    std::string target = isDecl ? varDecl(v, !assigned_.count(v->id)) : name;
    if (auto wr = as<WarpReduce>(value)) {
      std::vector<std::string> args{scalar(wr->a).text};
      for (int m : wr->laneMasks)
        args.push_back(std::to_string(m));
      return call(target + " = tilec::rt::warp_allreduce<" + opType(wr->op) + ">(", args, ");");
    }
    if (auto sr = as<SharedRead>(value)) {
      if (!sr->combine)
        internalError("shared_read of a scalar");
      return call(target + " = tilec::rt::combine_partials<" + opType(sr->op) + ", " +
                      std::to_string(sr->numParts) + ">(",
                  {bufferNames_.at(sr->buffer), std::to_string(partStride(k_.buffers.at(sr->buffer)))},
                  ");");
    }
    w_->line(target + " = " + scalar(value).text + ";");
    return;
  }
  if (isDecl)
    w_->line(varDecl(v) + ";");
  if (!value)
    return;
  if (!sameLayout(value->type.layout, t.layout) && !as<ThreadReduce>(value))
    internalError("value of '" + v->name + "' in another layout than the variable");
  if (auto ld = as<Load>(value))
    return tileLoad(name, t, ld);
  if (auto r = as<ThreadReduce>(value))
    return threadReduce(name, t, r, false);
  if (auto wr = as<WarpReduce>(value)) {
    forEachElem(t, [&](const Idx &idx) {
      std::vector<std::string> args{elem(wr->a, idx).text};
      for (int m : wr->laneMasks)
        args.push_back(std::to_string(m));
      call(lhs(v, idx) + " = tilec::rt::warp_allreduce<" + opType(wr->op) + ">(", args, ");");
    });
    return;
  }
  if (auto sr = as<SharedRead>(value)) {
    const SharedBuffer &b = k_.buffers.at(sr->buffer);
    const std::string &buf = bufferNames_.at(sr->buffer);
    std::string L = layoutName(t);
    if (sr->combine) {
      if (t.rank() != 1)
        internalError("shared_combine into a rank-2 tile");
      forEachElem(t, [&](const Idx &idx) {
        call(lhs(v, idx) + " = tilec::rt::combine_partials<" + opType(sr->op) + ", " +
                 std::to_string(sr->numParts) + ">(",
             {buf + " + " + L + "::coord0(" + idx[0] + ")", std::to_string(partStride(b))}, ");");
      });
      return;
    }
    forEachElem(t, [&](const Idx &idx) {
      std::string at = t.rank() == 1 ? L + "::coord0(" + idx[0] + ")"
                                     : L + "::coord0(" + idx[0] + ") * " + std::to_string(b.rowStride) +
                                           " + " + L + "::coord1(" + idx[1] + ")";
      w_->line(lhs(v, idx) + " = " + buf + "[" + at + "];");
    });
    return;
  }
  forEachElem(t, [&](const Idx &idx) { w_->line(lhs(v, idx) + " = " + elem(value, idx).text + ";"); });
}

void KernelEmitter::sharedWritePartials(const SharedWrite *sw) {
  Type src;
  src.shape = sw->srcShape;
  src.layout = sw->srcLayout;
  std::string L = layoutName(src);
  std::string a = std::to_string(sw->axis);
  const std::string &buf = bufferNames_.at(sw->buffer);
  std::string stride = std::to_string(partStride(k_.buffers.at(sw->buffer)));
  std::string slot = L + "::warp_coord" + a + "()";
  auto s = w_->block("if (" + L + "::lane_coord" + a + "() == 0 && " + L +
                     "::is_owner())  // one lane per warp writes its partial");
  const Type &vt = sw->value->type;
  if (vt.isScalar()) {
    w_->line(buf + "[" + slot + "] = " + scalar(sw->value).text + ";");
    return;
  }
  std::string Ls = layoutName(vt);
  forEachElem(vt, [&](const Idx &idx) {
    w_->line(buf + "[" + slot + " * " + stride + " + " + Ls + "::coord0(" + idx[0] + ")] = " +
             elem(sw->value, idx).text + ";");
  });
}

void KernelEmitter::sharedWriteTile(const SharedWrite *sw) {
  const Type &t = sw->value->type;
  const SharedBuffer &b = k_.buffers.at(sw->buffer);
  const std::string &buf = bufferNames_.at(sw->buffer);
  std::string L = layoutName(t);
  LayoutGeometry g = geometry(*t.layout, t.shape);
  bool replicated = t.layout->kind == Layout::Kind::Slice;
  for (size_t d = 0; d < t.shape.size(); ++d)
    replicated = replicated || t.shape[d] < g.coverage[d];
  std::unique_ptr<CodeWriter::Scope> owner;
  if (replicated)
    owner = std::make_unique<CodeWriter::Scope>(*w_, "if (" + L + "::is_owner())  // one writer per element", "");
  forEachElem(t, [&](const Idx &idx) {
    std::string at = t.rank() == 1 ? L + "::coord0(" + idx[0] + ")"
                                   : L + "::coord0(" + idx[0] + ") * " + std::to_string(b.rowStride) +
                                         " + " + L + "::coord1(" + idx[1] + ")";
    w_->line(buf + "[" + at + "] = " + elem(sw->value, idx).text + ";");
  });
}

void KernelEmitter::stmt(const Stmt &s) {
  if (!s)
    return;
  if (s->kind != StmtKind::Block)
    provenance(s->loc);
  switch (s->kind) {
  case StmtKind::Block:
    for (const Stmt &c : as<Block>(s)->stmts)
      stmt(c);
    return;
  case StmtKind::Decl: {
    auto d = as<Decl>(s);
    assignValue(d->var, d->init, true);
    if (!read_.count(d->var->id))
      w_->line("(void)" + varNames_[d->var->id] + ";  // never read");
    return;
  }
  case StmtKind::Assign: {
    auto a = as<Assign>(s);
    assignValue(a->var, a->value, false);
    return;
  }
  case StmtKind::Store: return store(as<Store>(s));
  case StmtKind::For: {
    auto f = as<For>(s);
    std::string v = varNames_[f->var->id];
    std::string T = cppType(f->var->type, hooks_);
    auto st = as<IntImm>(f->step);
    std::string step = st && st->value == 1 && st->symbol.empty() ? "++" + v
                                                                  : v + " += " + scalar(f->step).text;
    if (f->unroll)
      w_->line("TILEC_UNROLL");
    auto b = w_->block("for (" + T + " " + v + " = " + scalar(f->begin).text + "; " + v + " < " +
                       operand(scalar(f->end), Prec::Relational, true) + "; " + step + ")");
    stmt(f->body);
    return;
  }
  case StmtKind::While: {
    auto wh = as<While>(s);
    auto b = w_->block("while (" + scalar(wh->cond).text + ")");
    stmt(wh->body);
    return;
  }
  case StmtKind::If: {
    auto i = as<If>(s);
    {
      auto b = w_->block("if (" + scalar(i->cond).text + ")");
      stmt(i->thenS);
    }
    if (i->elseS) {
      auto b = w_->block("else");
      stmt(i->elseS);
    }
    return;
  }
  case StmtKind::Barrier: w_->line("__syncthreads();"); return;
  case StmtKind::SharedWrite: {
    auto sw = as<SharedWrite>(s);
    if (sw->buffer < 0 || sw->buffer >= static_cast<int>(k_.buffers.size()))
      internalError("shared_write to an unknown buffer");
    return sw->partials ? sharedWritePartials(sw) : sharedWriteTile(sw);
  }
  }
}

// ---- the kernel ---------------------------------------------------------------------------------

void KernelEmitter::emit(CodeWriter &w) {
  w_ = &w;
  // The body is printed first into its own writer: it is what registers the layouts' users'
  // names; the tunables block above it is complete only afterwards.
  CodeWriter body;
  w_ = &body;
  {
    auto ind = body.indent();
    for (size_t b = 0; b < k_.buffers.size(); ++b) {
      const SharedBuffer &buf = k_.buffers[b];
      if (buf.offsetBytes < 0)
        internalError("shared buffer '" + buf.name + "' was not allocated");
      std::string T = cppType(buf.elemType, hooks_);
      body.line(T + " *" + bufferNames_[b] + " = reinterpret_cast<" + T + " *>(smem + " +
                std::to_string(buf.offsetBytes) + ");");
    }
    stmt(k_.body);
  }
  w_ = &w;

  // Namespace contents are not indented (LLVM style).
  w.line("// " + k_.name + k_.templateArgs + (k_.templateArgs.empty() ? "" : ": one instantiation"));
  w.line("namespace " + k_.instanceName + " {");
  bool metaNumWarps = std::any_of(k_.metaParams.begin(), k_.metaParams.end(),
                                  [&](const MetaParam &p) { return p.name == numWarpsName_; });
  if (metaNumWarps)
    usedMeta_.insert(numWarpsName_); // NUM_THREADS below
  // Meta-parameters the code does not name (folded into literals, or only in the grid) stay listed
  // for the expert, marked so that the compilers do not warn.
  for (const MetaParam &p : k_.metaParams)
    w.line(std::string(usedMeta_.count(p.name) ? "" : "[[maybe_unused]] ") + "constexpr " +
           (p.isBool ? "bool " : "int ") + p.name + " = " +
           (p.isBool ? (p.value ? "true" : "false") : std::to_string(p.value)) + ";  // meta-parameter");
  if (!metaNumWarps)
    w.line("constexpr int " + numWarpsName_ + " = " + std::to_string(k_.settings.numWarps) +
           ";  // warps per block");
  w.line("constexpr int NUM_THREADS = " + numWarpsName_ + " * TILEC_WARP_SIZE;  // threads per block");
  for (const std::string &t : tunables_)
    w.line(t);
  for (const LayoutAlias &a : aliases_) {
    w.lines(commentLines(a.comment, 0));
    std::string decl = "using " + a.name + " = " + a.type + ";";
    if (decl.size() <= static_cast<size_t>(kColumnLimit)) {
      w.line(decl);
    } else {
      w.line("using " + a.name + " =");
      w.line("    " + a.type + ";");
    }
  }
  if (!k_.buffers.empty())
    w.line("constexpr int SMEM_BYTES = " + std::to_string(k_.sharedBytes) +
           ";  // shared memory per block");
  w.line("");
  // Parameters the body never reads (e.g. only the launch grid uses them) are unnamed, the name in
  // a comment: no unused-parameter warnings, and the launcher's parameter list still matches.
  std::vector<std::string> params;
  for (size_t i = 0; i < k_.params.size(); ++i)
    params.push_back(paramDecl(k_.params[i]->type, paramNames_[i], hooks_,
                               !read_.count(k_.params[i]->id)));
  w.lines(wrapList("__global__ void __launch_bounds__(NUM_THREADS) " + k_.name + "(", params, ") {", 0));
  if (!k_.buffers.empty())
    w.line("  alignas(16) __shared__ unsigned char smem[SMEM_BYTES];");
  w.append(body);
  w.line("}");
  w.line("");
  w.line("} // namespace " + k_.instanceName);
}

} // namespace tilec::emitters
