#pragma once
/// \file Hopper's warpgroup matrix product, as tilec's CUDA output for sm_90a will call it (issue
/// 13, docs/plan-hopper.md): `wgmma.mma_async` with both operands in shared memory, named by 64-bit
/// matrix descriptors, and fp32 accumulators in registers; the fence, commit and wait around it;
/// and the proxy fence that makes ordinary shared-memory stores visible to it. Each helper is one
/// PTX instruction on the GPU and a model on tilec's CPU emulator (docs/emulation.md, "Tensor-core
/// instructions"):
/// the descriptors decoded and the swizzle applied as the hardware does, the results delivered at
/// the wgmma_wait that retires them. Included by tilec/cuda/runtime.cuh.
///
/// The PTX exists only for sm_90a (`-gencode=arch=compute_90a,code=sm_90a`): code for other GPUs
/// may include this header, and a call of any helper in it then stops the build with a message.
///
/// References are to the PTX ISA (version 8.x and later), chapter "Asynchronous Warpgroup Level
/// Matrix Multiply-Accumulate Instructions" (wgmma): sections "Matrix Descriptor Format", "Shared
/// Memory Matrix Layout" and "Matrix Fragments for wgmma.mma_async.m64nNk16".

#if defined(TILEC_EMULATE)
#include <stdio.h>
#include <string.h>
#elif defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define TILEC_WGMMA_PTX 1 // this device pass is for sm_90a: the wgmma instructions exist
#endif

