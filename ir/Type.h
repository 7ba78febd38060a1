#pragma once
/// \file Element types, tile types and layouts of the Tile IR.
///
/// A value is a scalar (empty shape) or a tile (rank 1 to 3, every dimension a power of two). Tiles
/// carry a layout once layout assignment has run: the layout says which thread of the block owns
/// which element. Pointers are global-memory pointers to an element type.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tilec::ir {

/// F8E4M3 and F8E5M2: the 8-bit floats (Triton's float8e4nv, OCP's E4M3FN, and float8e5).
enum class ScalarType : uint8_t {
  Bool,
  I8,
  I16,
  I32,
  I64,
  U8,
  U16,
  U32,
  U64,
  F8E4M3,
  F8E5M2,
  F16,
  BF16,
  F32,
  F64
};

/// Size of one element in bytes (Bool counts as one byte, as stored by tilec).
int byteSize(ScalarType t);
int bitWidth(ScalarType t); // Bool: 1
bool isFloat(ScalarType t);
bool isFloat8(ScalarType t);   // F8E4M3/F8E5M2
bool isInt(ScalarType t);      // signed or unsigned integers (not Bool)
bool isUnsigned(ScalarType t); // U8/U16/U32/U64
/// IR spelling: i1 i8 i16 i32 i64 u8 u16 u32 u64 f8e4m3 f8e5m2 f16 bf16 f32 f64.
const char *name(ScalarType t);
std::optional<ScalarType> scalarTypeFromName(const std::string &s);

struct Layout;
using LayoutRef = std::shared_ptr<const Layout>;

/// How the elements of a tile are distributed over the threads of a block (Triton's encodings).
///
/// Blocked: along each dim d a thread owns `sizePerThread[d]` consecutive elements;
/// `threadsPerWarp[d]` lanes and `warpsPerBlock[d]` warps tile the dim; `order` lists dims fastest
/// first (lane and warp ids are split over dims in that order). The pattern repeats to cover the
/// tile; a tile smaller than the pattern is replicated (several threads hold the same element).
/// Slice: the layout of `parent` with dimension `dim` removed (the result of reducing along `dim`,
/// or the operand of expand_dims at `dim`); elements are replicated over the threads along `dim`.
/// Mma: the accumulator of the warp-wide `mma.sync.m16n8k16` (rank 2): `warpsPerBlock` = [WM, WN]
/// warps, warp (wm, wn) holding per 16 x 16 unit of the tile (units repeat every 16 WM rows and
/// 16 WN columns) rows wm*16 + {g, g + 8} and columns wn*16 + {0, 8} + 2t + {0, 1}, with g = lane /
/// 4 and t = lane % 4 (PTX ISA, "Matrix fragments for mma.m16n8k16"; tilec/cuda/tensor_core.cuh
/// Mma16816Acc). Every element has one owner; a dim of size 1 (the parent of a slice) replicates.
/// On sm_90a the same layout with warps [WM, 1] (WM a multiple of 4) holds the accumulators of
/// `wgmma.mma_async.m64nNk16` (`instr` Wgmma): warpgroup g (warps 4 g to 4 g + 3) computes the 64
/// rows 64 g + 16 WM i of each 16 WM unit i, and in them each warp its 16 rows, as above
/// (tilec/cuda/wgmma.cuh WgmmaM64NK16 names the same registers).
/// The same kind holds the accumulators of AMD's MFMA N x N (`instr` Mfma32x32x8, Mfma16x16x16;
/// 64-lane wavefronts): wavefront (wm, wn) holds per N WM x N WN unit the N x N block at (N wm,
/// N wn), lane l column l % N and N N / 64 of its rows (tilec/hip/matrix_core.hpp MfmaAcc).
struct Layout {
  enum class Kind : uint8_t { Blocked, Slice, Mma };
  /// The instruction whose accumulator an Mma layout is.
  enum class MmaInstr : uint8_t { M16N8K16, Mfma32x32x8, Mfma16x16x16, Wgmma };
  Kind kind = Kind::Blocked;
  std::vector<int> sizePerThread, threadsPerWarp, warpsPerBlock, order; // Blocked; Mma: warps
  LayoutRef parent;                                                     // Slice
  int sliceDim = -1;                                                    // Slice
  MmaInstr instr = MmaInstr::M16N8K16;                                  // Mma

