#pragma once
/// \file Prints one kernel instantiation: the namespace with its tunables block and the
/// `__global__` function. Also gives the launcher what it needs (parameter list, names).

#include "emitters/CodeWriter.h"
#include "emitters/Emitter.h"
#include "emitters/NameTable.h"
#include "emitters/Precedence.h"
#include "emitters/TargetHooks.h"

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace tilec::emitters {

/// Thrown on IR the emitter does not accept (a compiler bug upstream, never a user error).
[[noreturn]] void internalError(const std::string &what);

/// C++ spelling of a scalar element type (argPair: tilec::rt::ArgPair<T>).
std::string cppType(const ir::Type &t, const TargetHooks &hooks);
/// A kernel parameter's declaration, e.g. `const float *x`; `unnamed`: `int /*n*/`.
std::string paramDecl(const ir::Type &t, const std::string &name, const TargetHooks &hooks,
                      bool unnamed = false);

/// The most shared memory a static `__shared__` array may hold (nvcc rejects more).
constexpr int64_t kMaxStaticSharedBytes = 48 * 1024;
/// Whether a kernel takes its shared memory from the launch's dynamic shared memory: above
/// kMaxStaticSharedBytes, where its launcher also sets the attribute that allows the size.
inline bool usesDynamicShared(const ir::Kernel &k) { return k.sharedBytes > kMaxStaticSharedBytes; }

class KernelEmitter {
public:
  KernelEmitter(const ir::Module &m, const ir::Kernel &k, const EmitOptions &opts);
  /// `namespace <instance> { tunables; __global__ kernel }`, with the aligned variant's namespace
  /// inside.
  void emit(CodeWriter &w);

  /// The kernel's parameter names as printed (unique), in order.
  const std::vector<std::string> &paramNames() const { return paramNames_; }
  /// The kernel function's name in its namespace (the user's, unless the output needs it).
  const std::string &kernelName() const { return kernelName_; }
  /// The name of the threads-per-block constant in the instantiation's namespace.
  const std::string &numThreadsName() const { return numThreadsName_; }
  /// The name of the shared-bytes constant (SMEM_BYTES) in the instantiation's namespace; the
  /// aligned variant's namespace names its own alike.
  const std::string &smemBytesName() const { return smemBytesName_; }
  /// Host-side text of a grid expression (scalar; params by name, meta-parameters qualified).
  std::string hostExpr(const ir::Expr &e);

  /// With an aligned variant (ir::Kernel::alignedVariant): the namespace inside the instantiation's
  /// that holds it, the launcher's tests of the arguments it assumes (`tilec::rt::aligned_to_16(a)`,
  /// `n % 16 == 0`), and those assumptions in words (`a is 16-byte aligned and n is a multiple of 16`).
  const std::string &alignedNamespace() const { return alignedNsName_; }
  std::vector<std::string> alignedTests() const;
  std::string alignedAssumptions() const;
  /// The emitter of the aligned variant (null without one): the launcher reads its TMA maps.
  std::unique_ptr<KernelEmitter> alignedEmitter() const;

  /// A tensor map the kernel takes (a buffer whose stages TMA fills, SharedBuffer::tma): the
  /// kernel parameter's name, the buffer, and the tunables that give its box and swizzle, in the
  /// kernel's namespace. In parameter order (the maps come first).
  struct TmaMap {
    int buffer = -1;
    std::string param, boxRows, boxCols, swizzle;
  };
  const std::vector<TmaMap> &tmaMaps() const { return tmaMaps_; }
  /// A persistent kernel (ir::Kernel::programs): the name of the tunable that counts the producer
  /// warpgroup's threads beside NUM_THREADS (empty: none), and whether the kernel takes the
  /// launch's programs after the tensor maps.
  const std::string &producerThreadsName() const { return producerThreadsName_; }
  bool persistent() const { return k_.programs != nullptr; }

private:
  using Idx = std::vector<std::string>;
  /// What `emit` puts inside the namespace: the tunables block and the kernel.
  void emitContents(CodeWriter &w);
  struct LayoutAlias {
    std::string name, type, comment;
  };

  // ---- preparation
  void collect();
  void nameVars();
  const LayoutAlias &alias(const ir::LayoutRef &l, const std::vector<int64_t> &shape);
  std::string layoutName(const ir::Type &t) { return alias(t.layout, t.shape).name; }
  std::string dimConst(int64_t v);
  std::string rootLayoutType(const ir::Layout &l, const std::vector<int64_t> &shape,
                             const std::string &sptOverride);
  /// The runtime type of the slice layout `l` on a tile of `shape`: Slice1 of a rank-2 parent,
  /// Slice2 of a rank-3 one (a slice of a slice: Slice1 of that Slice2).
  std::string sliceLayoutType(const ir::Layout &l, const std::vector<int64_t> &shape);
  std::string vecConst(const void *node, int vec, const std::string &hint, const ir::Type &elem,
                       const ir::LayoutRef &layout, const std::string &access);

  // ---- expressions
  Code elem(const ir::Expr &e, const Idx &idx);
  Code scalar(const ir::Expr &e) { return elem(e, {}); }
  Code binary(const ir::Binary *b, const Idx &idx);
  /// Whether integer tile arithmetic on `e` is index arithmetic: built from program ids, aranges,
  /// constants, the kernel's scalar arguments and locals holding only such values. Other integer
  /// tile arithmetic (on loaded data) wraps explicitly (tilec::rt::wrapping_add, ...).
  bool indexArithmetic(const ir::Expr &e) const;
  static bool callsFastMath(const ir::Expr &e);
  bool wraps(const ir::Expr &a, const ir::Expr &b, const ir::Type &result) const;
  /// tilec's estimate of the 32-bit registers one thread needs for tile values at the peak: the
  /// tile variables live at once (from their declaration to their last use, a loop's whole extent
  /// for a variable it reads from outside), each costing its elements per thread times its element
  /// bytes; index arithmetic (aranges, masks from comparisons of them) costs nothing, since the
  /// compiler recomputes it. Scalars, addresses and loop counters are not counted.
  int liveRegisterEstimate() const;
  Code math(const ir::Math *m, const Idx &idx);
  Code cast(Code a, const ir::Type &from, ir::ScalarType to);
  Code castTowardZero(Code a, ir::ScalarType from, ir::ScalarType to);
  void atomicAddVectors(const ir::Store *st);
  void deviceAssert(const ir::Assert *a);
  void devicePrint(const ir::Print *p);
  Code intImm(const ir::IntImm *i, bool host);
  bool symbolStandsFor(const ir::IntImm &i) const;
  const std::string *floatMetaName(const ir::FloatImm &f);
  std::string deref(const ir::Expr &ptr, const Idx &idx);
  /// `addr` carrying a load's or store's cache hints:
  /// `tilec::rt::hinted<tilec::rt::hint::cg>(addr)`
  /// (`addr` itself without hints).
  /// (`node`: the Load or Store; its hints' named constant, when collect() made one).
  std::string hinted(const void *node, const ir::MemHints &h, const std::string &addr);
  /// `tilec::rt::hint::cg | tilec::rt::hint::evict_first`: the template argument of hinted<>.
  static std::string hintBits(const ir::MemHints &h);
  /// Names the hints of a load or store `node` as a constant `<STEM>_HINTS` among the tunables.
  void hintsConst(const void *node, const ir::MemHints &h, const std::string &stem, bool isStore);
  /// One element a load reads, `p[i]`, or `tilec::rt::hinted<...>(p + i).load()` with hints.
  std::string loadAccess(const ir::Load *ld, const Idx &idx);
  /// Writes `p[i] = value;`, or `tilec::rt::hinted<...>(p + i).store(value);` with hints.
  void storeAccess(const ir::Store *st, const Idx &idx, const std::string &value);
  std::string zero(const ir::Type &t);
  std::string asFloat(const Code &c, ir::ScalarType t);
  Code roundTo(ir::ScalarType t, const std::string &floatExpr);
  std::string elemCount(const ir::Type &t, int dim);

  // ---- statements
  void stmt(const ir::Stmt &s);
  void provenance(const ir::SourceLoc &loc);
  void assignValue(const ir::Var &v, const ir::Expr &value, bool isDecl);
  /// The mask of the last element of the vector at `idx` (VEC elements along dim vd).
  std::string lastMaskElem(const ir::Expr &mask, const std::string *maskVar, const Idx &idx, int vd,
                           const std::string &vec);
  void tileLoad(const std::string &dst, const ir::Type &t, const ir::Load *ld);
  void store(const ir::Store *st);
  void atomicStore(const ir::Store *st);
  bool holdsCopies(const ir::Type &t);
  std::string atomicCall(const ir::Store *st, const Idx &idx);
  void threadReduce(const std::string &dst, const ir::Type &dstType, const ir::ThreadReduce *r,
                    bool isDecl);
  void sharedWritePartials(const ir::SharedWrite *sw);
  void sharedWriteTile(const ir::SharedWrite *sw);
  /// `v = warp_scan(...)` / `v = scan_carry(...)`: the operand copied into `v`, then the part of
  /// the scan computed in place (tilec/rt/scan.hpp); and a scan's write of its warps' totals.
  void scanPart(const ir::Var &v, const ir::Scan *s);
  /// `v = shared_read(...)` of a lowered Reshape: each element from the staged operands.
  void reshapeRead(const ir::Var &v, const ir::SharedRead *sr);
  void sharedWriteScanTotals(const ir::SharedWrite *sw);
  /// A tile write, then the block's sort of the buffer's rows (tilec::rt::sort_rows).
  void sharedWriteSort(const ir::SharedWrite *sw);
  /// tl::histogram's counting: each value the thread owns, where its mask is set, counted into the
  /// buffer's counters (tilec::rt::count_into).
  void sharedWriteCount(const ir::SharedWrite *sw);
  /// The template arguments of tilec/rt/scan.hpp's functions: [Op, ]layout, axis, reverse.
  std::string scanParams(const ir::Type &t, int axis, bool reverse, const ir::Scan *op);
  /// The arguments of tilec/rt/scan.hpp's totals functions: the tile `var` of type `t`, the
  /// totals' buffer, and for 2-D tiles its row stride.
  std::vector<std::string> scanTotalsArgs(const std::string &var, const ir::Type &t, int buffer);
  /// The element offset in shared buffer `b` of this thread's element `idx` of a tile of type `t`
  /// in layout alias `L` (row-major, rows `b.rowStride` apart, or through the buffer's swizzle).
  /// A rank-3 tile's rows are numbered over its first two dims: row c0 * S1 + c1 holds the
  /// elements (c0, c1, *).
  std::string sharedOffset(const std::string &L, const ir::Type &t, int b, const Idx &idx);
  /// The row-major index in a tile of `shape` of this thread's element `idx` in layout alias `L`,
  /// `L::coord0(i) * (S1 * S2) + L::coord1(j) * S2 + L::coord2(k)` with the products as numbers;
  /// dims of size 1 (coordinate 0) left out.
  std::string rowMajorIndex(const std::string &L, const std::vector<int64_t> &shape,
                            const Idx &idx);
  /// How many elements of a run along the rows a thread of layout `l` (rank `rank`) accesses in
  /// buffer `b` at once: up to 16 bytes, aligned at every run's start and within a swizzle chunk
  /// (1: element by element).
  int sharedRunVec(const ir::Layout &l, int rank, const ir::SharedBuffer &b, int elemBytes) const;
  /// The name of that width: the layout's own vector constant when the run is its whole
  /// contiguous run, else the number.
  std::string runVecName(const ir::Layout &l, int rank, int vec) const;
  /// The element offset of (row, col) in buffer `b`: `row * rowStride + col`, or the swizzle's
  /// `offset(row, col)`. `rowIsSum`: `row` needs parentheses as a factor.
  std::string sharedAt(int b, const std::string &row, const std::string &col,
                       bool rowIsSum = false);
  /// `name[stage]` for a buffer of several stages (pipeline-dots), the name otherwise.
  std::string stagedBuffer(int buffer, const ir::Expr &stage);
  void asyncCopy(const ir::AsyncCopy *c);
  /// `v = shared_dot(...)`: each thread's elements of the product, a k loop over the staged
  /// operands (lower-dots).
  void sharedDot(const ir::Var &v, const ir::SharedDot *d);
  /// The k loop of a shared_dot in an #mma layout: ldmatrix fragments and mma.sync into `acc`.
  void mmaLoop(const std::string &acc, const ir::Type &t, const ir::SharedDot *d);
  /// The same for an MFMA #mma layout (HIP): fragments read from shared memory, MFMA into `acc`.
  void mfmaLoop(const std::string &acc, const ir::Type &t, const ir::SharedDot *d);
  /// The same in an #mma<wgmma> layout (sm_90a): wgmma.mma_async on descriptors of both buffers.
  void wgmmaLoop(const std::string &acc, const ir::Type &t, const ir::SharedDot *d);
  /// Copies between the accumulator `acc` of layout `L` and `regs`, its registers in wgmma's
  /// order (`toRegs`: into them).
  void wgmmaRegisterCopy(const std::string &regs, const std::string &acc, const std::string &L,
                         bool toRegs);
  /// The products loop `f` leaves in flight (SharedDot::inFlight): their accumulators are moved
  /// into wgmma's registers before the loop (`before`), and back once the last product has landed
  /// after it.
  void heldAccumulators(const ir::For *f, bool before);
  /// Unrolled loops over the per-thread elements of `t`; `body` prints the innermost statement
  /// given the indices. `vecDim`/`vecStep`: that dim steps by a vector width (`vecWidth`
  /// elements) instead of 1. Inside a streamed run (below), only the current chunk's elements.
  template <class F> void forEachElem(const ir::Type &t, F body, int vecDim = -1,
                                      const std::string &vecStep = "", int vecWidth = 1);

  // ---- streamed runs (KernelEmitterStmt.cpp): consecutive loads, element-wise tiles and stores of
  // one rank-1 layout emitted as one unrolled loop over vector-wide chunks of the thread's elements
  /// The layout and shape every statement of a streamed run shares (the first statement's).
  struct RunShape {
    ir::LayoutRef layout;
    std::vector<int64_t> shape;
  };
  /// The width of one access of a chunkable statement (1 for element-wise values), or 0 when `s`
  /// cannot join a streamed run of `run`'s layout and shape (set from the first statement when null).
  int chunkWidth(const ir::Stmt &s, RunShape &run);
  /// Whether the loads and stores of stmts[begin, end) may run chunk by chunk: every pointer a
  /// store writes is loaded or stored in the run only through the same pointer expression.
  bool streamable(const std::vector<ir::Stmt> &stmts, size_t begin, size_t end);
  void streamedRun(const std::vector<ir::Stmt> &stmts, size_t begin, size_t end, int width,
                   const RunShape &run);
  /// The comments that precede a statement: the inlined call it starts, its source line.
  void stmtComments(const ir::Stmt &s);
  /// The comment on a branch of prefetch-loads: which tiles it loads, for which iteration.
  void prefetchComment(const ir::If *s);
  std::string varDecl(const ir::Var &v, bool isConst = false);
  std::string lhs(const ir::Var &v, const Idx &idx);
  /// `head` args `tail` as one statement, wrapped at the column limit.
  void call(const std::string &head, const std::vector<std::string> &args, const std::string &tail);
  /// `name[i][j]`.
  static std::string indexed(const std::string &name, const Idx &idx);
  /// The distance between the per-thread elements one vector access moves: "" for 1, else the
  /// product of the element counts of the dims after `vecDim` (vectors along dim 0 of a rank-2
  /// tile: the last dim's count).
  std::string vecStride(const ir::Type &t, int vecDim);
  /// The printed name of the tile variable `e` refers to (through hints), when its per-thread
  /// storage matches `t`'s; null for any other expression.
  const std::string *directTile(const ir::Expr &e, const ir::Type &t);
  /// The runtime's combining type of a reduction's or scan's op; `Combine<N>` for the kernel's
  /// combine function N (combineFunctions).
  std::string opType(ir::ReduceOp op, int combineFn);
  std::string opType(ir::ScanOp op, int combineFn);
  /// The kernel's combine functions as types of the namespace, each a static `combine(a, b)`.
  std::vector<std::string> combineFunctions();
  /// `struct AsmN { static R apply(operands...); }` for each of the kernel's inline assembly
  /// (Kernel::asms): on CUDA the assembly under __CUDA_ARCH__ and the reference function elsewhere
  /// (the CPU emulator compiles the output as host code), on HIP the reference function.
  std::vector<std::string> asmFunctions();
  int64_t partStride(const ir::SharedBuffer &b);

  const ir::Module &m_;
  const ir::Kernel &k_;
  const EmitOptions &opts_;
  const TargetHooks &hooks_;
  CodeWriter *w_ = nullptr;
  NameTable names_;
  std::map<int, std::string> varNames_; // by VarNode::id (ordered: deterministic)
  std::set<int> assigned_, read_;       // var ids (membership only)
  std::set<int> dataVars_;              // integer locals holding values not from index arithmetic
  std::set<std::string> usedMeta_;      // meta-parameters the kernel's code names (membership only)
  std::vector<std::string> paramNames_;
  std::vector<std::string> bufferNames_;
  std::map<int, std::string> swizzleNames_; // swizzled buffer -> its XorSwizzle alias
  std::map<int, bool> wgmmaKMajor_; // buffer wgmma reads -> whether K is contiguous (any: a
                                    // fence.proxy.async before each barrier)
  std::map<int, std::string> wgmmaDescNames_; // buffer wgmma reads -> its `<NAME>_DESC` prefix
  std::set<int> inFlightBuffers_;             // buffers read by products left in flight
  // Whether shared memory may have been written through the generic proxy (stores, landed
  // cp.async copies) since the last fence.proxy.async, in the order the code is printed: true at
  // the top of every loop body and after every branch or loop (the barrier's fence, sm_90a).
  bool genericWrites_ = true;
  /// How many loops (For, While) enclose the statement being emitted.
  int loopDepth_ = 0;
  // product left in flight -> the registers its loop keeps the accumulator in (heldAccumulators)
  std::map<const ir::SharedDot *, std::string> heldRegs_;
  void wgmmaDescriptor(int b, const std::string &prefix);
  void tmaBox(int b, const std::string &prefix);
  std::vector<TmaMap> tmaMaps_;
  std::map<int, std::string> stageFullNames_; // a TMA ring's first buffer -> its mbarrier array
  std::map<int, std::string> stageCopiesNames_; // ... -> the tunable counting its copies a stage
  std::map<int, std::string> stageEmptyNames_; // a ring the consumers free (StageFree) -> its array
  // Warp specialization (Kernel::producerThreads): the tunables that size the producer warpgroup
  // and the registers setmaxnreg gives each side; the persistent kernel's programs parameter.
  std::string producerThreadsName_, producerRegsName_, consumerRegsName_, programsName_;
  int producerRegs_ = 0, consumerRegs_ = 0; // 0: no setmaxnreg (the launch leaves enough)
  // Which side of a WarpSpecialize the statement being printed is on.
  enum class Role { None, Producer, Consumers } role_ = Role::None;
  void warpSpecialize(const ir::WarpSpecialize *ws);
  std::string idxNames_[3], vecIdx_, valsName_, bitsName_, chunkIdx_, dotIdx_, colBlockIdx_;
  /// Whether `s` may write shared memory through the generic proxy (stores, cp.async copies
  /// landing at their wait); TMA copies write through the async proxy.
  static bool writesGenerically(const ir::Stmt &s);
  /// Streamed runs are printed where liveRegisters_ (every element of every tile at once) reaches
  /// kStreamThreshold.
  static constexpr int kStreamThreshold = 40;
  /// The bytes of loads a thread issues for one chunk of a streamed run, at least (streamedRun).
  static constexpr int kStreamLoadBytes = 32;
  /// The streamed run being printed: its chunk width (0: none) and the constant that names it.
  int chunk_ = 0;
  std::string chunkStep_;
  std::string numWarpsName_, numThreadsName_, smemBytesName_, kernelName_;
  std::string alignedNsName_; // empty without an aligned variant
  /// The register budget (collect()): blocks per SM asked of __launch_bounds__ (1: none asked),
  /// tilec's estimate of the registers tile values take at the peak (every kernel: printed in the
  /// tunables block, and the streamed runs' threshold), threads per block.
  int minBlocks_ = 1, liveRegisters_ = 0, threads_ = 0;
  std::string minBlocksName_;
  static constexpr int kRegisterReserve = 24; ///< registers beyond tile values: addresses, scalars, reductions
  std::map<std::string, std::string> metaNames_; // meta-parameter -> its constant's name
  std::vector<LayoutAlias> aliases_;            // in order of first use
  std::map<std::string, size_t> aliasIndex_;    // layout text + shape -> aliases_ index
  std::vector<std::string> tunables_;           // vector-width lines, in order of first use
  std::map<const void *, std::string> vecNames_; // Load/Store node -> its width constant
  std::map<const void *, std::string> hintNames_; // Load/Store node -> its hints' constant
  std::map<std::string, std::string> sptVec_;   // layout text -> vec constant equal to its spt
  int lastFile_ = -1, lastLine_ = 0;
  std::set<int> inlinedShown_; // Kernel::inlinedCalls entries already named in a comment
};

} // namespace tilec::emitters
