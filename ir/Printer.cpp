#include "ir/Printer.h"

#include <map>
#include <sstream>

namespace tilec::ir {

namespace {
/// ` [cg, evict_first, volatile]`: a load's or store's hints, "" without any.
std::string hintsText(const MemHints &h) {
  if (!h.any())
    return "";
  std::string t;
  auto add = [&](const std::string &x) { t += (t.empty() ? "" : ", ") + x; };
  if (h.cache != CacheModifier::None)
    add(name(h.cache));
  if (h.evict != EvictionPolicy::Normal)
    add(name(h.evict));
  if (h.isVolatile)
    add("volatile");
  return " [" + t + "]";
}

class Printer {
public:
  Printer(std::ostream &os, const Module *m, PrintOptions opts) : os(os), mod(m), opts(opts) {}

  void kernel(const Kernel &k) {
    names.clear();
    used.clear();
    collectLayouts(k);
    os << "kernel @";
    for (const EnclosingNamespace &ns : k.scope)
      os << ns.name << "::";
    os << k.name << k.templateArgs << " instance=" << k.instanceName
       << " num_warps=" << k.settings.numWarps;
    if (k.warpSize != 32)
      os << " warp_size=" << k.warpSize;
    if (k.producerThreads)
      os << " producer_threads=" << k.producerThreads;
    os << " {\n";
    for (auto &mp : k.metaParams) {
      os << "  meta " << mp.name;
      if (!mp.type.empty() && mp.type != "int")
        os << ": " << mp.type << " = " << mp.literal << '\n';
      else
        os << " = " << mp.value << '\n';
    }
    for (auto &p : k.params)
      os << "  param " << var(p) << ": " << typeStr(p->type) << '\n';
    if (k.programs) // a persistent kernel: the launch's programs
      os << "  param " << var(k.programs) << ": " << typeStr(k.programs->type) << " programs\n";
    for (size_t i = 0; i < k.buffers.size(); ++i) {
      auto &b = k.buffers[i];
      os << "  shared " << i << " " << b.name << ": " << typeStr(b.elemType) << '[';
      for (size_t d = 0; d < b.shape.size(); ++d)
        os << (d ? "x" : "") << b.shape[d];
      os << "] row_stride=" << b.rowStride;
      if (b.stages != 1)
        os << " stages=" << b.stages;
      if (b.swizzle.on())
        os << " swizzle=" << b.swizzle.vec << "/" << b.swizzle.perPhase << "/"
           << b.swizzle.maxPhase;
      if (b.colBlock)
        os << " col_block=" << b.colBlock;
      if (b.alignBytes != 16)
        os << " align=" << b.alignBytes;
      if (b.tma)
        os << " tma(param " << b.tma->param << ", rows " << expr(b.tma->rows) << ", cols "
           << expr(b.tma->cols) << ", row_stride " << expr(b.tma->rowStride) << ", ring "
           << b.tma->ring << ")";
      os << " bytes=" << b.sizeBytes;
      if (b.offsetBytes >= 0)
        os << " offset=" << b.offsetBytes;
      os << '\n';
    }
    if (k.sharedBytes)
      os << "  shared_bytes = " << k.sharedBytes << '\n';
    for (size_t i = 0; i < k.combines.size(); ++i) {
      const CombineFunction &c = k.combines[i];
      os << "  combine" << i << "(" << var(c.a) << ", " << var(c.b) << ") = " << expr(c.body)
         << '\n';
    }
    for (size_t i = 0; i < k.asms.size(); ++i) {
      const AsmFunction &a = k.asms[i];
      os << "  inline_asm" << i << "(";
      for (size_t p = 0; p < a.params.size(); ++p)
        os << (p ? ", " : "") << var(a.params[p]);
      os << ") = \"" << a.text << "\" \"" << a.constraints << "\" else " << expr(a.reference)
         << '\n';
    }
    for (auto &[alias, text] : aliasList)
      os << "  " << alias << " = " << text << '\n';
    indent = 1;
    if (auto *b = as<Block>(k.body))
      for (auto &s : b->stmts)
        stmt(s);
    else
      stmt(k.body);
    os << "}\n";
  }

