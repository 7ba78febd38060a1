// Prints one kernel instantiation as CUDA/HIP C++ (see docs/internals.md for the IR accepted here:
// the invariants after the whole pass pipeline).
//
// Tiles become per-thread arrays indexed by per-thread element indices; an elementwise expression
// tree is printed once per element inside unrolled loops, with ExpandDims/Broadcast turning into
// index choices and Arange into the layout helper's coordinates. Everything that is more than an
// expression (vector accesses, reductions, shared memory) is a call into the runtime headers.
//
// KernelEmitter's member functions are spread over three files, one per stage of printing:
//   KernelEmitter.cpp      the kernel's structure: names, vector-width tunables, layout aliases and
//                          the `namespace { tunables; __global__ kernel }` frame around the body
//   KernelEmitterExpr.cpp  C++ types and expressions, per element (device) and for the grid (host)
//   KernelEmitterStmt.cpp  statements: loads/stores, reductions, shared memory, control flow
#include "emitters/KernelEmitter.h"

#include "emitters/SourceText.h"
#include "ir/IRVisitor.h"

#include <algorithm>
#include <cctype>
#include <stdexcept>

namespace tilec::emitters {

using namespace ir;

void internalError(const std::string &what) {
  throw std::logic_error("internal error: emitter: " + what);
}

namespace {

std::string upper(const std::string &s) {
  std::string r;
  for (char c : s)
    r += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return r;
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
  if (auto x = as<Trans>(e))
    return basePointer(x->a);
  if (auto h = as<Hint>(e))
    return basePointer(h->a);
  return nullptr;
}

} // namespace

KernelEmitter::KernelEmitter(const Module &m, const Kernel &k, const EmitOptions &opts)
    : m_(m), k_(k), opts_(opts), hooks_(targetHooks(opts.target.kind)) {
  collect();
}

// ---- preparation --------------------------------------------------------------------------------

void KernelEmitter::nameVars() {
  // Kernel-scope names first, so that no local can shadow them: the user's meta-parameters (a
  // name the output needs for itself, such as `threadIdx` or `min`, gets a suffix), the kernel,
  // then the tunables tilec adds (which give way to a meta-parameter named NUM_THREADS). The
  // instantiation's namespace and launcher are reserved too: the launcher names them beside the
  // parameters.
  // The sources' macros too: host code may compile a source beside the output.
  names_.reserveAll(m_.sourceMacros);
  for (const MetaParam &p : k_.metaParams)
    metaNames_[p.name] = names_.unique(p.name);
  kernelName_ = names_.unique(k_.name);
  names_.reserve(k_.instanceName);
  names_.reserve("launch_" + k_.instanceName);
  numWarpsName_ = "NUM_WARPS";
  bool metaNumWarps = false;
  for (const MetaParam &p : k_.metaParams)
    if (p.name == "NUM_WARPS")
      metaNumWarps = p.value == k_.settings.numWarps && metaNames_[p.name] == p.name;
  if (!metaNumWarps)
    numWarpsName_ = names_.unique("NUM_WARPS");
  numThreadsName_ = names_.unique("NUM_THREADS");
  smemBytesName_ = names_.unique("SMEM_BYTES");

  // Every variable of the kernel, with the chain of scopes it is declared in (a scope is a block
  // or a for statement, numbered in pre-order). Parameters live in the root scope.
  std::map<int, Var> vars;
  std::map<int, std::vector<int>> scopeOf; // var id -> scope chain, outermost first
  for (const Var &p : k_.params) {
    vars[p->id] = p;
    scopeOf[p->id] = {0};
  }
  if (k_.programs) {
    vars[k_.programs->id] = k_.programs;
    scopeOf[k_.programs->id] = {0};
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
    std::string base = NameTable::identifier(v->name), name = base;
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
  if (k_.programs)
    programsName_ = varNames_[k_.programs->id];
  for (const SharedBuffer &b : k_.buffers)
    bufferNames_.push_back(names_.unique(b.name.empty() ? "buffer_smem" : b.name));
  // Buffers TMA fills: a tensor map parameter each (`a_tile_map` for a_tile_smem), an mbarrier
  // array per ring.
  for (size_t b = 0; b < k_.buffers.size(); ++b) {
    const SharedBuffer &buf = k_.buffers[b];
    if (!buf.tma)
      continue;
    std::string stem = bufferNames_[b];
    if (stem.size() > 5 && stem.compare(stem.size() - 5, 5, "_smem") == 0)
      stem.resize(stem.size() - 5);
    TmaMap map;
    map.buffer = static_cast<int>(b);
    map.param = names_.unique(stem + "_map");
    tmaMaps_.push_back(map);
    if (!stageFullNames_.count(buf.tma->ring)) {
      stageFullNames_[buf.tma->ring] = names_.unique("stage_full");
      stageCopiesNames_[buf.tma->ring] = names_.unique("STAGE_COPIES");
    }
  }
  // Rings the consumers of a warp-specialized kernel free stage by stage: an "empty" mbarrier
  // array each.
  forEachStmt(k_.body, [&](const Stmt &s) {
    if (auto *f = as<StageFree>(s); f && !stageEmptyNames_.count(f->ring))
      stageEmptyNames_[f->ring] = names_.unique("stage_empty");
  });
  if (k_.producerThreads) {
    producerThreadsName_ = names_.unique("PRODUCER_THREADS");
    // setmaxnreg: a block of consumers plus the producer warpgroup runs alone on its SM, so the
    // launch gives each thread 65536 / threads registers (ptxas: multiples of 8, at most 255);
    // the producer needs few, and gives them to the consumers, whose accumulators need them. Where
    // the launch already leaves the consumers all they may have, nothing moves.
    const int consumers = k_.settings.numWarps * k_.warpSize;
    const int atLaunch = 65536 / (consumers + k_.producerThreads) / 8 * 8;
    producerRegs_ = 40;
    consumerRegs_ = std::min(256, (65536 - producerRegs_ * k_.producerThreads) / consumers / 8 * 8);
    if (atLaunch >= 255 || consumerRegs_ <= atLaunch)
      producerRegs_ = consumerRegs_ = 0;
    else {
      producerRegsName_ = names_.unique("PRODUCER_REGISTERS");
      consumerRegsName_ = names_.unique("CONSUMER_REGISTERS");
    }
  }
  idxNames_[0] = names_.unique("i");
  idxNames_[1] = names_.unique("j");
  vecIdx_ = names_.unique("v");
  valsName_ = names_.unique("vals");
  bitsName_ = names_.unique("bits");
  chunkIdx_ = names_.unique("k");
  // The third dim's index: streamed runs (where chunkIdx_ counts) hold rank-1 tiles only, so the
  // name is free wherever a rank-3 tile's elements are walked.
  idxNames_[2] = chunkIdx_;
  dotIdx_ = names_.unique("kk");
  colBlockIdx_ = names_.unique("blk");
  if (k_.alignedVariant) // after the user's names, which keep theirs
    alignedNsName_ = names_.unique("aligned");
}

std::string KernelEmitter::dimConst(int64_t v) {
  // A tile dimension printed as the meta-parameter it most likely came from, when exactly one
  // meta-parameter has that value (BLOCK rather than 1024); otherwise the number.
  std::string found;
  int n = 0;
  for (const MetaParam &p : k_.metaParams)
    if (!p.isBool && !p.isFloat && p.value == v) {
      found = p.name;
      ++n;
    }
  if (n != 1)
    return std::to_string(v);
  usedMeta_.insert(found);
  return metaNames_.at(found);
}

std::string KernelEmitter::rootLayoutType(const Layout &l, const std::vector<int64_t> &shape,
                                          const std::string &sptOverride) {
  auto wpb = [&](int d) {
    bool allHere = l.warpsPerBlock[d] == k_.settings.numWarps && k_.settings.numWarps > 1;
    return allHere ? numWarpsName_ : std::to_string(l.warpsPerBlock[d]);
  };
  auto spt = [&](int d) {
    return !sptOverride.empty() && d == l.order[0] ? sptOverride : std::to_string(l.sizePerThread[d]);
  };
  if (l.kind == Layout::Kind::Mma && Layout::mfmaSize(l.instr))
    return "tilec::rt::MfmaAcc<" + std::to_string(Layout::mfmaSize(l.instr)) + ", " +
           std::to_string(l.warpsPerBlock[0]) + ", " + std::to_string(l.warpsPerBlock[1]) + ", " +
           dimConst(shape[0]) + ", " + dimConst(shape[1]) + ">";
  if (l.kind == Layout::Kind::Mma)
    return "tilec::rt::Mma16816Acc<" + std::to_string(l.warpsPerBlock[0]) + ", " +
           std::to_string(l.warpsPerBlock[1]) + ", " + dimConst(shape[0]) + ", " +
           dimConst(shape[1]) + ">";
  if (l.rank() == 1)
    return "tilec::rt::Blocked1<" + spt(0) + ", TILEC_WARP_SIZE, " + wpb(0) + ", " +
           dimConst(shape[0]) + ">";
  if (l.rank() == 2)
    return "tilec::rt::Blocked2<" + spt(0) + ", " + spt(1) + ", " +
           std::to_string(l.threadsPerWarp[0]) + ", " + std::to_string(l.threadsPerWarp[1]) + ", " +
           wpb(0) + ", " + wpb(1) + ", " + std::to_string(l.order[0]) + ", " + dimConst(shape[0]) +
           ", " + dimConst(shape[1]) + ">";
  if (l.rank() != 3)
    internalError("layout of rank " + std::to_string(l.rank()));
  auto tpw = [&](int d) { return std::to_string(l.threadsPerWarp[d]); };
  return "tilec::rt::Blocked3<" + spt(0) + ", " + spt(1) + ", " + spt(2) + ", " + tpw(0) + ", " +
         tpw(1) + ", " + tpw(2) + ", " + wpb(0) + ", " + wpb(1) + ", " + wpb(2) + ", " +
         std::to_string(l.order[0]) + ", " + std::to_string(l.order[1]) + ", " +
         dimConst(shape[0]) + ", " + dimConst(shape[1]) + ", " + dimConst(shape[2]) + ">";
}

std::string KernelEmitter::sliceLayoutType(const Layout &l, const std::vector<int64_t> &shape) {
  const Layout &p = *l.parent;
  std::vector<int64_t> pshape = shape;
  pshape.insert(pshape.begin() + l.sliceDim, 1);
  std::string parent;
  if (p.kind == Layout::Kind::Slice) {
    parent = sliceLayoutType(p, pshape);
  } else {
    auto sv = sptVec_.find(p.str());
    parent = rootLayoutType(p, pshape, sv == sptVec_.end() ? "" : sv->second);
  }
  return std::string(p.rank() == 2 ? "tilec::rt::Slice1<" : "tilec::rt::Slice2<") + parent + ", " +
         std::to_string(l.sliceDim) + ">";
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
  if (l->kind == Layout::Kind::Mma) {
    a.type = rootLayoutType(*l, shape, "");
    const int n = Layout::mfmaSize(l->instr), unit = n ? n : 16;
    const std::string instr = n == 32   ? "MFMA 32x32x8"
                              : n == 16 ? "MFMA 16x16x16"
                                        : "mma.sync m16n8 (k16, k8 for tf32, k32 for int8)";
    a.comment = "tile " + shapeText(shape) + ": the accumulator of " + instr + ", " +
                std::to_string(l->warpsPerBlock[0]) + "x" + std::to_string(l->warpsPerBlock[1]) +
                (n ? " wavefronts, each " : " warps, each ") + std::to_string(unit) + "x" +
                std::to_string(unit) + " of every " + std::to_string(unit * l->warpsPerBlock[0]) +
                "x" + std::to_string(unit * l->warpsPerBlock[1]) + "; " + per +
                " elements per thread";
  } else if (l->kind == Layout::Kind::Blocked) {
    if (l->sizePerThread.size() != shape.size() || l->threadsPerWarp.size() != shape.size() ||
        l->warpsPerBlock.size() != shape.size() || l->order.size() != shape.size())
      internalError("malformed layout " + l->str());
    auto sv = sptVec_.find(l->str());
    a.type = rootLayoutType(*l, shape, sv == sptVec_.end() ? "" : sv->second);
    auto list = [](const std::vector<int> &v) {
      std::string r;
      for (size_t d = 0; d < v.size(); ++d)
        r += (d ? "x" : "") + std::to_string(v[d]);
      return r;
    };
    a.comment = "tile " + shapeText(shape) + ": " + list(l->sizePerThread) +
                " contiguous per thread, " + list(l->threadsPerWarp) + " lanes, " +
                list(l->warpsPerBlock) + " warps" +
                (l->rank() >= 2 ? ", dim " + std::to_string(l->order[0]) + " fastest" : "") + "; " +
                per + " elements per thread";
    geometry(*l, shape); // validated above
    for (size_t d = 0; d < shape.size(); ++d)
      if (shape[d] < g.coverage[d]) {
        a.comment += ", replicated";
        break;
      }
  } else {
    const Layout &p = *l->parent;
    if (p.rank() > 3 || (p.kind == Layout::Kind::Slice && p.parent->rank() != 3))
      internalError("only slices of rank-2 and rank-3 layouts are supported: " + l->str());
    a.type = sliceLayoutType(*l, shape);
    a.comment = "tile " + shapeText(shape) + ": dim " + std::to_string(l->sliceDim) + " of a " +
                std::to_string(p.rank()) + "-D layout removed (same values in every thread along " +
                "it); " + per + " elements per thread";
  }
  aliasIndex_[key] = aliases_.size();
  aliases_.push_back(a);
  return aliases_.back();
}

std::string KernelEmitter::vecConst(const void *node, int vec, const std::string &hint,
                                    const Type &elem, const LayoutRef &layout,
                                    const std::string &access) {
  std::string name = names_.unique(upper(hint) + "_VEC");
  vecNames_[node] = name;
  int bytes = vec * byteSize(elem.elem);
  tunables_.push_back("constexpr int " + name + " = " + std::to_string(vec) + ";  // " + access +
                      " width: " + std::to_string(vec) + " contiguous elements (" +
                      std::to_string(bytes) + " bytes) per access");
  if (layout && layout->kind == Layout::Kind::Blocked &&
      layout->sizePerThread[layout->order[0]] == vec) {
    std::string key = layout->str();
    if (!sptVec_.count(key))
      sptVec_[key] = name;
  }
  return name;
}

void KernelEmitter::hintsConst(const void *node, const MemHints &h, const std::string &stem,
                               bool isStore) {
  std::string name = names_.unique(upper(stem) + "_HINTS");
  hintNames_[node] = name;
  std::string what;
  auto add = [&](const std::string &x) { what += (what.empty() ? "" : ", ") + x; };
  if (h.cache != CacheModifier::None)
    add(std::string("cache_modifier .") + ir::name(h.cache));
  if (h.evict != EvictionPolicy::Normal)
    add(std::string("eviction_policy ") + ir::name(h.evict));
  if (h.isVolatile)
    add("volatile");
  for (const std::string &l :
       commentLines(std::string(isStore ? "store" : "load") + " hints: " + what, 0))
    tunables_.push_back(l);
  tunables_.push_back("constexpr unsigned " + name + " = " + hintBits(h) + ";");
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
    // The loads of one width and layout into variables of one name (a prefetched tile's before
    // its loop and in it) share one width constant, named after the tile (`x` for the
    // prefetch's `x_next`).
    std::map<std::tuple<std::string, int, std::string>, std::string> loadVec;
    // Hints alike: one constant per tile name (a load's) or pointer (a store's) and hints.
    std::map<std::tuple<std::string, unsigned, bool>, std::string> hintConsts;
    void hints(const void *node, const MemHints &h, const std::string &stem, bool isStore) {
      const unsigned bits = unsigned(h.cache) | unsigned(h.evict) << 4 | unsigned(h.isVolatile) << 8;
      auto [it, fresh] = hintConsts.emplace(std::make_tuple(stem, bits, isStore), "");
      if (fresh) {
        e.hintsConst(node, h, stem, isStore);
        it->second = e.hintNames_[node];
      }
      e.hintNames_[node] = it->second;
    }
    void load(const Load *ld, const Var &v) {
      if (!ld)
        return;
      // The source's name (varNames_ may add a suffix to tell variables apart).
      std::string hint = v->name.empty() ? e.varNames_[v->id] : v->name;
      if (hint.size() > 5 && hint.compare(hint.size() - 5, 5, "_next") == 0)
        hint.resize(hint.size() - 5);
      if (ld->hints.any())
        hints(ld, ld->hints, hint, false);
      if (ld->vec <= 1)
        return;
      auto key = std::make_tuple(hint, ld->vec, ld->type.layout ? ld->type.layout->str() : "");
      if (auto it = loadVec.find(key); it != loadVec.end()) {
        e.vecNames_[ld] = it->second;
        return;
      }
      loadVec[key] = e.vecConst(ld, ld->vec, hint, ld->type, ld->type.layout, "load");
    }
    void visit(const Decl *d) override {
      load(as<Load>(d->init), d->var);
      IRVisitor::visit(d);
    }
    void visit(const Assign *a) override {
      load(as<Load>(a->value), a->var);
      IRVisitor::visit(a);
    }
    // The copies of one buffer (before a pipelined loop and in it) share one width constant,
    // named after the tile they replace a load of.
    std::map<int, std::string> copyVec;
    void visit(const AsyncCopy *c) override {
      if (c->tma()) // one thread, one instruction: no vectors
        return IRVisitor::visit(c);
      if (auto it = copyVec.find(c->buffer); it != copyVec.end()) {
        e.vecNames_[c] = it->second;
      } else {
        std::string hint = e.bufferNames_.at(c->buffer);
        if (hint.size() > 5 && hint.compare(hint.size() - 5, 5, "_smem") == 0)
          hint.resize(hint.size() - 5);
        copyVec[c->buffer] =
            e.vecConst(c, c->vec, hint, c->ptr->type.scalarOf(), c->ptr->type.layout, "load");
      }
      IRVisitor::visit(c);
    }
    // Stores alike: one constant per pointer, width and layout.
    std::map<std::tuple<const VarNode *, int, std::string>, std::string> storeVec;
    void visit(const Store *s) override {
      if (s->hints.any()) {
        const VarNode *base = basePointer(s->ptr);
        hints(s, s->hints, base ? e.varNames_[base->id] + "_store" : "store", true);
      }
      if (s->vec > 1) {
        const VarNode *base = basePointer(s->ptr);
        const LayoutRef &l = s->ptr->type.layout;
        auto key = std::make_tuple(base, s->vec, l ? l->str() : "");
        if (auto it = storeVec.find(key); base && it != storeVec.end()) {
          e.vecNames_[s] = it->second;
        } else {
          const std::string kind = s->atomic != AtomicOp::None ? "atomic" : "store";
          std::string hint =
              base ? e.varNames_[base->id] + "_" + kind : kind + std::to_string(storeCount++);
          storeVec[key] = e.vecConst(s, s->vec, hint, s->value->type, l,
                                     s->atomic != AtomicOp::None ? "atomic add" : "store");
        }
      }
      IRVisitor::visit(s);
    }
    // The buffers wgmma reads, and whether along K (the descriptors' constants below).
    void visit(const SharedDot *d) override {
      if (d->type.layout && d->type.layout->kind == Layout::Kind::Mma &&
          d->type.layout->instr == Layout::MmaInstr::Wgmma) {
        e.wgmmaKMajor_[d->bufferA] = !d->transA;
        e.wgmmaKMajor_[d->bufferB] = d->transB;
      }
      if (d->inFlight)
        e.inFlightBuffers_.insert({d->bufferA, d->bufferB});
      IRVisitor::visit(d);
    }
  } walk(*this, storeCount);
  if (k_.body)
    walk.visit(k_.body);
  // Swizzled buffers: each its XorSwizzle alias among the tunables, its parameters explained.
  for (size_t b = 0; b < k_.buffers.size(); ++b) {
    const SharedBuffer &buf = k_.buffers[b];
    if (!buf.swizzle.on())
      continue;
    std::string hint = bufferNames_[b];
    if (hint.size() > 5 && hint.compare(hint.size() - 5, 5, "_smem") == 0)
      hint.resize(hint.size() - 5);
    const std::string name = names_.unique(upper(hint) + "_SWIZZLE");
    swizzleNames_[static_cast<int>(b)] = name;
    const SharedSwizzle &z = buf.swizzle;
    const int64_t chunkBytes = z.vec * byteSize(buf.elemType.elem);
    const std::string phase =
        (z.perPhase == 1 ? std::string("r") : "r / " + std::to_string(z.perPhase)) + " % " +
        std::to_string(z.maxPhase);
    const std::string zArgs = std::to_string(z.vec) + ", " + std::to_string(z.perPhase) + ", " +
                              std::to_string(z.maxPhase) + ">;";
    if (buf.colBlock) {
      for (const std::string &l : commentLines(
               bufferNames_[b] + ": rows of " + std::to_string(buf.rowStride) +
                   " elements stored as column blocks of " + std::to_string(buf.colBlock) +
                   " (each " + std::to_string(buf.shape[0]) + " rows of " +
                   std::to_string(buf.colBlock * byteSize(buf.elemType.elem)) +
                   " bytes, one after another), in " + std::to_string(chunkBytes) +
                   "-byte chunks; chunk c of row r of a block is stored at chunk c ^ (" + phase +
                   ") of the row (wgmma's " +
                   std::to_string(buf.colBlock * byteSize(buf.elemType.elem)) + "-byte swizzle)",
               0))
        tunables_.push_back(l);
      tunables_.push_back("using " + name + " = tilec::rt::XorSwizzleColumnBlocks<" +
                          dimConst(buf.shape[0]) + ", " + std::to_string(buf.colBlock) + ", " +
                          zArgs);
      wgmmaDescriptor(static_cast<int>(b), upper(hint));
      tmaBox(static_cast<int>(b), upper(hint));
      continue;
    }
    for (const std::string &l :
         commentLines(bufferNames_[b] + ": rows of " + std::to_string(buf.rowStride) +
                          " elements, unpadded, in " + std::to_string(chunkBytes) +
                          "-byte chunks; chunk c of row r is stored at chunk c ^ (" + phase +
                          ") of the row, so that eight rows read at one column fall in different "
                          "banks",
                      0))
      tunables_.push_back(l);
    tunables_.push_back("using " + name + " = tilec::rt::XorSwizzle<" + dimConst(buf.rowStride) +
                        ", " + zArgs);
    wgmmaDescriptor(static_cast<int>(b), upper(hint));
    tmaBox(static_cast<int>(b), upper(hint));
  }
  // Integer locals that hold data (a loaded value, a reduction, ...) rather than indices: until no
  // assignment adds one more.
  for (bool changed = true; changed && k_.body;) {
    changed = false;
    struct Data : IRVisitor {
      KernelEmitter &e;
      bool &changed;
      Data(KernelEmitter &e, bool &c) : e(e), changed(c) {}
      using IRVisitor::visit;
      void note(const Var &v, const Expr &value) {
        if (value && !e.dataVars_.count(v->id) && !e.indexArithmetic(value))
          changed |= e.dataVars_.insert(v->id).second;
      }
      void visit(const Decl *d) override { note(d->var, d->init), IRVisitor::visit(d); }
      void visit(const Assign *a) override { note(a->var, a->value), IRVisitor::visit(a); }
    } data(*this, changed);
    data.visit(k_.body);
  }
  // A register budget for big blocks (CUDA): a block of 512 or more threads whose threads hold
  // more than 64 registers runs alone on its SM (a quarter of the warps an SM holds, or less), too
  // few loads in flight for a memory-bound kernel. Where tilec's estimate of the registers tile
  // values need leaves room, __launch_bounds__ asks ptxas for as many blocks per SM as keep the
  // budget at least twice the estimate and kRegisterReserve more than it (bench/NOTES.md,
  // "Production kernels": Liger's SwiGLU went from 74 registers and 0.80x to 64 and 0.94x; a
  // budget below the need spills and costs far more). Blocks of 256 threads are left alone: asked
  // the same way, bench/ layer norm moved both ways by up to 20% (Change P2).
  // Streamed runs (KernelEmitterStmt.cpp) where holding every element of every tile at once would
  // take many registers: chunk by chunk, the compiler keeps a few vectors live instead. Below the
  // threshold they cost more than they save: loads of the next chunk wait behind the stores of this
  // one (the compiler cannot move a load above a store it may alias), and small grids, which only
  // latency limits, lost up to 20% (bench/NOTES.md, Change P5).
  if (k_.body)
    liveRegisters_ = liveRegisterEstimate();
  if (opts_.target.kind == TargetKind::Cuda && k_.body) {
    threads_ = k_.settings.numWarps * 32;
    if (threads_ >= 512 && !k_.producerThreads) {
      const int need = std::max(2 * liveRegisters_, liveRegisters_ + kRegisterReserve);
      for (int m = 2; m * threads_ <= 2048 && m <= 32; ++m)
        if (std::min(255, 65536 / (m * threads_)) / 8 * 8 >= need)
          minBlocks_ = m;
      if (minBlocks_ > 1)
        minBlocksName_ = names_.unique("MIN_BLOCKS_PER_SM");
    }
  }
  // Layout aliases are created when the body first uses them (so only layouts the code refers to
  // get one, in order of first use); the tunables block is printed after the body.
}

int KernelEmitter::liveRegisterEstimate() const {
  if (!k_.body)
    return 0;
  // Which tile variables hold values the compiler must keep: loaded data, reduction results and
  // shared-memory reads, and variables assigned after their declaration (accumulators). The others
  // are elementwise functions of those, which the compiler computes element by element where they
  // are used (after unrolling): a use of one stands for uses of the variables it is computed from.
  std::set<int> assignedLater;
  std::map<int, std::vector<int>> from; // elementwise variable -> the variables its value reads
  struct Scan : IRVisitor {
    std::set<int> &assigned;
    explicit Scan(std::set<int> &a) : assigned(a) {}
    using IRVisitor::visit;
    void visit(const Assign *a) override {
      assigned.insert(a->var->id);
      IRVisitor::visit(a);
    }
  } scan(assignedLater);
  scan.visit(k_.body);
  struct Interval {
    int from = -1, to = -1;
    int64_t bytes = 0;
  };
  std::map<int, Interval> vars;
  struct Loop {
    int from, to;
  };
  struct Walk : IRVisitor {
    const std::set<int> &assignedLater;
    std::map<int, std::vector<int>> &from;
    std::map<int, Interval> &vars;
    std::vector<Loop> loops;
    std::vector<size_t> open; // loops around the current statement
    std::vector<std::pair<int, size_t>> loopReads; // (var, loop) read inside from outside
    int pos = 0;
    Walk(const std::set<int> &a, std::map<int, std::vector<int>> &f, std::map<int, Interval> &v)
        : assignedLater(a), from(f), vars(v) {}
    using IRVisitor::visit;
    static bool materialized(const Expr &init) {
      bool found = false;
      struct Find : IRVisitor {
        bool &found;
        explicit Find(bool &f) : found(f) {}
        using IRVisitor::visit;
        void visit(const Load *) override { found = true; }
        void visit(const ThreadReduce *) override { found = true; }
        void visit(const WarpReduce *) override { found = true; }
        void visit(const SharedRead *) override { found = true; }
        void visit(const SharedDot *) override { found = true; }
        void visit(const ir::Scan *) override { found = true; }
      } find(found);
      find.visit(init);
      return found;
    }
    void visit(const Decl *d) override {
      ++pos;
      const Var &v = d->var;
      if (v->type.isTile() && v->type.layout) {
        Interval &iv = vars[v->id];
        iv.from = iv.to = pos;
        if (!d->init || assignedLater.count(v->id) || materialized(d->init)) {
          const int64_t elems = geometry(*v->type.layout, v->type.shape).totalElemsPerThread();
          iv.bytes = elems * (v->type.pointer ? 8 : std::max(1, byteSize(v->type.elem)));
        } else {
          struct Reads : IRVisitor {
            std::vector<int> &ids;
            explicit Reads(std::vector<int> &i) : ids(i) {}
            using IRVisitor::visit;
            void visit(const VarRef *r) override { ids.push_back(r->var->id); }
          } reads(from[v->id]);
          reads.visit(d->init);
        }
      }
      IRVisitor::visit(d);
    }
    void visit(const Assign *a) override {
      ++pos;
      use(a->var->id);
      IRVisitor::visit(a);
    }
    void visit(const Store *st) override {
      ++pos;
      if (st->result) // an atomic's old values
        use(st->result->id);
      IRVisitor::visit(st);
    }
    void use(int id) {
      auto it = vars.find(id);
      if (it == vars.end())
        return;
      it->second.to = std::max(it->second.to, pos);
      for (size_t li : open)
        if (it->second.from < loops[li].from)
          loopReads.push_back({id, li});
      if (auto f = from.find(id); f != from.end())
        for (int dep : f->second)
          if (dep != id)
            use(dep);
    }
    void visit(const VarRef *r) override { use(r->var->id); }
    void loop(const Stmt &body) {
      loops.push_back({++pos, 0});
      open.push_back(loops.size() - 1);
      visit(body);
      loops[open.back()].to = ++pos;
      open.pop_back();
    }
    void visit(const For *f) override { loop(f->body); }
    void visit(const While *w) override {
      visit(w->cond);
      loop(w->body);
    }
  } walk(assignedLater, from, vars);
  walk.visit(k_.body);
  for (auto [id, li] : walk.loopReads)
    vars[id].to = std::max(vars[id].to, walk.loops[li].to);
  int64_t peak = 0;
  for (int p = 0; p <= walk.pos; ++p) {
    int64_t live = 0;
    for (const auto &[id, iv] : vars)
      if (iv.from <= p && p <= iv.to)
        live += iv.bytes;
    peak = std::max(peak, live);
  }
  return static_cast<int>((peak + 3) / 4);
}

// ---- the kernel ---------------------------------------------------------------------------------

void KernelEmitter::emit(CodeWriter &w) {
  // Namespace contents are not indented (LLVM style).
  std::string qualified;
  for (const EnclosingNamespace &ns : k_.scope)
    qualified += ns.name + "::";
  w.line("// " + qualified + k_.name + k_.templateArgs + (k_.templateArgs.empty() ? "" : ": one instantiation"));
  w.line("namespace " + k_.instanceName + " {");
  emitContents(w);
  if (k_.alignedVariant) {
    w.lines(commentLines("The same kernel compiled assuming " + alignedAssumptions() +
                             ": the launcher tests the arguments and runs this one when they qualify "
                             "(tilec --no-aligned-variants leaves it out).",
                         0));
    w.line("namespace " + alignedNsName_ + " {");
    KernelEmitter variant(m_, *k_.alignedVariant, opts_);
    variant.emitContents(w);
    w.line("} // namespace " + alignedNsName_);
    w.line("");
  }
  w.line("} // namespace " + k_.instanceName);
}

std::unique_ptr<KernelEmitter> KernelEmitter::alignedEmitter() const {
  if (!k_.alignedVariant)
    return nullptr;
  return std::make_unique<KernelEmitter>(m_, *k_.alignedVariant, opts_);
}

std::vector<std::string> KernelEmitter::alignedTests() const {
  std::vector<std::string> tests;
  for (size_t i = 0; i < k_.params.size(); ++i) {
    if (k_.alignedVariant && k_.alignedVariant->divisibleBy16.count(k_.params[i]->id))
      tests.push_back(k_.params[i]->type.pointer ? "tilec::rt::aligned_to_16(" + paramNames_[i] + ")"
                                                 : paramNames_[i] + " % 16 == 0");
    if (k_.alignedVariant && k_.alignedVariant->equalToOne.count(k_.params[i]->id))
      tests.push_back(paramNames_[i] + " == 1");
  }
  return tests;
}

std::string KernelEmitter::alignedAssumptions() const {
  std::vector<std::string> pointers, integers, ones;
  for (size_t i = 0; i < k_.params.size(); ++i) {
    if (k_.alignedVariant && k_.alignedVariant->divisibleBy16.count(k_.params[i]->id))
      (k_.params[i]->type.pointer ? pointers : integers).push_back(paramNames_[i]);
    if (k_.alignedVariant && k_.alignedVariant->equalToOne.count(k_.params[i]->id))
      ones.push_back(paramNames_[i]);
  }
  auto list = [](const std::vector<std::string> &v) {
    std::string r;
    for (size_t i = 0; i < v.size(); ++i)
      r += (i == 0 ? "" : i + 1 == v.size() ? " and " : ", ") + v[i];
    return r;
  };
  std::string r;
  if (!pointers.empty())
    r = list(pointers) + (pointers.size() == 1 ? " is" : " are") + " 16-byte aligned";
  if (!integers.empty())
    r += (r.empty() ? "" : " and ") + list(integers) +
         (integers.size() == 1 ? " is a multiple of 16" : " are multiples of 16");
  if (!ones.empty())
    r += (r.empty() ? "" : " and ") + list(ones) + (ones.size() == 1 ? " is 1" : " are 1");
  return r;
}

void KernelEmitter::emitContents(CodeWriter &w) {
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
      if (buf.stages > 1) { // a ring: one row of the array per stage
        int64_t rows = 1;
        for (size_t d = 0; d + 1 < buf.shape.size(); ++d)
          rows *= buf.shape[d];
        std::string A = T + " (*)[" + std::to_string(rows) + " * " + std::to_string(buf.rowStride) + "]";
        body.line(T + " (*" + bufferNames_[b] + ")[" + std::to_string(rows) + " * " +
                  std::to_string(buf.rowStride) + "] = reinterpret_cast<" + A + ">(smem + " +
                  std::to_string(buf.offsetBytes) + ");  // " + std::to_string(buf.stages) +
                  " stages");
        continue;
      }
      body.line(T + " *" + bufferNames_[b] + " = reinterpret_cast<" + T + " *>(smem + " +
                std::to_string(buf.offsetBytes) + ");");
    }
    // The mbarriers of the TMA rings: stage s's completes a phase when the copies into stage s
    // have landed (each copy arrives on it with its bytes). Not in `smem`, whose bytes later
    // buffers reuse: an mbarrier's memory is the barrier's until it is invalidated.
    for (const auto &[ring, name] : stageFullNames_) {
      int copies = 0;
      std::string names;
      for (const TmaMap &m : tmaMaps_)
        if (k_.buffers[m.buffer].tma->ring == ring) {
          names += (copies ? " and " : "") + bufferNames_[m.buffer];
          ++copies;
        }
      const SharedBuffer &lead = k_.buffers[ring];
      // The ring's depth, named when it is the kernel's NUM_STAGES.
      const std::string &ns = k_.settings.numStagesName;
      const std::string stages =
          !ns.empty() && metaNames_.count(ns) && lead.stages == k_.settings.numStages
              ? metaNames_.at(ns)
              : std::to_string(lead.stages);
      if (stages != std::to_string(lead.stages))
        usedMeta_.insert(ns);
      const std::string &i = idxNames_[0];
      body.lines(
          commentLines(name + "[" + i + "]: completes a phase when the TMA copies into stage " + i +
                           " of " + names + " have landed (one arrival per copy, with its bytes)",
                       body.indentWidth()));
      body.line("alignas(8) __shared__ uint64_t " + name + "[" + stages + "];");
      auto empty = stageEmptyNames_.find(ring);
      if (empty != stageEmptyNames_.end()) {
        body.lines(commentLines(
            empty->second + "[" + i + "]: completes a phase when every consumer thread is done " +
                "reading stage " + i + " (the products that read it have retired): the " +
                "producer refills the stage after that",
            body.indentWidth()));
        body.line("alignas(8) __shared__ uint64_t " + empty->second + "[" + stages + "];");
      }
      for (const std::string &l :
           commentLines(stageCopiesNames_.at(ring) + ": the TMA copies into a stage of " + names +
                            " (the arrivals each phase of " + name + "[i] waits for)",
                        0))
        tunables_.push_back(l);
      tunables_.push_back("constexpr int " + stageCopiesNames_.at(ring) + " = " +
                          std::to_string(copies) + ";");
      body.line("if (threadIdx.x == 0) {");
      {
        auto in = body.indent();
        body.line("TILEC_UNROLL");
        const std::string full = "tilec::rt::mbarrier_init(&" + name + "[" + i + "], " +
                                 stageCopiesNames_.at(ring) + ");";
        if (empty == stageEmptyNames_.end()) {
          body.line("for (int " + i + " = 0; " + i + " < " + stages + "; ++" + i + ")");
          body.line("  " + full);
        } else {
          auto loop =
              body.block("for (int " + i + " = 0; " + i + " < " + stages + "; ++" + i + ")");
          body.line(full);
          body.line("tilec::rt::mbarrier_init(&" + empty->second + "[" + i + "], " +
                    numThreadsName_ + ");");
        }
        body.line("tilec::rt::mbarrier_init_fence();");
      }
      body.line("}");
      body.line("__syncthreads();");
    }
    genericWrites_ = false; // nothing in shared memory yet
    stmt(k_.body);
  }
  w_ = &w;
  std::vector<std::string> combines = combineFunctions();
  for (std::string &l : asmFunctions())
    combines.push_back(std::move(l));

  bool metaNumWarps = std::any_of(k_.metaParams.begin(), k_.metaParams.end(),
                                  [&](const MetaParam &p) { return metaNames_.at(p.name) == numWarpsName_; });
  if (metaNumWarps)
    usedMeta_.insert(numWarpsName_); // NUM_THREADS below
  // Meta-parameters the code does not name (folded into literals, or only in the grid) stay listed
  // for the expert, marked so that the compilers do not warn. One renamed because the output needs
  // its name says so.
  for (const MetaParam &p : k_.metaParams) {
    const std::string &name = metaNames_.at(p.name);
    const std::string type = p.isBool ? "bool" : p.type.empty() ? "int" : p.type;
    const std::string value = p.isBool            ? (p.value ? "true" : "false")
                              : p.literal.empty() ? std::to_string(p.value)
                                                  : p.literal;
    w.line(std::string(usedMeta_.count(p.name) ? "" : "[[maybe_unused]] ") + "constexpr " + type + " " +
           name + " = " + value + ";  // meta-parameter" +
           (p.enumerator.empty() ? "" : ": " + commentText(p.enumerator)) +
           (name == p.name ? "" : ", " + commentText(p.name) + " in the source"));
  }
  if (!metaNumWarps)
    w.line("constexpr int " + numWarpsName_ + " = " + std::to_string(k_.settings.numWarps) +
           ";  // warps per block");
  w.line("constexpr int " + numThreadsName_ + " = " + numWarpsName_ +
         " * TILEC_WARP_SIZE;  // threads per block");
  if (!producerThreadsName_.empty()) {
    w.lines(commentLines("warp specialization: a producer warpgroup of " + producerThreadsName_ +
                             " threads beside the " + numThreadsName_ +
                             " consumers issues the TMA copies, and blocks loop over the programs" +
                             (producerRegs_ ? "; setmaxnreg gives the producer's registers to the "
                                              "consumers, whose accumulators need them"
                                            : ""),
                         0));
    w.line("constexpr int " + producerThreadsName_ + " = " + std::to_string(k_.producerThreads) +
           ";");
    if (producerRegs_) {
      w.line("constexpr int " + producerRegsName_ + " = " + std::to_string(producerRegs_) +
             ";  // registers per producer thread");
      w.line("constexpr int " + consumerRegsName_ + " = " + std::to_string(consumerRegs_) +
             ";  // registers per consumer thread");
    }
  }
  for (const std::string &t : tunables_)
    w.line(t);
  for (const LayoutAlias &a : aliases_) {
    w.lines(commentLines(a.comment, 0));
    const size_t limit = static_cast<size_t>(kColumnLimit);
    std::string decl = "using " + a.name + " = " + a.type + ";";
    if (decl.size() <= limit) {
      w.line(decl);
    } else if (a.type.size() + 5 <= limit) {
      w.line("using " + a.name + " =");
      w.line("    " + a.type + ";");
    } else {
      // A slice of a slice of a rank-3 layout: broken after the opening `<` of each template it
      // nests, one level deeper each line, until the rest fits.
      size_t open = a.type.find('<');
      w.line("using " + a.name + " = " + a.type.substr(0, open + 1));
      std::string rest = a.type.substr(open + 1) + ";";
      std::string indent = "    ";
      while (indent.size() + rest.size() > limit && (open = rest.find('<')) != std::string::npos) {
        w.line(indent + rest.substr(0, open + 1));
        rest = rest.substr(open + 1);
        indent += "    ";
      }
      w.line(indent + rest);
    }
  }
  if (!k_.buffers.empty())
    w.line("constexpr int " + smemBytesName_ + " = " + std::to_string(k_.sharedBytes) +
           ";  // shared memory per block");
  for (const std::string &l : combines)
    w.line(l);
  // The estimate for the expert who tunes the block (bench/registers.py sets it beside ptxas's
  // count).
  const char *report = opts_.target.kind == TargetKind::Cuda
                           ? "ptxas -v"
                           : "hipcc -Rpass-analysis=kernel-resource-usage";
  const std::string estimate = "registers: about " + std::to_string(liveRegisters_) +
                               " per thread hold tile values at the peak (tilec's estimate; " +
                               report + " tells the real count)";
  if (minBlocks_ <= 1 && liveRegisters_ > 0)
    w.lines(commentLines(estimate, 0));
  if (minBlocks_ > 1)
    w.lines(
        commentLines(estimate + "; " + std::to_string(minBlocks_) + " blocks of " +
                         std::to_string(threads_) + " threads per SM leave each thread " +
                         std::to_string(std::min(255, 65536 / (minBlocks_ * threads_)) / 8 * 8) +
                         " registers: at least twice the estimate, and " +
                         std::to_string(kRegisterReserve) + " more than it",
                     0));
  if (minBlocks_ > 1)
    w.line("constexpr int " + minBlocksName_ + " = " + std::to_string(minBlocks_) +
           ";  // blocks per SM __launch_bounds__ asks for");
  w.line("");
  // Parameters the body never reads (e.g. only the launch grid uses them) are unnamed, the name in
  // a comment: no unused-parameter warnings, and the launcher's parameter list still matches.
  std::vector<std::string> params;
  for (const TmaMap &m : tmaMaps_)
    params.push_back("const __grid_constant__ tilec::rt::TensorMap2D " + m.param);
  if (k_.programs)
    params.push_back(paramDecl(k_.programs->type, programsName_, hooks_, false));
  for (size_t i = 0; i < k_.params.size(); ++i)
    params.push_back(paramDecl(k_.params[i]->type, paramNames_[i], hooks_,
                               !read_.count(k_.params[i]->id)));
  // A warp-specialized block (its producer warpgroup beside the consumers) runs alone on its SM.
  const std::string bounds =
      producerThreadsName_.empty()
          ? numThreadsName_ + (minBlocks_ > 1 ? ", " + minBlocksName_ : std::string())
          : numThreadsName_ + " + " + producerThreadsName_ + ", 1";
  w.lines(wrapList("__global__ void __launch_bounds__(" + bounds + ") " + kernelName_ + "(", params,
                   ") {", 0));
  if (!k_.buffers.empty() && usesDynamicShared(k_)) {
    auto ind = w.indent();
    w.lines(commentLines("Above 48 KB a block's shared memory can only be dynamic (extern __shared__): "
                         "the launch gives " + smemBytesName_ + " bytes of it, which the launcher "
                         "allows with " + hooks_.maxDynamicShared + ".",
                         w.indentWidth()));
    w.line("unsigned char *const smem = tilec::rt::dynamic_shared_memory();");
  } else if (!k_.buffers.empty()) {
    int64_t align = 16; // wgmma's operands: their swizzle atoms (SharedBuffer::alignBytes)
    for (const SharedBuffer &b : k_.buffers)
      align = std::max(align, b.alignBytes);
    w.line("  alignas(" + std::to_string(align) + ") __shared__ unsigned char smem[" +
           smemBytesName_ + "];");
  }
  w.append(body);
  w.line("}");
  w.line("");
}

