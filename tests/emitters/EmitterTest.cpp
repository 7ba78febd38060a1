// Emitter tests: structure of the output (names, precedence, provenance, launchers, determinism)
// and, when the compilers are available, every emitted file compiled by nvcc (sm_90a, sm_80) and
// hipcc (gfx90a) with warnings as errors.
#include "emitters/Emitter.h"
#include "EmitterTestKernels.h"
#include "emitters/NameTable.h"
#include "emitters/Precedence.h"
#include "emitters/SourceText.h"
#include "ir/Verifier.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <functional>
#include <memory>

using namespace tilec;
using namespace tilec::emittertests;
using emitters::EmitOptions;

namespace {

EmitOptions options(ir::TargetKind t) {
  EmitOptions o;
  o.target.kind = t;
  o.target.arch = t == ir::TargetKind::Cuda ? "sm_90a" : "gfx90a";
  o.toolVersion = "0.1.0";
  return o;
}
int warp(ir::TargetKind t) { return t == ir::TargetKind::Cuda ? 32 : 64; }

struct Case {
  const char *name;
  std::function<ir::Module(int)> make;
};
const Case kCases[] = {{"vector_add", vectorAdd},
                       {"sum_reduce", sumReduce},
                       {"transpose", transpose},
                       {"half_elementwise", halfElementwise},
                       {"loop_carried", loopCarried},
                       {"argmax_rows", argmaxRows},
                       {"row_pointers", rowPointers},
                       {"bool_not", boolNotIntToBf16},
                       {"config_param", configParam},
                       {"no_params", noParams},
                       {"transpose_big_shared", transposeBigShared},
                       {"batched_column_sums", batchedColumnSums}};

bool contains(const std::string &s, const std::string &sub) { return s.find(sub) != std::string::npos; }

std::string emit(const char *name, ir::TargetKind t, bool provenance = true) {
  for (const Case &c : kCases)
    if (std::string(c.name) == name) {
      EmitOptions o = options(t);
      o.provenance = provenance;
      return emitters::emitModule(c.make(warp(t)), o);
    }
  return {};
}

TEST(EmitterSupport, NameTableSuffixesCollisions) {
  emitters::NameTable n;
  EXPECT_EQ(n.unique("x"), "x");
  EXPECT_EQ(n.unique("x"), "x_1");
  EXPECT_EQ(n.unique("x"), "x_2");
  EXPECT_EQ(n.unique("threadIdx"), "threadIdx_1");
  EXPECT_EQ(n.unique("int"), "int_1");
  EXPECT_EQ(n.unique("__x"), "v_x");
  EXPECT_EQ(n.unique("2d"), "v2d");
}

TEST(EmitterSupport, CommentTextStaysOnItsLine) {
  using emitters::commentText;
  EXPECT_EQ(commentText("  auto v = x;  // note "), "auto v = x;  // note");
  // A lone CR, a form feed, a vertical tab, NUL and DEL become spaces.
  EXPECT_EQ(commentText(std::string("a\rb\fc\vd") + '\0' + "e\x7f"), "a b c d e");
  EXPECT_EQ(commentText("x; // tab\there"), "x; // tab\there");
  // Nothing at the end continues the comment: backslashes, spaced or not, and the backslash trigraph.
  EXPECT_EQ(commentText("x; // \\"), "x; //");
  EXPECT_EQ(commentText("x; // \\ \f"), "x; //");
  EXPECT_EQ(commentText("x; // ?\?/"), "x; //");
  EXPECT_EQ(commentText("x; // ?\?/\\ ?\?/"), "x; //");
  EXPECT_EQ(commentText("x; // a ? b : c"), "x; // a ? b : c");
  EXPECT_EQ(commentText(" \t\r"), "");
}

TEST(EmitterSupport, StatementTextJoinsTheLinesOfOneStatement) {
  using emitters::statementText;
  const std::vector<std::string> lines = {"  auto x = tl::load(p + offs,  // the row",
                                          "                    mask, 0.0f);",
                                          "  tl::store(",
                                          "      q, x);",
                                          "  auto y =",
                                          "      x * 2;  // doubled",
                                          "  for (int i = 0; i < n; ++i) {",
                                          "    y += f(\"(\", ')');",
                                          "  }",
                                          "  tl::store(q, y);  // one line",
                                          "  auto z = a +",
                                          "",
                                          "  w;",
                                          "  auto u = /* twice */ x * 2 +",
                                          "      f(a,",
                                          "        // the second",
                                          "        b);",
                                          "      c), d);"};
  EXPECT_EQ(statementText(lines, 0), "auto x = tl::load(p + offs, mask, 0.0f);");
  EXPECT_EQ(statementText(lines, 2), "tl::store(q, x);");
  EXPECT_EQ(statementText(lines, 4), "auto y = x * 2;");
  EXPECT_EQ(statementText(lines, 6), "  for (int i = 0; i < n; ++i) {"); // a loop's head alone
  EXPECT_EQ(statementText(lines, 7), "    y += f(\"(\", ')');");         // brackets in literals
  EXPECT_EQ(statementText(lines, 9), "  tl::store(q, y);  // one line"); // as it is
  EXPECT_EQ(statementText(lines, 10), "auto z = a +");                   // a blank line ends it
  EXPECT_EQ(statementText(lines, 12), "  w;");
  EXPECT_EQ(statementText(lines, 13), "auto u = x * 2 + f(a, b);"); // comments left out
  EXPECT_EQ(statementText(lines, 17), "      c), d);"); // inside a statement: the line alone
}

TEST(EmitterSupport, StringLiteralTextEscapes) {
  using emitters::stringLiteralText;
  EXPECT_EQ(stringLiteralText("dir/k.cpp"), "dir/k.cpp");
  EXPECT_EQ(stringLiteralText("a\"b\\c"), "a\\\"b\\\\c");
  EXPECT_EQ(stringLiteralText("a\nb\rc"), "a\\012b\\015c");
  EXPECT_EQ(stringLiteralText("what?\?/"), "what?\\?/");
}

TEST(EmitterSupport, PrecedenceParenthesizesOnlyWhenNeeded) {
  using emitters::Code;
  using emitters::operand;
  using emitters::Prec;
  Code sum{"a + b", Prec::Additive}, prod{"a * b", Prec::Multiplicative}, name{"x"};
  EXPECT_EQ(operand(sum, Prec::Multiplicative), "(a + b)");
  EXPECT_EQ(operand(prod, Prec::Additive), "a * b");
  EXPECT_EQ(operand(sum, Prec::Additive), "a + b");
  EXPECT_EQ(operand(sum, Prec::Additive, /*right=*/true), "(a + b)");
  EXPECT_EQ(operand(name, Prec::Unary), "x");
  // GCC's -Wparentheses cases keep their parentheses.
  EXPECT_EQ(operand(sum, Prec::BitAnd), "(a + b)");
  EXPECT_EQ(operand(Code{"a < b", Prec::Relational}, Prec::Equality), "(a < b)");
  EXPECT_EQ(operand(Code{"a && b", Prec::LogicalAnd}, Prec::LogicalOr), "(a && b)");
}

TEST(Emitter, PrecedenceInOutput) {
  std::string s = emit("transpose", ir::TargetKind::Cuda);
  // (rm < M) & (rn < N) of bools prints as && (clang's -Wbitwise-instead-of-logical), where the
  // comparisons need no parentheses; pid_m * BM + coord does not get any.
  EXPECT_TRUE(contains(s, "mask[i][j] = rm[i] < M && rn[j] < N;")) << s;
  EXPECT_TRUE(contains(s, "rm[i] = pid_m * BM + L")) << s;
  EXPECT_FALSE(contains(s, "(pid_m * BM)")) << s;
  EXPECT_TRUE(contains(s, "in + (rm[i] * in_stride + rn[j])")) << s;
}

TEST(Emitter, Deterministic) {
  for (const Case &c : kCases)
    for (auto t : {ir::TargetKind::Cuda, ir::TargetKind::Hip}) {
      std::string a = emitters::emitModule(c.make(warp(t)), options(t));
      std::string b = emitters::emitModule(c.make(warp(t)), options(t));
      EXPECT_EQ(a, b) << c.name;
      EXPECT_FALSE(a.empty());
    }
}

TEST(Emitter, HeaderAndTunables) {
  std::string s = emit("vector_add", ir::TargetKind::Cuda);
  EXPECT_EQ(s.substr(0, s.find("#include")),
            "// Generated by tilec 0.1.0 from vector_add.cpp for cuda sm_90a.\n"
            "// Do not edit by hand: edit the kernel source and run tilec again.\n");
  EXPECT_TRUE(contains(s, "#include <tilec/cuda/runtime.cuh>\n"));
  EXPECT_TRUE(contains(s, "namespace add_kernel_1024 {\nconstexpr int BLOCK = 1024;  // meta-parameter\n"));
  EXPECT_TRUE(contains(s, "constexpr int NUM_WARPS = 4;"));
  EXPECT_TRUE(contains(s, "constexpr int NUM_THREADS = NUM_WARPS * TILEC_WARP_SIZE;"));
  EXPECT_TRUE(contains(s, "using L0 = tilec::rt::Blocked1<A_VEC, TILEC_WARP_SIZE, NUM_WARPS, BLOCK>;")) << s;
  // Wrapped at 100 columns, clang-format style.
  EXPECT_TRUE(contains(s, "__global__ void __launch_bounds__(NUM_THREADS) add_kernel(\n"
                          "    const float *x, const float *y, float *out, int n) {\n")) << s;
  EXPECT_TRUE(contains(s, "const int pid = static_cast<int>(blockIdx.x);"));
  EXPECT_TRUE(contains(s, "offs[i] = pid * BLOCK + L0::coord0(i);")) << s;
  // Variable mask, constant `other`: one call into the tile's own storage.
  EXPECT_TRUE(contains(s, "    tilec::rt::load_vec<A_VEC, false>(&a[i], x + offs[i], &mask[i], 0.0f);\n  }\n")) << s;
  // The value is computed per element: a temporary for it only.
  EXPECT_TRUE(contains(s, "    float vals[OUT_STORE_VEC];\n"
                          "    TILEC_UNROLL\n"
                          "    for (int v = 0; v < OUT_STORE_VEC; ++v)\n"
                          "      vals[v] = a[i + v] + b[i + v];\n"
                          "    tilec::rt::store_vec<OUT_STORE_VEC, false>(out + offs[i], vals, &mask[i]);\n")) << s;
  EXPECT_FALSE(contains(s, "bool bits[")) << s;
  std::string h = emit("vector_add", ir::TargetKind::Hip);
  EXPECT_TRUE(contains(h, "#include <tilec/hip/runtime.hpp>\n"));
  EXPECT_TRUE(contains(h, "for hip gfx90a."));
}

TEST(Emitter, ProvenanceOnAndOff) {
  std::string on = emit("vector_add", ir::TargetKind::Cuda, true);
  EXPECT_TRUE(contains(on, "  // vector_add.cpp:6: auto offs = pid * BLOCK + tl::arange<0, BLOCK>();\n")) << on;
  EXPECT_TRUE(contains(on, "// vector_add.cpp:10: tl::store(out + offs, a + b, mask);"));
  std::string off = emit("vector_add", ir::TargetKind::Cuda, false);
  EXPECT_FALSE(contains(off, "vector_add.cpp:"));
  EXPECT_FALSE(contains(off, "#line"));
  EmitOptions o = options(ir::TargetKind::Cuda);
  o.lineDirectives = true;
  std::string lines = emitters::emitModule(vectorAdd(32), o);
  EXPECT_TRUE(contains(lines, "\n#line 6 \"vector_add.cpp\"\n")) << lines;
  // One comment per source line, even for several statements on it.
  std::string r = emit("sum_reduce", ir::TargetKind::Cuda);
  size_t first = r.find("row_sum.cpp:7:");
  EXPECT_NE(first, std::string::npos);
  EXPECT_EQ(r.find("row_sum.cpp:7:", first + 1), std::string::npos);
}

TEST(Emitter, UserNamesNeverCaptured) {
  std::string s = emit("loop_carried", ir::TargetKind::Cuda);
  // The user's loop index `i` and local `j` keep their names; the element loops move aside.
  EXPECT_TRUE(contains(s, "for (int i = 0; i < K; ++i) {")) << s;
  EXPECT_TRUE(contains(s, "int j = 0;")) << s;
  EXPECT_TRUE(contains(s, "for (int i_1 = 0; i_1 < L0::ELEMS; ++i_1)")) << s;
  EXPECT_TRUE(contains(s, "int threadIdx_1")) << s;
  EXPECT_TRUE(contains(s, "x[i * threadIdx_1 + offs[i_1]]")) << s;
  EXPECT_TRUE(contains(s, "j = j + i;"));
  EXPECT_TRUE(contains(s, "if (L0::is_owner())")) << "replicated layout: owners store";
}

TEST(Emitter, ReductionSteps) {
  std::string s = emit("sum_reduce", ir::TargetKind::Cuda);
  EXPECT_TRUE(contains(s, "float total_partial = x[0];")) << s;
  EXPECT_TRUE(contains(s, "total_partial = tilec::rt::Sum::combine(total_partial, x[i]);"));
  EXPECT_TRUE(contains(s, "total_partial = tilec::rt::warp_allreduce<tilec::rt::Sum>(total_partial, 16, 8, 4, 2, 1);"));
  EXPECT_TRUE(contains(s, "float *total_smem = reinterpret_cast<float *>(smem + 0);"));
  EXPECT_TRUE(contains(s, "alignas(16) __shared__ unsigned char smem[SMEM_BYTES];"));
  EXPECT_TRUE(contains(s, "total_smem[L0::warp_coord0()] = total_partial;"));
  EXPECT_TRUE(contains(s, "__syncthreads();"));
  EXPECT_TRUE(contains(s, "const float total = tilec::rt::combine_partials<tilec::rt::Sum, 4>(total_smem, 1);"));
  EXPECT_TRUE(contains(s, "if (threadIdx.x == 0)"));
  std::string h = emit("sum_reduce", ir::TargetKind::Hip);
  EXPECT_TRUE(contains(h, "(total_partial, 32, 16, 8, 4, 2, 1);"));
}

// Rank 3 (docs/plan-language-parity.md, "Rank-3 tiles", step 4): the hand-built kernel passes the
// post-pipeline verifier, and its elements are walked in three loops over Blocked3 and Slice2
// layouts; the compile tests below build it with nvcc and hipcc.
TEST(Emitter, Rank3Tiles) {
  for (int w : {32, 64}) {
    std::string why;
    EXPECT_TRUE(ir::verifyLowered(batchedColumnSums(w), &why)) << why;
  }
  std::string s = emit("batched_column_sums", ir::TargetKind::Cuda);
  EXPECT_TRUE(
      contains(s, "using L0 = tilec::rt::Blocked3<1, 1, X_VEC, 1, 2, 16, 1, 2, 2, 2, 1, B, M, N>;"))
      << s;
  EXPECT_TRUE(contains(s, "using L4 = tilec::rt::Slice2<tilec::rt::Blocked3<1, 1, X_VEC, 1, 2, 16, "
                          "1, 2, 2, 2, 1, B, 1, N>, 1>;"));
  EXPECT_TRUE(contains(s, "float x[L0::ELEMS0][L0::ELEMS1][L0::ELEMS2];"));
  EXPECT_TRUE(contains(s, "for (int k = 0; k < L0::ELEMS2; k += X_VEC) {"));
  // The sum over dim 1: each kept (i, k) folds j, then the warps' partials of the [B, N] result.
  EXPECT_TRUE(contains(s, "s[i][k] = tilec::rt::Sum::combine(s[i][k], x[i][j][k]);"));
  EXPECT_TRUE(contains(
      s, "s_smem[L0::warp_coord1() * 256 + L4::coord0(i) * 128 + L4::coord1(j)] = s[i][j];"));
  EXPECT_TRUE(contains(s, "s_smem + L4::coord0(i) * 128 + L4::coord1(j), 256);"));
  // expand_dims<1>(s) reads s at (i, k); the permuted store reads y at (i, k, j).
  EXPECT_TRUE(contains(s, "y[i][j][k] = x[i][j][k] * s_all[i][k];"));
  EXPECT_TRUE(contains(s, "= y[i][k][j];"));
}

TEST(Emitter, Launchers) {
  // Host C++ launches, no `<<<...>>>`: the emitted file also compiles as plain C++.
  std::string s = emit("vector_add", ir::TargetKind::Cuda);
  EXPECT_TRUE(contains(s, "cudaError_t launch_add_kernel_1024(dim3 grid, cudaStream_t stream, const float *x, const float *y,\n"
                          "                                   float *out, int n) {\n"
                          "  if (grid.x == 0 || grid.y == 0 || grid.z == 0)\n"
                          "    return cudaSuccess;  // nothing to run\n"
                          "  cudaLaunchConfig_t config = {};\n"
                          "  config.gridDim = grid;\n"
                          "  config.blockDim = dim3(add_kernel_1024::NUM_THREADS);\n"
                          "  config.stream = stream;\n"
                          "  return cudaLaunchKernelEx(&config, add_kernel_1024::add_kernel, x, y, out, n);\n}\n")) << s;
  EXPECT_FALSE(contains(s, "<<<")) << s;
  EXPECT_FALSE(contains(s, "cudaGetLastError")) << "cudaLaunchKernelEx returns the launch's error";
  EXPECT_TRUE(contains(s, "cudaError_t launch_add_kernel_1024(cudaStream_t stream, const float *x, const float *y, float *out,\n"
                          "                                   int n) {\n"
                          "  const dim3 grid(tilec::rt::cdiv(n, 1024));\n"
                          "  return launch_add_kernel_1024(grid, stream, x, y, out, n);\n}\n")) << s;
  std::string d = emitters::emitLauncherDeclarations(vectorAdd(32), options(ir::TargetKind::Cuda));
  EXPECT_TRUE(contains(d, "#pragma once\n#include <cuda_bf16.h>\n#include <cuda_fp16.h>\n#include <cuda_runtime.h>\n"));
  EXPECT_TRUE(contains(d, "cudaError_t launch_add_kernel_1024(dim3 grid, cudaStream_t stream, const float *x, const float *y,\n"
                          "                                   float *out, int n);\n")) << d;
  EXPECT_TRUE(contains(d, "cudaError_t launch_add_kernel_1024(cudaStream_t stream, const float *x, const float *y, float *out,\n"
                          "                                   int n);\n")) << d;
  std::string h = emit("vector_add", ir::TargetKind::Hip);
  EXPECT_TRUE(contains(h, "hipError_t launch_add_kernel_1024(dim3 grid, hipStream_t stream, const float *x, const float *y,\n"
                          "                                  float *out, int n) {\n"
                          "  if (grid.x == 0 || grid.y == 0 || grid.z == 0)\n"
                          "    return hipSuccess;  // nothing to run\n"
                          "  hipLaunchKernelGGL(add_kernel_1024::add_kernel, grid, dim3(add_kernel_1024::NUM_THREADS), 0,\n"
                          "                     stream, x, y, out, n);\n"
                          "  return hipGetLastError();\n}\n")) << h;
  EXPECT_FALSE(contains(h, "<<<")) << h;
  std::string hd = emitters::emitLauncherDeclarations(vectorAdd(64), options(ir::TargetKind::Hip));
  EXPECT_TRUE(contains(hd, "hipError_t launch_add_kernel_1024(dim3 grid, hipStream_t stream,"));
  std::string t = emit("transpose", ir::TargetKind::Cuda);
  EXPECT_TRUE(contains(t, "const dim3 grid(tilec::rt::cdiv(M, 64), tilec::rt::cdiv(N, 32));")) << t;
  std::string nogrid = emit("sum_reduce", ir::TargetKind::Cuda);
  EXPECT_FALSE(contains(nogrid, "launch_sum_kernel_1024(cudaStream_t")) << "no grid annotation: one launcher";
}

TEST(Emitter, DynamicSharedMemoryAbove48KB) {
  // Bug: a kernel above 48 KB of shared memory declared it as a static __shared__ array, which
  // nvcc rejects (0xc000 bytes at most). Such a kernel takes the launch's dynamic shared memory,
  // and its launcher sets the attribute that allows the size (compiled below).
  std::string s = emit("transpose_big_shared", ir::TargetKind::Cuda);
  EXPECT_TRUE(contains(s, "constexpr int SMEM_BYTES = 66048;  // shared memory per block\n")) << s;
  EXPECT_TRUE(contains(s, "    const float *in, float *out, int M, int N, int in_stride, int out_stride) {\n"
                          "  // Above 48 KB a block's shared memory can only be dynamic (extern __shared__): the launch gives\n"
                          "  // SMEM_BYTES bytes of it, which the launcher allows with\n"
                          "  // cudaFuncAttributeMaxDynamicSharedMemorySize.\n"
                          "  unsigned char *const smem = tilec::rt::dynamic_shared_memory();\n"
                          "  float *tile_smem = reinterpret_cast<float *>(smem + 0);\n")) << s;
  EXPECT_FALSE(contains(s, "__shared__ unsigned char smem[")) << s;
  // The general kernel and its aligned variant each with its own attribute and size.
  EXPECT_TRUE(contains(s, "  config.stream = stream;\n"
                          "  if (aligned) {\n"
                          "    // Above 48 KB the kernel's shared memory is dynamic: it runs only once its attribute allows\n"
                          "    // SMEM_BYTES bytes (set once per process).\n"
                          "    static const cudaError_t aligned_smem_opt_in = cudaFuncSetAttribute(\n"
                          "        transpose_kernel_128_128::aligned::transpose_kernel,\n"
                          "        cudaFuncAttributeMaxDynamicSharedMemorySize, transpose_kernel_128_128::aligned::SMEM_BYTES);\n"
                          "    if (aligned_smem_opt_in != cudaSuccess)\n"
                          "      return aligned_smem_opt_in;\n"
                          "    config.dynamicSmemBytes = transpose_kernel_128_128::aligned::SMEM_BYTES;\n"
                          "    return cudaLaunchKernelEx(&config, transpose_kernel_128_128::aligned::transpose_kernel, in, out,\n"
                          "                              M, N, in_stride, out_stride);\n"
                          "  }\n"
                          "  static const cudaError_t smem_opt_in = cudaFuncSetAttribute(\n"
                          "      transpose_kernel_128_128::transpose_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,\n"
                          "      transpose_kernel_128_128::SMEM_BYTES);\n"
                          "  if (smem_opt_in != cudaSuccess)\n"
                          "    return smem_opt_in;\n"
                          "  config.dynamicSmemBytes = transpose_kernel_128_128::SMEM_BYTES;\n"
                          "  return cudaLaunchKernelEx(&config, transpose_kernel_128_128::transpose_kernel, in, out, M, N,\n"
                          "                            in_stride, out_stride);\n}\n")) << s;
  std::string h = emit("transpose_big_shared", ir::TargetKind::Hip);
  EXPECT_TRUE(contains(h, "  unsigned char *const smem = tilec::rt::dynamic_shared_memory();\n")) << h;
  EXPECT_TRUE(contains(h, "  } else {\n"
                          "    static const hipError_t smem_opt_in = hipFuncSetAttribute(\n"
                          "        reinterpret_cast<const void *>(transpose_kernel_128_128::transpose_kernel),\n"
                          "        hipFuncAttributeMaxDynamicSharedMemorySize, transpose_kernel_128_128::SMEM_BYTES);\n"
                          "    if (smem_opt_in != hipSuccess)\n"
                          "      return smem_opt_in;\n"
                          "    hipLaunchKernelGGL(transpose_kernel_128_128::transpose_kernel, grid,\n"
                          "                       dim3(transpose_kernel_128_128::NUM_THREADS),\n"
                          "                       transpose_kernel_128_128::SMEM_BYTES, stream, in, out, M, N, in_stride,\n"
                          "                       out_stride);\n"
                          "  }\n"
                          "  return hipGetLastError();\n")) << h;
  EXPECT_TRUE(contains(h, "reinterpret_cast<const void *>(transpose_kernel_128_128::aligned::transpose_kernel),")) << h;

  // At 48 KB a static array, as before, and no attribute; a variant above it alone is dynamic.
  ir::Module m = transposeBigShared(32);
  m.kernels[0].sharedBytes = 48 * 1024;
  std::string at48 = emitters::emitModule(m, options(ir::TargetKind::Cuda));
  EXPECT_TRUE(contains(at48, "  alignas(16) __shared__ unsigned char smem[SMEM_BYTES];\n"
                             "  float *tile_smem = reinterpret_cast<float *>(smem + 0);\n")) << at48;
  EXPECT_TRUE(contains(at48, "  unsigned char *const smem = tilec::rt::dynamic_shared_memory();\n")) << "the variant";
  EXPECT_TRUE(contains(at48, "    return cudaLaunchKernelEx(&config, transpose_kernel_128_128::aligned::transpose_kernel, in, out,\n"
                             "                              M, N, in_stride, out_stride);\n"
                             "  }\n"
                             "  return cudaLaunchKernelEx(&config, transpose_kernel_128_128::transpose_kernel, in, out, M, N,\n"))
      << at48;
  EXPECT_FALSE(contains(at48, "cudaFuncSetAttribute(\n      transpose_kernel_128_128::transpose_kernel,")) << at48;
  EXPECT_FALSE(contains(at48, "config.dynamicSmemBytes = transpose_kernel_128_128::SMEM_BYTES;")) << at48;
  auto variant = std::make_shared<ir::Kernel>(*m.kernels[0].alignedVariant);
  variant->sharedBytes = 48 * 1024;
  m.kernels[0].alignedVariant = variant;
  for (auto t : {ir::TargetKind::Cuda, ir::TargetKind::Hip}) {
    std::string both48 = emitters::emitModule(m, options(t));
    EXPECT_FALSE(contains(both48, "dynamic_shared_memory")) << both48;
    EXPECT_FALSE(contains(both48, "FuncSetAttribute")) << both48;
    EXPECT_FALSE(contains(both48, "dynamicSmemBytes")) << both48;
  }
}

TEST(Emitter, LauncherLocalsNeverCaptureParameters) {
  // A kernel parameter named `config` keeps its name; the CUDA launcher's launch configuration
  // moves aside, so the launch passes the user's `config` to the kernel (compiled below).
  std::string s = emit("config_param", ir::TargetKind::Cuda);
  EXPECT_TRUE(contains(s, "                                   float *out, int config) {\n"
                          "  if (grid.x == 0 || grid.y == 0 || grid.z == 0)\n"
                          "    return cudaSuccess;  // nothing to run\n"
                          "  cudaLaunchConfig_t config_1 = {};\n"
                          "  config_1.gridDim = grid;\n"
                          "  config_1.blockDim = dim3(add_kernel_1024::NUM_THREADS);\n"
                          "  config_1.stream = stream;\n"
                          "  return cudaLaunchKernelEx(&config_1, add_kernel_1024::add_kernel, x, y, out, config);\n}\n"))
      << s;
  EXPECT_TRUE(contains(s, "  const dim3 grid(tilec::rt::cdiv(config, 1024));\n"
                          "  return launch_add_kernel_1024(grid, stream, x, y, out, config);\n")) << s;
  std::string h = emit("config_param", ir::TargetKind::Hip);
  EXPECT_TRUE(contains(h, " x, y, out, config);\n  return hipGetLastError();\n")) << h;
}

TEST(Emitter, LauncherWithoutKernelParameters) {
  // No kernel parameters: the launch passes none (compiled below).
  std::string s = emit("no_params", ir::TargetKind::Cuda);
  EXPECT_TRUE(contains(s, "cudaError_t launch_nop(dim3 grid, cudaStream_t stream) {\n")) << s;
  EXPECT_TRUE(contains(s, "  return cudaLaunchKernelEx(&config, nop::nop);\n}\n")) << s;
  std::string h = emit("no_params", ir::TargetKind::Hip);
  EXPECT_TRUE(contains(h, "  hipLaunchKernelGGL(nop::nop, grid, dim3(nop::NUM_THREADS), 0, stream);\n")) << h;
}

TEST(Emitter, PointerTileVariables) {
  // Bug: `auto ptrs = x + offs; tl::load(ptrs, mask)` was an internal error. A pointer tile is a
  // per-thread array of pointers; a vector access goes through its first element's pointer.
  std::string s = emit("row_pointers", ir::TargetKind::Cuda);
  EXPECT_TRUE(contains(s, "  const float *ptrs[L0::ELEMS];\n")) << s;
  EXPECT_TRUE(contains(s, "    ptrs[i] = x_row + offs[i];\n")) << s;
  EXPECT_TRUE(contains(s, "    tilec::rt::load_vec<A_VEC, false>(&a[i], ptrs[i], &mask[i], 0.0f);\n")) << s;
}

TEST(Emitter, ConstPointerLocals) {
  // Bug: `const const float *x_row`; and a never-reassigned `float *out_row` printed as
  // `const float *out_row`, so store_vec found no overload. The variable is const, not its pointee.
  std::string s = emit("row_pointers", ir::TargetKind::Cuda);
  EXPECT_TRUE(contains(s, "  const float *const x_row = x + pid * n;\n")) << s;
  EXPECT_TRUE(contains(s, "  float *const out_row = out + pid * n;\n")) << s;
  EXPECT_FALSE(contains(s, "const const")) << s;
  // Variable value and mask: one store call, no temporaries.
  EXPECT_TRUE(contains(s, "    tilec::rt::store_vec<OUT_ROW_STORE_VEC, false>(out_row + offs[i], &a[i], &mask[i]);\n")) << s;
  EXPECT_FALSE(contains(s, "vals[")) << s;
}

TEST(Emitter, UnusedMetaParametersAndGridOnlyParameters) {
  // Bug: meta-parameters the code never names made nvcc (#177-D) and hipcc
  // (-Wunused-const-variable) warn; parameters only the grid reads are unnamed in the kernel.
  for (auto t : {ir::TargetKind::Cuda, ir::TargetKind::Hip}) {
    std::string s = emit("row_pointers", t);
    EXPECT_TRUE(contains(s, "\nconstexpr int BLOCK = 256;  // meta-parameter\n")) << s;
    EXPECT_TRUE(contains(s, "\n[[maybe_unused]] constexpr int UNUSED = 7;  // meta-parameter\n")) << s;
    EXPECT_TRUE(contains(s, "row_copy(\n    const float *x, float *out, int n, int /*n_rows*/) {\n")) << s;
    // The launchers keep every name (they pass them on and compute the grid).
    EXPECT_TRUE(contains(s, "const dim3 grid(n_rows);")) << s;
  }
  std::string c = emit("row_pointers", ir::TargetKind::Cuda);
  EXPECT_TRUE(contains(c, "return cudaLaunchKernelEx(&config, row_copy_256_7::row_copy, x, out, n, n_rows);")) << c;
  std::string h = emit("row_pointers", ir::TargetKind::Hip);
  EXPECT_TRUE(contains(h, " x, out, n, n_rows);\n  return hipGetLastError();\n")) << h;
  std::string v = emit("vector_add", ir::TargetKind::Cuda);
  EXPECT_FALSE(contains(v, "[[maybe_unused]]")) << v;
}

TEST(Emitter, StridedVectorStore) {
  // A vector along dim 0 of a rank-2 tile: the tile's own elements are ELEMS1 apart.
  std::string s = emit("transpose", ir::TargetKind::Cuda);
  EXPECT_TRUE(contains(s, "tilec::rt::store_vec<OUT_STORE_VEC, false, L3::ELEMS1>(")) << s;
}

TEST(Emitter, LinesFitTheColumnLimit) {
  // Signatures, launchers, runtime calls and comments the emitter writes stay within 100 columns
  // (expressions are not broken).
  for (const Case &c : kCases)
    for (auto t : {ir::TargetKind::Cuda, ir::TargetKind::Hip}) {
      std::string s = emitters::emitModule(c.make(warp(t)), options(t)) +
                      emitters::emitLauncherDeclarations(c.make(warp(t)), options(t));
      size_t pos = 0;
      while (pos < s.size()) {
        size_t end = s.find('\n', pos);
        std::string line = s.substr(pos, end - pos);
        pos = end + 1;
        bool expression = line.find(" = ") != std::string::npos && line.find("tilec::rt::load_vec") == std::string::npos &&
                          line.find("tilec::rt::store_vec") == std::string::npos && line.find("constexpr") == std::string::npos;
        if (!expression && line.find("// ") != 0 && line.find(".cpp:") == std::string::npos) {
          EXPECT_LE(line.size(), 100u) << c.name << ": " << line;
        }
      }
    }
}

TEST(Emitter, HalfArithmeticRoundsEachOp) {
  std::string s = emit("half_elementwise", ir::TargetKind::Cuda);
  EXPECT_TRUE(contains(s, "f[i] = tilec::rt::to_float(a[i]) * scale;")) << s;
  // The sum of two halves is one rounded half add (tilec::rt::hadd: the GPU's own instruction).
  EXPECT_TRUE(
      contains(s, "r[i] = tilec::rt::hadd(tilec::rt::to_f16(tilec::rt::sigmoid(f[i])), a[i]);"))
      << s;
  EXPECT_TRUE(contains(s, "static_cast<int>(f[i])"));
  EXPECT_TRUE(contains(s, "constexpr int A_VEC = 8;  // load width: 8 contiguous elements (16 bytes) per access"));
}

TEST(Emitter, RejectsUnloweredIR) {
  // A Reduce that was never lowered is a compiler bug upstream: an internal error, no output.
  ir::Module m = sumReduce(32);
  ir::Kernel &k = m.kernels[0];
  const auto *blk = ir::as<ir::Block>(k.body);
  std::vector<ir::Stmt> stmts = blk->stmts;
  const auto *xDecl = ir::as<ir::Decl>(stmts[2]);
  ir::Var t = k.newVar("t", ir::Type::scalar(ir::ScalarType::F32), ir::VarKind::Local, {});
  stmts.push_back(ir::Decl::make(t, ir::Reduce::make(ir::ReduceOp::Sum, 0, ir::VarRef::make(xDecl->var))));
  k.body = ir::Block::make(stmts);
  EXPECT_THROW(emitters::emitModule(m, options(ir::TargetKind::Cuda)), std::logic_error);
  // A tile without a layout likewise.
  ir::Module m2 = vectorAdd(32);
  ir::Kernel &k2 = m2.kernels[0];
  ir::Var u = k2.newVar("u", ir::Type::scalar(ir::ScalarType::I32).withShape({16}), ir::VarKind::Local, {});
  k2.body = ir::Block::make({k2.body, ir::Decl::make(u, ir::Arange::make(0, 16))});
  EXPECT_THROW(emitters::emitModule(m2, options(ir::TargetKind::Cuda)), std::logic_error);
}

// ---- the compilers --------------------------------------------------------------------------------

TEST(Emitter, BitNotOfBoolIsLogicalNot) {
  // Bug: `~` on a bool tile (tl.hpp: logical not) was printed as C++ `~b[i]`, which promotes to int:
  // ~1 == -2 and ~0 == -1 both convert back to true.
  for (auto t : {ir::TargetKind::Cuda, ir::TargetKind::Hip}) {
    std::string s = emit("bool_not", t);
    EXPECT_TRUE(contains(s, "out[offs[i]] = !b[i];")) << s;
    EXPECT_FALSE(contains(s, "~b[")) << s;
  }
}

TEST(Emitter, IntToBf16RoundsOnce) {
  // Bug: int32/int64 -> bf16 went through float, rounding twice (2^24 + 2^16 + 1 became 2^24, the
  // reference gives 2^24 + 2^17); the runtime's int_to_bf16 rounds once (RuntimeHost tests).
  for (auto t : {ir::TargetKind::Cuda, ir::TargetKind::Hip}) {
    std::string s = emit("bool_not", t);
    EXPECT_TRUE(contains(s, "z[offs[i]] = tilec::rt::int_to_bf16(v[i]);")) << s;
    EXPECT_FALSE(contains(s, "to_bf16(static_cast<float>(")) << s;
  }
}

std::string writeFile(const std::string &name, const std::string &text) {
  std::string path = std::string(TILEC_EMIT_DIR) + "/" + name;
  std::ofstream(path) << text;
  return path;
}

int run(const std::string &cmd) {
  std::string full = cmd + " > " + TILEC_EMIT_DIR + "/last_compile.log 2>&1";
  int rc = std::system(full.c_str());
  if (rc != 0) {
    std::ifstream log(std::string(TILEC_EMIT_DIR) + "/last_compile.log");
    std::string all((std::istreambuf_iterator<char>(log)), std::istreambuf_iterator<char>());
    ADD_FAILURE() << cmd << "\n" << all;
  }
  return rc;
}

class Compile : public ::testing::TestWithParam<Case> {};

TEST_P(Compile, Nvcc) {
  std::string nvcc = TILEC_NVCC;
  if (nvcc.empty() || nvcc.find("NOTFOUND") != std::string::npos)
    GTEST_SKIP() << "nvcc not found";
  const Case &c = GetParam();
  std::string base = std::string(c.name);
  std::string cu = writeFile(base + ".cu", emitters::emitModule(c.make(32), options(ir::TargetKind::Cuda)));
  writeFile(base + "_launchers.h", emitters::emitLauncherDeclarations(c.make(32), options(ir::TargetKind::Cuda)));
  // The declarations must agree with the definitions: compile them in one translation unit.
  std::string both = writeFile(base + "_check.cu", "#include \"" + base + "_launchers.h\"\n#include \"" + base + ".cu\"\n");
  std::string flags = " -std=c++17 -Werror all-warnings -Xcompiler -Wall,-Wextra -I" TILEC_RUNTIME_HEADERS " -c ";
  // One nvcc run: each architecture's device code compiled and checked, the host side once.
  EXPECT_EQ(run(nvcc + flags +
                "-gencode=arch=compute_90a,code=sm_90a -gencode=arch=compute_80,code=sm_80 " +
                both + " -o " + cu + ".o"),
            0);
}

TEST_P(Compile, Hipcc) {
  std::string hipcc = TILEC_HIPCC;
  if (hipcc.empty() || hipcc.find("NOTFOUND") != std::string::npos)
    GTEST_SKIP() << "hipcc not found";
  const Case &c = GetParam();
  std::string base = std::string(c.name);
  std::string hip = writeFile(base + ".hip", emitters::emitModule(c.make(64), options(ir::TargetKind::Hip)));
  writeFile(base + "_launchers_hip.h", emitters::emitLauncherDeclarations(c.make(64), options(ir::TargetKind::Hip)));
  std::string both = writeFile(base + "_check.hip", "#include \"" + base + "_launchers_hip.h\"\n#include \"" + base + ".hip\"\n");
  EXPECT_EQ(run(hipcc + " -std=c++17 --offload-arch=gfx90a -Wall -Werror -I" TILEC_RUNTIME_HEADERS " -c " + both +
                " -o " + hip + ".o"), 0);
}

INSTANTIATE_TEST_SUITE_P(Cases, Compile, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<Case> &i) { return std::string(i.param.name); });

} // namespace