  void stmt(const Stmt &s) {
    if (!s)
      return;
    pad();
    switch (s->kind) {
    case StmtKind::Block: {
      os << "{";
      endLine(s);
      ++indent;
      for (auto &c : as<Block>(s)->stmts)
        stmt(c);
      --indent;
      pad();
      os << "}\n";
      return;
    }
    case StmtKind::Decl: {
      auto *d = as<Decl>(s);
      os << "decl " << var(d->var) << ": " << typeStr(d->var->type);
      if (d->init)
        os << " = " << expr(d->init);
      break;
    }
    case StmtKind::Assign: {
      auto *a = as<Assign>(s);
      os << var(a->var) << " = " << expr(a->value);
      break;
    }
    case StmtKind::Store: {
      auto *st = as<Store>(s);
      if (st->result)
        os << var(st->result) << " = ";
      if (st->atomic != AtomicOp::None)
        os << "atomic_" << name(st->atomic) << '.' << name(st->sem) << '.' << name(st->scope)
           << '(';
      else
        os << "store(";
      os << expr(st->ptr);
      if (st->cmp)
        os << ", cmp=" << expr(st->cmp);
      os << ", " << expr(st->value);
      if (st->mask)
        os << ", mask=" << expr(st->mask);
      os << ')' << hintsText(st->hints);
      if (st->vec != 1 || st->aligned)
        os << " {vec=" << st->vec << (st->aligned ? ", aligned" : "")
           << (st->maskAtLast ? ", mask_at_last" : "")
           << (st->maskAllOrNone ? ", mask_all_or_none" : "") << '}';
      break;
    }
    case StmtKind::For: {
      auto *f = as<For>(s);
      os << (f->unroll ? "static_for " : "for ") << var(f->var) << " = " << expr(f->begin)
         << (f->inclusive ? " through " : " to ") << expr(f->end) << " step " << expr(f->step) << ' ';
      if (f->numStages)
        os << "num_stages=" << f->numStages << ' ';
      body(f->body, s);
      return;
    }
    case StmtKind::While: {
      auto *w = as<While>(s);
      os << "while " << expr(w->cond) << ' ';
      body(w->body, s);
      return;
    }
    case StmtKind::If: {
      auto *i = as<If>(s);
      os << "if " << expr(i->cond) << ' ';
      if (i->prefetch != Prefetch::None) // the software pipelines' branches (ir::Prefetch)
        os << (i->prefetch == Prefetch::FirstIteration  ? "prefetch(first) "
               : i->prefetch == Prefetch::NextIteration ? "prefetch(next) "
               : i->prefetch == Prefetch::PipelineFirst ? "pipeline(first) "
               : i->prefetch == Prefetch::PipelineNext  ? "pipeline(next) "
               : i->prefetch == Prefetch::StageNext     ? "pipeline(stage) "
                                                        : "pipeline(phase) ");
      if (i->earlyReturn)
        os << "return ";
      if (!i->elseS) {
        body(i->thenS, s);
        return;
      }
      body(i->thenS, s);
      pad();
      os << "else ";
      body(i->elseS, nullptr);
      return;
    }
    case StmtKind::Barrier: {
      os << "barrier";
      auto *b = as<Barrier>(s);
      if (b->debug) // tl::debug_barrier()
        os << " debug";
      if (b->globalEarlier.valid()) // orders global memory: the earlier access's line
        os << " global(" << (b->globalEarlierWrite ? "store" : "load") << " " << b->globalEarlier.line
           << " -> " << (b->globalLaterInLoop ? "loop's " : "") << (b->globalLaterWrite ? "store" : "load") << ")";
      break;
    }
    case StmtKind::Assert: {
      auto *a = as<Assert>(s);
      os << "device_assert(" << expr(a->cond) << ", \"" << a->message << "\")";
      break;
    }
    case StmtKind::Print: {
      auto *p = as<Print>(s);
      os << "device_print(\"" << p->prefix << "\"";
      if (p->value)
        os << ", " << expr(p->value) << ", operand " << p->operand << " of " << p->operands;
      os << (p->hex ? ", hex)" : ")");
      break;
    }
    case StmtKind::AsyncCopy: {
      auto *c = as<AsyncCopy>(s);
      if (c->tma()) {
        os << "tma_copy " << c->buffer << "[" << expr(c->stage) << "], box at (" << expr(c->row)
           << ", " << expr(c->col) << ")";
        break;
      }
      os << "async_copy " << c->buffer << "[" << expr(c->stage) << "], " << expr(c->ptr);
      if (c->mask)
        os << ", mask=" << expr(c->mask);
      os << " vec=" << c->vec;
      break;
    }
    case StmtKind::AsyncCommit: os << "async_commit"; break;
    case StmtKind::AsyncWait: {
      auto *w = as<AsyncWait>(s);
      if (w->tma())
        os << "tma_wait ring " << w->ring << " stage " << expr(w->stage) << " parity "
           << expr(w->phase);
      else
        os << "async_wait " << expr(w->pending);
      break;
    }
    case StmtKind::StageFree: {
      auto *f = as<StageFree>(s);
      if (f->wait())
        os << "stage_free_wait ring " << f->ring << " stage " << expr(f->stage) << " parity "
           << expr(f->phase);
      else
        os << "stage_free ring " << f->ring << " stage " << expr(f->stage);
      break;
    }
    case StmtKind::WarpSpecialize: {
      auto *ws = as<WarpSpecialize>(s);
      os << "producer ";
      body(ws->producer, s);
      pad();
      os << "consumers ";
      body(ws->consumers, nullptr);
      return;
    }
    case StmtKind::SharedWrite: {
      auto *w = as<SharedWrite>(s);
      os << "shared_write"
         << (w->partials     ? "_partials"
             : w->scanTotals ? "_scan_totals"
             : w->count      ? "_count"
             : w->sort       ? "_sort"
                             : "")
         << " " << w->buffer;
      if (w->stage)
        os << "[" << expr(w->stage) << "]";
      os << ", " << expr(w->value);
      if (w->partials)
        os << " axis=" << w->axis << " of " << shape(w->srcShape) << ' ' << layoutStr(*w->srcLayout);
      if (w->scanTotals)
        os << " axis=" << w->axis << (w->reverse ? ", reverse" : "");
      if (w->mask)
        os << ", mask=" << expr(w->mask);
      if (w->sort && w->descending)
        os << " descending";
      break;
    }
    }
    endLine(s);
  }