namespace tilec::rt {

// ---- shared-memory matrix descriptors -----------------------------------------------------------

/// The swizzle of an operand in shared memory, as the descriptor's bits 62-63 encode it. A
/// swizzled operand is stored in rows of 32, 64 or 128 bytes, and the hardware XORs the 16-byte
/// chunk index of every address it reads (bits 4-6) with bits 7-9 of that address, as many bits as
/// the row has chunks beyond the first (1, 2 or 3): chunk c of row r of an aligned buffer lands at
/// chunk c ^ (r / (128 / row bytes) % (row bytes / 16)). The pattern repeats every 8 rows (256,
/// 512 or 1024 bytes, one "atom") and is taken from the address itself, not from the operand's
/// start: a swizzled operand's atoms must be aligned to their size (tilec's buffers are, and the
/// descriptors here have base offset 0).
enum class SmemSwizzle : uint32_t {
  None = 0,     ///< no swizzle: "core matrices" of 8 rows x 16 bytes, each stored contiguously
  Bytes128 = 1, ///< rows of 128 bytes, atoms of 1024
  Bytes64 = 2,  ///< rows of 64 bytes, atoms of 512
  Bytes32 = 3,  ///< rows of 32 bytes, atoms of 256
};

/// The row width of a swizzle mode in bytes: 32, 64 or 128; 16 (a core matrix row) for None.
__host__ __device__ constexpr uint32_t swizzle_row_bytes(SmemSwizzle swizzle) {
  return swizzle == SmemSwizzle::Bytes128  ? 128
         : swizzle == SmemSwizzle::Bytes64 ? 64
         : swizzle == SmemSwizzle::Bytes32 ? 32
                                           : 16;
}

/// Which dimension of an operand is contiguous in shared memory (the instruction's imm-trans-a and
/// imm-trans-b: 0 for K, 1 for MN). K-major: A stored as [M, K] rows (row-major A), B as [N, K]
/// rows. MN-major: A as [K, M] rows (`tl::trans(a)`), B as [K, N] rows (row-major B, tilec's usual
/// operand).
enum class WgmmaMajor : int { K = 0, MN = 1 };

/// The fields of a descriptor, and where the "Matrix Descriptor Format" puts them. The three
/// addresses are counted in 16 bytes (their 4 low bits are dropped), 14 bits each: the 18-bit
/// shared-memory window is covered.
namespace smem_desc_bits {
constexpr int kStartAddress = 0;       ///< bits 0-13: the operand's first byte, >> 4
constexpr int kLeadingByteOffset = 16; ///< bits 16-29: LBO >> 4 (what it separates: below)
constexpr int kStrideByteOffset = 32;  ///< bits 32-45: SBO >> 4
constexpr int kBaseOffset = 49;        ///< bits 49-51: the swizzle's phase at an unaligned start
constexpr int kSwizzle = 62;           ///< bits 62-63: SmemSwizzle
constexpr uint64_t kAddressMask = 0x3FFF;
constexpr uint64_t kBaseOffsetMask = 0x7;
/// The emulator's descriptors (make_smem_desc with TILEC_EMULATE) number their shared-memory
/// window in these bits, reserved (zero) on the GPU: see make_smem_desc.
constexpr int kEmulatorWindow = 52;
constexpr uint64_t kEmulatorWindowMask = 0x3FF;
} // namespace smem_desc_bits

/// wgmma's 64-bit shared-memory matrix descriptor from its fields (PTX ISA, "Matrix Descriptor
/// Format"), base offset 0. `smem_address` is the operand's start in the shared window (what
/// __cvta_generic_to_shared gives), 16-byte aligned; the offsets are multiples of 16 bytes.
///
/// What the two offsets separate depends on the operand's major and swizzle (PTX ISA, "Shared
/// Memory Matrix Layout", the canonical layouts; R = swizzle_row_bytes, T = 8 16-bit elements =
/// one 16-byte chunk):
/// - K-major, no swizzle: core matrices of 8 rows (m or n) x T (k) stored as 128 contiguous
///   bytes; LBO = from one core matrix to the next along K (k 0-7 -> 8-15), SBO = along M or N
///   (rows 0-7 -> 8-15).
/// - K-major, swizzled: rows of R bytes, one m or n each, k contiguous; the instruction's 16 k (32
///   bytes) lie within one row, from the start address's offset in it (advance the start by 32
///   bytes for the next k16 step of a 64- or 128-byte row); SBO = from 8 rows to the next 8 (8 R
///   for consecutive rows); LBO is not used (set it to 16).
/// - MN-major, no swizzle: core matrices of T (m or n) x 8 rows (k) of 16 bytes; SBO = along M
///   or N (elements 0-7 -> 8-15), LBO = along K (k 0-7 -> 8-15). Note the roles, swapped from the
///   swizzled MN-major case.
/// - MN-major, swizzled: rows of R bytes (R / 2 elements of m or n), one k each; LBO = from one R
///   / 2-wide block of m or n to the next, SBO = from 8 k rows to the next 8 (8 R for consecutive
///   rows).
__host__ __device__ constexpr uint64_t encode_smem_desc(uint32_t smem_address, SmemSwizzle swizzle,
                                                        uint32_t leading_byte_offset,
                                                        uint32_t stride_byte_offset) {
  using namespace smem_desc_bits;
  return ((uint64_t{smem_address} >> 4) & kAddressMask) << kStartAddress |
         ((uint64_t{leading_byte_offset} >> 4) & kAddressMask) << kLeadingByteOffset |
         ((uint64_t{stride_byte_offset} >> 4) & kAddressMask) << kStrideByteOffset |
         uint64_t{static_cast<uint32_t>(swizzle)} << kSwizzle;
}

/// A descriptor's fields, in bytes (the inverse of encode_smem_desc, base offset included).
struct SmemDescFields {
  uint32_t start_address, leading_byte_offset, stride_byte_offset, base_offset;
  SmemSwizzle swizzle;
};
__host__ __device__ constexpr SmemDescFields decode_smem_desc(uint64_t desc) {
  using namespace smem_desc_bits;
  return {static_cast<uint32_t>((desc >> kStartAddress & kAddressMask) << 4),
          static_cast<uint32_t>((desc >> kLeadingByteOffset & kAddressMask) << 4),
          static_cast<uint32_t>((desc >> kStrideByteOffset & kAddressMask) << 4),
          static_cast<uint32_t>(desc >> kBaseOffset & kBaseOffsetMask),
          static_cast<SmemSwizzle>(desc >> kSwizzle & 0x3)};
}

/// The descriptor of the operand that starts at `smem` (shared memory), laid out as `swizzle`,
/// `leading_byte_offset` and `stride_byte_offset` say (encode_smem_desc). On the emulator the
/// 14-bit address cannot name host memory: the address counts from a 1024-byte aligned host
/// address that the emulator numbers in the reserved bits 52-61 (so the address bits the swizzle
/// reads are the host's); make every descriptor here, and move one along an operand only by
/// adding to its address field, as on the GPU.
__device__ __forceinline__ uint64_t make_smem_desc(const void *smem, SmemSwizzle swizzle,
                                                   uint32_t leading_byte_offset,
                                                   uint32_t stride_byte_offset) {
#if defined(TILEC_EMULATE)
  uint32_t address = 0;
  const uint64_t window = ::tilec::emu::descriptor_window(smem, &address);
  return encode_smem_desc(address, swizzle, leading_byte_offset, stride_byte_offset) |
         window << smem_desc_bits::kEmulatorWindow;
#else
  return encode_smem_desc(static_cast<uint32_t>(__cvta_generic_to_shared(smem)), swizzle,
                          leading_byte_offset, stride_byte_offset);
#endif
}

/// `desc` with its start address moved `bytes` on (a multiple of 16, forward): the same operand
/// layout from a later point, e.g. the next k16 slice of a stage (32 bytes along a K-major row, 16
/// rows down an MN-major buffer). One addition to the address field, so a kernel makes a stage's
/// descriptors once and moves them along with constants.
__host__ __device__ constexpr uint64_t smem_desc_moved(uint64_t desc, uint64_t bytes) {
  return desc + ((bytes >> 4) << smem_desc_bits::kStartAddress);
}

// ---- the accumulators ---------------------------------------------------------------------------

/// Which element of the 64 x N fp32 accumulator tile D of `wgmma.mma_async.m64nNk16` register r of
/// thread t of a warpgroup holds (PTX ISA, "Matrix Fragments for wgmma.mma_async.m64nNk16", the
/// figure of D). A warpgroup is 4 consecutive warps starting at a multiple of 4 (t = threadIdx.x %
/// 128); warp w = t / 32 holds rows 16 w to 16 w + 15, and in each 8-column block j = r / 4 the
/// m16n8 accumulator of mma.sync (Mma16816's c_row and c_col): with g = lane / 4 and q = lane % 4,
/// row 16 w + g + 8 (r / 2 % 2), column 8 j + 2 q + r % 2. N / 2 registers a thread.
template <int N> struct WgmmaM64NK16 {
  static_assert(N % 8 == 0 && N >= 8 && N <= 256, "wgmma m64nNk16: N is a multiple of 8 to 256");
  static constexpr int M = 64, K = 16, REGS = N / 2;
  static constexpr int THREADS = 128; ///< a warpgroup
  __host__ __device__ static constexpr int row(int t, int r) {
    return 16 * (t / 32) + t % 32 / 4 + 8 * (r / 2 % 2);
  }
  __host__ __device__ static constexpr int col(int t, int r) {
    return 8 * (r / 4) + 2 * (t % 4) + r % 2;
  }
};

#if defined(TILEC_EMULATE)
namespace detail {
/// The byte address, relative to the descriptor's start and before the swizzle, of the 16-byte
/// chunk j of an operand of `rows` rows (m or n; 64 for A, N for B) with 16 k of 16-bit elements:
/// 2 x rows chunks, in this order (PTX ISA, "Shared Memory Matrix Layout", the canonical layouts
/// that encode_smem_desc describes; R the row bytes, R / 16 chunks a row):
/// - K-major: chunk j holds k 8 (j % 2) to + 7 of row m = j / 2;
/// - MN-major: chunk j holds m (or n) 8 (j / 16) to + 7 at k = j % 16.
inline constexpr uint32_t wgmma_chunk_offset(const SmemDescFields &f, WgmmaMajor major, int j) {
  const uint32_t R = swizzle_row_bytes(f.swizzle), lbo = f.leading_byte_offset,
                 sbo = f.stride_byte_offset;
  const bool swizzled = f.swizzle != SmemSwizzle::None;
  if (major == WgmmaMajor::K) {
    const uint32_t m = uint32_t(j) / 2, kChunk = uint32_t(j) % 2;
    // Rows of R bytes (16 unswizzled: a core matrix row), 8 rows then SBO; the second k chunk 16
    // bytes on in a swizzled row, LBO on (the next core matrix) unswizzled.
    return m % 8 * R + m / 8 * sbo + kChunk * (swizzled ? 16 : lbo);
  }
  const uint32_t k = uint32_t(j) % 16, mChunk = uint32_t(j) / 16;
  if (!swizzled) // core matrices of 8 k rows of 16 bytes: SBO along m (or n), LBO along k
    return mChunk * sbo + k % 8 * 16 + k / 8 * lbo;
  // Rows of R bytes along m (or n), one k each: R / 16 chunks, then the next block at LBO; 8 rows,
  // then the next 8 at SBO.
  const uint32_t chunksPerRow = R / 16;
  return mChunk % chunksPerRow * 16 + mChunk / chunksPerRow * lbo + k % 8 * R + k / 8 * sbo;
}
/// A shared-memory address after the swizzle: its 16-byte chunk index (bits 4-6) XORed with bits
/// 7-9, as many bits as the row has chunks beyond the first.
inline constexpr uint32_t wgmma_swizzle(uint32_t address, SmemSwizzle swizzle) {
  const uint32_t chunkMask = swizzle_row_bytes(swizzle) / 16 - 1; // 0 unswizzled
  return address ^ (address >> 7 & chunkMask) << 4;
}

/// Checks a descriptor of the wgmma `name` (operand "A" or "B", `rows` rows) as the hardware needs
/// it and reports what it cannot use; returns the host address of its window (null when the
/// descriptor was not made by make_smem_desc in this launch: the operand then reads as zeros).
__forceinline__ const unsigned char *wgmma_operand_window(uint64_t desc, WgmmaMajor major, int rows,
                                                          const char *operand, const char *name) {
  using ::tilec::emu::FindingKind;
  const SmemDescFields f = decode_smem_desc(desc);
  const unsigned window =
      unsigned(desc >> smem_desc_bits::kEmulatorWindow & smem_desc_bits::kEmulatorWindowMask);
  const void *base = ::tilec::emu::descriptor_window_base(window);
  char what[320];
  if (!base) {
    snprintf(what, sizeof what,
             "%s: operand %s's descriptor 0x%llx was not made by tilec::rt::make_smem_desc in this "
             "launch (the emulator cannot find its shared memory)",
             name, operand, static_cast<unsigned long long>(desc));
    ::tilec::emu::report_finding(FindingKind::WgmmaDescriptor, what);
    return nullptr;
  }
  const uint32_t R = swizzle_row_bytes(f.swizzle), atom = 8 * R;
  const bool swizzled = f.swizzle != SmemSwizzle::None;
  const uint32_t rowStart = f.start_address & ~(R - 1); // K-major: the row the k16 slice is in
  const char *problem = nullptr;
  uint32_t value = 0;
  if (f.base_offset != 0) {
    problem = "has base offset %u: tilec's operands start on their swizzle atoms (offset 0)";
    value = f.base_offset;
  } else if (swizzled && major == WgmmaMajor::K && f.start_address % R + 32 > R) {
    problem = "starts %u bytes into a swizzled row: its 32 bytes of k must lie within the row";
    value = f.start_address % R;
  } else if (swizzled && (major == WgmmaMajor::K ? rowStart : f.start_address) % atom != 0) {
    problem = "is not aligned to its swizzle atom: the 8 rows the pattern repeats over start %u "
              "bytes past a multiple of their size";
    value = (major == WgmmaMajor::K ? rowStart : f.start_address) % atom;
  } else if (swizzled && f.stride_byte_offset % atom != 0) {
    problem = "has a stride byte offset of %u bytes, not a multiple of its swizzle atom: the next "
              "8 rows are not aligned to the pattern";
    value = f.stride_byte_offset;
  } else if (swizzled && major == WgmmaMajor::MN && rows * 2 > int(R) &&
             f.leading_byte_offset % atom != 0) {
    problem = "has a leading byte offset of %u bytes, not a multiple of its swizzle atom: the next "
              "block of rows is not aligned to the pattern";
    value = f.leading_byte_offset;
  }
  if (problem) {
    char detail[200];
    snprintf(detail, sizeof detail, problem, value);
    snprintf(what, sizeof what, "%s: operand %s (%s-major, %u-byte %s) %s", name, operand,
             major == WgmmaMajor::K ? "K" : "MN", swizzled ? R : 0u,
             swizzled ? "swizzle" : "rows (no swizzle)", detail);
    ::tilec::emu::report_finding(FindingKind::WgmmaDescriptor, what);
  }
  return static_cast<const unsigned char *>(base);
}

/// What a thread of the warpgroup gives the others when a wgmma starts: the instruction's arguments
/// (the same in every thread) and its share of the operands' 16-byte chunks (chunk j of an operand
/// is read by thread j % 128, as its share j / 128).
struct WgmmaShare {
  static constexpr int kMaxBChunks = 2 * 256 / 128; ///< chunks of B a thread reads, at most
  uint64_t a_desc, b_desc;
  uint32_t shape; ///< n, the majors and scale-d, packed
  unsigned char a[16], b[kMaxBChunks][16];
};

/// The warpgroup part of wgmma_model, in a function of its own so that its buffers (about 34 KB)
/// are not part of every kernel that inlines a wgmma: the exchange of the 128 threads' shares (at
/// `pc`, the wgmma's line), then this thread's N / 2 elements of D into `acc`, which holds C on
/// entry: C's element plus the sixteen products in increasing k, in fp32 (the GPU adds in an
/// order of its own). Returns false when a thread of the warpgroup gave other arguments.
template <class T>
__attribute__((noinline)) bool
wgmma_warpgroup_product(const WgmmaShare &mine, int n, WgmmaMajor a_major, WgmmaMajor b_major,
                        float *acc, const char *name, const void *pc) {
  constexpr int kThreads = 128;
  WgmmaShare group[kThreads] = {}; // a thread that does not take part (reported) gives zeros
  ::tilec::emu::warpgroup_all_gather(&mine, group, sizeof(WgmmaShare), name, pc);
  bool same = true;
  for (const WgmmaShare &s : group)
    same = same && (s.shape == 0 ||
                    (s.a_desc == mine.a_desc && s.b_desc == mine.b_desc && s.shape == mine.shape));
  // Elements A[m][k] and B[k][n] from the chunks of the threads that read them, by the chunk order
  // of wgmma_chunk_offset (chunk j was read by thread j % 128, as its share j / 128).
  auto element = [](const unsigned char *chunk, int e) {
    uint16_t bits;
    memcpy(&bits, chunk + 2 * e, 2);
    return static_cast<float>(T::fromBits(bits));
  };
  auto aAt = [&](int m, int k) {
    const int j = a_major == WgmmaMajor::K ? 2 * m + k / 8 : 16 * (m / 8) + k;
    return element(group[j].a, a_major == WgmmaMajor::K ? k % 8 : m % 8);
  };
  auto bAt = [&](int k, int col) {
    const int j = b_major == WgmmaMajor::K ? 2 * col + k / 8 : 16 * (col / 8) + k;
    return element(group[j % kThreads].b[j / kThreads], b_major == WgmmaMajor::K ? k % 8 : col % 8);
  };
  // This thread's registers: rows `row` and row + 8, columns 2 q and 2 q + 1 of each 8-column
  // block.
  using Map = WgmmaM64NK16<256>; // the map of register r does not depend on N
  const int me = static_cast<int>(threadIdx.x) % kThreads;
  float a[2][16];
  for (int i = 0; i < 2; ++i)
    for (int k = 0; k < 16; ++k)
      a[i][k] = aAt(Map::row(me, 2 * i), k);
  for (int r = 0; r < n / 2; ++r) {
    const int col = Map::col(me, r);
    float s = acc[r];
    for (int k = 0; k < 16; ++k)
      s += a[r / 2 % 2][k] * bAt(k, col); // products of 16-bit values are exact in fp32
    acc[r] = s;
  }
  return same;
}

/// wgmma.mma_async m64nNk16 with both operands in shared memory and 16-bit elements of type T, as
/// a warpgroup operation: the descriptors are checked, every thread reads its share of the
/// operands' 16-byte chunks (its own reads, checked as such: bounds, races, cp.async bytes in
/// flight), and wgmma_warpgroup_product exchanges them and computes this thread's elements of D
/// (WgmmaM64NK16's map). C is the accumulator's value once the wgmma in flight on it (if any) has
/// landed, or 0 without `accumulate`. The emulator writes the result into `d` at the wgmma_wait
/// that retires it; until then `d` holds a NaN pattern.
template <class T>
__forceinline__ void wgmma_model(float *d, int n, uint64_t a_desc, uint64_t b_desc, bool accumulate,
                                 WgmmaMajor a_major, WgmmaMajor b_major, const char *name) {
  constexpr int kThreads = 128;
  const int me = static_cast<int>(threadIdx.x) % kThreads;
  WgmmaShare mine = {};
  mine.a_desc = a_desc;
  mine.b_desc = b_desc;
  mine.shape =
      uint32_t(n) | uint32_t(a_major) << 9 | uint32_t(b_major) << 10 | uint32_t(accumulate) << 11;
  ::tilec::emu::WgmmaRead reads[1 + WgmmaShare::kMaxBChunks] = {};
  unsigned nReads = 0;
  const SmemDescFields af = decode_smem_desc(a_desc), bf = decode_smem_desc(b_desc);
  const unsigned char *aWindow = wgmma_operand_window(a_desc, a_major, 64, "A", name);
  const unsigned char *bWindow = wgmma_operand_window(b_desc, b_major, n, "B", name);
  // Inlined (also at -O0) so that the emulator's reports name the wgmma's line in the kernel.
  auto read = [&](const unsigned char *window, const SmemDescFields &f, WgmmaMajor major, int j,
                  unsigned char(&out)[16]) __attribute__((always_inline)) {
    if (!window)
      return; // reported: the chunk reads as zeros
    const unsigned char *p =
        window + wgmma_swizzle(f.start_address + wgmma_chunk_offset(f, major, j), f.swizzle);
    memcpy(out, p, 16); // this thread's read of shared memory
    reads[nReads].addr = p;
    memcpy(reads[nReads].bytes, out, 16);
    ++nReads;
  };
  read(aWindow, af, a_major, me, mine.a);
  for (int s = 0; me + kThreads * s < 2 * n; ++s)
    read(bWindow, bf, b_major, me + kThreads * s, mine.b[s]);
  float acc[128] = {}; // C, then D
  if (accumulate && !::tilec::emu::wgmma_in_flight(d, unsigned(n / 2), acc))
    memcpy(acc, d, sizeof(float) * unsigned(n / 2));
  if (!wgmma_warpgroup_product<T>(mine, n, a_major, b_major, acc, name,
                                  ::tilec::emu::call_site())) {
    char what[200];
    snprintf(what, sizeof what,
             "%s: the threads of the warpgroup give different descriptors, N, majors or scale-d "
             "(a wgmma is one instruction of the whole warpgroup)",
             name);
    ::tilec::emu::report_finding(::tilec::emu::FindingKind::WarpOpDivergence, what);
  }
  ::tilec::emu::wgmma_issue(d, acc, unsigned(n / 2), reads, nReads, name);
}
} // namespace detail
#endif

// ---- the instructions ---------------------------------------------------------------------------

namespace detail {
/// A static_assert condition that holds for no T: the helpers below fail to build, with a message,
/// only when a pass for another GPU instantiates them.
template <class T> inline constexpr bool kNeedsSm90a = false;

#if defined(TILEC_WGMMA_PTX)
// The macros below keep one row per N, the operand lists side by side.
// clang-format off
// The wgmma instruction lists its N / 2 accumulator registers as asm operands %0 ... %(N/2 - 1);
// the descriptors, scale-d and the transposes follow them. TILEC_WGMMA_OPERANDS_10(D) is "%D0,
// %D1, ..., %D9" (D the leading digits, empty for 0-9); TILEC_WGMMA_D<count>(i) names the
// registers d[i] ... d[i + count - 1] as read-write operands.
#define TILEC_WGMMA_OPERANDS_10(D)                                                                 \
  "%" #D "0, %" #D "1, %" #D "2, %" #D "3, %" #D "4, "                                             \
  "%" #D "5, %" #D "6, %" #D "7, %" #D "8, %" #D "9"
#define TILEC_WGMMA_D4(i) "+f"(d[i]), "+f"(d[i + 1]), "+f"(d[i + 2]), "+f"(d[i + 3])
#define TILEC_WGMMA_D8(i) TILEC_WGMMA_D4(i), TILEC_WGMMA_D4(i + 4)
#define TILEC_WGMMA_D16(i) TILEC_WGMMA_D8(i), TILEC_WGMMA_D8(i + 8)
#define TILEC_WGMMA_D32(i) TILEC_WGMMA_D16(i), TILEC_WGMMA_D16(i + 16)
#define TILEC_WGMMA_D64(i) TILEC_WGMMA_D32(i), TILEC_WGMMA_D32(i + 32)
#define TILEC_WGMMA_D128(i) TILEC_WGMMA_D64(i), TILEC_WGMMA_D64(i + 64)
// One wgmma: SHAPE and TYPE its PTX qualifiers, D_LIST its accumulator operands, D_OPERANDS their
// constraints, then the numbers of its other operands: a-desc, b-desc, scale-d (a predicate from
// `accumulate`), imm-trans-a and imm-trans-b; imm-scale-a and imm-scale-b are 1 (no negation).
#define TILEC_WGMMA_SS(SHAPE, TYPE, D_LIST, D_OPERANDS, A, B, SCALE_D, TRANS_A, TRANS_B)           \
  asm volatile("{\n"                                                                               \
               ".reg .pred accumulate;\n"                                                          \
               "setp.ne.b32 accumulate, " SCALE_D ", 0;\n"                                         \
               "wgmma.mma_async.sync.aligned." SHAPE ".f32." TYPE "." TYPE " {" D_LIST "}, " A    \
               ", " B ", accumulate, 1, 1, " TRANS_A ", " TRANS_B ";\n"                            \
               "}\n"                                                                               \
               : D_OPERANDS                                                                        \
               : "l"(a_desc), "l"(b_desc), "r"(scale_d), "n"(TRANS_A_VALUE), "n"(TRANS_B_VALUE))
// Every N this header provides, for the element type TYPE.
#define TILEC_WGMMA_SS_EVERY_N(TYPE)                                                               \
  if constexpr (N == 8)                                                                            \
    TILEC_WGMMA_SS("m64n8k16", TYPE, "%0, %1, %2, %3", TILEC_WGMMA_D4(0), "%4", "%5", "%6", "%7",  \
                   "%8");                                                                          \
  else if constexpr (N == 16)                                                                      \
    TILEC_WGMMA_SS("m64n16k16", TYPE, "%0, %1, %2, %3, %4, %5, %6, %7", TILEC_WGMMA_D8(0), "%8",   \
                   "%9", "%10", "%11", "%12");                                                     \
  else if constexpr (N == 32)                                                                      \
    TILEC_WGMMA_SS("m64n32k16", TYPE,                                                              \
                   TILEC_WGMMA_OPERANDS_10() ", %10, %11, %12, %13, %14, %15", TILEC_WGMMA_D16(0), \
                   "%16", "%17", "%18", "%19", "%20");                                             \
  else if constexpr (N == 64)                                                                      \
    TILEC_WGMMA_SS("m64n64k16", TYPE,                                                              \
                   TILEC_WGMMA_OPERANDS_10() ", " TILEC_WGMMA_OPERANDS_10(1) ", "                  \
                   TILEC_WGMMA_OPERANDS_10(2) ", %30, %31",                                        \
                   TILEC_WGMMA_D32(0), "%32", "%33", "%34", "%35", "%36");                         \
  else if constexpr (N == 128)                                                                     \
    TILEC_WGMMA_SS("m64n128k16", TYPE,                                                             \
                   TILEC_WGMMA_OPERANDS_10() ", " TILEC_WGMMA_OPERANDS_10(1) ", "                  \
                   TILEC_WGMMA_OPERANDS_10(2) ", " TILEC_WGMMA_OPERANDS_10(3) ", "                 \
                   TILEC_WGMMA_OPERANDS_10(4) ", " TILEC_WGMMA_OPERANDS_10(5) ", "                 \
                   "%60, %61, %62, %63",                                                           \
                   TILEC_WGMMA_D64(0), "%64", "%65", "%66", "%67", "%68");                         \
  else if constexpr (N == 256)                                                                     \
    TILEC_WGMMA_SS("m64n256k16", TYPE,                                                             \
                   TILEC_WGMMA_OPERANDS_10() ", " TILEC_WGMMA_OPERANDS_10(1) ", "                  \
                   TILEC_WGMMA_OPERANDS_10(2) ", " TILEC_WGMMA_OPERANDS_10(3) ", "                 \
                   TILEC_WGMMA_OPERANDS_10(4) ", " TILEC_WGMMA_OPERANDS_10(5) ", "                 \
                   TILEC_WGMMA_OPERANDS_10(6) ", " TILEC_WGMMA_OPERANDS_10(7) ", "                 \
                   TILEC_WGMMA_OPERANDS_10(8) ", " TILEC_WGMMA_OPERANDS_10(9) ", "                 \
                   TILEC_WGMMA_OPERANDS_10(10) ", " TILEC_WGMMA_OPERANDS_10(11) ", %120, %121, "   \
                   "%122, %123, %124, %125, %126, %127",                                           \
                   TILEC_WGMMA_D128(0), "%128", "%129", "%130", "%131", "%132")
// clang-format on
#endif

/// The PTX of wgmma_m64nNk16_f32_f16 and _bf16 (BF16).
template <int N, bool BF16, WgmmaMajor A_MAJOR, WgmmaMajor B_MAJOR>
__device__ __forceinline__ void wgmma_ss(float (&d)[N / 2], uint64_t a_desc, uint64_t b_desc,
                                         bool accumulate) {
  static_assert(N == 8 || N == 16 || N == 32 || N == 64 || N == 128 || N == 256,
                "tilec::rt::wgmma: N is 8, 16, 32, 64, 128 or 256");
#if defined(TILEC_WGMMA_PTX)
  constexpr int TRANS_A_VALUE = A_MAJOR == WgmmaMajor::MN,
                TRANS_B_VALUE = B_MAJOR == WgmmaMajor::MN;
  const int scale_d = accumulate;
  if constexpr (BF16) {
    TILEC_WGMMA_SS_EVERY_N("bf16");
  } else {
    TILEC_WGMMA_SS_EVERY_N("f16");
  }
#else
  (void)d, (void)a_desc, (void)b_desc, (void)accumulate;
#if defined(__CUDA_ARCH__)
  static_assert(kNeedsSm90a<decltype(d)>,
                "tilec::rt::wgmma needs sm_90a: build with -gencode=arch=compute_90a,code=sm_90a");
#endif
#endif
}
} // namespace detail

#if defined(TILEC_WGMMA_PTX)
#undef TILEC_WGMMA_OPERANDS_10
#undef TILEC_WGMMA_D4
#undef TILEC_WGMMA_D8
#undef TILEC_WGMMA_D16
#undef TILEC_WGMMA_D32
#undef TILEC_WGMMA_D64
#undef TILEC_WGMMA_D128
#undef TILEC_WGMMA_SS
#undef TILEC_WGMMA_SS_EVERY_N
#endif

/// D = A B (+ D with `accumulate`, the instruction's scale-d) on a warpgroup's 64 x N tile, k = 16,
/// fp16 operands in shared memory named by descriptors (make_smem_desc), fp32 accumulators
/// (`wgmma.mma_async.sync.aligned.m64nNk16.f32.f16.f16`), N 8, 16, 32, 64, 128 or 256: the
/// registers hold the elements WgmmaM64NK16<N> names. A is 64 x 16, A_MAJOR in shared memory; B is
/// 16 x N, B_MAJOR. All 128 threads of the warpgroup call it with the same arguments, after a
/// wgmma_fence. It only starts the product: the results land in `d` at the wgmma_wait that retires
/// its group (wgmma_commit_group), and `d` must not be read or written before that, except by
/// further wgmmas of the same shape on the same `d` (the hardware orders those). Its shared-memory
/// operands must not change before then either.
template <int N, WgmmaMajor A_MAJOR = WgmmaMajor::K, WgmmaMajor B_MAJOR = WgmmaMajor::K>
__device__ __forceinline__ void wgmma_m64nNk16_f32_f16(float (&d)[N / 2], uint64_t a_desc,
                                                       uint64_t b_desc, bool accumulate) {
#if defined(TILEC_EMULATE)
  static_assert(N == 8 || N == 16 || N == 32 || N == 64 || N == 128 || N == 256,
                "tilec::rt::wgmma: N is 8, 16, 32, 64, 128 or 256");
  detail::wgmma_model<__half>(d, N, a_desc, b_desc, accumulate, A_MAJOR, B_MAJOR,
                              "wgmma_m64nNk16_f32_f16");
#else
  detail::wgmma_ss<N, false, A_MAJOR, B_MAJOR>(d, a_desc, b_desc, accumulate);
#endif
}
/// The same with bf16 operands (`wgmma.mma_async.sync.aligned.m64nNk16.f32.bf16.bf16`).
template <int N, WgmmaMajor A_MAJOR = WgmmaMajor::K, WgmmaMajor B_MAJOR = WgmmaMajor::K>
__device__ __forceinline__ void wgmma_m64nNk16_f32_bf16(float (&d)[N / 2], uint64_t a_desc,
                                                        uint64_t b_desc, bool accumulate) {
#if defined(TILEC_EMULATE)
  static_assert(N == 8 || N == 16 || N == 32 || N == 64 || N == 128 || N == 256,
                "tilec::rt::wgmma: N is 8, 16, 32, 64, 128 or 256");
  detail::wgmma_model<__nv_bfloat16>(d, N, a_desc, b_desc, accumulate, A_MAJOR, B_MAJOR,
                                     "wgmma_m64nNk16_f32_bf16");
#else
  detail::wgmma_ss<N, true, A_MAJOR, B_MAJOR>(d, a_desc, b_desc, accumulate);
#endif
}

/// Orders the warpgroup's earlier register and shared-memory accesses before its next wgmmas
/// (`wgmma.fence.sync.aligned`): needed before the first wgmma, and between any other access to a
/// wgmma's accumulator registers and that wgmma. (A template only so that a pass for another GPU
/// reports a call.)
template <class Sm90a = void> __device__ __forceinline__ void wgmma_fence() {
#if defined(TILEC_EMULATE)
  ::tilec::emu::wgmma_fence();
#elif defined(TILEC_WGMMA_PTX)
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#elif defined(__CUDA_ARCH__)
  static_assert(detail::kNeedsSm90a<Sm90a>, "tilec::rt::wgmma_fence needs sm_90a");
#endif
}
/// Closes the group of the wgmmas this thread issued since its last commit
/// (`wgmma.commit_group.sync.aligned`; with none, an empty group).
template <class Sm90a = void> __device__ __forceinline__ void wgmma_commit_group() {
#if defined(TILEC_EMULATE)
  ::tilec::emu::wgmma_commit();
#elif defined(TILEC_WGMMA_PTX)
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
#elif defined(__CUDA_ARCH__)
  static_assert(detail::kNeedsSm90a<Sm90a>, "tilec::rt::wgmma_commit_group needs sm_90a");
#endif
}
/// Waits until at most PENDING of this thread's committed wgmma groups are in flight
/// (`wgmma.wait_group.sync.aligned`): the others' results are in their accumulator registers.
template <int PENDING> __device__ __forceinline__ void wgmma_wait() {
  static_assert(PENDING >= 0 && PENDING <= 7, "wgmma_wait: 0 to 7 groups may stay in flight");
#if defined(TILEC_EMULATE)
  ::tilec::emu::wgmma_wait(PENDING);
#elif defined(TILEC_WGMMA_PTX)
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(PENDING) : "memory");
#elif defined(__CUDA_ARCH__)
  static_assert(detail::kNeedsSm90a<decltype(PENDING)>, "tilec::rt::wgmma_wait needs sm_90a");
#endif
}
/// Keeps the compiler from moving accesses to the accumulator registers `d` across this point: an
/// empty asm that reads and writes each of them. The wgmma, fence and wait asm statements order
/// memory, not registers, so a kernel calls this after wgmma_wait (and before wgmma_fence) on the
/// accumulators it reads or writes there. Nothing on the emulator.
template <int R> __device__ __forceinline__ void wgmma_fence_accumulators(float (&d)[R]) {
#if !defined(TILEC_EMULATE)
  TILEC_UNROLL
  for (int i = 0; i < R; ++i)
    asm volatile("" : "+f"(d[i])::"memory");
#else
  (void)d;
#endif
}

