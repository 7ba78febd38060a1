// KernelEmitter, statements: everything that prints whole lines inside the kernel body. Tile values
// are written element by element in unrolled loops (forEachElem); vector loads and stores,
// warp/thread reductions and shared-memory partials become calls into the runtime headers, so the
// output stays readable. Provenance comments (`// file.cpp:12: ...`) and opt-in #line directives
// are printed here, once per source line, because statements are what carry source locations.
#include "emitters/KernelEmitter.h"
#include "emitters/SourceText.h"
#include "ir/Equality.h"
#include "ir/IRVisitor.h"
#include "ir/InlineAsm.h"

#include <algorithm>
#include <functional>
#include <memory>
#include <optional>

namespace tilec::emitters {

using namespace ir;

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
  // Per-thread storage is `T name[E0][E1]` (`[E0][E1][E2]`): consecutive elements along a dim are
  // as far apart as the element counts of the dims after it multiply to.
  std::string stride;
  for (int d = vecDim + 1; vecDim >= 0 && d < t.rank(); ++d)
    stride += (stride.empty() ? "" : " * ") + elemCount(t, d);
  return stride;
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
void KernelEmitter::forEachElem(const Type &t, F body, int vecDim, const std::string &vecStep,
                                int vecWidth) {
  if (chunk_) { // inside a streamed run: this chunk's elements, i .. i + chunk - 1
    const std::string &i = idxNames_[0];
    const int step = vecDim == 0 ? vecWidth : 1;
    if (step == chunk_) {
      body(Idx{i});
      return;
    }
    w_->line("TILEC_UNROLL");
    const std::string &k = chunkIdx_;
    auto s = w_->block("for (int " + k + " = 0; " + k + " < " + chunkStep_ + "; " +
                       (step == 1 ? "++" + k : k + " += " + vecStep) + ")");
    body(Idx{i + " + " + k});
    return;
  }
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
  } else if (r == 2) {
    auto s = w.block(header(0));
    w.line("TILEC_UNROLL");
    auto s2 = w.block(header(1));
    body(Idx{idxNames_[0], idxNames_[1]});
  } else {
    auto s = w.block(header(0));
    w.line("TILEC_UNROLL");
    auto s2 = w.block(header(1));
    w.line("TILEC_UNROLL");
    auto s3 = w.block(header(2));
    body(Idx{idxNames_[0], idxNames_[1], idxNames_[2]});
  }
}

std::string KernelEmitter::opType(ReduceOp op, int combineFn) {
  switch (op) {
  case ReduceOp::Combine: return "Combine" + std::to_string(combineFn);
  case ReduceOp::Sum: return "tilec::rt::Sum";
  case ReduceOp::Max: return "tilec::rt::Max";
  case ReduceOp::Min: return "tilec::rt::Min";
  case ReduceOp::ArgMax: return "tilec::rt::ArgMax";
  case ReduceOp::ArgMin: return "tilec::rt::ArgMin";
  }
  return "";
}

std::vector<std::string> KernelEmitter::combineFunctions() {
  std::vector<std::string> out;
  for (size_t i = 0; i < k_.combines.size(); ++i) {
    const CombineFunction &c = k_.combines[i];
    // The arguments keep the lambda's names (a parameter scope of their own); one it ignores is
    // unnamed.
    varNames_[c.a->id] = c.a->name;
    varNames_[c.b->id] = c.b->name == c.a->name ? c.b->name + "_2" : c.b->name;
    ExprFacts reads;
    reads.add(c.body);
    auto param = [&](const Var &v) {
      return cppType(v->type, hooks_) + (reads.reads.count(v.get()) ? " " + varNames_[v->id] : "");
    };
    std::string where;
    if (c.loc.valid())
      where = " at " + commentText(m_.files[c.loc.file].name) + ":" + std::to_string(c.loc.line);
    out.push_back("// The combine function" + where + ", combine(a, b) with a the earlier value.");
    out.push_back("struct Combine" + std::to_string(i) + " {");
    out.push_back("  __device__ __forceinline__ static " + cppType(c.body->type, hooks_) +
                  " combine(" + param(c.a) + ", " + param(c.b) + ") {");
    out.push_back("    return " + scalar(c.body).text + ";");
    out.push_back("  }");
    out.push_back("};");
  }
  return out;
}

namespace {
/// Triton's inline assembly as CUDA's: `$N` is `%N` (`$$` a `$`), a `%` of the PTX is `%%`.
std::string cudaAsmText(const std::string &s) {
  std::string r;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%')
      r += "%%";
    else if (s[i] == '$' && i + 1 < s.size() && s[i + 1] == '$')
      r += '$', ++i;
    else if (s[i] == '$' && i + 1 < s.size() && std::isdigit(static_cast<unsigned char>(s[i + 1])))
      r += '%';
    else
      r += s[i];
  }
  return r;
}
/// `s` as the contents of a C string literal, its newlines and tabs as \n and \t.
std::string asmLiteralText(const std::string &s) {
  std::string r;
  for (char c : s)
    r += c == '\n' ? std::string("\\n") : c == '\t' ? std::string("\\t") : stringLiteralText({c});
  return r;
}
} // namespace

std::vector<std::string> KernelEmitter::asmFunctions() {
  std::vector<std::string> out;
  const bool cuda = opts_.target.kind == TargetKind::Cuda;
  for (size_t i = 0; i < k_.asms.size(); ++i) {
    const AsmFunction &a = k_.asms[i];
    std::vector<std::string> names;
    for (const Var &p : a.params) {
      std::string n = p->name; // (`r` is the assembly's result)
      while (n == "r" || std::find(names.begin(), names.end(), n) != names.end())
        n += "_2";
      names.push_back(n);
      varNames_[p->id] = n;
    }
    std::string params;
    for (size_t p = 0; p < a.params.size(); ++p)
      params += (p ? ", " : "") + cppType(a.params[p]->type, hooks_) + " " + names[p];
    const std::string R = cppType(ir::Type::scalar(a.result), hooks_);
    std::string where;
    if (a.loc.valid())
      where = " at " + commentText(m_.files[a.loc.file].name) + ":" + std::to_string(a.loc.line);
    out.push_back("// tl::inline_asm_elementwise" + where +
                  (cuda ? "." : ": its reference function (no PTX here)."));
    out.push_back("struct Asm" + std::to_string(i) + " {");
    out.push_back("  __device__ __forceinline__ static " + R + " apply(" + params + ") {");
    const std::string reference = "return " + scalar(a.reference).text + ";";
    if (!cuda) {
      out.push_back("    " + reference);
    } else {
      // Constraints: the result's, then each operand's. A float or half passes through an integer
      // register ('h', 'r', 'l') as its bits.
      const std::vector<std::string> cs = asmConstraintList(a.constraints);
      auto intRegister = [](const std::string &c) {
        return c.find_first_of("hrl") != std::string::npos;
      };
      auto bitsType = [](ScalarType t) -> std::string {
        const int b = byteSize(t);
        return b == 2 ? "unsigned short" : b == 4 ? "unsigned" : "unsigned long long";
      };
      const bool resultBits = isFloat(a.result) && intRegister(cs[0]);
      out.push_back("#if defined(__CUDA_ARCH__)");
      out.push_back("    " + (resultBits ? bitsType(a.result) : R) + " r;");
      std::string ins;
      for (size_t p = 0; p < a.params.size(); ++p) {
        const ScalarType t = a.params[p]->type.elem;
        const std::string v = isFloat(t) && intRegister(cs[p + 1])
                                  ? "tilec::rt::bit_cast<" + bitsType(t) + ">(" + names[p] + ")"
                                  : names[p];
        ins += (p ? ", " : "") + std::string("\"") + cs[p + 1] + "\"(" + v + ")";
      }
      out.push_back(std::string("    asm") + (a.effects ? " volatile" : "") + "(\"" +
                    asmLiteralText(cudaAsmText(a.text)) + "\" : \"" + cs[0] + "\"(r) : " + ins +
                    ");");
      out.push_back(resultBits ? "    return tilec::rt::bit_cast<" + R + ">(r);" : "    return r;");
      out.push_back("#else  // the CPU emulator: the reference function");
      out.push_back("    " + reference);
      out.push_back("#endif");
    }
    out.push_back("  }");
    out.push_back("};");
  }
  return out;
}

