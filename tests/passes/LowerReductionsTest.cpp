#include "BackTestUtil.h"

using namespace tilec::ir;
using namespace tilec::testing;

namespace {

// A kernel reducing one tile of `shape` in layout `l` along `axis` into `%<name>` and storing it.
struct ReduceCase : TestKernel {
  Var x, r;
  ReduceCase(int warp, std::vector<int64_t> shape, LayoutRef l, ReduceOp op, int axis,
             const std::string &name, ScalarType elem = ScalarType::F32)
      : TestKernel(warp) {
    std::vector<Stmt> body;
    x = tile(body, "x", shape, l, elem);
    Expr red = Reduce::make(op, axis, VarRef::make(x));
    if (red->type.isTile())
      red = lay(red, Layout::slice(l, axis));
    r = local(name, red->type);
    body.push_back(Decl::make(r, red));
    if (r->type.isScalar())
      body.push_back(storeScalar(VarRef::make(r)));
    k().body = Block::make(body);
  }
};

TEST(LowerReductions, Sum1DFourWarpsWarp32) {
  ReduceCase c(32, {1024}, Layout::blocked({4}, {32}, {4}, {0}), ReduceOp::Sum, 0, "total");
  runPass(c.m, "lower-reductions");
  EXPECT_EQ(c.str(), R"(kernel @k instance=k num_warps=4 {
  param %out: ptr<f32>
  param %a: f32
  shared 0 total_smem: f32[4] row_stride=4 bytes=16
  #blocked0 = #blocked<spt=[4], tpw=[32], wpb=[4], order=[0]>
  decl %x: tile<1024xf32, #blocked0> = splat(%a) : tile<1024xf32, #blocked0>
  decl %total_part: f32 = thread_reduce.sum(%x, axis=0) : f32
  %total_part = warp_reduce.sum(%total_part, lanes=[16,8,4,2,1], warp_size=32)
  shared_write_partials 0, %total_part axis=0 of [1024] #blocked0
  barrier
  decl %total: f32 = shared_combine.sum(0, parts=4) : f32
  store(%out, %total)
}
)");
  EXPECT_TRUE(verifies(c.m));
}

TEST(LowerReductions, Sum1DFourWarpsWarp64) {
  ReduceCase c(64, {1024}, Layout::blocked({4}, {64}, {4}, {0}), ReduceOp::Sum, 0, "total");
  runPass(c.m, "lower-reductions", hip());
  std::string s = c.str();
  EXPECT_NE(s.find("%total_part = warp_reduce.sum(%total_part, lanes=[32,16,8,4,2,1], "
                   "warp_size=64)"),
            std::string::npos)
      << s;
  EXPECT_NE(s.find("decl %total: f32 = shared_combine.sum(0, parts=4) : f32"), std::string::npos)
      << s;
  EXPECT_TRUE(verifies(c.m));
}

TEST(LowerReductions, RowInOneWarpNeedsNoSharedMemory) {
  // Each row of 32 lives in one warp (tpw=[1,32]); the 4 warps split the rows.
  LayoutRef l = Layout::blocked({1, 1}, {1, 32}, {4, 1}, {1, 0});
  ReduceCase c(32, {64, 32}, l, ReduceOp::Max, 1, "row_max");
  runPass(c.m, "lower-reductions");
  EXPECT_EQ(c.str(), R"(kernel @k instance=k num_warps=4 {
  param %out: ptr<f32>
  param %a: f32
  #blocked0 = #blocked<spt=[1,1], tpw=[1,32], wpb=[4,1], order=[1,0]>
  decl %x: tile<64x32xf32, #blocked0> = splat(%a) : tile<64x32xf32, #blocked0>
  decl %row_max: tile<64xf32, #slice<dim=1, #blocked0>> = thread_reduce.max(%x, axis=1) : tile<64xf32, #slice<dim=1, #blocked0>>
  %row_max = warp_reduce.max(%row_max, lanes=[16,8,4,2,1], warp_size=32)
}
)");
  EXPECT_TRUE(c.k().buffers.empty());
  EXPECT_TRUE(verifies(c.m));
}