/// Hands the accumulator registers `d` to ordinary code once a `wgmma_wait<0>` after a loop has
/// landed the loop's last product (the loop leaves one product in flight each iteration). Like
/// wgmma_fence_accumulators it keeps the compiler from moving accesses across this point; in
/// addition each register's first reader is an fp32 add of -0.0, which changes no value
/// (x + -0.0 == x for every x, signed zeros, subnormals and quiet NaNs included). ptxas (CUDA 13.0)
/// needs that: when the first reader is a conversion (an epilogue's cast to fp16) and the code
/// that follows the loop computes anything before the wait, it serializes every wgmma of the
/// kernel (info C7514: "wgmma.mma_async instructions are serialized due to non wgmma
/// instructions reading accumulator registers"). Nothing on the emulator.
template <int R> __device__ __forceinline__ void wgmma_take_accumulators(float (&d)[R]) {
#if !defined(TILEC_EMULATE)
  TILEC_UNROLL
  for (int i = 0; i < R; ++i)
    asm volatile("add.f32 %0, %0, 0f80000000;" : "+f"(d[i])::"memory");
#else
  (void)d;
#endif
}

/// Makes this thread's earlier ordinary writes to shared memory (stores, and cp.async copies
/// completed by cp_async_wait) visible to the async proxy that wgmma and TMA read through
/// (`fence.proxy.async.shared::cta`, sm_90): each writing thread runs it before the barrier that
/// precedes the wgmma. Not checked by the emulator.
template <class Sm90 = void> __device__ __forceinline__ void fence_proxy_async_shared() {
#if defined(TILEC_EMULATE)
#elif defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
#elif defined(__CUDA_ARCH__)
  static_assert(detail::kNeedsSm90a<Sm90>, "tilec::rt::fence_proxy_async_shared needs sm_90");
#endif
}

} // namespace tilec::rt

#if defined(TILEC_WGMMA_PTX)
#undef TILEC_WGMMA_PTX
#endif
