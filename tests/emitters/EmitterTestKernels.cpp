#include "EmitterTestKernels.h"

#include <regex>
#include <sstream>

namespace tilec::emittertests {

using namespace ir;

namespace {

/// Gives every tile node of an elementwise tree its post-pipeline layout: the result's layout,
/// except ExpandDims operands, which are in Slice(L, axis) (invariant 2).
Expr lay(const Expr &e, const LayoutRef &l) {
  if (!e || !e->type.isTile())
    return e;
  auto *n = const_cast<ExprNode *>(e.get());
  n->type.layout = l;
  switch (e->kind) {
  case ExprKind::Unary: lay(as<Unary>(e)->a, l); break;
  case ExprKind::Binary: lay(as<Binary>(e)->a, l); lay(as<Binary>(e)->b, l); break;
  case ExprKind::Math: for (auto &a : as<Math>(e)->args) lay(a, l); break;
  case ExprKind::Select: lay(as<Select>(e)->cond, l); lay(as<Select>(e)->a, l); lay(as<Select>(e)->b, l); break;
  case ExprKind::Cast: lay(as<Cast>(e)->a, l); break;
  case ExprKind::Broadcast: lay(as<Broadcast>(e)->a, l); break;
  case ExprKind::Hint: lay(as<Hint>(e)->a, l); break;
  case ExprKind::ExpandDims: lay(as<ExpandDims>(e)->a, Layout::slice(l, as<ExpandDims>(e)->axis)); break;
  case ExprKind::Load: {
    auto ld = as<Load>(e);
    lay(ld->ptr, l);
    lay(ld->mask, l);
    lay(ld->other, l);
    break;
  }
  default: break;
  }
  return e;
}

Expr i32(int64_t v) { return IntImm::make(ScalarType::I32, v); }
Expr sym(const char *name, int64_t v) { return IntImm::makeSymbol(ScalarType::I32, v, name); }
Expr use(const Var &v) { return VarRef::make(v); }
Expr bin(BinaryOp op, Expr a, Expr b) { return Binary::make(op, std::move(a), std::move(b)); }
Expr splat(Expr a, std::vector<int64_t> s) { return Splat::make(std::move(a), std::move(s)); }
Expr withVec(Expr load, int vec, bool aligned) {
  auto *n = const_cast<Load *>(as<Load>(load));
  n->vec = vec;
  n->aligned = aligned;
  return load;
}
Stmt storeVec(Expr ptr, Expr value, Expr mask, int vec, SourceLoc loc = {}) {
  Stmt s = Store::make(std::move(ptr), std::move(value), std::move(mask), loc);
  const_cast<Store *>(as<Store>(s))->vec = vec;
  return s;
}
SourceLoc at(int line) { return {0, line, 3}; }

SourceFile fileOf(const std::string &name, const std::string &text) {
  SourceFile f;
  f.name = name;
  std::istringstream is(text);
  for (std::string l; std::getline(is, l);)
    f.lines.push_back(l);
  return f;
}

Var param(Kernel &k, const char *name, Type t) {
  Var v = k.newVar(name, t, VarKind::Param, {});
  k.params.push_back(v);
  return v;
}
Var local(Kernel &k, const char *name, Type t, LayoutRef l = nullptr) {
  return k.newVar(name, l ? t.withLayout(l) : t, VarKind::Local, {});
}

/// vector_add with its element count named `count`.
Module vectorAddCounting(int W, const std::string &count) {
  Module m;
  m.files.push_back(fileOf("vector_add.cpp", std::regex_replace(R"(#include <tilec/tl.hpp>
template <int BLOCK>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(n, BLOCK)))
void add_kernel(const float *x, const float *y, float *out, int n) {
  int pid = tl::program_id(0);
  auto offs = pid * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  auto a = tl::load(x + offs, mask);
  auto b = tl::load(y + offs, mask);
  tl::store(out + offs, a + b, mask);
})", std::regex("\\bn\\b"), count)));
  Kernel k;
  k.name = "add_kernel";
  k.instanceName = "add_kernel_1024";
  k.templateArgs = "<1024>";
  k.metaParams = {ir::MetaParam::ofInt("BLOCK", 1024)};
  k.warpSize = W;
  k.loc = at(4);
  const int64_t B = 1024;
  LayoutRef L = Layout::blocked({4}, {W}, {4}, {0});
  Var x = param(k, "x", Type::ptr(ScalarType::F32, true));
  Var y = param(k, "y", Type::ptr(ScalarType::F32, true));
  Var out = param(k, "out", Type::ptr(ScalarType::F32, false));
  Var n = param(k, count.c_str(), Type::scalar(ScalarType::I32));
  k.settings.grid = {Math::make(MathOp::Cdiv, {use(n), i32(1024)})};
  Var pid = local(k, "pid", Type::scalar(ScalarType::I32));
  Type ti = Type::scalar(ScalarType::I32).withShape({B});
  Var offs = local(k, "offs", ti, L);
  Var mask = local(k, "mask", Type::scalar(ScalarType::Bool).withShape({B}), L);
  Type tf = Type::scalar(ScalarType::F32).withShape({B});
  Var a = local(k, "a", tf, L), b = local(k, "b", tf, L);
  Expr offsE = lay(bin(BinaryOp::Add, splat(bin(BinaryOp::Mul, use(pid), sym("BLOCK", B)), {B}), Arange::make(0, B)), L);
  auto load = [&](const Var &p) {
    return withVec(lay(Load::make(bin(BinaryOp::Add, splat(use(p), {B}), use(offs)), use(mask), nullptr), L), 4, false);
  };
  k.body = Block::make({
      Decl::make(pid, ProgramId::make(0, false), at(5)),
      Decl::make(offs, offsE, at(6)),
      Decl::make(mask, lay(bin(BinaryOp::Lt, use(offs), splat(use(n), {B})), L), at(7)),
      Decl::make(a, load(x), at(8)),
      Decl::make(b, load(y), at(9)),
      storeVec(lay(bin(BinaryOp::Add, splat(use(out), {B}), use(offs)), L), lay(bin(BinaryOp::Add, use(a), use(b)), L),
               use(mask), 4, at(10)),
  });
  m.kernels.push_back(std::move(k));
  return m;
}

} // namespace

Module vectorAdd(int W) { return vectorAddCounting(W, "n"); }
Module configParam(int W) { return vectorAddCounting(W, "config"); }

Module sumReduce(int W) {
  Module m;
  m.files.push_back(fileOf("row_sum.cpp", R"(template <int BLOCK>
TILEC_KERNEL(num_warps = 4)
void sum_kernel(const float *in, float *out, int n) {
  int pid = tl::program_id(0);
  auto offs = pid * BLOCK + tl::arange<0, BLOCK>();
  auto x = tl::load(in + offs, offs < n);
  float total = tl::sum(x);
  tl::store(out + pid, total);
})"));
  Kernel k;
  k.name = "sum_kernel";
  k.instanceName = "sum_kernel_1024";
  k.templateArgs = "<1024>";
  k.metaParams = {ir::MetaParam::ofInt("BLOCK", 1024)};
  k.warpSize = W;
  const int64_t B = 1024;
  LayoutRef L = Layout::blocked({4}, {W}, {4}, {0});
  Var in = param(k, "in", Type::ptr(ScalarType::F32, true));
  Var out = param(k, "out", Type::ptr(ScalarType::F32, false));
  Var n = param(k, "n", Type::scalar(ScalarType::I32));
  Var pid = local(k, "pid", Type::scalar(ScalarType::I32));
  Var offs = local(k, "offs", Type::scalar(ScalarType::I32).withShape({B}), L);
  Var x = local(k, "x", Type::scalar(ScalarType::F32).withShape({B}), L);
  Var p = local(k, "total_partial", Type::scalar(ScalarType::F32));
  Var total = local(k, "total", Type::scalar(ScalarType::F32));
  SharedBuffer buf;
  buf.name = "total_smem";
  buf.elemType = Type::scalar(ScalarType::F32);
  buf.shape = {4};
  buf.rowStride = 1;
  buf.sizeBytes = 16;
  buf.offsetBytes = 0;
  k.buffers.push_back(buf);
  k.sharedBytes = 16;
  std::vector<int> masks;
  for (int b = W / 2; b >= 1; b /= 2)
    masks.push_back(b);
  k.body = Block::make({
      Decl::make(pid, ProgramId::make(0, false), at(4)),
      Decl::make(offs, lay(bin(BinaryOp::Add, splat(bin(BinaryOp::Mul, use(pid), sym("BLOCK", B)), {B}), Arange::make(0, B)), L), at(5)),
      Decl::make(x, withVec(lay(Load::make(bin(BinaryOp::Add, splat(use(in), {B}), use(offs)),
                                           bin(BinaryOp::Lt, use(offs), splat(use(n), {B})), nullptr), L), 4, false), at(6)),
      Decl::make(p, ThreadReduce::make(ReduceOp::Sum, 0, use(x), Type::scalar(ScalarType::F32)), at(7)),
      Assign::make(p, WarpReduce::make(ReduceOp::Sum, use(p), masks, W), at(7)),
      SharedWrite::makePartials(0, use(p), 0, L, {B}, at(7)),
      Barrier::make(at(7)),
      Decl::make(total, SharedRead::makeCombine(0, ReduceOp::Sum, 4, Type::scalar(ScalarType::F32)), at(7)),
      Store::make(bin(BinaryOp::Add, use(out), use(pid)), use(total), nullptr, at(8)),
  });
  m.kernels.push_back(std::move(k));
  return m;
}

namespace {
/// The transpose of a BM x BN tile, staged through shared memory in rows of `rowStride` floats.
Module transposeOf(int W, int64_t BM, int64_t BN, int64_t rowStride) {
  Module m;
  m.files.push_back(fileOf("transpose.cpp", R"(template <int BM, int BN>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(M, BM), cdiv(N, BN)))
void transpose_kernel(const float *in, float *out, int M, int N, int in_stride, int out_stride) {
  int pid_m = tl::program_id(0);
  int pid_n = tl::program_id(1);
  auto rm = pid_m * BM + tl::arange<0, BM>();
  auto rn = pid_n * BN + tl::arange<0, BN>();
  auto mask = (tl::expand_dims<1>(rm) < M) & (tl::expand_dims<0>(rn) < N);
  auto tile = tl::load(in + tl::expand_dims<1>(rm) * in_stride + tl::expand_dims<0>(rn), mask);
  tl::store(out + tl::expand_dims<0>(rn) * out_stride + tl::expand_dims<1>(rm), tile, mask);
})"));
  Kernel k;
  k.name = "transpose_kernel";
  k.instanceName = "transpose_kernel_" + std::to_string(BM) + "_" + std::to_string(BN);
  k.templateArgs = "<" + std::to_string(BM) + ", " + std::to_string(BN) + ">";
  k.metaParams = {ir::MetaParam::ofInt("BM", BM), ir::MetaParam::ofInt("BN", BN)};
  k.warpSize = W;
  // Load: rows contiguous (4 floats per thread along dim 1); store: columns contiguous.
  LayoutRef LA = Layout::blocked({1, 4}, {W / 8, 8}, {4, 1}, {1, 0});
  LayoutRef LB = Layout::blocked({4, 1}, {16, W / 16}, {1, 4}, {0, 1});
  Var in = param(k, "in", Type::ptr(ScalarType::F32, true));
  Var out = param(k, "out", Type::ptr(ScalarType::F32, false));
  Var M = param(k, "M", Type::scalar(ScalarType::I32));
  Var N = param(k, "N", Type::scalar(ScalarType::I32));
  Var ins = param(k, "in_stride", Type::scalar(ScalarType::I32));
  Var outs = param(k, "out_stride", Type::scalar(ScalarType::I32));
  k.settings.grid = {Math::make(MathOp::Cdiv, {use(M), i32(BM)}), Math::make(MathOp::Cdiv, {use(N), i32(BN)})};
  Var pm = local(k, "pid_m", Type::scalar(ScalarType::I32));
  Var pn = local(k, "pid_n", Type::scalar(ScalarType::I32));
  Type ti = Type::scalar(ScalarType::I32);
  auto range = [&](const Var &pid, const char *s, int64_t n) {
    return bin(BinaryOp::Add, splat(bin(BinaryOp::Mul, use(pid), sym(s, n)), {n}), Arange::make(0, n));
  };
  Var rm = local(k, "rm", ti.withShape({BM}), Layout::slice(LA, 1));
  Var rn = local(k, "rn", ti.withShape({BN}), Layout::slice(LA, 0));
  Var rm2 = local(k, "rm", ti.withShape({BM}), Layout::slice(LB, 1));
  Var rn2 = local(k, "rn", ti.withShape({BN}), Layout::slice(LB, 0));
  Type tb = Type::scalar(ScalarType::Bool).withShape({BM, BN});
  Var mask = local(k, "mask", tb, LA), mask2 = local(k, "mask", tb, LB);
  Type tf = Type::scalar(ScalarType::F32).withShape({BM, BN});
  Var tile = local(k, "tile", tf, LA), tile2 = local(k, "tile", tf, LB);
  auto maskE = [&](const Var &r, const Var &c) {
    Expr a = Broadcast::make(bin(BinaryOp::Lt, ExpandDims::make(use(r), 1), splat(use(M), {BM, 1})), {BM, BN});
    Expr b = Broadcast::make(bin(BinaryOp::Lt, ExpandDims::make(use(c), 0), splat(use(N), {1, BN})), {BM, BN});
    return bin(BinaryOp::And, a, b);
  };
  Expr inPtr = bin(BinaryOp::Add, splat(use(in), {BM, BN}),
                   bin(BinaryOp::Add, Broadcast::make(bin(BinaryOp::Mul, ExpandDims::make(use(rm), 1), splat(use(ins), {BM, 1})), {BM, BN}),
                       Broadcast::make(ExpandDims::make(use(rn), 0), {BM, BN})));
  Expr outPtr = bin(BinaryOp::Add, splat(use(out), {BM, BN}),
                    bin(BinaryOp::Add, Broadcast::make(bin(BinaryOp::Mul, ExpandDims::make(use(rn2), 0), splat(use(outs), {1, BN})), {BM, BN}),
                        Broadcast::make(ExpandDims::make(use(rm2), 1), {BM, BN})));
  SharedBuffer buf;
  buf.name = "tile_smem";
  buf.elemType = Type::scalar(ScalarType::F32);
  buf.shape = {BM, BN};
  buf.rowStride = rowStride;
  buf.sizeBytes = BM * rowStride * 4;
  buf.offsetBytes = 0;
  k.buffers.push_back(buf);
  k.sharedBytes = buf.sizeBytes;
  k.body = Block::make({
      Decl::make(pm, ProgramId::make(0, false), at(4)),
      Decl::make(pn, ProgramId::make(1, false), at(5)),
      Decl::make(rm, lay(range(pm, "BM", BM), Layout::slice(LA, 1)), at(6)),
      Decl::make(rn, lay(range(pn, "BN", BN), Layout::slice(LA, 0)), at(7)),
      Decl::make(mask, lay(maskE(rm, rn), LA), at(8)),
      Decl::make(tile, withVec(lay(Load::make(inPtr, use(mask), nullptr), LA), 4, false), at(9)),
      SharedWrite::makeTile(0, use(tile), at(10)),
      Barrier::make(at(10)),
      Decl::make(tile2, SharedRead::makeTile(0, tf.withLayout(LB)), at(10)),
      Decl::make(rm2, lay(range(pm, "BM", BM), Layout::slice(LB, 1)), at(10)),
      Decl::make(rn2, lay(range(pn, "BN", BN), Layout::slice(LB, 0)), at(10)),
      Decl::make(mask2, lay(maskE(rm2, rn2), LB), at(10)),
      storeVec(lay(outPtr, LB), use(tile2), use(mask2), 4, at(10)),
  });
  m.kernels.push_back(std::move(k));
  return m;
}

} // namespace

Module transpose(int W) { return transposeOf(W, 64, 32, 32 + 1); }

Module transposeBigShared(int W) {
  // 128 x 129 floats (a padded row against bank conflicts): 66048 bytes. HIP's 64 KB of LDS leaves
  // no room for the padding: 65536 bytes.
  Module m = transposeOf(W, 128, 128, W == 32 ? 129 : 128);
  Kernel &k = m.kernels[0];
  auto variant = std::make_shared<Kernel>(k);
  variant->divisibleBy16 = {k.params[0]->id, k.params[1]->id};
  k.alignedVariant = variant;
  return m;
}

Module halfElementwise(int W) {
  Module m;
  m.files.push_back(fileOf("scale_half.cpp", R"(template <int BLOCK>
TILEC_KERNEL(num_warps = 4)
void scale_half(const tl::half *x, tl::half *y, tl::bfloat16 *z, int *q, float scale, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  auto a = tl::load(x + offs, mask);
  auto f = tl::cast<float>(a) * scale;
  auto r = tl::cast<tl::half>(tl::sigmoid(f)) + a;
  tl::store(y + offs, r, mask);
  tl::store(z + offs, tl::cast<tl::bfloat16>(-r), mask);
  tl::store(q + offs, tl::cast<int>(f), mask && f >= 0.5f);
})"));
  Kernel k;
  k.name = "scale_half";
  k.instanceName = "scale_half_2048";
  k.templateArgs = "<2048>";
  k.metaParams = {ir::MetaParam::ofInt("BLOCK", 2048)};
  k.warpSize = W;
  const int64_t B = 2048;
  LayoutRef L = Layout::blocked({8}, {W}, {4}, {0});
  Var x = param(k, "x", Type::ptr(ScalarType::F16, true));
  Var y = param(k, "y", Type::ptr(ScalarType::F16, false));
  Var z = param(k, "z", Type::ptr(ScalarType::BF16, false));
  Var q = param(k, "q", Type::ptr(ScalarType::I32, false));
  Var scale = param(k, "scale", Type::scalar(ScalarType::F32));
  Var n = param(k, "n", Type::scalar(ScalarType::I32));
  auto tile = [&](ScalarType t) { return Type::scalar(t).withShape({B}); };
  Var offs = local(k, "offs", tile(ScalarType::I32), L);
  Var mask = local(k, "mask", tile(ScalarType::Bool), L);
  Var a = local(k, "a", tile(ScalarType::F16), L);
  Var f = local(k, "f", tile(ScalarType::F32), L);
  Var r = local(k, "r", tile(ScalarType::F16), L);
  auto ptr = [&](const Var &p) { return lay(bin(BinaryOp::Add, splat(use(p), {B}), use(offs)), L); };
  Expr half = FloatImm::make(ScalarType::F32, 0.5);
  k.body = Block::make({
      Decl::make(offs, lay(bin(BinaryOp::Add, splat(bin(BinaryOp::Mul, ProgramId::make(0, false), sym("BLOCK", B)), {B}), Arange::make(0, B)), L), at(4)),
      Decl::make(mask, lay(bin(BinaryOp::Lt, use(offs), splat(use(n), {B})), L), at(5)),
      Decl::make(a, withVec(lay(Load::make(ptr(x), use(mask), nullptr), L), 8, false), at(6)),
      Decl::make(f, lay(bin(BinaryOp::Mul, Cast::make(ScalarType::F32, use(a)), splat(use(scale), {B})), L), at(7)),
      Decl::make(r, lay(bin(BinaryOp::Add, Cast::make(ScalarType::F16, Math::make(MathOp::Sigmoid, {use(f)})), use(a)), L), at(8)),
      storeVec(ptr(y), use(r), use(mask), 8, at(9)),
      Store::make(ptr(z), lay(Cast::make(ScalarType::BF16, Unary::make(UnaryOp::Neg, use(r))), L), use(mask), at(10)),
      Store::make(ptr(q), lay(Cast::make(ScalarType::I32, use(f)), L),
                  lay(bin(BinaryOp::LAnd, use(mask), bin(BinaryOp::Ge, use(f), splat(half, {B}))), L), at(11)),
  });
  m.kernels.push_back(std::move(k));
  return m;
}

Module loopCarried(int W) {
  Module m;
  m.files.push_back(fileOf("accumulate.cpp", R"(template <int BLOCK>
TILEC_KERNEL(num_warps = 4)
void accumulate(const float *x, float *out, int K, int threadIdx, int n) {
  auto offs = tl::arange<0, BLOCK>();
  auto acc = tl::zeros<float, BLOCK>();
  int j = 0;
  for (int i = 0; i < K; i += 1) {
    acc += tl::load(x + i * threadIdx + offs, offs < n);
    j += i;
  }
  tl::store(out + offs, acc * (j + 1), offs < n);
})"));
  Kernel k;
  k.name = "accumulate";
  k.instanceName = "accumulate_64";
  k.templateArgs = "<64>";
  k.metaParams = {ir::MetaParam::ofInt("BLOCK", 64)};
  k.warpSize = W;
  const int64_t B = 64;
  LayoutRef L = Layout::blocked({1}, {W}, {4}, {0}); // covers 128 or 256 > 64: replicated
  Var x = param(k, "x", Type::ptr(ScalarType::F32, true));
  Var out = param(k, "out", Type::ptr(ScalarType::F32, false));
  Var K = param(k, "K", Type::scalar(ScalarType::I32));
  Var stride = param(k, "threadIdx", Type::scalar(ScalarType::I32));
  Var n = param(k, "n", Type::scalar(ScalarType::I32));
  Var offs = local(k, "offs", Type::scalar(ScalarType::I32).withShape({B}), L);
  Var acc = local(k, "acc", Type::scalar(ScalarType::F32).withShape({B}), L);
  Var tmp = local(k, "tmp", Type::scalar(ScalarType::F32).withShape({B}), L);
  Var j = local(k, "j", Type::scalar(ScalarType::I32));
  Var i = k.newVar("i", Type::scalar(ScalarType::I32), VarKind::LoopIndex, {});
  Expr mask = bin(BinaryOp::Lt, use(offs), splat(use(n), {B}));
  Stmt body = Block::make({
      Decl::make(tmp, lay(Load::make(bin(BinaryOp::Add, splat(use(x), {B}),
                                         bin(BinaryOp::Add, splat(bin(BinaryOp::Mul, use(i), use(stride)), {B}), use(offs))),
                                     mask, nullptr), L), at(8)),
      Assign::make(acc, lay(bin(BinaryOp::Add, use(acc), use(tmp)), L), at(8)),
      Assign::make(j, bin(BinaryOp::Add, use(j), use(i)), at(9)),
  });
  k.body = Block::make({
      Decl::make(offs, lay(Arange::make(0, B), L), at(4)),
      Decl::make(acc, lay(splat(FloatImm::make(ScalarType::F32, 0.0), {B}), L), at(5)),
      Decl::make(j, i32(0), at(6)),
      For::make(i, i32(0), use(K), i32(1), body, false, at(7)),
      Store::make(lay(bin(BinaryOp::Add, splat(use(out), {B}), use(offs)), L),
                  lay(bin(BinaryOp::Mul, use(acc), splat(Cast::make(ScalarType::F32, bin(BinaryOp::Add, use(j), i32(1))), {B})), L),
                  lay(mask, L), at(11)),
  });
  m.kernels.push_back(std::move(k));
  return m;
}

Module argmaxRows(int W) {
  Module m;
  m.files.push_back(fileOf("argmax_rows.cpp", R"(template <int BM, int BN>
TILEC_KERNEL(num_warps = 4)
void argmax_rows(const float *in, int *out, int stride) {
  auto rows = tl::arange<0, BM>();
  auto cols = tl::arange<0, BN>();
  auto x = tl::load(in + tl::expand_dims<1>(rows) * stride + tl::expand_dims<0>(cols));
  tl::store(out + rows, tl::argmax<1>(x));
})"));
  Kernel k;
  k.name = "argmax_rows";
  // Each row is spread over 2 warps along dim 1 without replication: BN = 4 * W * 2.
  const int64_t BM = 16, BN = 8 * W;
  k.instanceName = "argmax_rows_16_" + std::to_string(BN);
  k.templateArgs = "<16, " + std::to_string(BN) + ">";
  k.metaParams = {ir::MetaParam::ofInt("BM", 16), ir::MetaParam::ofInt("BN", BN)};
  k.warpSize = W;
  // Each row spread over 2 warps along dim 1: warp partials must combine through shared memory.
  LayoutRef L = Layout::blocked({1, 4}, {1, W}, {2, 2}, {1, 0});
  LayoutRef S = Layout::slice(L, 1);
  Var in = param(k, "in", Type::ptr(ScalarType::F32, true));
  Var out = param(k, "out", Type::ptr(ScalarType::I32, false));
  Var stride = param(k, "stride", Type::scalar(ScalarType::I32));
  Type tf = Type::scalar(ScalarType::F32).withShape({BM, BN});
  Var x = local(k, "x", tf, L);
  Type pair = Type::scalar(ScalarType::F32).withShape({BM});
  pair.argPair = true;
  Var p = local(k, "best", pair, S);
  Var r = local(k, "best_all", pair, S);
  Expr ptr = bin(BinaryOp::Add, splat(use(in), {BM, BN}),
                 bin(BinaryOp::Add, Broadcast::make(bin(BinaryOp::Mul, ExpandDims::make(Arange::make(0, BM), 1), splat(use(stride), {BM, 1})), {BM, BN}),
                     Broadcast::make(ExpandDims::make(Arange::make(0, BN), 0), {BM, BN})));
  SharedBuffer buf;
  buf.name = "best_smem";
  buf.elemType = Type::scalar(ScalarType::F32);
  buf.elemType.argPair = true;
  buf.shape = {2, BM};
  buf.rowStride = BM;
  buf.sizeBytes = 2 * BM * 8;
  buf.offsetBytes = 0;
  k.buffers.push_back(buf);
  k.sharedBytes = buf.sizeBytes;
  std::vector<int> masks;
  for (int b = W / 2; b >= 1; b /= 2)
    masks.push_back(b);
  k.body = Block::make({
      Decl::make(x, withVec(lay(Load::make(ptr, nullptr, nullptr), L), 4, true), at(6)),
      Decl::make(p, ThreadReduce::make(ReduceOp::ArgMax, 1, use(x), pair.withLayout(S)), at(7)),
      Assign::make(p, WarpReduce::make(ReduceOp::ArgMax, use(p), masks, W), at(7)),
      SharedWrite::makePartials(0, use(p), 1, L, {BM, BN}, at(7)),
      Barrier::make(at(7)),
      Decl::make(r, SharedRead::makeCombine(0, ReduceOp::ArgMax, 2, pair.withLayout(S)), at(7)),
      Store::make(lay(bin(BinaryOp::Add, splat(use(out), {BM}), Arange::make(0, BM)), S),
                  lay(PairValue::make(use(r), true), S), nullptr, at(7)),
  });
  m.kernels.push_back(std::move(k));
  return m;
}

Module batchedColumnSums(int W) {
  Module m;
  m.files.push_back(fileOf("batched_column_sums.cpp", R"(template <int B, int M, int N>
TILEC_KERNEL(num_warps = 4)
void batched_column_sums(const float *in, float *sums, float *scaled_t, int n) {
  auto b = tl::expand_dims<1>(tl::expand_dims<1>(tl::arange<0, B>()));
  auto m = tl::expand_dims<0>(tl::expand_dims<1>(tl::arange<0, M>()));
  auto c = tl::expand_dims<0>(tl::expand_dims<0>(tl::arange<0, N>()));
  auto x = tl::load(in + b * (M * N) + m * N + c, c < n);
  auto s = tl::sum<1>(x);
  tl::store(sums + tl::expand_dims<1>(tl::arange<0, B>()) * N + tl::arange<0, N>(), s);
  auto y = x * tl::expand_dims<1>(s);
  tl::store(scaled_t + b * (N * M) + c * M + m, tl::permute<0, 2, 1>(y));
})"));
  Kernel k;
  k.name = "batched_column_sums";
  // x: [2, 8, 4W]; 4 contiguous floats a thread along N, lanes 2 along M and W / 2 along N, warps
  // 2 along M and 2 along N: the sum over M combines 2 elements a thread, 2 lanes and 2 warps.
  const int64_t B = 2, M = 8, N = 4 * W;
  k.instanceName = "batched_column_sums_2_8_" + std::to_string(N);
  k.templateArgs = "<2, 8, " + std::to_string(N) + ">";
  k.metaParams = {ir::MetaParam::ofInt("B", B), ir::MetaParam::ofInt("M", M),
                  ir::MetaParam::ofInt("N", N)};
  k.warpSize = W;
  LayoutRef L = Layout::blocked({1, 1, 4}, {1, 2, W / 2}, {1, 2, 2}, {2, 1, 0});
  LayoutRef S = Layout::slice(L, 1);            // the sums [B, N]
  LayoutRef P = Layout::permuted(L, {0, 2, 1}); // the permuted [B, N, M]
  Var in = param(k, "in", Type::ptr(ScalarType::F32, true));
  Var sums = param(k, "sums", Type::ptr(ScalarType::F32, false));
  Var scaled = param(k, "scaled_t", Type::ptr(ScalarType::F32, false));
  Var n = param(k, "n", Type::scalar(ScalarType::I32));
  const std::vector<int64_t> shape = {B, M, N}, sumShape = {B, N}, tShape = {B, N, M};
  Type tf = Type::scalar(ScalarType::F32).withShape(shape);
  Var x = local(k, "x", tf, L);
  Var s = local(k, "s", Type::scalar(ScalarType::F32).withShape(sumShape), S);
  Var total = local(k, "s_all", Type::scalar(ScalarType::F32).withShape(sumShape), S);
  Var y = local(k, "y", tf, L);
  // The index along dim d of a tile of `full` dims: arange expanded at the other dims.
  auto along = [](int d, const std::vector<int64_t> &full) {
    Expr e = Arange::make(0, full[d]);
    for (int o = 0; o < static_cast<int>(full.size()); ++o)
      if (o != d)
        e = ExpandDims::make(e, o);
    return Broadcast::make(e, full);
  };
  auto scaledBy = [](Expr e, int64_t f, const std::vector<int64_t> &full) {
    return bin(BinaryOp::Mul, std::move(e), splat(i32(f), full));
  };
  Expr offs = bin(BinaryOp::Add,
                  bin(BinaryOp::Add, scaledBy(along(0, shape), M * N, shape),
                      scaledBy(along(1, shape), N, shape)),
                  along(2, shape));
  Expr mask = bin(BinaryOp::Lt, along(2, shape), splat(use(n), shape));
  Expr sumOffs = bin(BinaryOp::Add, scaledBy(along(0, sumShape), N, sumShape), along(1, sumShape));
  Expr tOffs = bin(BinaryOp::Add,
                   bin(BinaryOp::Add, scaledBy(along(0, tShape), N * M, tShape),
                       scaledBy(along(1, tShape), M, tShape)),
                   along(2, tShape));
  SharedBuffer buf;
  buf.name = "s_smem";
  buf.elemType = Type::scalar(ScalarType::F32);
  buf.shape = {2, B, N};
  buf.rowStride = N;
  buf.sizeBytes = 2 * B * N * 4;
  buf.offsetBytes = 0;
  k.buffers.push_back(buf);
  k.sharedBytes = buf.sizeBytes;
  k.body = Block::make({
      Decl::make(
          x,
          withVec(
              lay(Load::make(bin(BinaryOp::Add, splat(use(in), shape), offs), mask, nullptr), L), 4,
              false),
          at(7)),
      Decl::make(s, ThreadReduce::make(ReduceOp::Sum, 1, use(x), s->type), at(8)),
      Assign::make(s, WarpReduce::make(ReduceOp::Sum, use(s), {W / 2}, W), at(8)),
      SharedWrite::makePartials(0, use(s), 1, L, shape, at(8)),
      Barrier::make(at(8)),
      Decl::make(total, SharedRead::makeCombine(0, ReduceOp::Sum, 2, total->type), at(8)),
      Store::make(lay(bin(BinaryOp::Add, splat(use(sums), sumShape), sumOffs), S), use(total),
                  nullptr, at(9)),
      Decl::make(
          y,
          lay(bin(BinaryOp::Mul, use(x), Broadcast::make(ExpandDims::make(use(total), 1), shape)),
              L),
          at(10)),
      Store::make(lay(bin(BinaryOp::Add, splat(use(scaled), tShape), tOffs), P),
                  Trans::permute(use(y), {0, 2, 1}), nullptr, at(11)),
  });
  m.kernels.push_back(std::move(k));
  return m;
}

} // namespace tilec::emittertests

namespace tilec::emittertests {

using namespace ir;

Module rowPointers(int W) {
  Module m;
  m.files.push_back(fileOf("row_copy.cpp", R"(template <int BLOCK, int UNUSED>
TILEC_KERNEL(num_warps = 4, grid = (n_rows))
void row_copy(const float *x, float *out, int n, int n_rows) {
  int pid = tl::program_id(0);
  const float *x_row = x + pid * n;
  float *out_row = out + pid * n;
  auto offs = tl::arange<0, BLOCK>();
  auto mask = offs < n;
  auto ptrs = x_row + offs;
  auto a = tl::load(ptrs, mask, 0.0f);
  tl::store(out_row + offs, a, mask);
})"));
  Kernel k;
  k.name = "row_copy";
  k.instanceName = "row_copy_256_7";
  k.templateArgs = "<256, 7>";
  k.metaParams = {ir::MetaParam::ofInt("BLOCK", 256), ir::MetaParam::ofInt("UNUSED", 7)};
  k.warpSize = W;
  k.loc = at(3);
  const int64_t B = 256;
  LayoutRef L = Layout::blocked({4}, {W}, {2}, {0});
  Var x = param(k, "x", Type::ptr(ScalarType::F32, true));
  Var out = param(k, "out", Type::ptr(ScalarType::F32, false));
  Var n = param(k, "n", Type::scalar(ScalarType::I32));
  Var nRows = param(k, "n_rows", Type::scalar(ScalarType::I32));
  k.settings.numWarps = 2;
  k.settings.grid = {use(nRows)};
  Var pid = local(k, "pid", Type::scalar(ScalarType::I32));
  Var xRow = local(k, "x_row", Type::ptr(ScalarType::F32, true));
  Var outRow = local(k, "out_row", Type::ptr(ScalarType::F32, false));
  Var offs = local(k, "offs", Type::scalar(ScalarType::I32).withShape({B}), L);
  Var mask = local(k, "mask", Type::scalar(ScalarType::Bool).withShape({B}), L);
  Var ptrs = local(k, "ptrs", Type::ptr(ScalarType::F32, true).withShape({B}), L);
  Var a = local(k, "a", Type::scalar(ScalarType::F32).withShape({B}), L);
  Expr rowOff = bin(BinaryOp::Mul, use(pid), use(n));
  k.body = Block::make({
      Decl::make(pid, ProgramId::make(0, false), at(4)),
      Decl::make(xRow, bin(BinaryOp::Add, use(x), rowOff), at(5)),
      Decl::make(outRow, bin(BinaryOp::Add, use(out), rowOff), at(6)),
      Decl::make(offs, lay(Arange::make(0, B), L), at(7)),
      Decl::make(mask, lay(bin(BinaryOp::Lt, use(offs), splat(use(n), {B})), L), at(8)),
      Decl::make(ptrs, lay(bin(BinaryOp::Add, splat(use(xRow), {B}), use(offs)), L), at(9)),
      Decl::make(a, withVec(lay(Load::make(use(ptrs), use(mask), splat(FloatImm::make(ScalarType::F32, 0.0), {B})), L), 4, false),
                 at(10)),
      storeVec(lay(bin(BinaryOp::Add, splat(use(outRow), {B}), use(offs)), L), use(a), use(mask), 4, at(11)),
  });
  m.kernels.push_back(std::move(k));
  return m;
}

Module boolNotIntToBf16(int W) {
  Module m;
  m.files.push_back(fileOf("bool_not.cpp", R"(#include <tilec/tl.hpp>
template <int BLOCK>
TILEC_KERNEL(num_warps = 4)
void bool_not(const int *x, const int64_t *y, bool *out, tl::bfloat16 *z, tl::bfloat16 *w) {
  auto offs = tl::arange<0, BLOCK>();
  auto v = tl::load(x + offs);
  auto b = v > 0;
  tl::store(out + offs, ~b);
  tl::store(z + offs, tl::cast<tl::bfloat16>(v));
  auto u = tl::load(y + offs);
  tl::store(w + offs, tl::cast<tl::bfloat16>(u));
})"));
  Kernel k;
  k.name = "bool_not";
  k.instanceName = "bool_not_256";
  k.templateArgs = "<256>";
  k.metaParams = {ir::MetaParam::ofInt("BLOCK", 256)};
  k.warpSize = W;
  k.loc = at(4);
  const int64_t B = 256;
  LayoutRef L = Layout::blocked({1}, {W}, {4}, {0});
  Var x = param(k, "x", Type::ptr(ScalarType::I32, true));
  Var y = param(k, "y", Type::ptr(ScalarType::I64, true));
  Var out = param(k, "out", Type::ptr(ScalarType::Bool, false));
  Var z = param(k, "z", Type::ptr(ScalarType::BF16, false));
  Var w = param(k, "w", Type::ptr(ScalarType::BF16, false));
  Var offs = local(k, "offs", Type::scalar(ScalarType::I32).withShape({B}), L);
  Var v = local(k, "v", Type::scalar(ScalarType::I32).withShape({B}), L);
  Var b = local(k, "b", Type::scalar(ScalarType::Bool).withShape({B}), L);
  Var u = local(k, "u", Type::scalar(ScalarType::I64).withShape({B}), L);
  auto ptr = [&](const Var &p) { return lay(bin(BinaryOp::Add, splat(use(p), {B}), use(offs)), L); };
  k.body = Block::make({
      Decl::make(offs, lay(Arange::make(0, B), L), at(6)),
      Decl::make(v, lay(Load::make(ptr(x), nullptr, nullptr), L), at(7)),
      Decl::make(b, lay(bin(BinaryOp::Gt, use(v), splat(i32(0), {B})), L), at(8)),
      Store::make(ptr(out), lay(Unary::make(UnaryOp::BitNot, use(b)), L), nullptr, at(9)),
      Store::make(ptr(z), lay(Cast::make(ScalarType::BF16, use(v)), L), nullptr, at(10)),
      Decl::make(u, lay(Load::make(ptr(y), nullptr, nullptr), L), at(11)),
      Store::make(ptr(w), lay(Cast::make(ScalarType::BF16, use(u)), L), nullptr, at(12)),
  });
  m.kernels.push_back(std::move(k));
  return m;
}

Module noParams(int W) {
  Module m;
  m.files.push_back(fileOf("nop.cpp", R"(#include <tilec/tl.hpp>
TILEC_KERNEL(num_warps = 1)
void nop() {}
)"));
  Kernel k;
  k.name = "nop";
  k.instanceName = "nop";
  k.warpSize = W;
  k.loc = at(3);
  k.settings.numWarps = 1;
  k.body = Block::make({});
  m.kernels.push_back(std::move(k));
  return m;
}

} // namespace tilec::emittertests