/// The box of buffer `b`'s TMA copies (SharedBuffer::tma), as tunables named `<prefix>_BOX_ROWS`
/// and `_COLS`: a stage (or one column block of it), which the launcher's tensor map names with the
/// wgmma descriptor's swizzle. Nothing for a buffer TMA does not fill.
void KernelEmitter::tmaBox(int b, const std::string &prefix) {
  const SharedBuffer &s = k_.buffers.at(b);
  auto it = std::find_if(tmaMaps_.begin(), tmaMaps_.end(),
                         [&](const TmaMap &m) { return m.buffer == b; });
  if (!s.tma || it == tmaMaps_.end())
    return;
  if (!wgmmaDescNames_.count(b))
    internalError("a TMA buffer that no wgmma reads");
  const int64_t cols = s.colBlock ? s.colBlock : s.shape[1];
  it->boxRows = names_.unique(prefix + "_BOX_ROWS");
  it->boxCols = names_.unique(prefix + "_BOX_COLS");
  it->swizzle = wgmmaDescNames_.at(b) + "_SWIZZLE";
  for (const std::string &l :
       commentLines(bufferNames_[b] + "'s stages are filled by TMA (the launcher's tensor map " +
                        it->param + ") in boxes of " + it->boxRows + " x " + it->boxCols +
                        " elements" + (s.colBlock ? ", one per column block" : std::string()) +
                        ", laid out with the descriptor's swizzle",
                    0))
    tunables_.push_back(l);
  tunables_.push_back("constexpr int " + it->boxRows + " = " + dimConst(s.shape[0]) + ";");
  tunables_.push_back("constexpr int " + it->boxCols + " = " + dimConst(cols) + ";");
}