  static LayoutRef blocked(std::vector<int> sizePerThread, std::vector<int> threadsPerWarp,
                           std::vector<int> warpsPerBlock, std::vector<int> order);
  static LayoutRef slice(LayoutRef parent, int dim);
  static LayoutRef mma(int warpsM, int warpsN, MmaInstr instr = MmaInstr::M16N8K16);
  /// An MFMA instruction's N (its tiles are N x N), 0 for mma.sync and wgmma.
  static int mfmaSize(MmaInstr instr);
  /// The blocked layout `l` with its dims permuted: dim e of the result is `l`'s dim perm[e]
  /// (every per-dim list permuted, `order` naming the same dims by their new places), so the
  /// element of a tile in the result whose dim e index is q[e] is, thread for thread, the element
  /// of a tile in `l` whose dim perm[e] index is q[e]. Null unless `l` is a blocked layout of
  /// perm's rank.
  static LayoutRef permuted(const LayoutRef &l, const std::vector<int> &perm);
  /// permuted(l, {1, 0}): element [i][j] of a tile in the result is element [j][i] of one in `l`.
  static LayoutRef transposed(const LayoutRef &l);

  int rank() const;
  /// The blocked or mma layout at the root of a chain of slices (itself when not a slice).
  const Layout &root() const;
  /// Canonical text, e.g. `#blocked<spt=[1,4], tpw=[4,8], wpb=[4,1], order=[1,0]>` or
  /// `#slice<dim=1, #blocked<...>>`.
  std::string str() const;
};

/// Whether `perm` holds each of 0 .. size - 1 once.
bool isPermutation(const std::vector<int> &perm);
/// The permutation q with q[perm[e]] = e.
std::vector<int> inversePermutation(const std::vector<int> &perm);

bool operator==(const Layout &a, const Layout &b);
inline bool operator!=(const Layout &a, const Layout &b) { return !(a == b); }
/// Equality of optional layouts (both null, or both set and equal).
bool sameLayout(const LayoutRef &a, const LayoutRef &b);

/// Per-dimension facts about how a blocked layout (or a slice of one) covers a tile of `shape`.
struct LayoutGeometry {
  std::vector<int64_t> elemsPerThread; ///< per dim: how many elements of the tile one thread holds
  std::vector<int64_t> coverage;       ///< per dim: sizePerThread * threadsPerWarp * warpsPerBlock
  int64_t totalElemsPerThread() const;
};
/// Geometry of `layout` applied to a tile of `shape` (rank must match).
LayoutGeometry geometry(const Layout &layout, const std::vector<int64_t> &shape);

struct Type {
  ScalarType elem = ScalarType::I32;
  bool pointer = false;       ///< global pointer to `elem`
  bool constPointee = false;  ///< `const T*`
  bool argPair = false;       ///< argmax/argmin partial: (value of `elem`, int32 index)
  std::vector<int64_t> shape; ///< empty: scalar
  LayoutRef layout;           ///< tiles only; null before layout assignment

  static Type scalar(ScalarType t) {
    Type r;
    r.elem = t;
    return r;
  }
  static Type ptr(ScalarType t, bool isConst) {
    Type r;
    r.elem = t;
    r.pointer = true;
    r.constPointee = isConst;
    return r;
  }
  Type withShape(std::vector<int64_t> s) const {
    Type r = *this;
    r.shape = std::move(s);
    if (r.shape.empty())
      r.layout = nullptr;
    return r;
  }
  Type withElem(ScalarType t) const {
    Type r = *this;
    r.elem = t;
    r.pointer = false;
    r.constPointee = false;
    r.argPair = false;
    return r;
  }
  Type withLayout(LayoutRef l) const {
    Type r = *this;
    r.layout = std::move(l);
    return r;
  }
  Type scalarOf() const { return withShape({}); }
  bool isTile() const { return !shape.empty(); }
  bool isScalar() const { return shape.empty(); }
  int rank() const { return static_cast<int>(shape.size()); }
  int64_t numElements() const;
  /// IR spelling: `f32`, `ptr<f32>`, `ptr<const f16>`, `tile<128x64xf32, #blocked<...>>`.
  std::string str() const;
};

bool operator==(const Type &a, const Type &b);
inline bool operator!=(const Type &a, const Type &b) { return !(a == b); }
/// Same element type, pointer-ness and shape; layouts ignored.
bool sameShapeAndElem(const Type &a, const Type &b);

} // namespace tilec::ir