TEST(LowerReductions, Axis0AcrossWarps) {
  // Dim 0 is split over 2 lanes (lane bit 16, above the 16 lanes of dim 1) and 4 warps.
  LayoutRef l = Layout::blocked({1, 4}, {2, 16}, {4, 1}, {1, 0});
  ReduceCase c(32, {64, 64}, l, ReduceOp::Sum, 0, "col_sum");
  runPass(c.m, "lower-reductions");
  EXPECT_EQ(c.str(), R"(kernel @k instance=k num_warps=4 {
  param %out: ptr<f32>
  param %a: f32
  shared 0 col_sum_smem: f32[4x64] row_stride=64 bytes=1024
  #blocked0 = )" + l->str() + R"(
  decl %x: tile<64x64xf32, #blocked0> = splat(%a) : tile<64x64xf32, #blocked0>
  decl %col_sum_part: tile<64xf32, #slice<dim=0, #blocked0>> = thread_reduce.sum(%x, axis=0) : tile<64xf32, #slice<dim=0, #blocked0>>
  %col_sum_part = warp_reduce.sum(%col_sum_part, lanes=[16], warp_size=32)
  shared_write_partials 0, %col_sum_part axis=0 of [64x64] #blocked0
  barrier
  decl %col_sum: tile<64xf32, #slice<dim=0, #blocked0>> = shared_combine.sum(0, parts=4) : tile<64xf32, #slice<dim=0, #blocked0>>
}
)");
  EXPECT_TRUE(verifies(c.m));
}

TEST(LowerReductions, ArgMaxCarriesPairs) {
  ReduceCase c(32, {256}, Layout::blocked({2}, {32}, {4}, {0}), ReduceOp::ArgMax, 0, "best");
  runPass(c.m, "lower-reductions");
  std::string s = c.str();
  for (const char *line : {
           "shared 0 best_smem: pair<f32,i32>[4] row_stride=4 bytes=32\n",
           "decl %best_part: pair<f32,i32> = thread_reduce.argmax(%x, axis=0) : pair<f32,i32>\n",
           "%best_part = warp_reduce.argmax(%best_part, lanes=[16,8,4,2,1], warp_size=32)\n",
           "#blocked0 = #blocked<spt=[2], tpw=[32], wpb=[4], order=[0]>\n",
           "shared_write_partials 0, %best_part axis=0 of [256] #blocked0\n  barrier\n",
           "decl %best_pair: pair<f32,i32> = shared_combine.argmax(0, parts=4) : pair<f32,i32>\n",
           "decl %best: i32 = pair_index(%best_pair)\n",
       })
    EXPECT_NE(s.find(line), std::string::npos) << line << "\n" << s;
  EXPECT_TRUE(verifies(c.m));
}

TEST(LowerReductions, ArgMinWithinOneWarpStillEndsInPairIndex) {
  LayoutRef l = Layout::blocked({1, 1}, {1, 32}, {4, 1}, {1, 0});
  ReduceCase c(32, {4, 32}, l, ReduceOp::ArgMin, 1, "idx");
  runPass(c.m, "lower-reductions");
  std::string s = c.str();
  EXPECT_NE(s.find("%idx_part = warp_reduce.argmin(%idx_part, lanes=[16,8,4,2,1]"),
            std::string::npos)
      << s;
  EXPECT_NE(s.find("= pair_index(%idx_part)"), std::string::npos) << s;
  EXPECT_TRUE(c.k().buffers.empty());
  EXPECT_TRUE(verifies(c.m));
}

TEST(LowerReductions, ReplicatedTileUsesFewerLanes) {
  // 16 elements over 128 threads: lanes 0..15 hold distinct data, the rest replicate; one part.
  ReduceCase c(32, {16}, Layout::blocked({1}, {32}, {4}, {0}), ReduceOp::Min, 0, "lo");
  runPass(c.m, "lower-reductions");
  std::string s = c.str();
  EXPECT_NE(s.find("decl %lo: f32 = thread_reduce.min(%x, axis=0) : f32\n  %lo = warp_reduce.min(%lo, "
                   "lanes=[8,4,2,1], warp_size=32)\n  store(%out, %lo)"),
            std::string::npos)
      << s;
  EXPECT_TRUE(c.k().buffers.empty());
  // Fewer elements than one thread's spt: no lanes at all, only the in-thread step.
  ReduceCase d(32, {2}, Layout::blocked({4}, {32}, {4}, {0}), ReduceOp::Max, 0, "m");
  runPass(d.m, "lower-reductions");
  EXPECT_EQ(d.str().find("warp_reduce"), std::string::npos) << d.str();
  EXPECT_TRUE(d.k().buffers.empty());
}