/// The fields of the wgmma descriptors of buffer `b` (tilec/cuda/wgmma.cuh encode_smem_desc), as
/// tunables named `<prefix>_DESC_*`: its swizzle mode (by the bytes of its rows, or of a column
/// block's), the leading byte offset (an M- or N-contiguous operand: from one column block to the
/// next; a K-contiguous one does not use it: 16) and the stride byte offset (from 8 rows to the
/// next 8). Nothing for a buffer that no wgmma reads.
void KernelEmitter::wgmmaDescriptor(int b, const std::string &prefix) {
  auto it = wgmmaKMajor_.find(b);
  if (it == wgmmaKMajor_.end())
    return;
  const SharedBuffer &s = k_.buffers.at(b);
  const int64_t rowBytes = (s.colBlock ? s.colBlock : s.rowStride) * byteSize(s.elemType.elem);
  const bool kMajor = it->second;
  const int64_t lbo = kMajor ? 16 : s.shape[0] * rowBytes, sbo = 8 * rowBytes;
  const std::string name = names_.unique(prefix + "_DESC");
  wgmmaDescNames_[b] = name;
  for (const std::string &l :
       commentLines(bufferNames_[b] + " as wgmma reads it (" + (kMajor ? "K" : "M or N") +
                        " contiguous): " + std::to_string(rowBytes) + "-byte swizzle, " +
                        (kMajor ? std::string("no leading byte offset (16: unused)")
                                : "the next column block " + std::to_string(lbo) + " bytes on") +
                        ", the next 8 rows " + std::to_string(sbo) + " bytes on",
                    0))
    tunables_.push_back(l);
  tunables_.push_back("constexpr tilec::rt::SmemSwizzle " + name +
                      "_SWIZZLE = tilec::rt::SmemSwizzle::Bytes" + std::to_string(rowBytes) + ";");
  tunables_.push_back("constexpr uint32_t " + name + "_LBO = " + std::to_string(lbo) + ";");
  tunables_.push_back("constexpr uint32_t " + name + "_SBO = " + std::to_string(sbo) + ";");
}

} // namespace tilec::emitters
