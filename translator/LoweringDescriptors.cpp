/// KernelLowering, tensor descriptors (Triton's `tl.make_tensor_descriptor`): a descriptor has no
/// value in the kernel. Its declaration records its parts (base pointer, shape, strides, block
/// shape), each an expression the kernel computes once where the descriptor is made; its
/// `load({i, j})` becomes the load of a pointer tile over the block, masked to the tensor's
/// bounds with zero as the masked-off value, and its `store({i, j}, x)` the masked store of that
/// block:
///   desc.load({i, j})  =>  load(base + (i + arange(B0))[:, None] * s0 + (j + arange(B1))[None, :],
///                               mask = rows >= 0 & rows < R & cols >= 0 & cols < C, other = 0)
/// so every target runs it, and on sm_90a pipeline-dots makes TMA copies of the loads of a dot
/// loop (a box of a 2-D tensor, its edges exactly the mask). A descriptor may be copied into
/// another variable or passed to a function of the kernel's; anything else is a located error.

#include "translator/Lowering.h"

#include <clang/AST/ExprCXX.h>

namespace tilec::translator {

using ir::BinaryOp;
using ir::ScalarType;

std::vector<const clang::Expr *> KernelLowering::indexParts(const clang::Expr *e, size_t rank,
                                                            const std::string &what) {
  // `{i, j}` for a std::array: the array's own braces are elided, `{{i, j}}` in Clang's AST.
  if (auto *il = llvm::dyn_cast<clang::InitListExpr>(strip(e)); il && il->getNumInits() == 1)
    if (auto *inner = llvm::dyn_cast<clang::InitListExpr>(strip(il->getInit(0))))
      return partsOf(inner, rank, what);
  return partsOf(e, rank, what);
}

bool KernelLowering::isDescriptor(clang::QualType t) {
  return isTlRecord(t.getNonReferenceType(), "tensor_descriptor");
}

bool KernelLowering::isDescriptorMethod(const clang::CXXMemberCallExpr *mc, llvm::StringRef name) {
  const clang::CXXMethodDecl *md = mc->getMethodDecl();
  return isDescriptor(mc->getImplicitObjectArgument()->getType()) && md &&
         md->getDeclName().isIdentifier() && md->getName() == name;
}

ir::Expr KernelLowering::lowerIndex(const clang::Expr *e, const std::string &what) {
  using namespace clang;
  // `{M, K}` converts int to std::int64_t: the index keeps the kernel's own type.
  const Expr *s = e->IgnoreParens();
  if (auto *ic = dyn_cast<ImplicitCastExpr>(s); ic && ic->getCastKind() == CK_IntegralCast &&
                                                ic->getSubExpr()->getType()->isIntegerType() &&
                                                !ic->getSubExpr()->getType()->isBooleanType())
    s = ic->getSubExpr();
  ir::Expr x = lowerExpr(s);
  if (!x->type.isScalar() || x->type.pointer || !ir::isInt(x->type.elem))
    fe.fail(DiagId::BadOperand, e->getExprLoc(), {x->type.str(), what, "an integer scalar"});
  return x;
}

void KernelLowering::lowerDescriptorDecl(const clang::VarDecl *vd, const clang::DeclStmt *ds,
                                         std::vector<ir::Stmt> &out) {
  using namespace clang;
  const std::string name = vd->getNameAsString();
  const Expr *init = vd->getInit() ? strip(vd->getInit()) : nullptr;
  if (!init || isDefaultConstruct(init))
    fe.fail(DiagId::UninitializedVar, vd->getLocation(), {name});
  auto *call = dyn_cast<CallExpr>(init);
  const FunctionDecl *fd = call ? call->getDirectCallee() : nullptr;
  if (!fd || !inTl(fd) || !fd->getDeclName().isIdentifier() ||
      fd->getName() != "make_tensor_descriptor") {
    descriptors[vd] = descriptorOf(init); // a copy of another descriptor
    return;
  }
  auto args = callArgs(call);
  if (args.size() != 3)
    unsupportedCall(call);
  TensorDescriptor d;
  d.block = intTemplateArgs(fd);
  const size_t rank = d.block.size();
  auto *kernel = dyn_cast<FunctionDecl>(vd->getDeclContext());
  // Each part is computed once, here: a constant or a variable the kernel never assigns stands
  // for itself, anything else gets a variable named after the descriptor.
  auto once = [&](ir::Expr x, const Expr *src, const std::string &part) -> ir::Expr {
    if (ir::as<ir::IntImm>(x))
      return x;
    if (auto *ref = dyn_cast<DeclRefExpr>(src->IgnoreParenImpCasts()); ref && ir::as<ir::VarRef>(x))
      if (auto *v = dyn_cast<VarDecl>(ref->getDecl());
          v && kernel && kernel->getBody() && !assignsTo(kernel->getBody(), v))
        return x;
    auto v = k.newVar(name + "_" + part, x->type, ir::VarKind::Local, fe.irLoc(src->getExprLoc()));
    out.push_back(ir::Decl::make(v, x, fe.irLoc(ds->getBeginLoc())));
    return ir::VarRef::make(v);
  };
  ir::Expr base = lowerExpr(args[0]);
  if (!base->type.isScalar() || !base->type.pointer)
    fe.fail(DiagId::BadOperand, args[0]->getExprLoc(),
            {base->type.str(), "tl::make_tensor_descriptor",
             "a pointer to the tensor's first element"});
  d.elem = base->type.elem;
  d.base = once(base, args[0], "base");
  const char *shapeNames[2] = {"rows", "cols"}, *strideNames[2] = {"row_stride", "col_stride"};
  std::vector<const Expr *> shape =
      indexParts(args[1], rank, "the shape of a rank-" + std::to_string(rank) + " descriptor");
  std::vector<const Expr *> strides =
      indexParts(args[2], rank, "the strides of a rank-" + std::to_string(rank) + " descriptor");
  if (constInt(strides.back()) != std::optional<int64_t>(1))
    fe.fail(DiagId::DescriptorLastStride, strides.back()->getExprLoc(),
            {fe.text(strides.back()->getSourceRange())});
  for (size_t i = 0; i < rank; ++i)
    d.shape.push_back(once(lowerIndex(shape[i], "a tensor descriptor's shape"), shape[i],
                           rank == 1 ? "size" : shapeNames[i]));
  for (size_t i = 0; i + 1 < rank; ++i)
    d.strides.push_back(
        once(lowerIndex(strides[i], "a tensor descriptor's stride"), strides[i], strideNames[i]));
  d.strides.push_back(ir::IntImm::make(ScalarType::I32, 1));
  descriptors[vd] = d;
}

const KernelLowering::TensorDescriptor &KernelLowering::descriptorOf(const clang::Expr *e) {
  using namespace clang;
  if (auto *ref = dyn_cast<DeclRefExpr>(strip(e)))
    if (auto *v = dyn_cast<VarDecl>(ref->getDecl()))
      if (auto it = descriptors.find(v); it != descriptors.end())
        return it->second;
  fe.fail(DiagId::DescriptorUse, e->getExprLoc(), {fe.text(e->getSourceRange())});
}

std::pair<ir::Expr, ir::Expr> KernelLowering::descriptorBlock(const TensorDescriptor &d,
                                                              const clang::Expr *offsets,
                                                              const clang::CallExpr *call) {
  const size_t rank = d.block.size();
  const clang::SourceLocation at = call->getExprLoc();
  const ir::SourceLoc l = fe.irLoc(at);
  std::vector<const clang::Expr *> offs =
      indexParts(offsets, rank, "the offsets of a rank-" + std::to_string(rank) + " block");
  ir::Expr ptr = d.base, mask;
  for (size_t i = 0; i < rank; ++i) {
    // index_i = offset_i + arange(block_i), along axis i of the block.
    ir::Expr index =
        elementwise(BinaryOp::Add,
                    {lowerIndex(offs[i], "a block's offset"), ir::Arange::make(0, d.block[i], l)},
                    std::nullopt, offs[i]->getExprLoc(), {offs[i], offs[i]});
    if (rank == 2)
      index = ir::ExpandDims::make(index, i == 0 ? 1 : 0, l);
    ir::Expr inside = elementwise(
        BinaryOp::And,
        {elementwise(BinaryOp::Ge, {index, ir::IntImm::make(ScalarType::I32, 0, l)}, std::nullopt,
                     at, {offs[i], offs[i]}),
         elementwise(BinaryOp::Lt, {index, d.shape[i]}, std::nullopt, at, {offs[i], offs[i]})},
        std::nullopt, at, {offs[i], offs[i]});
    mask = mask ? elementwise(BinaryOp::And, {mask, inside}, std::nullopt, at, {offs[i], offs[i]})
                : inside;
    ir::Expr term = i + 1 == rank ? index
                                  : elementwise(BinaryOp::Mul, {index, d.strides[i]}, std::nullopt,
                                                at, {offs[i], offs[i]});
    ptr = elementwise(BinaryOp::Add, {ptr, term}, std::nullopt, at, {call, offs[i]});
  }
  return {ptr, mask};
}

ir::Expr KernelLowering::lowerDescriptorLoad(const clang::CXXMemberCallExpr *mc) {
  const TensorDescriptor &d = descriptorOf(mc->getImplicitObjectArgument());
  if (mc->getNumArgs() != 1)
    unsupportedCall(mc);
  auto [ptr, mask] = descriptorBlock(d, mc->getArg(0), mc);
  const ir::SourceLoc l = fe.irLoc(mc->getExprLoc());
  ir::Expr zero =
      ir::isFloat(d.elem) ? ir::FloatImm::make(d.elem, 0.0, l) : ir::IntImm::make(d.elem, 0, l);
  return ir::Load::make(ptr, mask, toShape(zero, ptr->type.shape), l);
}

ir::Stmt KernelLowering::lowerDescriptorStore(const clang::CXXMemberCallExpr *mc) {
  const TensorDescriptor &d = descriptorOf(mc->getImplicitObjectArgument());
  if (mc->getNumArgs() != 2)
    unsupportedCall(mc);
  auto [ptr, mask] = descriptorBlock(d, mc->getArg(0), mc);
  ir::Expr v = lowerOperand(mc->getArg(1));
  if (v->type.pointer)
    fe.fail(DiagId::BadOperand, mc->getArg(1)->getExprLoc(),
            {v->type.str(), "a tensor descriptor's store", "a value of numbers"});
  if (broadcastShape({ptr, v}, mc->getArg(1)->getExprLoc()) != ptr->type.shape)
    fe.fail(DiagId::ShapeMismatch, mc->getArg(1)->getExprLoc(),
            {shapeStr(v->type.shape), shapeStr(ptr->type.shape)});
  v = toShape(castTo(v, d.elem), ptr->type.shape);
  return ir::Store::make(ptr, v, mask, fe.irLoc(mc->getExprLoc()));
}

} // namespace tilec::translator