  /// A reduction's or scan's op: `combine<N>` for the kernel's combine function N.
  template <class Op> static std::string opName(Op op, int combineFn) {
    return std::string(name(op)) + (combineFn >= 0 ? std::to_string(combineFn) : "");
  }

  std::string expr(const Expr &e) {
    std::ostringstream o;
    exprTo(o, e);
    return o.str();
  }

private:
  /// Blocked and mma layouts are printed once per kernel as `#blockedN = #blocked<...>` or `#mmaN =
  /// #mma<...>` (numbered in order of first appearance) and referred to by alias, so types stay
  /// short.
  void collectLayouts(const Kernel &k) {
    // A dry run of the body into a discarded stream numbers the layouts in printing order.
    std::ostringstream sink;
    Printer dry(sink, mod, opts);
    dry.collecting = true;
    for (auto &p : k.params)
      dry.typeStr(p->type);
    dry.stmt(k.body);
    aliases = std::move(dry.aliases);
    aliasList = std::move(dry.aliasList);
  }

  std::string layoutStr(const Layout &l) {
    if (l.kind == Layout::Kind::Slice)
      return "#slice<dim=" + std::to_string(l.sliceDim) + ", " + layoutStr(*l.parent) + ">";
    std::string text = l.str();
    auto it = aliases.find(text);
    if (it != aliases.end())
      return it->second;
    if (!collecting)
      return text; // not seen by the collection walk (e.g. printing a lone statement)
    std::string alias = (l.kind == Layout::Kind::Mma ? "#mma" : "#blocked") + std::to_string(aliasList.size());
    aliases[text] = alias;
    aliasList.emplace_back(alias, text);
    return alias;
  }

