#include "ir/Type.h"

#include <cassert>
#include <sstream>

namespace tilec::ir {

int byteSize(ScalarType t) {
  switch (t) {
  case ScalarType::Bool:
  case ScalarType::I8:
  case ScalarType::U8:
  case ScalarType::F8E4M3:
  case ScalarType::F8E5M2:
    return 1;
  case ScalarType::I16:
  case ScalarType::U16:
  case ScalarType::F16:
  case ScalarType::BF16: return 2;
  case ScalarType::I32:
  case ScalarType::U32:
  case ScalarType::F32: return 4;
  case ScalarType::I64:
  case ScalarType::U64:
  case ScalarType::F64: return 8;
  }
  return 0;
}

int bitWidth(ScalarType t) { return t == ScalarType::Bool ? 1 : byteSize(t) * 8; }

bool isFloat(ScalarType t) {
  return isFloat8(t) || t == ScalarType::F16 || t == ScalarType::BF16 || t == ScalarType::F32 ||
         t == ScalarType::F64;
}

bool isFloat8(ScalarType t) { return t == ScalarType::F8E4M3 || t == ScalarType::F8E5M2; }

bool isInt(ScalarType t) { return t != ScalarType::Bool && !isFloat(t); }

bool isUnsigned(ScalarType t) {
  return t == ScalarType::U8 || t == ScalarType::U16 || t == ScalarType::U32 ||
         t == ScalarType::U64;
}

const char *name(ScalarType t) {
  switch (t) {
  case ScalarType::Bool: return "i1";
  case ScalarType::I8: return "i8";
  case ScalarType::I16: return "i16";
  case ScalarType::I32: return "i32";
  case ScalarType::I64: return "i64";
  case ScalarType::U8: return "u8";
  case ScalarType::U16: return "u16";
  case ScalarType::U32: return "u32";
  case ScalarType::U64: return "u64";
  case ScalarType::F8E4M3:
    return "f8e4m3";
  case ScalarType::F8E5M2:
    return "f8e5m2";
  case ScalarType::F16: return "f16";
  case ScalarType::BF16: return "bf16";
  case ScalarType::F32: return "f32";
  case ScalarType::F64: return "f64";
  }
  return "?";
}

std::optional<ScalarType> scalarTypeFromName(const std::string &s) {
  for (ScalarType t :
       {ScalarType::Bool, ScalarType::I8, ScalarType::I16, ScalarType::I32, ScalarType::I64,
        ScalarType::U8, ScalarType::U16, ScalarType::U32, ScalarType::U64, ScalarType::F8E4M3,
        ScalarType::F8E5M2, ScalarType::F16, ScalarType::BF16, ScalarType::F32, ScalarType::F64})
    if (s == name(t))
      return t;
  return std::nullopt;
}

LayoutRef Layout::blocked(std::vector<int> spt, std::vector<int> tpw, std::vector<int> wpb,
                          std::vector<int> order) {
  assert(spt.size() == tpw.size() && tpw.size() == wpb.size() && wpb.size() == order.size());
  auto l = std::make_shared<Layout>();
  l->kind = Kind::Blocked;
  l->sizePerThread = std::move(spt);
  l->threadsPerWarp = std::move(tpw);
  l->warpsPerBlock = std::move(wpb);
  l->order = std::move(order);
  return l;
}

LayoutRef Layout::slice(LayoutRef parent, int dim) {
  assert(parent && dim >= 0 && dim < parent->rank());
  auto l = std::make_shared<Layout>();
  l->kind = Kind::Slice;
  l->parent = std::move(parent);
  l->sliceDim = dim;
  return l;
}

LayoutRef Layout::mma(int warpsM, int warpsN, MmaInstr instr) {
  auto l = std::make_shared<Layout>();
  l->kind = Kind::Mma;
  l->warpsPerBlock = {warpsM, warpsN};
  l->instr = instr;
  return l;
}

int Layout::mfmaSize(MmaInstr instr) {
  switch (instr) {
  case MmaInstr::M16N8K16: return 0;
  case MmaInstr::Mfma32x32x8: return 32;
  case MmaInstr::Mfma16x16x16: return 16;
  case MmaInstr::Wgmma: return 0;
  }
  return 0;
}

bool isPermutation(const std::vector<int> &perm) {
  std::vector<bool> seen(perm.size());
  for (int d : perm) {
    if (d < 0 || d >= static_cast<int>(perm.size()) || seen[d])
      return false;
    seen[d] = true;
  }
  return true;
}

std::vector<int> inversePermutation(const std::vector<int> &perm) {
  std::vector<int> q(perm.size());
  for (size_t e = 0; e < perm.size(); ++e)
    q[perm[e]] = static_cast<int>(e);
  return q;
}

LayoutRef Layout::permuted(const LayoutRef &l, const std::vector<int> &perm) {
  if (!l || l->kind != Kind::Blocked || l->rank() != static_cast<int>(perm.size()))
    return nullptr;
  auto apply = [&](const std::vector<int> &v) {
    std::vector<int> r(v.size());
    for (size_t e = 0; e < perm.size(); ++e)
      r[e] = v[perm[e]];
    return r;
  };
  const std::vector<int> place = inversePermutation(perm); // l's dim d is the result's place[d]
  std::vector<int> order;
  for (int d : l->order)
    order.push_back(place[d]);
  return blocked(apply(l->sizePerThread), apply(l->threadsPerWarp), apply(l->warpsPerBlock),
                 std::move(order));
}

LayoutRef Layout::transposed(const LayoutRef &l) { return permuted(l, {1, 0}); }

int Layout::rank() const {
  if (kind == Kind::Blocked)
    return static_cast<int>(order.size());
  if (kind == Kind::Mma)
    return 2;
  return parent->rank() - 1;
}

const Layout &Layout::root() const { return kind != Kind::Slice ? *this : parent->root(); }

static void list(std::ostream &os, const std::vector<int> &v) {
  os << '[';
  for (size_t i = 0; i < v.size(); ++i)
    os << (i ? "," : "") << v[i];
  os << ']';
}

std::string Layout::str() const {
  std::ostringstream os;
  if (kind == Kind::Slice) {
    os << "#slice<dim=" << sliceDim << ", " << parent->str() << '>';
    return os.str();
  }
  if (kind == Kind::Mma) {
    os << "#mma<"
       << (instr == MmaInstr::M16N8K16      ? "m16n8k16"
           : instr == MmaInstr::Mfma32x32x8 ? "mfma32x32x8"
           : instr == MmaInstr::Wgmma       ? "wgmma"
                                            : "mfma16x16x16")
       << ", wpb=";
    list(os, warpsPerBlock);
    os << '>';
    return os.str();
  }
  os << "#blocked<spt=";
  list(os, sizePerThread);
  os << ", tpw=";
  list(os, threadsPerWarp);
  os << ", wpb=";
  list(os, warpsPerBlock);
  os << ", order=";
  list(os, order);
  os << '>';
  return os.str();
}

bool operator==(const Layout &a, const Layout &b) {
  if (a.kind != b.kind)
    return false;
  if (a.kind == Layout::Kind::Slice)
    return a.sliceDim == b.sliceDim && *a.parent == *b.parent;
  if (a.kind == Layout::Kind::Mma)
    return a.instr == b.instr && a.warpsPerBlock == b.warpsPerBlock;
  return a.sizePerThread == b.sizePerThread && a.threadsPerWarp == b.threadsPerWarp &&
         a.warpsPerBlock == b.warpsPerBlock && a.order == b.order;
}

bool sameLayout(const LayoutRef &a, const LayoutRef &b) {
  if (!a || !b)
    return !a && !b;
  return *a == *b;
}

int64_t LayoutGeometry::totalElemsPerThread() const {
  int64_t n = 1;
  for (int64_t e : elemsPerThread)
    n *= e;
  return n;
}

LayoutGeometry geometry(const Layout &layout, const std::vector<int64_t> &shape) {
  assert(static_cast<int>(shape.size()) == layout.rank());
  LayoutGeometry g;
  if (layout.kind == Layout::Kind::Slice) {
    // Geometry of the parent over the shape with the sliced dim re-inserted as size 1.
    std::vector<int64_t> parentShape = shape;
    parentShape.insert(parentShape.begin() + layout.sliceDim, 1);
    LayoutGeometry pg = geometry(*layout.parent, parentShape);
    for (int d = 0; d < layout.parent->rank(); ++d) {
      if (d == layout.sliceDim)
        continue;
      g.elemsPerThread.push_back(pg.elemsPerThread[d]);
      g.coverage.push_back(pg.coverage[d]);
    }
    return g;
  }
  if (layout.kind == Layout::Kind::Mma) {
    // mma.sync: per 16 x 16 unit of a warp, 2 rows x 4 columns a thread. MFMA N x N: per N x N
    // unit of a wavefront, N N / 64 rows x 1 column. A dim under one unit (size 1, the parent of
    // a slice) is replicated.
    const int64_t n = Layout::mfmaSize(layout.instr);
    for (size_t d = 0; d < 2; ++d) {
      int64_t cov = (n ? n : 16) * int64_t(layout.warpsPerBlock[d]);
      int64_t perUnit = n ? (d == 0 ? n * n / 64 : 1) : (d == 0 ? 2 : 4);
      g.elemsPerThread.push_back(shape[d] >= cov ? shape[d] / cov * perUnit : 1);
      g.coverage.push_back(cov);
    }
    return g;
  }
  for (size_t d = 0; d < shape.size(); ++d) {
    int64_t cov = int64_t(layout.sizePerThread[d]) * layout.threadsPerWarp[d] *
                  layout.warpsPerBlock[d];
    int64_t spt = layout.sizePerThread[d];
    int64_t perThread = shape[d] >= cov ? shape[d] / cov * spt : std::min<int64_t>(spt, shape[d]);
    g.elemsPerThread.push_back(perThread);
    g.coverage.push_back(cov);
  }
  return g;
}

int64_t Type::numElements() const {
  int64_t n = 1;
  for (int64_t s : shape)
    n *= s;
  return n;
}

std::string Type::str() const {
  std::ostringstream os;
  std::string e = argPair ? std::string("pair<") + name(elem) + ",i32>" : name(elem);
  if (pointer)
    e = std::string("ptr<") + (constPointee ? "const " : "") + e + ">";
  if (shape.empty())
    return e;
  os << "tile<";
  for (int64_t s : shape)
    os << s << 'x';
  os << e;
  if (layout)
    os << ", " << layout->str();
  os << '>';
  return os.str();
}

bool sameShapeAndElem(const Type &a, const Type &b) {
  return a.elem == b.elem && a.pointer == b.pointer && a.constPointee == b.constPointee &&
         a.argPair == b.argPair && a.shape == b.shape;
}

bool operator==(const Type &a, const Type &b) {
  return sameShapeAndElem(a, b) && sameLayout(a.layout, b.layout);
}

} // namespace tilec::ir
