#include "BackTestUtil.h"

using namespace tilec::ir;
using namespace tilec::testing;

namespace {

LayoutRef l1() { return Layout::blocked({1}, {32}, {4}, {0}); }

// `decl %name = reduce.OP(%x)` (1-D, 4 warps: one 16-byte partials buffer each).
Stmt reduceDecl(TestKernel &t, Var x, const std::string &name, ReduceOp op = ReduceOp::Sum) {
  Expr r = Reduce::make(op, 0, VarRef::make(x));
  return Decl::make(t.local(name, r->type), r);
}

TEST(AllocateShared, SequentialReductionsReuseBytes) {
  TestKernel t;
  std::vector<Stmt> body;
  Var x = t.tile(body, "x", {128}, l1());
  body.push_back(reduceDecl(t, x, "s"));
  body.push_back(reduceDecl(t, x, "m", ReduceOp::Max));
  t.k().body = Block::make(body);
  runPass(t.m, "lower-reductions");
  EXPECT_EQ(runPass(t.m, "allocate-shared"), "");
  std::string s = t.str();
  EXPECT_NE(s.find("  shared 0 s_smem: f32[4] row_stride=4 bytes=16 offset=0\n"
                   "  shared 1 m_smem: f32[4] row_stride=4 bytes=16 offset=0\n"
                   "  shared_bytes = 16\n"),
            std::string::npos)
      << s;
}

TEST(AllocateShared, OverlappingLifetimesDoNotShare) {
  // Two conversions whose writes both precede both reads.
  TestKernel t;
  std::vector<Stmt> body;
  Var x = t.tile(body, "x", {128}, l1());
  Var y = t.tile(body, "y", {8}, l1()); // 32 bytes: the second buffer starts 16-aligned after 512
  t.k().buffers = {{"xb", Type::scalar(ScalarType::F32), {128}, 128, 512, -1},
                   {"yb", Type::scalar(ScalarType::F32), {8}, 8, 32, -1},
                   {"zb", Type::scalar(ScalarType::F32), {8}, 8, 32, -1}};
  LayoutRef o = Layout::blocked({4}, {32}, {4}, {0});
  Var x2 = t.local("x2", x->type.withLayout(o)), y2 = t.local("y2", y->type.withLayout(o));
  Var z2 = t.local("z2", y->type.withLayout(o));
  body.push_back(SharedWrite::makeTile(0, VarRef::make(x)));
  body.push_back(SharedWrite::makeTile(1, VarRef::make(y)));
  body.push_back(Barrier::make());
  body.push_back(Decl::make(x2, SharedRead::makeTile(0, x2->type)));
  body.push_back(Decl::make(y2, SharedRead::makeTile(1, y2->type)));
  // zb is used after both: it may take the bytes of either.
  body.push_back(SharedWrite::makeTile(2, VarRef::make(y)));
  body.push_back(Barrier::make());
  body.push_back(Decl::make(z2, SharedRead::makeTile(2, z2->type)));
  t.k().body = Block::make(body);
  EXPECT_EQ(runPass(t.m, "allocate-shared"), "");
  EXPECT_EQ(t.k().buffers[0].offsetBytes, 0);
  EXPECT_EQ(t.k().buffers[1].offsetBytes, 512);
  EXPECT_EQ(t.k().buffers[2].offsetBytes, 0);
  EXPECT_EQ(t.k().sharedBytes, 544);
  runPass(t.m, "insert-barriers");
  EXPECT_TRUE(verifies(t.m, /*lowered=*/true));
}

TEST(AllocateShared, BufferUsedInALoopIsLiveForTheWholeLoop) {
  // for i { shared_write 0; barrier; read 0 ; shared_write 1; barrier; read 1 }: both live over the
  // loop, so they cannot share bytes even though their uses do not interleave.
  TestKernel t;
  std::vector<Stmt> body;
  Var x = t.tile(body, "x", {128}, l1());
  std::vector<Stmt> loop;
  loop.push_back(reduceDecl(t, x, "s"));
  loop.push_back(reduceDecl(t, x, "m", ReduceOp::Max));
  Var i = t.k().newVar("i", Type::scalar(ScalarType::I32), VarKind::LoopIndex, {});
  body.push_back(For::make(i, i32(0), i32(4), i32(1), Block::make(loop), false));
  body.push_back(reduceDecl(t, x, "after"));
  t.k().body = Block::make(body);
  runPass(t.m, "lower-reductions");
  runPass(t.m, "allocate-shared");
  auto lt = sharedBufferLifetimes(t.k());
  ASSERT_EQ(lt.size(), 3u);
  EXPECT_TRUE(lt[0].overlaps(lt[1]));
  EXPECT_FALSE(lt[1].overlaps(lt[2]));
  EXPECT_EQ(t.k().buffers[0].offsetBytes, 0);
  EXPECT_EQ(t.k().buffers[1].offsetBytes, 16);
  EXPECT_EQ(t.k().buffers[2].offsetBytes, 0) << "after the loop, bytes are reused";
  EXPECT_EQ(t.k().sharedBytes, 32);
}

TEST(AllocateShared, ReportsExceedingTheTargetsLimit) {
  TestKernel t;
  std::vector<Stmt> body;
  Var x = t.tile(body, "x", {128, 128}, Layout::blocked({1, 4}, {4, 8}, {4, 1}, {1, 0}));
  Expr cv = ConvertLayout::make(VarRef::make(x), Layout::blocked({4, 1}, {8, 4}, {1, 4}, {0, 1}));
  body.push_back(Decl::make(t.local("y", cv->type), cv));
  Var x3 = t.local("x3", cv->type);
  body.push_back(Decl::make(x3, ConvertLayout::make(VarRef::make(x), cv->type.layout)));
  body.push_back(Store::make(lay(Splat::make(VarRef::make(t.out), {128, 128}), cv->type.layout),
                             VarRef::make(x3), nullptr));
  t.k().body = Block::make(body);
  t.k().loc = {0, 3, 1};
  SourceFile big;
  big.name = "big.cpp";
  big.lines = {"", "", "__global__ void k() {"};
  t.m.files.push_back(big);
  runPass(t.m, "lower-layout-conversions");
  // 128 x 129 x 4 = 66048 bytes per buffer; y's buffer is dead when x3's is written. Above 48 KB a
  // CUDA kernel's shared memory is dynamic, up to what the architecture allows a block.
  auto arch = [](const char *a) {
    Target c = cuda();
    c.arch = a;
    return c;
  };
  for (const char *fits : {"sm_90a", "sm_80", "sm_86", "sm_70", "sm_100a", "sm_120"}) {
    EXPECT_EQ(runPass(t.m, "allocate-shared", arch(fits)), "") << fits;
    EXPECT_EQ(t.k().sharedBytes, 66048);
  }
  std::string d = runPass(t.m, "allocate-shared", arch("sm_75"));
  EXPECT_NE(d.find("big.cpp:3:1: error: kernel needs 66048 bytes of shared memory; the target "
                   "allows 65536 on sm_75"),
            std::string::npos)
      << d;
  // Before Volta, and an architecture tilec cannot read: the 48 KB every one allows.
  for (const char *a : {"sm_61", "compute_90"})
    EXPECT_NE(runPass(t.m, "allocate-shared", arch(a)).find("allows 49152 on " + std::string(a)),
              std::string::npos)
        << a;
  std::string h = runPass(t.m, "allocate-shared", hip());
  EXPECT_NE(h.find("the target allows 65536 on gfx90a"), std::string::npos) << h;
}

TEST(AllocateShared, ArchitectureLimits) {
  // One unused buffer of the given size against each architecture's most shared memory a block.
  auto fits = [](int64_t bytes, const char *a) {
    TestKernel t;
    t.k().buffers = {{"b", Type::scalar(ScalarType::F32), {bytes / 4}, bytes / 4, bytes, -1}};
    Target c = cuda();
    c.arch = a;
    return runPass(t.m, "allocate-shared", c).empty();
  };
  EXPECT_TRUE(fits(227 * 1024, "sm_90a"));
  EXPECT_FALSE(fits(227 * 1024 + 16, "sm_90a"));
  EXPECT_TRUE(fits(163 * 1024, "sm_80"));
  EXPECT_FALSE(fits(163 * 1024 + 16, "sm_80"));
  EXPECT_TRUE(fits(99 * 1024, "sm_89"));
  EXPECT_FALSE(fits(99 * 1024 + 16, "sm_89"));
  EXPECT_TRUE(fits(96 * 1024, "sm_70"));
  EXPECT_FALSE(fits(96 * 1024 + 16, "sm_70"));
}

} // namespace