  std::string typeStr(const Type &t) {
    if (!t.layout)
      return t.str();
    Type bare = t.withLayout(nullptr);
    std::string s = bare.str();
    // bare.str() ends with '>' closing `tile<...`; insert the layout before it.
    return s.substr(0, s.size() - 1) + ", " + layoutStr(*t.layout) + ">";
  }

  void body(const Stmt &b, const Stmt &owner) {
    os << "{";
    if (owner)
      endLine(owner);
    else
      os << '\n';
    ++indent;
    if (auto *blk = as<Block>(b))
      for (auto &c : blk->stmts)
        stmt(c);
    else
      stmt(b);
    --indent;
    pad();
    os << "}\n";
  }

  static std::string shape(const std::vector<int64_t> &s) {
    std::string r = "[";
    for (size_t i = 0; i < s.size(); ++i)
      r += (i ? "x" : "") + std::to_string(s[i]);
    return r + "]";
  }

  void endLine(const Stmt &s) {
    if (opts.locations && s->loc.valid()) {
      os << "  loc(";
      if (mod && s->loc.file < static_cast<int>(mod->files.size()))
        os << mod->files[s->loc.file].name;
      else
        os << '#' << s->loc.file;
      os << ':' << s->loc.line << ':' << s->loc.col << ')';
    }
    os << '\n';
  }

  void pad() {
    for (int i = 0; i < indent; ++i)
      os << "  ";
  }

  std::string var(const Var &v) {
    auto it = names.find(v.get());
    if (it != names.end())
      return it->second;
    std::string base = "%" + (v->name.empty() ? std::string("v") : v->name);
    std::string n = base;
    for (int k = 1; used.count(n); ++k)
      n = base + "." + std::to_string(k);
    used[n] = true;
    names[v.get()] = n;
    return n;
  }

  void args(std::ostream &o, std::initializer_list<Expr> es) {
    bool first = true;
    for (auto &e : es) {
      if (!e)
        continue;
      o << (first ? "" : ", ");
      first = false;
      exprTo(o, e);
    }
  }