TEST(LowerReductions, SumOfI8AccumulatesInI32) {
  ReduceCase c(32, {128}, Layout::blocked({1}, {32}, {4}, {0}), ReduceOp::Sum, 0, "n",
               ScalarType::I8);
  runPass(c.m, "lower-reductions");
  std::string s = c.str();
  EXPECT_NE(s.find("decl %n_part: i32 = thread_reduce.sum(cast<i32>(%x), axis=0) : i32"),
            std::string::npos)
      << s;
  EXPECT_NE(s.find("shared 0 n_smem: i32[4] row_stride=4 bytes=16"), std::string::npos) << s;
  EXPECT_TRUE(verifies(c.m));
}

TEST(LowerReductions, NestedReduceIsHoistedAndAssignUsesAPartial) {
  // decl %y = sub(%x, splat(reduce.max(%x)));  %s = reduce.sum(%y)  (assign)
  TestKernel t;
  LayoutRef l = Layout::blocked({1}, {32}, {4}, {0});
  std::vector<Stmt> body;
  Var x = t.tile(body, "x", {128}, l);
  Expr mx = Reduce::make(ReduceOp::Max, 0, VarRef::make(x));
  Expr y = lay(Binary::make(BinaryOp::Sub, VarRef::make(x), lay(Splat::make(mx, {128}), l)), l);
  Var yv = t.local("y", y->type);
  body.push_back(Decl::make(yv, y));
  Var s = t.local("s", Type::scalar(ScalarType::F32));
  body.push_back(Decl::make(s, f32(0)));
  body.push_back(Assign::make(s, Reduce::make(ReduceOp::Sum, 0, VarRef::make(yv))));
  body.push_back(t.storeScalar(VarRef::make(s)));
  t.k().body = Block::make(body);
  runPass(t.m, "lower-reductions");
  std::string out = t.str();
  for (const char *line : {
           "decl %y_max_part: f32 = thread_reduce.max(%x, axis=0) : f32\n",
           "decl %y_max: f32 = shared_combine.max(0, parts=4) : f32\n",
           "= sub(%x, splat(%y_max)",
           "decl %s_part: f32 = thread_reduce.sum(%y, axis=0) : f32\n",
           "%s = shared_combine.sum(1, parts=4) : f32\n",
       })
    EXPECT_NE(out.find(line), std::string::npos) << line << "\n" << out;
  EXPECT_EQ(out.find("= reduce."), std::string::npos) << out;
  EXPECT_EQ(out.find("(reduce."), std::string::npos) << out;
  EXPECT_TRUE(verifies(t.m));
}

TEST(LowerReductions, ReduceInWhileConditionIsRecomputedEachIteration) {
  TestKernel t;
  LayoutRef l = Layout::blocked({1}, {32}, {4}, {0});
  std::vector<Stmt> body;
  Var x = t.tile(body, "x", {32}, l);
  Expr cond = Binary::make(BinaryOp::Gt, Reduce::make(ReduceOp::Max, 0, VarRef::make(x)), f32(1));
  Expr half = lay(Binary::make(BinaryOp::Mul, VarRef::make(x), lay(Splat::make(f32(0.5), {32}), l)),
                  l);
  body.push_back(While::make(cond, Block::make({Assign::make(x, half)})));
  t.k().body = Block::make(body);
  runPass(t.m, "lower-reductions");
  std::string out = t.str();
  EXPECT_NE(out.find("decl %cond_max: f32 = thread_reduce.max(%x, axis=0)"), std::string::npos)
      << out;
  EXPECT_NE(out.find("while gt(%cond_max, 1:f32) {"), std::string::npos) << out;
  EXPECT_NE(out.find("    decl %cond_max_part: f32 = thread_reduce.max(%x, axis=0)"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("    %cond_max = %cond_max_part\n  }"), std::string::npos) << out;
  EXPECT_TRUE(verifies(t.m));
}

} // namespace