std::string KernelEmitter::opType(ScanOp op, int combineFn) {
  switch (op) {
  case ScanOp::Combine: return "Combine" + std::to_string(combineFn);
  case ScanOp::Sum: return "tilec::rt::Sum";
  case ScanOp::Prod: return "tilec::rt::Prod";
  case ScanOp::Max: return "tilec::rt::Max";
  case ScanOp::Min: return "tilec::rt::Min";
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
    w_->raw("#line " + std::to_string(loc.line) + " \"" + stringLiteralText(f.name) + "\"");
  if (!opts_.provenance)
    return;
  std::string text = loc.line <= static_cast<int>(f.lines.size())
                         ? commentText(statementText(f.lines, loc.line - 1))
                         : "";
  w_->line("// " + commentText(f.name) + ":" + std::to_string(loc.line) + (text.empty() ? "" : ": " + text));
}

std::string KernelEmitter::lastMaskElem(const Expr &mask, const std::string *maskVar,
                                        const Idx &idx, int vd, const std::string &vec) {
  Idx last = idx;
  last[vd] = idx[vd] + " + " + vec + " - 1";
  return maskVar ? indexed(*maskVar, last) : elem(mask, last).text;
}

void KernelEmitter::tileLoad(const std::string &dst, const Type &t, const Load *ld) {
  const Layout &l = *t.layout;
  if (ld->vec <= 1) {
    forEachElem(t, [&](const Idx &idx) {
      std::string target = dst;
      for (const auto &i : idx)
        target += "[" + i + "]";
      std::string d = loadAccess(ld, idx);
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
  // A mask whose bits are alike over each vector is one test per vector (its first element).
  bool allOrNone = ld->mask && ld->maskAllOrNone && uniformOther;
  bool direct = uniformOther && (!ld->mask || maskVar || stride.empty());
  forEachElem(t, [&](const Idx &idx) {
    Idx vi = idx;
    vi[vd] = idx[vd] + " + " + vecIdx_;
    std::string addr = hinted(ld, ld->hints, elem(ld->ptr, idx).text);
    if (allOrNone) {
      std::string on = maskVar ? indexed(*maskVar, idx) : elem(ld->mask, idx).text;
      std::string other = ld->other ? elem(ld->other, idx).text : zero(t);
      call("tilec::rt::load_vec_if<" + vec + ", " + (ld->aligned ? "true" : "false") +
               (stride.empty() ? "" : ", " + stride) + ">(",
           {"&" + indexed(dst, idx), addr, on, other}, ");");
      return;
    }
    if (direct) {
      std::string mask;
      std::unique_ptr<CodeWriter::Scope> own; // the temporary's scope in a streamed run's loop
      if (ld->mask && maskVar) {
        mask = "&" + indexed(*maskVar, idx);
      } else if (ld->mask) {
        if (chunk_ == ld->vec)
          own = std::make_unique<CodeWriter::Scope>(*w_, "", "");
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
        if (ld->maskAtLast) // the vector is wholly unmasked when its last element is
          args.push_back(lastMaskElem(ld->mask, maskVar, idx, vd, vec));
      }
      call("tilec::rt::load_vec<" + vec + ", " + (ld->aligned ? "true" : "false") +
               (stride.empty() ? "" : ", " + stride) + ">(",
           args, ");");
      return;
    }
    // General form: load into temporaries, then pick `other` per element where masked off.
    std::unique_ptr<CodeWriter::Scope> own; // a scope of their own in a streamed run's loop
    if (chunk_ == ld->vec)
      own = std::make_unique<CodeWriter::Scope>(*w_, "", "");
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
  }, vd, vec, ld->vec);
}

/// Whether several threads hold each element of a tile of type `t` (a slice's layout, or a tile
/// smaller than its layout's coverage): stores and atomics then leave the copies to their owners.
bool KernelEmitter::holdsCopies(const Type &t) {
  const Layout &l = *t.layout;
  LayoutGeometry g = geometry(l, t.shape);
  bool copies = l.kind == Layout::Kind::Slice;
  for (size_t d = 0; d < t.shape.size(); ++d)
    copies = copies || t.shape[d] < g.coverage[d];
  return copies;
}

/// One element's read-modify-write: `tilec::rt::atomic_add<Sem::acq_rel, Scope::gpu>(&p[i], v[i])`.
std::string KernelEmitter::atomicCall(const Store *st, const Idx &idx) {
  std::string at = deref(st->ptr, idx);
  at = at[0] == '*' ? at.substr(1) : "&" + at; // the element's address
  std::string call = std::string("tilec::rt::atomic_") + name(st->atomic) +
                     "<tilec::rt::Sem::" + name(st->sem) +
                     ", tilec::rt::Scope::" + name(st->scope) + ">(" + at;
  if (st->cmp)
    call += ", " + elem(st->cmp, idx).text;
  return call + ", " + elem(st->value, idx).text + ")";
}

void KernelEmitter::atomicStore(const Store *st) {
  const Type &pt = st->ptr->type;
  if (pt.isScalar() && !st->result) {
    std::string cond = "threadIdx.x == 0";
    if (st->mask)
      cond += " && " + operand(scalar(st->mask), Prec::LogicalAnd);
    w_->line("if (" + cond + ")  // one thread updates a scalar");
    auto in = w_->indent();
    w_->line(atomicCall(st, {}) + ";");
    return;
  }
  if (pt.isScalar()) {
    // One thread updates and hands the old value to the others through shared memory. The buffer
    // is this statement's own: only a loop's next iteration writes it again, so only in a loop
    // does a second barrier keep that write after every read.
    const std::string T = cppType(st->result->type, hooks_);
    const std::string buf = names_.unique(varNames_.at(st->result->id) + "_smem");
    const std::string call = atomicCall(st, {});
    CodeWriter::Scope scope(*w_, "", "");
    w_->line("__shared__ " + T + " " + buf +
             ";  // the old value, from the updating thread to all");
    w_->line("if (threadIdx.x == 0)  // one thread updates a scalar");
    {
      auto in = w_->indent();
      w_->line(buf + " = " +
               (st->mask ? operand(scalar(st->mask), Prec::LogicalOr) + " ? " + call + " : " +
                               zero(st->result->type)
                         : call) +
               ";");
    }
    w_->line("__syncthreads();");
    w_->line(lhs(st->result, {}) + " = " + buf + ";");
    if (loopDepth_ > 0)
      w_->line("__syncthreads();  // every thread has read it before the next iteration writes it");
    return;
  }
  const bool replicated = holdsCopies(pt);
  if (replicated && st->result) {
    // Replicas (several threads hold one element: a tile smaller than the block) cannot each
    // update: the owners do, and hand the old values to the replicas through shared memory.
    const std::string L = layoutName(pt), T = cppType(st->result->type, hooks_);
    const std::string buf = names_.unique(varNames_.at(st->result->id) + "_smem");
    auto slot = [&](const Idx &idx) { return rowMajorIndex(L, pt.shape, idx); };
    CodeWriter::Scope scope(*w_, "", "");
    w_->line("__shared__ " + T + " " + buf + "[" + std::to_string(pt.numElements()) +
             "];  // the old values, from the owners to the replicas");
    {
      CodeWriter::Scope own(*w_, "if (" + L + "::is_owner())", "");
      forEachElem(pt, [&](const Idx &idx) {
        std::string call = atomicCall(st, idx);
        w_->line(buf + "[" + slot(idx) + "] = " +
                 (st->mask ? operand(elem(st->mask, idx), Prec::LogicalOr) + " ? " + call + " : " +
                                 zero(st->result->type)
                           : call) +
                 ";");
      });
    }
    w_->line("__syncthreads();");
    forEachElem(pt, [&](const Idx &idx) {
      w_->line(lhs(st->result, idx) + " = " + buf + "[" + slot(idx) + "];");
    });
    w_->line("__syncthreads();");
    return;
  }
  std::unique_ptr<CodeWriter::Scope> owner;
  if (replicated)
    owner = std::make_unique<CodeWriter::Scope>(
        *w_, "if (" + layoutName(pt) + "::is_owner())  // replicas skip", "");
  if (st->vec > 1)
    return atomicAddVectors(st);
  forEachElem(pt, [&](const Idx &idx) {
    std::string call = atomicCall(st, idx);
    if (st->result) { // masked-off elements read 0
      std::string v = lhs(st->result, idx) + " = ";
      w_->line(st->mask ? v + operand(elem(st->mask, idx), Prec::LogicalOr) + " ? " + call + " : " +
                              zero(st->result->type) + ";"
                        : v + call + ";");
      return;
    }
    if (!st->mask) {
      w_->line(call + ";");
      return;
    }
    w_->line("if (" + elem(st->mask, idx).text + ")");
    auto in = w_->indent();
    w_->line(call + ";");
  });
}

/// An atomic add whose pointers are contiguous and whose old values are not kept, a vector at a
/// time: `tilec::rt::atomic_add_vec<VEC, aligned, Sem, Scope>(p, vals, bits)` with the vector's
/// values and mask bits in temporaries (one vector atom where the target has them).
void KernelEmitter::atomicAddVectors(const Store *st) {
  const Type &pt = st->ptr->type;
  const Layout &l = *pt.layout;
  const int vd = l.kind == Layout::Kind::Blocked ? l.order[0] : 0;
  if (geometry(l, pt.shape).elemsPerThread[vd] % st->vec)
    internalError("atomic vector width does not divide the per-thread elements");
  const std::string &vec = vecNames_.at(st);
  forEachElem(
      pt,
      [&](const Idx &idx) {
        Idx vi = idx;
        vi[vd] = idx[vd] + " + " + vecIdx_;
        // In a streamed run the chunk loop's body holds every statement: the temporaries get a
        // scope.
        std::unique_ptr<CodeWriter::Scope> own;
        if (chunk_ == st->vec)
          own = std::make_unique<CodeWriter::Scope>(*w_, "", "");
        w_->line(cppType(st->value->type, hooks_) + " " + valsName_ + "[" + vec + "];");
        if (st->mask)
          w_->line("bool " + bitsName_ + "[" + vec + "];");
        w_->line("TILEC_UNROLL");
        {
          CodeWriter::Scope loop(*w_,
                                 "for (int " + vecIdx_ + " = 0; " + vecIdx_ + " < " + vec + "; ++" +
                                     vecIdx_ + ")",
                                 "");
          w_->line(valsName_ + "[" + vecIdx_ + "] = " + elem(st->value, vi).text + ";");
          if (st->mask)
            w_->line(bitsName_ + "[" + vecIdx_ + "] = " + elem(st->mask, vi).text + ";");
        }
        std::vector<std::string> args{elem(st->ptr, idx).text, valsName_};
        if (st->mask)
          args.push_back(bitsName_);
        call("tilec::rt::atomic_add_vec<" + vec + ", " + (st->aligned ? "true" : "false") +
                 ", tilec::rt::Sem::" + name(st->sem) + ", tilec::rt::Scope::" + name(st->scope) +
                 ">(",
             args, ");");
      },
      vd, vec, st->vec);
}

/// tl::device_assert: each thread tests its elements of the condition; where one is false, the
/// runtime prints the message with the source location and the block and thread, and stops the
/// kernel. As C's assert, compiled out under NDEBUG.
void KernelEmitter::deviceAssert(const Assert *a) {
  const SourceFile *f = a->loc.valid() && a->loc.file < static_cast<int>(m_.files.size())
                            ? &m_.files[a->loc.file]
                            : nullptr;
  const std::string fail = "tilec::rt::assert_fail(\"" + stringLiteralText(a->message) + "\", \"" +
                           stringLiteralText(a->text) + "\", \"" +
                           (f ? stringLiteralText(f->name) : "") + "\", " +
                           std::to_string(a->loc.line) + ");";
  w_->raw("#ifndef NDEBUG");
  const Type &t = a->cond->type;
  if (t.isScalar()) {
    w_->line("if (!" + operand(scalar(a->cond), Prec::Unary) + ")");
    auto in = w_->indent();
    w_->line(fail);
  } else {
    forEachElem(t, [&](const Idx &idx) {
      w_->line("if (!" + operand(elem(a->cond, idx), Prec::Unary) + ")");
      auto in = w_->indent();
      w_->line(fail);
    });
  }
  // Without the test, the variables it reads (a reduction computed for it, say) are not unused.
  ExprFacts facts;
  facts.add(a->cond);
  std::set<std::string> reads;
  for (const VarNode *v : facts.reads)
    reads.insert(varNames_.at(v->id));
  if (!reads.empty()) {
    w_->raw("#else");
    std::string line;
    for (const std::string &v : reads)
      line += (line.empty() ? "" : " ") + ("(void)" + v + ";");
    w_->line(line);
  }
  w_->raw("#endif");
}

namespace {
/// The printf format of a line of tl::device_print's operand `p` (as tl.hpp's detail::printOperand
/// builds it): "pid (%u, %u, %u) idx (I, J)<prefix>[(operand N) ]<value>\n", the index of each dim
/// as wide as ceil(log10(its size)), the value's conversion after its type (C string text).
std::string printFormat(const Print *p) {
  auto percents = [](const std::string &s) {
    std::string r;
    for (char c : s)
      r += c == '%' ? std::string("%%") : std::string(1, c);
    return r;
  };
  if (!p->value)
    return "pid (%u, %u, %u)" + stringLiteralText(percents(p->prefix)) + "\\n";
  const Type &t = p->value->type;
  std::string f = "pid (%u, %u, %u) idx (";
  for (int d = 0; d < t.rank(); ++d) {
    int w = 0;
    for (int64_t n = 1; n < t.shape[d]; n *= 10)
      ++w;
    f += (d ? ", %" : "%") + (w ? std::to_string(w) : std::string()) + "u";
  }
  f += ")" + percents(p->prefix);
  if (p->operands > 1)
    f += "(operand " + std::to_string(p->operand) + ") ";
  const ScalarType e = t.elem;
  const int bytes = byteSize(e);
  if (t.pointer)
    f += "%p";
  else if (p->hex)
    f += "0x%0" + std::to_string(2 * bytes) + (bytes == 8 ? "llx" : "x");
  else if (isFloat(e))
    f += "%f";
  else if (isUnsigned(e))
    f += bytes == 8 ? "%llu" : "%u";
  else
    f += bytes == 8 ? "%lli" : "%i";
  return stringLiteralText(f) + "\\n";
}
} // namespace

/// tl::device_print: each element once (its owner prints it, replicas skip), through
/// tilec::rt::print_value, which adds the program id to the format's first three conversions.
void KernelEmitter::devicePrint(const Print *p) {
  const std::string format = "\"" + printFormat(p) + "\"";
  if (!p->value) {
    w_->line("if (threadIdx.x == 0)");
    auto in = w_->indent();
    w_->line("tilec::rt::print_value(" + format + ");");
    return;
  }
  auto value = [&](const Idx &idx) {
    std::string v = elem(p->value, idx).text;
    return p->hex && !p->value->type.pointer ? "tilec::rt::print_bits(" + v + ")" : v;
  };
  const Type &t = p->value->type;
  if (t.isScalar()) {
    w_->line("if (threadIdx.x == 0)");
    auto in = w_->indent();
    w_->line("tilec::rt::print_value(" + format + ", " + value({}) + ");");
    return;
  }
  const std::string L = layoutName(t);
  std::unique_ptr<CodeWriter::Scope> owner;
  if (holdsCopies(t))
    owner = std::make_unique<CodeWriter::Scope>(*w_, "if (" + L + "::is_owner())  // replicas skip",
                                                "");
  forEachElem(t, [&](const Idx &idx) {
    std::vector<std::string> args = {format};
    for (size_t d = 0; d < idx.size(); ++d)
      args.push_back(L + "::coord" + std::to_string(d) + "(" + idx[d] + ")");
    args.push_back(value(idx));
    call("tilec::rt::print_value(", args, ");");
  });
}

void KernelEmitter::store(const Store *st) {
  if (st->atomic != AtomicOp::None)
    return atomicStore(st);
  const Type &pt = st->ptr->type;
  if (pt.isScalar()) {
    std::string cond = "threadIdx.x == 0";
    if (st->mask)
      cond += " && " + operand(scalar(st->mask), Prec::LogicalAnd);
    w_->line("if (" + cond + ")  // one thread stores a scalar");
    auto in = w_->indent();
    storeAccess(st, {}, scalar(st->value).text);
    return;
  }
  const Layout &l = *pt.layout;
  LayoutGeometry g = geometry(l, pt.shape);
  const bool replicated = holdsCopies(pt);
  std::unique_ptr<CodeWriter::Scope> owner;
  if (replicated)
    owner = std::make_unique<CodeWriter::Scope>(*w_, "if (" + layoutName(pt) + "::is_owner())  // replicas skip", "");
  if (st->vec <= 1) {
    forEachElem(pt, [&](const Idx &idx) {
      if (!st->mask) {
        storeAccess(st, idx, elem(st->value, idx).text);
        return;
      }
      w_->line("if (" + elem(st->mask, idx).text + ")");
      auto in = w_->indent();
      storeAccess(st, idx, elem(st->value, idx).text);
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
  // A mask whose bits are alike over each vector is one test per vector (its first element)
  // around an unmasked access.
  bool allOrNone = st->mask && st->maskAllOrNone;
  bool strided = !stride.empty() && !(valueVar && (!st->mask || maskVar || allOrNone));
  if (strided) {
    valueVar = nullptr;
    maskVar = nullptr;
  }
  forEachElem(pt, [&](const Idx &idx) {
    Idx vi = idx;
    vi[vd] = idx[vd] + " + " + vecIdx_;
    bool tmpValue = !valueVar, tmpMask = st->mask && !maskVar && !allOrNone;
    // In a streamed run the chunk loop's body holds every statement: temporaries get a scope.
    std::unique_ptr<CodeWriter::Scope> own;
    if (chunk_ == st->vec && (tmpValue || tmpMask))
      own = std::make_unique<CodeWriter::Scope>(*w_, "", "");
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
    bool useStride = !stride.empty() && !tmpValue;
    std::vector<std::string> args{hinted(st, st->hints, elem(st->ptr, idx).text), value};
    if (allOrNone) {
      w_->line("if (" + (maskVar ? indexed(*maskVar, idx) : elem(st->mask, idx).text) + ")");
      auto in = w_->indent();
      call("tilec::rt::store_vec<" + vec + ", " + (st->aligned ? "true" : "false") +
               (useStride ? ", " + stride : "") + ">(",
           args, ");");
      return;
    }
    std::string mask = !st->mask ? "" : tmpMask ? bitsName_ : "&" + indexed(*maskVar, idx);
    if (st->mask)
      args.push_back(mask);
    if (st->mask && st->maskAtLast) // the vector is wholly unmasked when its last element is
      args.push_back(lastMaskElem(st->mask, maskVar, idx, vd, vec));
    call("tilec::rt::store_vec<" + vec + ", " + (st->aligned ? "true" : "false") +
             (useStride ? ", " + stride : "") + ">(",
         args, ");");
  }, vd, vec, st->vec);
}

void KernelEmitter::threadReduce(const std::string &dst, const Type &dstType, const ThreadReduce *r,
                                 bool isDecl) {
  const Type &src = r->a->type;
  std::string L = layoutName(src);
  std::string op = opType(r->op, r->combineFn);
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
  if (dstType.rank() != src.rank() - 1)
    internalError("thread_reduce shapes");
  // A loop over each kept dim, then the reduced dim's elements folded into the target.
  std::vector<std::unique_ptr<CodeWriter::Scope>> loops;
  Idx first(src.rank()), each(src.rank()), kept;
  for (int d = 0; d < src.rank(); ++d) {
    first[d] = each[d] = idxNames_[d];
    if (d == r->axis)
      continue;
    const std::string &k = idxNames_[d];
    kept.push_back(k);
    const std::string header = "for (int " + k + " = 0; " + k + " < " + L + "::ELEMS" +
                               std::to_string(d) + "; ++" + k + ")";
    w_->line("TILEC_UNROLL");
    loops.push_back(std::make_unique<CodeWriter::Scope>(*w_, header, ""));
  }
  first[r->axis] = "0";
  std::string target = indexed(dst, kept);
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
  if (t.isScalar() && !value) { // an atomic's old value, written by the atomic after this
    w_->line(varDecl(v, false) + ";");
    return;
  }
  if (t.isScalar()) {
    if (auto r = as<ThreadReduce>(value))
      return threadReduce(name, t, r, isDecl);
    std::string target = isDecl ? varDecl(v, !assigned_.count(v->id)) : name;
    if (auto wr = as<WarpReduce>(value)) {
      std::vector<std::string> args{scalar(wr->a).text};
      for (int m : wr->laneMasks)
        args.push_back(std::to_string(m));
      return call(target + " = tilec::rt::warp_allreduce<" + opType(wr->op, wr->combineFn) + ">(",
                  args, ");");
    }
    if (auto sr = as<SharedRead>(value)) {
      if (!sr->combine)
        internalError("shared_read of a scalar");
      return call(
          target + " = tilec::rt::combine_partials<" + opType(sr->op, sr->combineFn) + ", " +
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
  if (auto d = as<SharedDot>(value))
    return sharedDot(v, d);
  if (auto sc = as<Scan>(value))
    return scanPart(v, sc);
  if (auto wr = as<WarpReduce>(value)) {
    forEachElem(t, [&](const Idx &idx) {
      std::vector<std::string> args{elem(wr->a, idx).text};
      for (int m : wr->laneMasks)
        args.push_back(std::to_string(m));
      call(lhs(v, idx) + " = tilec::rt::warp_allreduce<" + opType(wr->op, wr->combineFn) + ">(",
           args, ");");
    });
    return;
  }
  if (auto sr = as<SharedRead>(value)) {
    const SharedBuffer &b = k_.buffers.at(sr->buffer);
    const std::string &buf = bufferNames_.at(sr->buffer);
    std::string L = layoutName(t);
    if (sr->combine) {
      forEachElem(t, [&](const Idx &idx) {
        call(lhs(v, idx) + " = tilec::rt::combine_partials<" + opType(sr->op, sr->combineFn) +
                 ", " + std::to_string(sr->numParts) + ">(",
             {buf + " + " + rowMajorIndex(L, t.shape, idx), std::to_string(partStride(b))}, ");");
      });
      return;
    }
    if (sr->index) { // a gather: the indices' element along the axis, modulo its size
      const std::string mask = std::to_string(b.shape.at(sr->gatherAxis) - 1);
      forEachElem(t, [&](const Idx &idx) {
        const std::string k = operand(elem(sr->index, idx), Prec::BitAnd) + " & " + mask;
        std::vector<std::string> at;
        for (int d = 0; d < t.rank(); ++d)
          at.push_back(d == sr->gatherAxis
                           ? "(" + k + ")"
                           : L + "::coord" + std::to_string(d) + "(" + idx[d] + ")");
        w_->line(lhs(v, idx) + " = " + buf + "[" +
                 (t.rank() == 1 ? k : sharedAt(sr->buffer, at[0], at[1])) + "];");
      });
      return;
    }
    if (sr->reshape)
      return reshapeRead(v, sr);
    // A swizzled buffer is read along its rows in vectors of up to one chunk: the XOR in the
    // offset hides from the compiler that a run of elements is contiguous, so it would not merge
    // the element reads (the epilogue of a dot: 16-byte reads instead of 2-byte ones).
    const int last = t.rank() - 1;
    const int vec = b.swizzle.on() ? sharedRunVec(*t.layout, t.rank(), b, byteSize(t.elem)) : 1;
    if (vec > 1) {
      const std::string V = runVecName(*t.layout, t.rank(), vec);
      forEachElem(
          t,
          [&](const Idx &idx) {
            call("tilec::rt::load_vec<" + V + ", true>(",
                 {"&" + lhs(v, idx), "&" + buf + "[" + sharedOffset(L, t, sr->buffer, idx) + "]"},
                 ");");
          },
          last, V, vec);
      return;
    }
    forEachElem(t, [&](const Idx &idx) {
      w_->line(lhs(v, idx) + " = " + buf + "[" + sharedOffset(L, t, sr->buffer, idx) + "];");
    });
    return;
  }
  forEachElem(t, [&](const Idx &idx) { w_->line(lhs(v, idx) + " = " + elem(value, idx).text + ";"); });
}

void KernelEmitter::reshapeRead(const Var &v, const SharedRead *sr) {
  // The operands are staged row-major and unpadded (the verifier checks it): each position reads
  // the element its row-major index `l` in the result takes (ir::Reshape's rules).
  const Type &t = v->type;
  const std::string L = layoutName(t);
  const std::string &a = bufferNames_.at(sr->buffer);
  const std::string b = sr->bufferB >= 0 ? bufferNames_.at(sr->bufferB) : "";
  const int last = t.rank() - 1;
  const int64_t dLast = t.shape[last];
  int64_t n = 1;
  for (int64_t d : k_.buffers.at(sr->buffer).shape)
    n *= d;
  forEachElem(t, [&](const Idx &idx) {
    const std::string l = rowMajorIndex(L, t.shape, idx);
    const std::string y = lhs(v, idx) + " = ";
    // `y = cond ? x` over `: z;`, the second line's `:` under the `?`.
    auto choose = [&](const std::string &cond, const std::string &x, const std::string &z) {
      const std::string first = y + cond + " ? ";
      w_->line(first + x);
      w_->line(std::string(first.size() - 2, ' ') + ": " + z + ";");
    };
    switch (*sr->reshape) {
    case ReshapeKind::Reshape:
      return w_->line(y + a + "[" + l + "];");
    case ReshapeKind::Cat:
      return choose(l + " < " + std::to_string(n), a + "[" + l + "]",
                    b + "[" + l + " - " + std::to_string(n) + "]");
    case ReshapeKind::Interleave: {
      // Even positions from a, odd ones from b, each at l / 2; along a row of even length the
      // column (the last dim's coordinate) alone tells the parity, and l / 2 is the row's index
      // (row-major over the other dims) times half a row plus half the column.
      const std::string cLast = L + "::coord" + std::to_string(last) + "(" + idx[last] + ")";
      std::string half, odd;
      if (t.rank() >= 2 && dLast > 1) {
        const std::string rows =
            rowMajorIndex(L, std::vector<int64_t>(t.shape.begin(), t.shape.begin() + last), idx);
        const bool sum = rows.find(' ') != std::string::npos;
        odd = dLast == 2 ? cLast : "(" + cLast + " & 1)";
        half = dLast == 2 ? rows
                          : (sum ? "(" + rows + ")" : rows) + " * " + std::to_string(dLast / 2) +
                                " + (" + cLast + " >> 1)";
      } else {
        odd = "(" + l + " & 1)";
        half = "(" + l + " >> 1)";
      }
      return choose(odd, b + "[" + half + "]", a + "[" + half + "]");
    }
    case ReshapeKind::Even:
    case ReshapeKind::Odd:
      return w_->line(y + a + "[" + (l.find(' ') == std::string::npos ? l : "(" + l + ")") +
                      " * 2" + (*sr->reshape == ReshapeKind::Odd ? " + 1" : "") + "];");
    }
  });
}

std::string KernelEmitter::scanParams(const Type &t, int axis, bool reverse, const Scan *op) {
  return (op ? opType(op->op, op->combineFn) + ", " : "") + layoutName(t) + ", " +
         std::to_string(axis) + ", " + (reverse ? "true" : "false");
}

std::vector<std::string> KernelEmitter::scanTotalsArgs(const std::string &var, const Type &t,
                                                       int buffer) {
  std::vector<std::string> args{var, bufferNames_.at(buffer)};
  if (t.rank() == 2) // the totals' rows, one element of the other dim each
    args.push_back(std::to_string(k_.buffers.at(buffer).rowStride));
  return args;
}

void KernelEmitter::scanPart(const Var &v, const Scan *s) {
  const Type &t = v->type;
  const std::string &name = varNames_.at(v->id);
  auto ref = as<VarRef>(s->a);
  if (!ref || ref->var != v)
    forEachElem(
        t, [&](const Idx &idx) { w_->line(lhs(v, idx) + " = " + elem(s->a, idx).text + ";"); });
  const std::string params = scanParams(t, s->axis, s->reverse, s);
  switch (s->part) {
  case ScanPart::InWarp:
    return call("tilec::rt::scan_in_warp<" + params + ">(", {name}, ");");
  case ScanPart::Carry:
    return call("tilec::rt::scan_add_carries<" + params + ">(", scanTotalsArgs(name, t, s->buffer),
                ");");
  case ScanPart::Whole: break;
  }
  internalError("a scan reached the emitter whole (lower-reductions must run)");
}

void KernelEmitter::sharedWriteScanTotals(const SharedWrite *sw) {
  const Type &t = sw->value->type;
  const std::string *var = directTile(sw->value, t);
  if (!var)
    internalError("shared_write_scan_totals of an expression (a scan's variable expected)");
  call("tilec::rt::scan_write_totals<" + scanParams(t, sw->axis, sw->reverse, nullptr) + ">(",
       scanTotalsArgs(*var, t, sw->buffer), ");");
}

void KernelEmitter::sharedWriteCount(const SharedWrite *sw) {
  const Type &t = sw->value->type;
  const std::string &buf = bufferNames_.at(sw->buffer);
  const std::string n = std::to_string(k_.buffers.at(sw->buffer).shape.at(0));
  std::unique_ptr<CodeWriter::Scope> owner;
  if (holdsCopies(t)) // a value several threads hold counts once
    owner = std::make_unique<CodeWriter::Scope>(
        *w_, "if (" + layoutName(t) + "::is_owner())  // one count per element", "");
  forEachElem(t, [&](const Idx &idx) {
    std::unique_ptr<CodeWriter::Indent> in;
    if (sw->mask) {
      w_->line("if (" + elem(sw->mask, idx).text + ")");
      in = std::make_unique<CodeWriter::Indent>(*w_);
    }
    w_->line("tilec::rt::count_into<" + n + ">(" + buf + ", " + elem(sw->value, idx).text + ");");
  });
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
    w_->line(buf + "[" + slot + " * " + stride + " + " + rowMajorIndex(Ls, vt.shape, idx) +
             "] = " + elem(sw->value, idx).text + ";");
  });
}

void KernelEmitter::sharedWriteSort(const SharedWrite *sw) {
  sharedWriteTile(sw);
  const Type &t = sw->value->type;
  const int64_t n = t.shape.back(), rows = t.numElements() / n;
  w_->line("__syncthreads();");
  w_->line("// each row of " + std::to_string(n) + " sorted in place" +
           (sw->descending ? ", descending" : "") + " (a bitonic network over the block)");
  w_->line("tilec::rt::sort_rows<" + std::to_string(rows) + ", " + std::to_string(n) + ", " +
           (sw->descending ? "true" : "false") + ", NUM_THREADS>(" + bufferNames_.at(sw->buffer) +
           ");");
}

void KernelEmitter::sharedWriteTile(const SharedWrite *sw) {
  const Type &t = sw->value->type;
  const SharedBuffer &b = k_.buffers.at(sw->buffer);
  const std::string buf = stagedBuffer(sw->buffer, sw->stage);
  std::string L = layoutName(t);
  LayoutGeometry g = geometry(*t.layout, t.shape);
  bool replicated = t.layout->kind == Layout::Kind::Slice;
  for (size_t d = 0; d < t.shape.size(); ++d)
    replicated = replicated || t.shape[d] < g.coverage[d];
  std::unique_ptr<CodeWriter::Scope> owner;
  if (replicated)
    owner = std::make_unique<CodeWriter::Scope>(*w_, "if (" + L + "::is_owner())  // one writer per element", "");
  auto at = [&](const Idx &idx) { return sharedOffset(L, t, sw->buffer, idx); };
  // A tile variable whose thread holds runs of elements along the rows writes them as vectors of
  // up to 16 bytes, when every run starts at an aligned address (the buffer is 16-byte aligned).
  const int last = t.rank() - 1;
  const std::string *var = directTile(sw->value, t);
  const int vec = var ? sharedRunVec(*t.layout, t.rank(), b, byteSize(t.elem)) : 1;
  if (vec > 1) {
    const std::string V = runVecName(*t.layout, t.rank(), vec);
    forEachElem(
        t,
        [&](const Idx &idx) {
          call("tilec::rt::store_vec<" + V + ", true>(",
               {"&" + buf + "[" + at(idx) + "]", "&" + indexed(*var, idx)}, ");");
        },
        last, V, vec);
    return;
  }
  forEachElem(t, [&](const Idx &idx) {
    w_->line(buf + "[" + at(idx) + "] = " + elem(sw->value, idx).text + ";");
  });
}

int KernelEmitter::sharedRunVec(const Layout &l, int rank, const SharedBuffer &b,
                                int elemBytes) const {
  const int last = rank - 1;
  if (chunk_ || l.kind != Layout::Kind::Blocked || l.order[0] != last)
    return 1;
  int vec = std::min(l.sizePerThread[last], 16 / elemBytes);
  while (vec > 1 && ((b.rowStride * elemBytes) % (int64_t(vec) * elemBytes) != 0 ||
                     (b.swizzle.on() && b.swizzle.vec % vec != 0)))
    vec /= 2;
  return vec;
}

std::string KernelEmitter::runVecName(const Layout &l, int rank, int vec) const {
  auto sv = sptVec_.find(l.str());
  return sv != sptVec_.end() && l.sizePerThread[rank - 1] == vec ? sv->second : std::to_string(vec);
}

std::string KernelEmitter::sharedOffset(const std::string &L, const Type &t, int b,
                                        const Idx &idx) {
  if (t.rank() == 1)
    return L + "::coord0(" + idx[0] + ")";
  const int last = t.rank() - 1;
  const std::vector<int64_t> rows(t.shape.begin(), t.shape.begin() + last);
  const std::string row = rowMajorIndex(L, rows, Idx(idx.begin(), idx.begin() + last));
  return sharedAt(b, row, L + "::coord" + std::to_string(last) + "(" + idx[last] + ")",
                  row.find(' ') != std::string::npos);
}

std::string KernelEmitter::rowMajorIndex(const std::string &L, const std::vector<int64_t> &shape,
                                         const Idx &idx) {
  std::string s;
  int64_t stride = 1;
  for (int d = static_cast<int>(shape.size()) - 1; d >= 0; --d) {
    if (shape[d] > 1 || (d == 0 && s.empty())) {
      std::string term = L + "::coord" + std::to_string(d) + "(" + idx[d] + ")";
      if (stride > 1)
        term += " * " + std::to_string(stride);
      s = s.empty() ? term : term + " + " + s;
    }
    stride *= shape[d];
  }
  return s;
}

std::string KernelEmitter::sharedAt(int b, const std::string &row, const std::string &col,
                                    bool rowIsSum) {
  if (auto it = swizzleNames_.find(b); it != swizzleNames_.end())
    return it->second + "::offset(" + row + ", " + col + ")";
  return (rowIsSum ? "(" + row + ")" : row) + " * " + std::to_string(k_.buffers.at(b).rowStride) +
         " + " + col;
}

std::string KernelEmitter::stagedBuffer(int buffer, const Expr &stage) {
  const std::string &name = bufferNames_.at(buffer);
  if (k_.buffers.at(buffer).stages == 1)
    return name;
  if (!stage)
    internalError("a buffer of several stages read without a stage");
  return name + "[" + scalar(stage).text + "]";
}

bool KernelEmitter::writesGenerically(const Stmt &s) {
  struct Walk : IRVisitor {
    bool writes = false;
    using IRVisitor::visit;
    void visit(const SharedWrite *) override { writes = true; }
    void visit(const AsyncWait *w) override { writes = writes || !w->tma(); }
  } walk;
  if (s)
    walk.visit(s);
  return walk.writes;
}

void KernelEmitter::asyncCopy(const AsyncCopy *c) {
  if (opts_.target.kind != TargetKind::Cuda)
    internalError("async_copy for a target without cp.async");
  if (c->tma()) {
    // One thread announces the stage's bytes on its full barrier and starts the copy of the box
    // (one per column block).
    const SharedBuffer &buf = k_.buffers.at(c->buffer);
    auto map = std::find_if(tmaMaps_.begin(), tmaMaps_.end(),
                            [&](const TmaMap &m) { return m.buffer == c->buffer; });
    if (map == tmaMaps_.end() || !buf.tma || buf.stages < 2)
      internalError("tma_copy into a buffer without a tensor map");
    const std::string stage = scalar(c->stage).text;
    const std::string bar = "&" + stageFullNames_.at(buf.tma->ring) + "[" + stage + "]";
    const std::string &name = bufferNames_.at(c->buffer);
    const std::string row = scalar(c->row).text;
    // The producer warpgroup's copies are its one thread's already.
    std::optional<CodeWriter::Scope> s;
    if (role_ != Role::Producer)
      s.emplace(*w_, "if (threadIdx.x == 0)", "");
    call("tilec::rt::mbarrier_arrive_expect_tx(", {bar, "sizeof(" + name + "[0])"}, ");");
    if (!buf.colBlock) {
      call("tilec::rt::tma_load_2d(",
           {name + "[" + stage + "]", "&" + map->param, row, scalar(c->col).text, bar}, ");");
      return;
    }
    const std::string &blk = colBlockIdx_;
    w_->line("TILEC_UNROLL");
    w_->line("for (int " + blk + " = 0; " + blk + " < " + dimConst(buf.shape[1]) + "; " + blk +
             " += " + map->boxCols + ")");
    auto in = w_->indent();
    call("tilec::rt::tma_load_2d(",
         {"&" + name + "[" + stage + "][" + swizzleNames_.at(c->buffer) + "::offset(0, " + blk +
              ")]",
          "&" + map->param, row, operand(scalar(c->col), Prec::Additive, false) + " + " + blk, bar},
         ");");
    return;
  }
  const Type &t = c->ptr->type;
  const std::string dst = stagedBuffer(c->buffer, c->stage);
  const std::string L = layoutName(t);
  const int last = t.rank() - 1;
  const std::string &V = vecNames_.at(c);
  forEachElem(
      t,
      [&](const Idx &idx) {
        std::vector<std::string> args{"&" + dst + "[" + sharedOffset(L, t, c->buffer, idx) + "]",
                                      elem(c->ptr, idx).text};
        if (c->mask)
          args.push_back(elem(c->mask, idx).text);
        call("tilec::rt::cp_async_" + std::to_string(c->vec * byteSize(t.elem)) + "(", args, ");");
      },
      last, V, c->vec);
}

/// The block split in two (ir::WarpSpecialize): threads NUM_THREADS and up, the producer
/// warpgroup, give their registers to the consumers, and one of them runs the producer's loop; the
/// others return at once. The consumers take the registers and run the rest of the kernel.
void KernelEmitter::warpSpecialize(const WarpSpecialize *ws) {
  w_->lines(commentLines("warp specialization: the producer warpgroup (threads " + numThreadsName_ +
                             " and up) copies the tiles; the " + numThreadsName_ +
                             " consumers compute with them",
                         w_->indentWidth()));
  {
    auto b = w_->block("if (threadIdx.x >= " + numThreadsName_ + ")");
    if (producerRegs_)
      w_->line("tilec::rt::warpgroup_release_registers<" + producerRegsName_ + ">();");
    {
      auto one = w_->block("if (threadIdx.x == " + numThreadsName_ + ")");
      role_ = Role::Producer;
      stmt(ws->producer);
    }
    w_->line("return;");
  }
  if (producerRegs_)
    w_->line("tilec::rt::warpgroup_claim_registers<" + consumerRegsName_ + ">();");
  role_ = Role::Consumers;
  stmt(ws->consumers);
  role_ = Role::None;
}

void KernelEmitter::sharedDot(const Var &v, const SharedDot *d) {
  const Type &t = v->type;
  const SharedBuffer &A = k_.buffers.at(d->bufferA), &B = k_.buffers.at(d->bufferB);
  const std::string &aName = bufferNames_.at(d->bufferA), &bName = bufferNames_.at(d->bufferB);
  const std::string a = stagedBuffer(d->bufferA, d->stage), b = stagedBuffer(d->bufferB, d->stage);
  const ScalarType in = A.elemType.elem;
  const bool ints = in == ScalarType::I8;
  // Products are summed in float (int for int8 operands); an fp16 result is rounded once, at the
  // end, from a float sum of its own.
  const std::string sumType = ints ? "int" : "float";
  const bool separateSum = t.elem != (ints ? ScalarType::I32 : ScalarType::F32);
  std::string L = layoutName(t);
  std::string name = varNames_[v->id];
  std::string sum = separateSum ? names_.unique(name + "_sum") : name;
  if (separateSum)
    w_->line(sumType + " " + sum + "[" + L + "::ELEMS0][" + L + "::ELEMS1];");
  auto sumAt = [&](const Idx &idx) { return indexed(sum, idx); };
  // The sum starts from the accumulator (in place when it is the variable itself).
  auto *accVar = as<VarRef>(d->acc);
  if (!d->acc)
    forEachElem(
        t, [&](const Idx &idx) { w_->line(sumAt(idx) + " = " + (ints ? "0" : "0.0f") + ";"); });
  else if (separateSum)
    forEachElem(t, [&](const Idx &idx) {
      w_->line(sumAt(idx) + " = " + asFloat(elem(d->acc, idx), d->acc->type.elem) + ";");
    });
  else if (!accVar || accVar->var != v)
    forEachElem(
        t, [&](const Idx &idx) { w_->line(sumAt(idx) + " = " + elem(d->acc, idx).text + ";"); });
  if (t.layout->kind == Layout::Kind::Mma)
    return mmaLoop(sum, t, d);
  if (A.swizzle.on() || B.swizzle.on())
    internalError("shared_dot per thread reads operands from a swizzled buffer");
  const std::string &kk = dotIdx_, ak = names_.unique(aName + "_k"), bk = names_.unique(bName + "_k");
  auto operand = [&](const std::string &buf, const std::string &at) {
    std::string x = buf + "[" + at + "]";
    return ints ? x : asFloat(Code{x, Prec::Postfix}, in);
  };
  const std::string &i = idxNames_[0], &j = idxNames_[1];
  w_->line("// k by k: column k of " + a + " at this thread's rows times row k of " + b);
  w_->line("// at its columns");
  w_->line("TILEC_UNROLL");
  std::optional<CodeWriter::Scope> loop;
  loop.emplace(
      *w_, "for (int " + kk + " = 0; " + kk + " < " + dimConst(A.shape[1]) + "; ++" + kk + ")", "");
  w_->line(sumType + " " + ak + "[" + L + "::ELEMS0];");
  w_->line("TILEC_UNROLL");
  {
    auto s = w_->block("for (int " + i + " = 0; " + i + " < " + L + "::ELEMS0; ++" + i + ")");
    w_->line(ak + "[" + i + "] = " +
             operand(a, L + "::coord0(" + i + ") * " + std::to_string(A.rowStride) + " + " + kk) +
             ";");
  }
  w_->line(sumType + " " + bk + "[" + L + "::ELEMS1];");
  w_->line("TILEC_UNROLL");
  {
    auto s = w_->block("for (int " + j + " = 0; " + j + " < " + L + "::ELEMS1; ++" + j + ")");
    w_->line(
        bk + "[" + j + "] = " +
        operand(b, kk + " * " + std::to_string(B.rowStride) + " + " + L + "::coord1(" + j + ")") +
        ";");
  }
  std::string x = ak + "[" + i + "]", y = bk + "[" + j + "]";
  std::string term;
  if (ints)
    term = "tilec::rt::wrapping_add(" + sumAt({i, j}) + ", " + x + " * " + y + ")";
  else if (d->precision == DotPrecision::Tf32 && in == ScalarType::F32)
    term = sumAt({i, j}) + " + tilec::rt::dot_term_tf32(" + x + ", " + y + ")";
  else if (d->precision == DotPrecision::Tf32x3 && in == ScalarType::F32)
    term = sumAt({i, j}) + " + tilec::rt::dot_term_tf32x3(" + x + ", " + y + ")";
  else
    term = sumAt({i, j}) + " + " + x + " * " + y;
  forEachElem(t, [&](const Idx &idx) { w_->line(sumAt(idx) + " = " + term + ";"); });
  loop.reset();
  if (separateSum)
    forEachElem(t, [&](const Idx &idx) {
      w_->line(lhs(v, idx) + " = " + roundTo(t.elem, sumAt(idx)).text + ";");
    });
}

void KernelEmitter::mmaLoop(const std::string &acc, const Type &t, const SharedDot *d) {
  if (Layout::mfmaSize(t.layout->instr))
    return mfmaLoop(acc, t, d);
  if (t.layout->instr == Layout::MmaInstr::Wgmma)
    return wgmmaLoop(acc, t, d);
  const SharedBuffer &A = k_.buffers.at(d->bufferA);
  const int64_t K = A.shape[d->transA ? 0 : 1];
  const std::string &aName = bufferNames_.at(d->bufferA), &bName = bufferNames_.at(d->bufferB);
  const std::string a = stagedBuffer(d->bufferA, d->stage), b = stagedBuffer(d->bufferB, d->stage);
  // The instruction by operand type: k16 for 16-bit operands, k8 for tf32, k32 for int8; a step
  // is two 16-byte units of k.
  const ScalarType in = A.elemType.elem;
  const int bytes = byteSize(in), kStep = 32 / bytes;
  const bool halves = bytes == 2, ints = in == ScalarType::I8;
  const std::string mma = in == ScalarType::BF16  ? "tilec::rt::mma_m16n8k16_bf16_f32"
                          : in == ScalarType::F16 ? "tilec::rt::mma_m16n8k16_f16_f32"
                          : ints                  ? "tilec::rt::mma_m16n8k32_s8"
                                                  : "tilec::rt::mma_m16n8k8_tf32";
  const std::string instr = "mma.sync m16n8k" + std::to_string(kStep);
  const std::string units = halves ? "" : "<" + std::to_string(bytes) + ">";
  std::string L = layoutName(t);
  const std::string &kk = dotIdx_, &i = idxNames_[0], &j = idxNames_[1];
  const std::string af = names_.unique(aName + "_frag"), bf = names_.unique(bName + "_frag"),
                    bpair = names_.unique("b_pair"), cf = names_.unique("c_frag");
  // fp32 operands: rounded to tf32, or under tf32x3 split into tf32 high and low parts (the low
  // ones in `<name>_lo` arrays) for three products per step.
  const bool fp32 = !halves && !ints, x3 = fp32 && d->precision == DotPrecision::Tf32x3;
  const std::string afLo = x3 ? names_.unique(aName + "_frag_lo") : "",
                    bfLo = x3 ? names_.unique(bName + "_frag_lo") : "",
                    bpairLo = x3 ? names_.unique("b_pair_lo") : "";
  auto toTf32 = [&](const std::string &frag, const std::string &lo) {
    if (x3)
      w_->line("tilec::rt::split_tf32(" + frag + ", " + lo + ");");
    else if (fp32)
      w_->line("tilec::rt::round_to_tf32(" + frag + ");");
  };
  // Fragments whose k is contiguous in the buffer (A's [M, K] rows, B's [N, K] ones under
  // tl::trans) are read with ldmatrix; the others with ldmatrix .trans for 16-bit elements, else
  // element by element (gather_*: ldmatrix cannot transpose 32- or 8-bit elements).
  auto how = [&](bool kRows) {
    return std::string(kRows ? "ldmatrix" : halves ? "ldmatrix .trans" : "gathered");
  };
  const std::string tf32 = x3     ? ", split into tf32 high and low parts (three products),"
                           : fp32 ? ", rounded to tf32,"
                                  : "";
  w_->lines(commentLines(instr + ", k by " + std::to_string(kStep) +
                             ": each warp loads its fragments of " + a + " (" + how(!d->transA) +
                             (d->transA ? ", [K, M] rows" : "") + ") and " + b + " (" +
                             how(d->transB) + (d->transB ? ", [N, K] rows" : "") + ")" + tf32 +
                             " and adds their products into its accumulators",
                         w_->indentWidth()));
  w_->line("TILEC_UNROLL");
  auto loop = w_->block("for (int " + kk + " = 0; " + kk + " < " + dimConst(K) + "; " + kk +
                        " += " + std::to_string(kStep) + ")");
  const std::string last = std::to_string(kStep - 1);
  w_->line("uint32_t " + af + "[" + L + "::REP0][4];  // A: m16 block " + i + ", k " + kk + " .. " +
           kk + " + " + last);
  if (x3)
    w_->line("uint32_t " + afLo + "[" + L + "::REP0][4];");
  w_->line("TILEC_UNROLL");
  {
    auto s = w_->block("for (int " + i + " = 0; " + i + " < " + L + "::REP0; ++" + i + ")");
    const std::string frag = af + "[" + i + "]";
    if (!d->transA) {
      const std::string at =
          sharedAt(d->bufferA, L + "::a_row(" + i + ")", kk + " + " + L + "::a_col" + units + "()");
      call("tilec::rt::ldmatrix_x4(", {frag, "&" + a + "[" + at + "]"}, ");");
    } else if (halves) {
      const std::string at =
          sharedAt(d->bufferA, kk + " + " + L + "::at_row()", L + "::at_col(" + i + ")", true);
      call("tilec::rt::ldmatrix_x4_trans(", {frag, "&" + a + "[" + at + "]"}, ");");
    } else {
      call("tilec::rt::gather_" + std::string(ints ? "s8" : "f32") + "_a<" +
               swizzleNames_.at(d->bufferA) + ">(",
           {frag, a, L + "::m_base(" + i + ")", kk}, ");");
    }
    toTf32(frag, afLo + "[" + i + "]");
  }
  // B: ldmatrix_x4 loads two n8 blocks, a gather one.
  const bool gatherB = !halves && !d->transB;
  const std::string bShape = gatherB ? "[" + L + "::REP1][2]" : "[" + L + "::REP1 / 2][4]";
  if (gatherB)
    w_->line("uint32_t " + bf + bShape + ";  // B: n8 block " + j + ", k " + kk + " .. " + kk +
             " + " + last);
  else
    w_->line("uint32_t " + bf + bShape + ";  // B: n8 blocks 2 " + j + " and 2 " + j + " + 1, k " +
             kk + " .. " + kk + " + " + last);
  if (x3)
    w_->line("uint32_t " + bfLo + bShape + ";");
  w_->line("TILEC_UNROLL");
  {
    auto s = w_->block("for (int " + j + " = 0; " + j + " < " + L + "::REP1" +
                       (gatherB ? "" : " / 2") + "; ++" + j + ")");
    const std::string frag = bf + "[" + j + "]";
    if (gatherB) {
      call("tilec::rt::gather_" + std::string(ints ? "s8" : "f32") + "_b<" +
               swizzleNames_.at(d->bufferB) + ">(",
           {frag, b, kk, L + "::n_base(" + j + ")"}, ");");
    } else {
      const std::string at = d->transB ? sharedAt(d->bufferB, L + "::bt_row(" + j + ")",
                                                  kk + " + " + L + "::bt_col" + units + "()")
                                       : sharedAt(d->bufferB, kk + " + " + L + "::b_row()",
                                                  L + "::b_col(" + j + ")", true);
      call(std::string("tilec::rt::") + (d->transB ? "ldmatrix_x4(" : "ldmatrix_x4_trans("),
           {frag, "&" + b + "[" + at + "]"}, ");");
    }
    toTf32(frag, bfLo + "[" + j + "]");
  }
  w_->line("TILEC_UNROLL");
  auto si = w_->block("for (int " + i + " = 0; " + i + " < " + L + "::REP0; ++" + i + ")");
  w_->line("TILEC_UNROLL");
  auto sj = w_->block("for (int " + j + " = 0; " + j + " < " + L + "::REP1; ++" + j + ")");
  // The accumulator of blocks (i, j) is elements [2 i .. 2 i + 1][2 j .. 2 j + 1] of the tile.
  auto at = [&](int r, int c) {
    return acc + "[2 * " + i + (r ? " + 1" : "") + "][2 * " + j + (c ? " + 1" : "") + "]";
  };
  // B's registers of n8 block j: the block itself (gathered), or its half of an ldmatrix_x4's.
  auto bRegs = [&](const std::string &frag, const std::string &pair) {
    if (gatherB)
      return frag + "[" + j + "]";
    call("const uint32_t " + pair + "[2] = {",
         {frag + "[" + j + " / 2][" + j + " % 2 * 2]",
          frag + "[" + j + " / 2][" + j + " % 2 * 2 + 1]"},
         "};");
    return pair;
  };
  const std::string bArg = bRegs(bf, bpair), bArgLo = x3 ? bRegs(bfLo, bpairLo) : "";
  call(std::string(ints ? "int " : "float ") + cf + "[4] = {",
       {at(0, 0), at(0, 1), at(1, 0), at(1, 1)}, "};");
  if (x3) { // the small terms first: lo hi' + hi lo' + hi hi'
    w_->line(mma + "(" + cf + ", " + afLo + "[" + i + "], " + bArg + ", " + cf + ");");
    w_->line(mma + "(" + cf + ", " + af + "[" + i + "], " + bArgLo + ", " + cf + ");");
  }
  w_->line(mma + "(" + cf + ", " + af + "[" + i + "], " + bArg + ", " + cf + ");");
  for (int e = 0; e < 4; ++e)
    w_->line(at(e / 2, e % 2) + " = " + cf + "[" + std::to_string(e) + "];");
}

void KernelEmitter::wgmmaLoop(const std::string &acc, const Type &t, const SharedDot *d) {
  const SharedBuffer &A = k_.buffers.at(d->bufferA);
  const int64_t K = A.shape[d->transA ? 0 : 1], N = t.shape[1];
  const std::string a = stagedBuffer(d->bufferA, d->stage), b = stagedBuffer(d->bufferB, d->stage);
  const std::string wgmma = std::string("tilec::rt::wgmma_m64nNk16_f32_") +
                            (A.elemType.elem == ScalarType::BF16 ? "bf16" : "f16");
  std::string L = layoutName(t);
  const std::string &kk = dotIdx_, &i = idxNames_[0], &j = idxNames_[1];
  const std::string cf = names_.unique("c_frag"), aDesc = names_.unique("a_desc"),
                    bDesc = names_.unique("b_desc");
  // An operand's descriptor at (row, col) of its stage, the fields named among the tunables
  // (wgmmaDescriptor).
  auto desc = [&](int buffer, const std::string &buf, const std::string &row,
                  const std::string &col) {
    const std::string &n = wgmmaDescNames_.at(buffer);
    return std::vector<std::string>{"&" + buf + "[" + sharedAt(buffer, row, col) + "]",
                                    n + "_SWIZZLE", n + "_LBO", n + "_SBO"};
  };
  auto major = [](bool k) {
    return std::string(k ? "tilec::rt::WgmmaMajor::K" : "tilec::rt::WgmmaMajor::MN");
  };
  w_->lines(commentLines(
      "wgmma m64n" + std::to_string(N) +
          "k16, k by 16: each warpgroup multiplies its 64-row blocks of " + a + " (" +
          (d->transA ? "[K, M]" : "[M, K]") + " rows) by " + b + " (" +
          (d->transB ? "[N, K]" : "[K, N]") +
          " rows), both read from shared memory through descriptors, into its accumulators, "
          "which wgmma holds in registers in its own order",
      w_->indentWidth()));
  // N: the tile's columns, as the layout names them (a meta-parameter's name could be BLOCK_M's).
  const std::string n = L + "::COLS";
  // A product left in flight works on the registers its loop holds the accumulator in.
  const bool held = d->inFlight;
  const std::string regs = held ? heldRegs_.at(d) : cf;
  auto fenceRegs = [&] {
    w_->line("TILEC_UNROLL");
    auto si = w_->block("for (int " + i + " = 0; " + i + " < " + L + "::REP0; ++" + i + ")");
    w_->line("tilec::rt::wgmma_fence_accumulators(" + regs + "[" + i + "]);");
  };
  if (!held) {
    w_->lines(commentLines(cf + "[" + i + "]: this warpgroup's m64 block " + i +
                               " in wgmma's register order (element [2 " + i + " + r][2 " + j +
                               " + c] in register 4 " + j + " + 2 r + c)",
                           w_->indentWidth()));
    w_->line("float " + cf + "[" + L + "::REP0][" + n + " / 2];");
    wgmmaRegisterCopy(cf, acc, L, true);
  } else {
    fenceRegs();
  }
  // The descriptors of the stage's first k16 slice, made once; each wgmma moves them on to its
  // slice by a constant (K along a row, or down the rows): the swizzles' offsets are linear in
  // steps of 8 rows and 16 bytes, so the moved descriptor is the one made at the slice.
  const std::string row = L + "::warpgroup_row(" + i + ")";
  w_->lines(commentLines(bDesc + ", " + aDesc + "[" + i +
                             "]: the descriptors of the first k16 slice; each wgmma moves them on "
                             "to its own",
                         w_->indentWidth()));
  call("const uint64_t " + bDesc + " = tilec::rt::make_smem_desc(",
       desc(d->bufferB, b, "0", "0"), ");");
  w_->line("uint64_t " + aDesc + "[" + L + "::REP0];");
  w_->line("TILEC_UNROLL");
  {
    auto si = w_->block("for (int " + i + " = 0; " + i + " < " + L + "::REP0; ++" + i + ")");
    call(aDesc + "[" + i + "] = tilec::rt::make_smem_desc(",
         d->transA ? desc(d->bufferA, a, "0", row) : desc(d->bufferA, a, row, "0"), ");");
  }
  // The bytes from the first slice to slice kk: along a row (K contiguous) or down the rows.
  const std::string elemBytes = "sizeof(" + cppType(A.elemType, hooks_) + ")";
  auto moved = [&](int buffer, bool kAlongRow) {
    const std::string at = kAlongRow ? sharedAt(buffer, "0", kk) : sharedAt(buffer, kk, "0");
    return (swizzleNames_.count(buffer) ? at : "(" + at + ")") + " * " + elemBytes;
  };
  w_->line("tilec::rt::wgmma_fence();");
  w_->line("TILEC_UNROLL");
  {
    auto loop =
        w_->block("for (int " + kk + " = 0; " + kk + " < " + dimConst(K) + "; " + kk + " += 16)");
    w_->line("TILEC_UNROLL");
    auto si = w_->block("for (int " + i + " = 0; " + i + " < " + L + "::REP0; ++" + i + ")");
    call(wgmma + "<" + n + ", " + major(!d->transA) + ", " + major(d->transB) + ">(",
         {regs + "[" + i + "]",
          "tilec::rt::smem_desc_moved(" + aDesc + "[" + i + "], " +
              moved(d->bufferA, !d->transA) + ")",
          "tilec::rt::smem_desc_moved(" + bDesc + ", " + moved(d->bufferB, d->transB) + ")",
          "true"},
         ");");
  }
  w_->line("tilec::rt::wgmma_commit_group();");
  if (held)
    w_->lines(
        commentLines(std::string("leave this product in flight: wait for the last "
                                 "iteration's, which ends its reading of the stage ") +
                         (role_ == Role::Consumers ? "freed below" : "the copies below refill"),
                     w_->indentWidth()));
  w_->line(held ? "tilec::rt::wgmma_wait<1>();" : "tilec::rt::wgmma_wait<0>();");
  fenceRegs();
  if (!held)
    wgmmaRegisterCopy(cf, acc, L, false);
}

void KernelEmitter::wgmmaRegisterCopy(const std::string &regs, const std::string &acc,
                                      const std::string &L, bool toRegs) {
  const std::string &i = idxNames_[0], &j = idxNames_[1];
  w_->line("TILEC_UNROLL");
  auto si = w_->block("for (int " + i + " = 0; " + i + " < " + L + "::REP0; ++" + i + ")");
  w_->line("TILEC_UNROLL");
  auto sj = w_->block("for (int " + j + " = 0; " + j + " < " + L + "::REP1; ++" + j + ")");
  for (int e = 0; e < 4; ++e) {
    const std::string reg = regs + "[" + i + "][4 * " + j + " + " + std::to_string(e) + "]";
    const std::string el =
        acc + "[2 * " + i + (e / 2 ? " + 1" : "") + "][2 * " + j + (e % 2 ? " + 1" : "") + "]";
    w_->line(toRegs ? reg + " = " + el + ";" : el + " = " + reg + ";");
  }
}

void KernelEmitter::heldAccumulators(const For *f, bool before) {
  for (auto [a, d] : productsInFlight(*f)) {
    const std::string &acc = varNames_[a->var->id], L = layoutName(a->var->type);
    const std::string &i = idxNames_[0], &j = idxNames_[1];
    if (before) {
      const std::string regs = names_.unique(acc + "_wgmma");
      heldRegs_[d] = regs;
      w_->lines(
          commentLines(regs + "[" + i + "]: the m64 block " + i + " of " + acc +
                           " that this warpgroup holds, in wgmma's register order (element [2 " +
                           i + " + r][2 " + j + " + c] in register 4 " + j +
                           " + 2 r + c), where it stays while the loop's "
                           "products run",
                       w_->indentWidth()));
      w_->line("float " + regs + "[" + L + "::REP0][" + L + "::COLS / 2];");
      wgmmaRegisterCopy(regs, acc, L, true);
      // Their values are set here, once: ptxas serializes the loop's wgmmas (info C7515) when
      // the compiler would rather set them on each path into the loop.
      w_->line("TILEC_UNROLL");
      auto si = w_->block("for (int " + i + " = 0; " + i + " < " + L + "::REP0; ++" + i + ")");
      w_->line("tilec::rt::wgmma_fence_accumulators(" + regs + "[" + i + "]);");
      continue;
    }
    const std::string &regs = heldRegs_.at(d);
    w_->line("// the loop's last product lands in " + regs + ", which goes back to " + acc);
    w_->line("tilec::rt::wgmma_wait<0>();");
    w_->line("TILEC_UNROLL");
    {
      auto si = w_->block("for (int " + i + " = 0; " + i + " < " + L + "::REP0; ++" + i + ")");
      w_->line("tilec::rt::wgmma_take_accumulators(" + regs + "[" + i + "]);");
    }
    wgmmaRegisterCopy(regs, acc, L, false);
  }
}

void KernelEmitter::mfmaLoop(const std::string &acc, const Type &t, const SharedDot *d) {
  const SharedBuffer &A = k_.buffers.at(d->bufferA);
  const int64_t K = A.shape[d->transA ? 0 : 1];
  const int n = Layout::mfmaSize(t.layout->instr), kStep = n == 32 ? 8 : 16;
  const std::string &aName = bufferNames_.at(d->bufferA), &bName = bufferNames_.at(d->bufferB);
  const std::string a = stagedBuffer(d->bufferA, d->stage), b = stagedBuffer(d->bufferB, d->stage);
  const std::string shape =
      std::to_string(n) + "x" + std::to_string(n) + "x" + std::to_string(kStep);
  // A lane's four elements of an operand fill two registers (16-bit) or one (int8).
  const bool ints = A.elemType.elem == ScalarType::I8;
  const std::string regs = ints ? "1" : "2";
  const std::string mfma = "tilec::rt::mfma_" + (n == 32 ? std::string("32x32x8") : "16x16x16") +
                           (ints                                  ? "_i8"
                            : A.elemType.elem == ScalarType::BF16 ? "_bf16"
                                                                  : "_f16");
  std::string L = layoutName(t);
  const std::string &kk = dotIdx_, &i = idxNames_[0], &j = idxNames_[1];
  const std::string af = names_.unique(aName + "_frag"), bf = names_.unique(bName + "_frag"),
                    cf = names_.unique("c_frag"), e = names_.unique("e");
  // A lane's fragment is four consecutive k: one read along A's [M, K] rows (B's [N, K] rows,
  // tl::trans), four down a column of B's [K, N] rows (A's [K, M] ones).
  auto how = [](bool alongRow) {
    return std::string(alongRow ? "four consecutive k of a row in one read"
                                : "four k down a column");
  };
  w_->lines(commentLines("MFMA " + shape + ", k by " + std::to_string(kStep) +
                             ": each wavefront reads its fragments of " + a + " (" +
                             how(!d->transA) + ") and " + b + " (" + how(d->transB) +
                             ") and adds their products into its accumulators",
                         w_->indentWidth()));
  w_->line("TILEC_UNROLL");
  auto loop = w_->block("for (int " + kk + " = 0; " + kk + " < " + dimConst(K) + "; " + kk +
                        " += " + std::to_string(kStep) + ")");
  // The four elements of a fragment at (row, col) of `buffer` and the three after it along the
  // row (one read) or down the column.
  auto fragment = [&](const std::string &frag, int buffer, const std::string &buf,
                      const std::string &row, const std::string &col, bool alongRow) {
    if (alongRow)
      return call("tilec::rt::read_fragment(",
                  {frag, "&" + buf + "[" + sharedAt(buffer, row, col) + "]"}, ");");
    std::vector<std::string> args{frag};
    for (int x = 0; x < 4; ++x)
      args.push_back(buf + "[" +
                     sharedAt(buffer, row + (x ? " + " + std::to_string(x) : ""), col, true) + "]");
    call("tilec::rt::gather_fragment(", args, ");");
  };
  const std::string last = " + " + std::to_string(kStep - 1);
  w_->line("uint32_t " + af + "[" + L + "::REP0][" + regs + "];  // A: row block " + i + ", k " +
           kk + " .. " + kk + last);
  w_->line("TILEC_UNROLL");
  {
    auto s = w_->block("for (int " + i + " = 0; " + i + " < " + L + "::REP0; ++" + i + ")");
    const std::string row = L + "::a_row(" + i + ")", k = kk + " + " + L + "::a_col()";
    if (d->transA)
      fragment(af + "[" + i + "]", d->bufferA, a, k, row, false);
    else
      fragment(af + "[" + i + "]", d->bufferA, a, row, k, true);
  }
  w_->line("uint32_t " + bf + "[" + L + "::REP1][" + regs + "];  // B: column block " + j + ", k " +
           kk + " .. " + kk + last);
  w_->line("TILEC_UNROLL");
  {
    auto s = w_->block("for (int " + j + " = 0; " + j + " < " + L + "::REP1; ++" + j + ")");
    const std::string col = L + "::b_col(" + j + ")", k = kk + " + " + L + "::b_row()";
    if (d->transB)
      fragment(bf + "[" + j + "]", d->bufferB, b, col, k, true);
    else
      fragment(bf + "[" + j + "]", d->bufferB, b, k, col, false);
  }
  w_->line("TILEC_UNROLL");
  auto si = w_->block("for (int " + i + " = 0; " + i + " < " + L + "::REP0; ++" + i + ")");
  w_->line("TILEC_UNROLL");
  auto sj = w_->block("for (int " + j + " = 0; " + j + " < " + L + "::REP1; ++" + j + ")");
  // The accumulator of blocks (i, j) is elements [ACC i .. ACC i + ACC - 1][j] of the tile.
  const std::string accAt = acc + "[" + L + "::ACC * " + i + " + " + e + "][" + j + "]";
  const std::string eLoop = "for (int " + e + " = 0; " + e + " < " + L + "::ACC; ++" + e + ")";
  w_->line(std::string(ints ? "int " : "float ") + cf + "[" + L + "::ACC];");
  w_->line("TILEC_UNROLL");
  w_->line(eLoop + " " + cf + "[" + e + "] = " + accAt + ";");
  w_->line(mfma + "(" + cf + ", " + af + "[" + i + "], " + bf + "[" + j + "], " + cf + ");");
  w_->line("TILEC_UNROLL");
  w_->line(eLoop + " " + accAt + " = " + cf + "[" + e + "];");
}

void KernelEmitter::prefetchComment(const If *s) {
  // Which tiles: the `_next` variables the branch assigns, or the buffers it copies into.
  std::string names;
  const Block *b = as<Block>(s->thenS);
  std::vector<std::string> loaded;
  for (const Stmt &c : b ? b->stmts : std::vector<Stmt>{}) {
    if (auto a = as<Assign>(c))
      loaded.push_back(varNames_[a->var->id]);
    if (auto a = as<AsyncCopy>(c))
      loaded.push_back(bufferNames_.at(a->buffer));
    if (auto w = as<SharedWrite>(c); w && s->prefetch == Prefetch::StageNext)
      loaded.push_back(bufferNames_.at(w->buffer));
  }
  for (size_t i = 0; i < loaded.size(); ++i)
    names += (i == 0 ? "" : i + 1 == loaded.size() ? " and " : ", ") + loaded[i];
  bool tma = false;
  for (const Stmt &c : b ? b->stmts : std::vector<Stmt>{})
    if (auto a = as<AsyncCopy>(c))
      tma = tma || a->tma();
  if (s->prefetch == Prefetch::PipelineFirst)
    w_->lines(commentLines(
        "pipeline: copy the tiles of the loop's first iterations into stages of " + names +
            (tma ? " (TMA: one thread starts the copies, each stage's full "
                   "barrier counts their bytes)"
                 : " (cp.async), one commit group per stage"),
        w_->indentWidth()));
  else if (s->prefetch == Prefetch::PipelineNext)
  {
    // The ring's depth (the loop's num_stages), named when it is the kernel's NUM_STAGES. With a
    // product left in flight (SharedDot::inFlight) the copies come after its wait.
    int64_t stages = 0;
    bool inFlight = false;
    for (const Stmt &c : b ? b->stmts : std::vector<Stmt>{})
      if (auto a = as<AsyncCopy>(c)) {
        inFlight = inFlightBuffers_.count(a->buffer) > 0;
        stages = k_.buffers.at(a->buffer).stages;
      }
    const std::string &n = k_.settings.numStagesName;
    std::string ahead = n.empty() || !metaNames_.count(n) || stages != k_.settings.numStages
                            ? std::to_string(stages - 1)
                            : metaNames_.at(n) + " - 1";
    w_->lines(commentLines("pipeline: start copying the tiles of the iteration " + ahead +
                               " ahead into the stage read last iteration" +
                               (inFlight ? " (the wait above retired its product in this "
                                           "warpgroup, the barrier in all)"
                                         : ""),
                           w_->indentWidth()));
  } else if (s->prefetch == Prefetch::PhaseFlip) {
    // `if (stage == S - 1) phase = 1 - phase`: the names from the condition and the assignment.
    auto *eq = as<Binary>(s->cond);
    auto *stage = eq ? as<VarRef>(eq->a) : nullptr;
    auto *flip = b && b->stmts.size() == 1 ? as<Assign>(b->stmts[0]) : nullptr;
    if (!stage || !flip)
      internalError("a phase flip that is not `if (stage == S - 1) phase = 1 - phase`");
    w_->lines(
        commentLines(varNames_[stage->var->id] + " wraps around after this stage: the " +
                         "next round of stages waits for their barriers' next phase, of the " +
                         "other parity (" + varNames_[flip->var->id] + ")",
                     w_->indentWidth()));
    return; // the flip is the loop's own line, named above it (stmt)
  } else if (s->prefetch == Prefetch::StageNext) {
    const std::string what = "double buffering: the next iteration's tiles, loaded above, into ";
    w_->lines(commentLines(what + "the stage of " + names + " it reads (the other one)",
                           w_->indentWidth()));
  } else if (s->prefetch == Prefetch::FirstIteration)
    w_->line("// prefetch: the loop's first loads into " + names +
             "; each iteration then loads the next one's while it computes");
  else
    w_->line("// prefetch: the next iteration's loads into " + names + ", before this iteration's arithmetic");
  lastFile_ = -1; // the statements inside name their source lines
}

void KernelEmitter::stmtComments(const Stmt &s) {
  const int mark = s->loc.inlined;
  if (mark >= 0 && mark < static_cast<int>(k_.inlinedCalls.size()) && opts_.provenance &&
      inlinedShown_.insert(mark).second) {
    // The first statement of an inlined function: which function, called where.
    std::string text;
    for (const InlinedCall &c : k_.inlinedCalls[static_cast<size_t>(mark)]) {
      text += text.empty() ? "// inlined: " : ", then ";
      text += commentText(c.function);
      if (c.at.valid() && c.at.file < static_cast<int>(m_.files.size()))
        text += " (called at " + commentText(m_.files[c.at.file].name) + ":" + std::to_string(c.at.line) + ")";
    }
    w_->line(text);
    lastFile_ = -1; // the statement's own line follows
  }
  provenance(s->loc);
}

namespace {
/// Whether `e` is computed element by element (no reduction step, no shared memory).
bool elementwise(const Expr &e) {
  ExprFacts facts;
  facts.add(e);
  return facts.elementwise;
}
/// The pointer variable a pointer expression offsets (`x` in `x + row * stride + cols`), or null.
const VarNode *basePointer(const Expr &e) {
  if (auto r = as<VarRef>(e))
    return r->var->type.pointer ? r->var.get() : nullptr;
  if (auto s = as<Splat>(e))
    return basePointer(s->a);
  if (auto h = as<Hint>(e))
    return basePointer(h->a);
  if (auto b = as<Binary>(e)) {
    if (b->a->type.pointer)
      return basePointer(b->a);
    if (b->b->type.pointer)
      return basePointer(b->b);
  }
  return nullptr;
}
} // namespace

int KernelEmitter::chunkWidth(const Stmt &s, RunShape &run) {
  // One rank-1 blocked layout over one shape (the run's first statement's): the same elements
  // per thread, in the same order, for every statement.
  auto fits = [&](const Type &t) {
    if (!t.isTile() || t.rank() != 1 || !t.layout || t.layout->kind != Layout::Kind::Blocked)
      return false;
    if (!run.layout)
      run = {t.layout, t.shape};
    return sameLayout(run.layout, t.layout) && t.shape == run.shape;
  };
  Var var;
  Expr value;
  if (auto d = as<Decl>(s)) {
    var = d->var;
    value = d->init;
  } else if (auto a = as<Assign>(s)) {
    var = a->var;
    value = a->value;
  } else if (auto st = as<Store>(s)) {
    const Type &pt = st->ptr->type;
    if (!fits(pt) || !basePointer(st->ptr))
      return 0;
    LayoutGeometry g = geometry(*pt.layout, pt.shape);
    if (pt.shape[0] < g.coverage[0]) // replicated: the owner test wraps the store
      return 0;
    return std::max(1, st->vec);
  } else {
    return 0;
  }
  if (!value || !fits(var->type) || !sameLayout(value->type.layout, var->type.layout))
    return 0;
  if (auto ld = as<Load>(value))
    return basePointer(ld->ptr) && elementwise(ld->ptr) && (!ld->mask || elementwise(ld->mask)) &&
                   (!ld->other || elementwise(ld->other))
               ? std::max(1, ld->vec)
               : 0;
  return elementwise(value) ? 1 : 0;
}

bool KernelEmitter::streamable(const std::vector<Stmt> &stmts, size_t begin, size_t end) {
  // Chunk by chunk, a load of chunk c + 1 runs after the stores of chunk c. That changes nothing
  // when no store's memory is read or written through another expression in the run (distinct
  // parameters never alias: docs/language.md, "Program order").
  std::map<const VarNode *, Expr> written;
  for (size_t i = begin; i < end; ++i)
    if (auto st = as<Store>(stmts[i])) {
      auto [it, fresh] = written.emplace(basePointer(st->ptr), st->ptr);
      if (!fresh && !equal(it->second, st->ptr))
        return false;
    }
  for (size_t i = begin; i < end; ++i) {
    Expr value = stmts[i]->kind == StmtKind::Decl     ? as<Decl>(stmts[i])->init
                 : stmts[i]->kind == StmtKind::Assign ? as<Assign>(stmts[i])->value
                                                      : nullptr;
    if (auto ld = as<Load>(value)) {
      auto it = written.find(basePointer(ld->ptr));
      if (it != written.end() && !equal(it->second, ld->ptr))
        return false;
    }
  }
  return true;
}

void KernelEmitter::streamedRun(const std::vector<Stmt> &stmts, size_t begin, size_t end, int width,
                                const RunShape &run) {
  // The tiles the run declares are declared first (they outlive the loop); then one unrolled loop
  // takes the thread's elements one chunk (a few vectors of the widest access) at a time through
  // every statement, so that a chunk's loads, arithmetic and stores are next to each other and
  // the compiler holds a few chunks in registers rather than every element of every tile.
  std::string step;
  const Type *t = nullptr;
  for (size_t i = begin; i < end; ++i) {
    const Stmt &s = stmts[i];
    if (auto d = as<Decl>(s)) {
      w_->line(varDecl(d->var) + ";");
      t = &d->var->type;
      if (auto ld = as<Load>(d->init); ld && ld->vec == width && step.empty())
        step = vecNames_.at(ld);
    } else if (auto a = as<Assign>(s)) {
      t = &a->var->type;
      if (auto ld = as<Load>(a->value); ld && ld->vec == width && step.empty())
        step = vecNames_.at(ld);
    } else if (auto st = as<Store>(s)) {
      t = &st->ptr->type;
      if (st->vec == width && step.empty())
        step = vecNames_.at(st);
    }
  }
  // A chunk of one vector of each access can leave too few loads in flight (a thread waits for each
  // one before it issues the next: bench/ layer norm at BLOCK 16384 read one 16-byte vector at a
  // time and ran at 0.74x Triton): the chunk takes as many vectors as bring kStreamLoadBytes of
  // loads a thread, where the thread's elements divide into such chunks.
  int64_t loadBytes = 0;
  for (size_t j = begin; j < end; ++j) {
    const Stmt &s = stmts[j];
    const Expr value = s->kind == StmtKind::Decl     ? as<Decl>(s)->init
                       : s->kind == StmtKind::Assign ? as<Assign>(s)->value
                                                     : nullptr;
    if (auto ld = as<Load>(value))
      loadBytes += int64_t(width) * std::max(1, byteSize(ld->type.elem));
  }
  const int64_t elems = geometry(*run.layout, run.shape).totalElemsPerThread();
  int vectors = 1;
  while (loadBytes && vectors * loadBytes < kStreamLoadBytes &&
         elems % (int64_t(2 * vectors) * width) == 0)
    vectors *= 2;
  int chunk = width;
  std::string what = "one vector of each access";
  if (vectors > 1) {
    // X_VEC or X_VEC_2 (a width's constant) names X_CHUNK.
    std::string base = step;
    if (size_t at = base.rfind("_VEC");
        at != std::string::npos &&
        base.find_first_not_of("_0123456789", at + 4) == std::string::npos)
      base.erase(at);
    std::string name = names_.unique(base + "_CHUNK");
    tunables_.push_back("constexpr int " + name + " = " + std::to_string(vectors) + " * " + step +
                        ";  // streamed run: " + std::to_string(vectors) + " vectors a chunk, " +
                        std::to_string(vectors * loadBytes) + " bytes of loads in flight");
    chunk = vectors * width;
    what = std::to_string(vectors) + " vectors of each access";
    step = name;
  }
  const std::string &i = idxNames_[0];
  w_->line("TILEC_UNROLL");
  {
    auto loop = w_->block("for (int " + i + " = 0; " + i + " < " + elemCount(*t, 0) + "; " + i +
                          " += " + step + ")  // " + what + " at a time (all at once: about " +
                          std::to_string(liveRegisters_) + " registers)");
    chunk_ = chunk;
    chunkStep_ = step;
    for (size_t j = begin; j < end; ++j) {
      const Stmt &s = stmts[j];
      stmtComments(s);
      if (auto d = as<Decl>(s))
        assignValue(d->var, d->init, false);
      else if (auto a = as<Assign>(s))
        assignValue(a->var, a->value, false);
      else
        store(as<Store>(s));
    }
    chunk_ = 0;
  }
  for (size_t j = begin; j < end; ++j)
    if (auto d = as<Decl>(stmts[j]); d && !read_.count(d->var->id))
      w_->line("(void)" + varNames_[d->var->id] + ";  // never read");
}

void KernelEmitter::stmt(const Stmt &s) {
  if (!s)
    return;
  auto *prefetch = as<If>(s);
  if (auto *f = as<For>(s)) // before the loop's source line: what it needs ready
    heldAccumulators(f, true);
  if (prefetch && prefetch->prefetch == Prefetch::PhaseFlip) {
    stmtComments(s);
    prefetchComment(prefetch);
  } else if (prefetch && prefetch->prefetch != Prefetch::None)
    prefetchComment(prefetch);
  else if (s->kind != StmtKind::Block)
    stmtComments(s);
  switch (s->kind) {
  case StmtKind::Block:
    // A block is a scope (the name table gives sibling scopes' variables the same names, as the
    // source does): one nested in another keeps its braces when it declares a variable.
    for (size_t at = 0; at < as<Block>(s)->stmts.size(); ++at) {
      const std::vector<Stmt> &stmts = as<Block>(s)->stmts;
      const Stmt &c = stmts[at];
      // A run of statements that can go chunk by chunk, with at least one vector access (the
      // chunk's width): printed as one loop.
      RunShape run;
      size_t end = at;
      while (liveRegisters_ >= kStreamThreshold && end < stmts.size() && chunkWidth(stmts[end], run) > 0)
        ++end;
      while (end > at + 1 && !streamable(stmts, at, end))
        --end;
      int chunk = 0;
      for (size_t j = at; j < end; ++j)
        chunk = std::max(chunk, chunkWidth(stmts[j], run));
      if (end > at + 1 && chunk > 1) {
        streamedRun(stmts, at, end, chunk, run);
        at = end - 1;
        continue;
      }
      auto *inner = c->kind == StmtKind::Block ? as<Block>(c) : nullptr;
      if (inner && std::any_of(inner->stmts.begin(), inner->stmts.end(),
                               [](const Stmt &x) { return x->kind == StmtKind::Decl; })) {
        auto scope = w_->block("");
        stmt(c);
      } else {
        stmt(c);
      }
    }
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
    std::string step = st && st->value == 1 && st->symbol.empty()    ? "++" + v
                       : st && st->value == -1 && st->symbol.empty() ? "--" + v
                       : st && st->value < 0 && st->symbol.empty()   ? v + " -= " + std::to_string(-st->value)
                                                                     : v + " += " + scalar(f->step).text;
    // A loop the kernel wrote stays a loop, as in Triton: each iteration already works on whole
    // tiles, and unrolling it would multiply the registers that hold them.
    w_->line(f->unroll ? "TILEC_UNROLL" : "TILEC_NO_UNROLL");
    // A negative step (tl::static_range<6, -1, -2>) counts down to `end`.
    const char *cmp = st && st->value < 0 ? " > " : f->inclusive ? " <= " : " < ";
    {
      auto b = w_->block(wrapList("for (",
                                  {T + " " + v + " = " + scalar(f->begin).text,
                                   v + cmp + operand(scalar(f->end), Prec::Relational, true), step},
                                  ")", w_->indentWidth(), ";"));
      // The last iteration's writes, at the top of the next.
      genericWrites_ = genericWrites_ || writesGenerically(f->body);
      ++loopDepth_;
      stmt(f->body);
      --loopDepth_;
    }
    genericWrites_ = genericWrites_ || writesGenerically(f->body);
    heldAccumulators(f, false);
    return;
  }
  case StmtKind::While: {
    auto wh = as<While>(s);
    {
      auto b = w_->block("while (" + scalar(wh->cond).text + ")");
      genericWrites_ = true;
      ++loopDepth_;
      stmt(wh->body);
      --loopDepth_;
    }
    genericWrites_ = true;
    return;
  }
  case StmtKind::If: {
    auto i = as<If>(s);
    const bool before = genericWrites_;
    {
      auto b = w_->block("if (" + scalar(i->cond).text + ")");
      stmt(i->thenS);
      if (i->earlyReturn) // the condition is the program's own: every thread returns together
        w_->line("return;");
    }
    if (i->earlyReturn && i->elseS) { // the rest of the kernel, as the source has it
      genericWrites_ = before;
      stmt(i->elseS);
    } else if (i->elseS) {
      auto b = w_->block("else");
      genericWrites_ = before;
      stmt(i->elseS);
    }
    genericWrites_ = before || writesGenerically(i->thenS) || writesGenerically(i->elseS);
    return;
  }
  case StmtKind::Barrier: {
    auto *b = as<Barrier>(s);
    std::string why;
    if (b->globalEarlier.valid() && b->globalEarlier.file < static_cast<int>(m_.files.size())) {
      // A barrier that keeps the source's program order in global memory says which accesses.
      auto at = [&](const SourceLoc &l) {
        return commentText(m_.files[l.file].name) + ":" + std::to_string(l.line);
      };
      why = "  // program order: the " + std::string(b->globalEarlierWrite ? "store" : "load") + " at " +
            at(b->globalEarlier) + (b->globalLaterInLoop ? " before this loop's " : " before this ") +
            (b->globalLaterWrite ? "store" : "load") +
            " (global memory)";
    }
    // wgmma reads shared memory through the async proxy: the generic proxy's writes before the
    // barrier (stores, landed cp.async copies) are made visible to it first (PTX ISA, "Proxies").
    if (!wgmmaKMajor_.empty() && genericWrites_)
      w_->line("tilec::rt::fence_proxy_async_shared();");
    genericWrites_ = false;
    // In a warp-specialized kernel the consumers synchronize among themselves (barrier 1): the
    // producer warpgroup never waits at a barrier.
    if (role_ == Role::Consumers)
      w_->line("tilec::rt::named_barrier_sync(1, " + numThreadsName_ + ");" + why);
    else
      w_->line("__syncthreads();" + why);
    return;
  }
  case StmtKind::Assert:
    return deviceAssert(as<Assert>(s));
  case StmtKind::Print:
    return devicePrint(as<Print>(s));
  case StmtKind::AsyncCopy: return asyncCopy(as<AsyncCopy>(s));
  case StmtKind::AsyncCommit: w_->line("tilec::rt::cp_async_commit();"); return;
  case StmtKind::AsyncWait: {
    auto *aw = as<AsyncWait>(s);
    if (aw->tma()) { // every thread sees the stage's bytes once its full barrier's phase is done
      w_->line("tilec::rt::mbarrier_wait(&" + stageFullNames_.at(aw->ring) + "[" +
               scalar(aw->stage).text + "], " + scalar(aw->phase).text + ");");
      return;
    }
    w_->line("tilec::rt::cp_async_wait<" + scalar(aw->pending).text + ">();");
    genericWrites_ = true; // the copies landed
    return;
  }
  case StmtKind::StageFree: {
    auto *f = as<StageFree>(s);
    const std::string bar = "&" + stageEmptyNames_.at(f->ring) + "[" + scalar(f->stage).text + "]";
    if (f->wait()) {
      w_->lines(commentLines("wait until the consumers have freed the stage (at once on its "
                             "first use: the phase before a barrier's first counts as complete)",
                             w_->indentWidth()));
      w_->line("tilec::rt::mbarrier_wait(" + bar + ", " + scalar(f->phase).text + ");");
    } else {
      w_->lines(commentLines("the products that read this stage have retired: the producer may "
                             "refill it once every consumer thread has said so",
                             w_->indentWidth()));
      w_->line("tilec::rt::mbarrier_arrive(" + bar + ");");
    }
    return;
  }
  case StmtKind::WarpSpecialize:
    return warpSpecialize(as<WarpSpecialize>(s));
  case StmtKind::SharedWrite: {
    auto sw = as<SharedWrite>(s);
    genericWrites_ = true;
    if (sw->buffer < 0 || sw->buffer >= static_cast<int>(k_.buffers.size()))
      internalError("shared_write to an unknown buffer");
    if (sw->scanTotals)
      return sharedWriteScanTotals(sw);
    if (sw->count)
      return sharedWriteCount(sw);
    if (sw->sort)
      return sharedWriteSort(sw);
    return sw->partials ? sharedWritePartials(sw) : sharedWriteTile(sw);
  }
  }
}

} // namespace tilec::emitters