  /// The end of a dot's or shared_dot's text: the accumulator, a precision other than ieee, `)`.
  void dotTail(std::ostream &o, const Expr &acc, DotPrecision precision) {
    if (acc) {
      o << ", acc=";
      exprTo(o, acc);
    }
    if (precision != DotPrecision::Ieee)
      o << ", precision=" << name(precision);
    o << ')';
  }
  void exprTo(std::ostream &o, const Expr &e) {
    switch (e->kind) {
    case ExprKind::IntImm:
      o << as<IntImm>(e)->value << ':' << name(e->type.elem);
      if (!as<IntImm>(e)->symbol.empty())
        o << '{' << as<IntImm>(e)->symbol << '}';
      return;
    case ExprKind::FloatImm: {
      std::ostringstream v;
      v.precision(17);
      v << as<FloatImm>(e)->value;
      o << v.str() << ':' << name(e->type.elem);
      if (!as<FloatImm>(e)->symbol.empty())
        o << '{' << as<FloatImm>(e)->symbol << '}';
      return;
    }
    case ExprKind::VarRef:
      o << var(as<VarRef>(e)->var);
      return;
    case ExprKind::Unary:
      o << name(as<Unary>(e)->op) << '(';
      args(o, {as<Unary>(e)->a});
      o << ')';
      return;
    case ExprKind::Binary: {
      auto *b = as<Binary>(e);
      o << name(b->op) << '(';
      args(o, {b->a, b->b});
      o << ')';
      return;
    }
    case ExprKind::Math: {
      auto *m = as<Math>(e);
      o << name(m->op);
      if (m->op == MathOp::InlineAsm)
        o << m->asmFn << (m->asmEffects ? "!" : "");
      o << '(';
      for (size_t i = 0; i < m->args.size(); ++i) {
        o << (i ? ", " : "");
        exprTo(o, m->args[i]);
      }
      o << ')';
      return;
    }
    case ExprKind::Select: {
      auto *s = as<Select>(e);
      o << "select(";
      args(o, {s->cond, s->a, s->b});
      o << ')';
      return;
    }
    case ExprKind::Cast:
      o << (as<Cast>(e)->mode == CastMode::Bitcast ? "bitcast<" : "cast<") << name(e->type.elem)
        << ">(";
      exprTo(o, as<Cast>(e)->a);
      o << (as<Cast>(e)->mode == CastMode::ConvertTowardZero ? ", rtz)" : ")");
      return;
    case ExprKind::ProgramId: {
      auto *p = as<ProgramId>(e);
      o << (p->count ? "num_programs(" : "program_id(") << p->axis << ')';
      return;
    }
    case ExprKind::Arange: {
      auto *a = as<Arange>(e);
      o << "arange(" << a->start << ", " << a->end << ')';
      break;
    }
    case ExprKind::Splat:
      o << "splat(";
      exprTo(o, as<Splat>(e)->a);
      o << ')';
      break;
    case ExprKind::ExpandDims:
      o << "expand_dims(";
      exprTo(o, as<ExpandDims>(e)->a);
      o << ", " << as<ExpandDims>(e)->axis << ')';
      break;
    case ExprKind::Broadcast:
      o << "broadcast(";
      exprTo(o, as<Broadcast>(e)->a);
      o << ')';
      break;
    case ExprKind::Trans: {
      const auto *x = as<Trans>(e);
      if (x->perm.size() == 2) {
        o << "trans(";
      } else {
        o << "permute<";
        for (size_t d = 0; d < x->perm.size(); ++d)
          o << (d ? "," : "") << x->perm[d];
        o << ">(";
      }
      exprTo(o, x->a);
      o << ')';
      break;
    }
    case ExprKind::Load: {
      auto *l = as<Load>(e);
      o << "load(";
      exprTo(o, l->ptr);
      if (l->mask) {
        o << ", mask=";
        exprTo(o, l->mask);
      }
      if (l->other) {
        o << ", other=";
        exprTo(o, l->other);
      }
      o << ')' << hintsText(l->hints);
      if (l->vec != 1 || l->aligned)
        o << " {vec=" << l->vec << (l->aligned ? ", aligned" : "")
          << (l->maskAtLast ? ", mask_at_last" : "")
          << (l->maskAllOrNone ? ", mask_all_or_none" : "") << '}';
      break;
    }
    case ExprKind::Reduce: {
      auto *r = as<Reduce>(e);
      o << "reduce." << opName(r->op, r->combineFn) << '(';
      exprTo(o, r->a);
      o << ", axis=" << r->axis << ')';
      break;
    }
    case ExprKind::Scan: {
      auto *r = as<Scan>(e);
      static const char *parts[] = {"scan", "warp_scan", "scan_carry"};
      o << parts[static_cast<int>(r->part)] << '.' << opName(r->op, r->combineFn) << '(';
      exprTo(o, r->a);
      if (r->part == ScanPart::Carry)
        o << ", totals=" << r->buffer;
      o << ", axis=" << r->axis << (r->reverse ? ", reverse" : "") << ')';
      break;
    }
    case ExprKind::Histogram: {
      auto *h = as<Histogram>(e);
      o << "histogram(";
      exprTo(o, h->a);
      if (h->mask) {
        o << ", mask=";
        exprTo(o, h->mask);
      }
      o << ", bins=" << h->numBins << ')';
      break;
    }
    case ExprKind::Sort: {
      auto *so = as<Sort>(e);
      o << "sort(";
      exprTo(o, so->a);
      o << ", keep=" << so->type.shape.back() << (so->descending ? ", descending" : "") << ')';
      break;
    }
    case ExprKind::Reshape: {
      auto *r = as<Reshape>(e);
      o << name(r->how) << '(';
      exprTo(o, r->a);
      if (r->b) {
        o << ", ";
        exprTo(o, r->b);
      }
      o << ')';
      break;
    }
    case ExprKind::Gather: {
      auto *g = as<Gather>(e);
      o << "gather(";
      exprTo(o, g->src);
      o << ", ";
      exprTo(o, g->index);
      o << ", axis=" << g->axis << ')';
      break;
    }
    case ExprKind::Dot: {
      auto *d = as<Dot>(e);
      o << "dot(";
      exprTo(o, d->a);
      o << ", ";
      exprTo(o, d->b);
      dotTail(o, d->acc, d->precision);
      break;
    }
    case ExprKind::Hint: {
      auto *h = as<Hint>(e);
      o << name(h->hint) << '(';
      exprTo(o, h->a);
      o << ", " << shape(h->values) << ')';
      break;
    }
    case ExprKind::ConvertLayout:
      o << "convert_layout(";
      exprTo(o, as<ConvertLayout>(e)->a);
      o << ')';
      break;
    case ExprKind::ThreadReduce: {
      auto *r = as<ThreadReduce>(e);
      o << "thread_reduce." << opName(r->op, r->combineFn) << '(';
      exprTo(o, r->a);
      o << ", axis=" << r->axis << ')';
      break;
    }
    case ExprKind::WarpReduce: {
      auto *r = as<WarpReduce>(e);
      o << "warp_reduce." << opName(r->op, r->combineFn) << '(';
      exprTo(o, r->a);
      o << ", lanes=[";
      for (size_t i = 0; i < r->laneMasks.size(); ++i)
        o << (i ? "," : "") << r->laneMasks[i];
      o << "], warp_size=" << r->warpSize << ')';
      return;
    }
    case ExprKind::SharedRead: {
      auto *r = as<SharedRead>(e);
      if (r->combine)
        o << "shared_combine." << opName(r->op, r->combineFn) << '(' << r->buffer
          << ", parts=" << r->numParts << ')';
      else if (r->index) {
        o << "shared_read(" << r->buffer << ", gather axis=" << r->gatherAxis << " at ";
        exprTo(o, r->index);
        o << ')';
      } else if (r->prefix) {
        o << "shared_read(" << r->buffer << ", prefix)";
      } else if (r->reshape) {
        o << "shared_read(" << r->buffer;
        if (r->bufferB >= 0)
          o << ", " << r->bufferB;
        o << ", " << name(*r->reshape) << ')';
      } else
        o << "shared_read(" << r->buffer << ')';
      break;
    }
    case ExprKind::SharedDot: {
      auto *d = as<SharedDot>(e);
      o << "shared_dot(" << d->bufferA << (d->transA ? "^T" : "") << ", " << d->bufferB
        << (d->transB ? "^T" : "");
      if (d->stage) {
        o << ", stage=";
        exprTo(o, d->stage);
      }
      if (d->inFlight)
        o << ", in_flight";
      dotTail(o, d->acc, d->precision);
      break;
    }
    case ExprKind::PairValue:
      o << (as<PairValue>(e)->index ? "pair_index(" : "pair_value(");
      exprTo(o, as<PairValue>(e)->a);
      o << ')';
      return;
    }
    // Tile-producing structural ops print their result type, so shapes and layouts are visible.
    o << " : " << typeStr(e->type);
  }

  std::ostream &os;
  const Module *mod;
  PrintOptions opts;
  int indent = 0;
  std::map<const VarNode *, std::string> names;
  std::map<std::string, bool> used;
  std::map<std::string, std::string> aliases;                   // layout text -> alias
  std::vector<std::pair<std::string, std::string>> aliasList;   // in order of first appearance
  bool collecting = false;
};

} // namespace

void print(std::ostream &os, const Kernel &k, const Module *m, const PrintOptions &opts) {
  Printer(os, m, opts).kernel(k);
}

void print(std::ostream &os, const Module &m, const PrintOptions &opts) {
  for (size_t i = 0; i < m.kernels.size(); ++i) {
    if (i)
      os << '\n';
    print(os, m.kernels[i], &m, opts);
  }
}

std::string toString(const Expr &e) {
  std::ostringstream os;
  Printer p(os, nullptr, {});
  return p.expr(e);
}

std::string toString(const Stmt &s) {
  std::ostringstream os;
  Printer p(os, nullptr, {});
  p.stmt(s);
  return os.str();
}

} // namespace tilec::ir
