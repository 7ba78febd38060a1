#include "BackTestUtil.h"

using namespace tilec::ir;
using namespace tilec::testing;

namespace {

LayoutRef rowsL() { return Layout::blocked({1, 4}, {8, 4}, {4, 1}, {1, 0}); }
LayoutRef colsL() { return Layout::blocked({4, 1}, {4, 8}, {1, 4}, {0, 1}); }

TEST(InsertBarriers, WriteAfterReadInsideALoop) {
  // for i { y = convert(x); x = x + 1 }: the next iteration's write of y_smem must wait until
  // every thread has read this iteration's data.
  TestKernel t;
  std::vector<Stmt> body;
  Var x = t.tile(body, "x", {64, 64}, rowsL());
  Var i = t.k().newVar("i", Type::scalar(ScalarType::I32), VarKind::LoopIndex, {});
  Expr cv = ConvertLayout::make(VarRef::make(x), colsL());
  Var y = t.local("y", cv->type);
  Expr inc = lay(Binary::make(BinaryOp::Add, VarRef::make(x),
                              lay(Splat::make(f32(1), {64, 64}), rowsL())),
                 rowsL());
  body.push_back(For::make(i, i32(0), i32(8), i32(1),
                           Block::make({Decl::make(y, cv), Assign::make(x, inc)}), false));
  t.k().body = Block::make(body);
  runBackHalf(t.m);
  std::string s = t.str();
  EXPECT_NE(s.find(R"(  for %i = 0:i32 to 8:i32 step 1:i32 {
    barrier
    shared_write 0, %x
    barrier
    decl %y: )"),
            std::string::npos)
      << s;
  EXPECT_TRUE(verifies(t.m, /*lowered=*/true));
  // Without the WAR barrier the verifier sees the hazard.
  auto *loop = as<For>(as<Block>(t.k().body)->stmts[1]);
  auto stmts = as<Block>(loop->body)->stmts;
  stmts.erase(stmts.begin());
  auto c = std::make_shared<For>(*loop);
  c->body = Block::make(stmts);
  t.k().body = Block::make({as<Block>(t.k().body)->stmts[0], c});
  std::string why;
  EXPECT_FALSE(verifyLowered(t.m, &why));
  EXPECT_NE(why.find("write-after-read hazard on shared buffer 'y_smem'"), std::string::npos) << why;
}

TEST(InsertBarriers, TwoBuffersInALoopOrderEachOther) {
  // for i { y = convert(x); x = convert(y) }: the barrier before reading x_smem also orders this
  // iteration's reads of y_smem before the next iteration's write: no extra barrier.
  TestKernel t;
  std::vector<Stmt> body;
  Var x = t.tile(body, "x", {64, 64}, rowsL());
  Var i = t.k().newVar("i", Type::scalar(ScalarType::I32), VarKind::LoopIndex, {});
  Expr cv = ConvertLayout::make(VarRef::make(x), colsL());
  Var y = t.local("y", cv->type);
  Expr back = ConvertLayout::make(VarRef::make(y), rowsL());
  body.push_back(For::make(i, i32(0), i32(8), i32(1),
                           Block::make({Decl::make(y, cv), Assign::make(x, back)}), false));
  t.k().body = Block::make(body);
  runBackHalf(t.m);
  std::string s = t.str();
  EXPECT_NE(s.find(R"(  for %i = 0:i32 to 8:i32 step 1:i32 {
    shared_write 0, %x
    barrier
    decl %y: )"),
            std::string::npos)
      << s;
  EXPECT_NE(s.find(R"(    shared_write 1, %y
    barrier
    %x = shared_read(1) : )"),
            std::string::npos)
      << s;
  EXPECT_TRUE(verifies(t.m, /*lowered=*/true));
}

TEST(InsertBarriers, ReusedBytesNeedAWriteAfterReadBarrier) {
  TestKernel t;
  std::vector<Stmt> body;
  Var x = t.tile(body, "x", {128}, Layout::blocked({1}, {32}, {4}, {0}));
  for (const char *n : {"s", "m"}) {
    Expr r = Reduce::make(ReduceOp::Sum, 0, VarRef::make(x));
    Var v = t.local(n, r->type);
    body.push_back(Decl::make(v, r));
  }
  t.k().body = Block::make(body);
  runBackHalf(t.m);
  EXPECT_EQ(t.str(), R"(kernel @k instance=k num_warps=4 {
  param %out: ptr<f32>
  param %a: f32
  shared 0 s_smem: f32[4] row_stride=4 bytes=16 offset=0
  shared 1 m_smem: f32[4] row_stride=4 bytes=16 offset=0
  shared_bytes = 16
  #blocked0 = #blocked<spt=[1], tpw=[32], wpb=[4], order=[0]>
  decl %x: tile<128xf32, #blocked0> = splat(%a) : tile<128xf32, #blocked0>
  decl %s_part: f32 = thread_reduce.sum(%x, axis=0) : f32
  %s_part = warp_reduce.sum(%s_part, lanes=[16,8,4,2,1], warp_size=32)
  shared_write_partials 0, %s_part axis=0 of [128] #blocked0
  barrier
  decl %s: f32 = shared_combine.sum(0, parts=4) : f32
  decl %m_part: f32 = thread_reduce.sum(%x, axis=0) : f32
  %m_part = warp_reduce.sum(%m_part, lanes=[16,8,4,2,1], warp_size=32)
  barrier
  shared_write_partials 1, %m_part axis=0 of [128] #blocked0
  barrier
  decl %m: f32 = shared_combine.sum(1, parts=4) : f32
}
)");
  EXPECT_TRUE(verifies(t.m, /*lowered=*/true));
}

TEST(InsertBarriers, RedundantBarriersAreDroppedAndMissingOnesAdded) {
  TestKernel t;
  std::vector<Stmt> body;
  Var x = t.tile(body, "x", {128}, Layout::blocked({1}, {32}, {4}, {0}));
  t.k().buffers = {{"b", Type::scalar(ScalarType::F32), {128}, 128, 512, -1}};
  LayoutRef o = Layout::blocked({4}, {32}, {4}, {0});
  Var y = t.local("y", x->type.withLayout(o));
  body.push_back(Barrier::make()); // nothing before it
  body.push_back(SharedWrite::makeTile(0, VarRef::make(x)));
  // missing RAW barrier here
  body.push_back(Decl::make(y, SharedRead::makeTile(0, y->type)));
  body.push_back(Barrier::make()); // kept: reads are pending (nothing follows, see known gaps)
  body.push_back(Barrier::make()); // redundant: nothing since the previous one
  t.k().body = Block::make(body);
  runPass(t.m, "allocate-shared");
  runPass(t.m, "insert-barriers");
  std::string s = t.str();
  EXPECT_NE(s.find("  #blocked0 = #blocked<spt=[1], tpw=[32], wpb=[4], order=[0]>\n"), std::string::npos)
      << s;
  EXPECT_NE(s.find("> = splat(%a) : tile<128xf32, #blocked0>\n  shared_write 0, %x\n  barrier\n"
                   "  decl %y: "),
            std::string::npos)
      << s;
  size_t n = 0;
  for (size_t p = s.find("barrier"); p != std::string::npos; p = s.find("barrier", p + 1))
    ++n;
  EXPECT_EQ(n, 2u) << "the RAW barrier and the one after the read (pending reads) remain\n" << s;
  EXPECT_TRUE(verifies(t.m, /*lowered=*/true));
}

TEST(InsertBarriers, BarriersInsideIfBranches) {
  // if c { write 0; read 0 } ; write 0 again after: WAR against the branch's read.
  TestKernel t;
  std::vector<Stmt> body;
  Var x = t.tile(body, "x", {64, 64}, rowsL());
  Expr cv1 = ConvertLayout::make(VarRef::make(x), colsL());
  Var y1 = t.local("y1", cv1->type);
  Expr cond = Binary::make(BinaryOp::Gt, VarRef::make(t.a), f32(0));
  body.push_back(If::make(cond, Block::make({Decl::make(y1, cv1)}), nullptr));
  Var y2 = t.local("y2", cv1->type);
  body.push_back(Decl::make(y2, ConvertLayout::make(VarRef::make(x), colsL())));
  t.k().body = Block::make(body);
  runBackHalf(t.m);
  std::string s = t.str();
  EXPECT_NE(s.find("  }\n  barrier\n  shared_write 1, %x\n  barrier\n  decl %y2"),
            std::string::npos)
      << s;
  EXPECT_EQ(t.k().buffers[1].offsetBytes, 0) << "the branch's buffer is dead: bytes reused";
  EXPECT_TRUE(verifies(t.m, /*lowered=*/true));
}

} // namespace

// A ring of two stages filled by asynchronous copies (pipeline-dots' shape, with a plain read in
// place of the product). The copy's bytes land at the wait: the read after the wait needs a
// barrier (read-after-write), the copy at the top of the next iteration one after the read
// (write-after-read); nothing is needed between the copy and the wait, as the copy lands only
// there.
struct RingKernel {
  TestKernel t;
  Var y, i;
  RingKernel() {
    t.k().buffers = {{"ring", Type::scalar(ScalarType::F32), {128}, 128, 2 * 512, -1}};
    t.k().buffers[0].stages = 2;
    LayoutRef l = Layout::blocked({1}, {32}, {4}, {0});
    y = t.local("y", Type::scalar(ScalarType::F32).withShape({128}).withLayout(l));
    i = t.k().newVar("i", Type::scalar(ScalarType::I32), VarKind::LoopIndex, {});
  }
  /// for i { copy ring[i % 2]; commit; wait 0; [barrier;] y = read }
  Stmt loop(bool barrierAfterWait) {
    LayoutRef l = y->type.layout;
    Expr ptrs = lay(Binary::make(BinaryOp::Add, lay(Splat::make(VarRef::make(t.out), {128}), l),
                                 lay(Arange::make(0, 128), l)),
                    l);
    Expr stage = Binary::make(BinaryOp::Mod, VarRef::make(i), i32(2));
    std::vector<Stmt> s{AsyncCopy::make(0, stage, ptrs, nullptr, 1), AsyncCommit::make(),
                        AsyncWait::make(i32(0))};
    if (barrierAfterWait)
      s.push_back(Barrier::make());
    s.push_back(Decl::make(y, SharedRead::makeTile(0, y->type)));
    return For::make(i, i32(0), i32(8), i32(1), Block::make(s), false);
  }
};

TEST(InsertBarriers, AsynchronousCopiesLandAtTheWait) {
  RingKernel r;
  r.t.k().body = Block::make({r.loop(/*barrierAfterWait=*/false)});
  runPass(r.t.m, "allocate-shared");
  runPass(r.t.m, "insert-barriers");
  std::string s = r.t.str();
  EXPECT_NE(s.find(R"(  for %i = 0:i32 to 8:i32 step 1:i32 {
    barrier
    async_copy 0[mod(%i, 2:i32)], )"),
            std::string::npos)
      << s;
  EXPECT_NE(s.find(R"( vec=1
    async_commit
    async_wait 0:i32
    barrier
    decl %y: )"),
            std::string::npos)
      << s;
  EXPECT_TRUE(verifies(r.t.m, /*lowered=*/true));
}

TEST(InsertBarriers, ABarrierDoesNotLandACopyInFlight) {
  // copy; barrier; wait; read: the barrier before the wait does not land the copy (still in
  // flight), so the read after the wait needs one of its own.
  RingKernel r;
  LayoutRef l = r.y->type.layout;
  Expr ptrs = lay(Binary::make(BinaryOp::Add, lay(Splat::make(VarRef::make(r.t.out), {128}), l),
                               lay(Arange::make(0, 128), l)),
                  l);
  r.t.k().body =
      Block::make({AsyncCopy::make(0, i32(1), ptrs, nullptr, 1), AsyncCommit::make(),
                   Barrier::make(), AsyncWait::make(i32(0)),
                   Decl::make(r.y, SharedRead::makeTile(0, r.y->type))});
  runPass(r.t.m, "allocate-shared");
  runPass(r.t.m, "insert-barriers");
  std::string s = r.t.str();
  EXPECT_NE(s.find(R"(  async_commit
  barrier
  async_wait 0:i32
  barrier
  decl %y: )"),
            std::string::npos)
      << s;
  EXPECT_TRUE(verifies(r.t.m, /*lowered=*/true));
}

TEST(Verifier, ReadOfALandedCopyNeedsABarrier) {
  // The pipelined loop with its barrier after the wait passes; without it, the verifier reports the
  // read-after-write hazard on the ring.
  RingKernel r;
  r.t.k().body = Block::make({r.loop(/*barrierAfterWait=*/true)});
  runPass(r.t.m, "allocate-shared");
  runPass(r.t.m, "insert-barriers");
  ASSERT_TRUE(verifies(r.t.m, /*lowered=*/true));
  RingKernel bad;
  bad.t.k().body = Block::make({bad.loop(/*barrierAfterWait=*/false)});
  runPass(bad.t.m, "allocate-shared");
  std::string why;
  EXPECT_FALSE(verifyLowered(bad.t.m, &why));
  EXPECT_NE(why.find("read-after-write hazard on shared buffer 'ring' without a barrier"),
            std::string::npos)
      << why;
}

// A double buffer (pipeline-dots without cp.async): each iteration reads stage %s of A and B in
// its product and writes stage 1 - %s, then flips %s. The one barrier at the top of the loop
// orders both: insert-barriers adds none between the product and the writes, and the verifier
// accepts it. Writing stage %s itself is a write-after-read hazard; so is reading after %s changed
// (the stage just written).
struct DoubleBufferKernel {
  TestKernel t{64};
  Var x, acc, s, i;
  DoubleBufferKernel() {
    for (const char *name : {"a_smem", "b_smem"}) {
      t.k().buffers.push_back({name, Type::scalar(ScalarType::F16), {32, 32}, 32, 2 * 2048, -1});
      t.k().buffers.back().stages = 2;
    }
    LayoutRef l = Layout::blocked({1, 4}, {8, 8}, {4, 1}, {1, 0});
    std::vector<Stmt> pre;
    x = t.tile(pre, "x", {32, 32}, l, ScalarType::F16);
    acc = t.tile(pre, "acc", {32, 32}, l);
    s = t.local("s", Type::scalar(ScalarType::I32));
    i = t.k().newVar("i", Type::scalar(ScalarType::I32), VarKind::LoopIndex, {});
    prologue = pre;
    prologue.push_back(Decl::make(s, i32(0)));
  }
  std::vector<Stmt> prologue;
  Expr other() { return Binary::make(BinaryOp::Sub, i32(1), VarRef::make(s)); }
  Stmt product() {
    return Assign::make(acc, SharedDot::make(0, 1, VarRef::make(acc), DotPrecision::Ieee, acc->type,
                                             {}, VarRef::make(s)));
  }
  Stmt write(int buffer, Expr stage) {
    return SharedWrite::makeTile(buffer, VarRef::make(x), {}, std::move(stage));
  }
  /// for i { barrier; acc = dot(stage s); write A, B [stage]; [tail]; s = 1 - s }
  void build(Expr writeStage, std::vector<Stmt> tail = {}) {
    std::vector<Stmt> body{Barrier::make(), product(), write(0, writeStage), write(1, writeStage)};
    body.insert(body.end(), tail.begin(), tail.end());
    body.push_back(Assign::make(s, other()));
    std::vector<Stmt> all = prologue;
    all.push_back(For::make(i, i32(0), i32(8), i32(1), Block::make(body), false));
    t.k().body = Block::make(all);
    runPass(t.m, "allocate-shared", hip());
  }
  int barriersInLoop() {
    auto *loop = as<For>(as<Block>(t.k().body)->stmts.back());
    int n = 0;
    for (const Stmt &c : as<Block>(loop->body)->stmts)
      n += c->kind == StmtKind::Barrier;
    return n;
  }
};

TEST(InsertBarriers, TheTwoStagesOfADoubleBufferDoNotMeet) {
  DoubleBufferKernel d;
  d.build(d.other());
  EXPECT_TRUE(verifies(d.t.m, /*lowered=*/true));
  runPass(d.t.m, "insert-barriers", hip());
  EXPECT_EQ(d.barriersInLoop(), 1) << d.t.str();
  EXPECT_NE(d.t.str().find("shared_write 0[sub(1:i32, %s)], %x"), std::string::npos) << d.t.str();
  EXPECT_TRUE(verifies(d.t.m, /*lowered=*/true));
}

TEST(InsertBarriers, WritingTheStageReadIsAHazard) {
  DoubleBufferKernel d;
  d.build(VarRef::make(d.s));
  std::string why;
  EXPECT_FALSE(verifyLowered(d.t.m, &why));
  EXPECT_NE(why.find("write-after-read hazard on shared buffer 'a_smem'"), std::string::npos)
      << why;
  runPass(d.t.m, "insert-barriers", hip());
  EXPECT_EQ(d.barriersInLoop(), 2) << d.t.str();
  EXPECT_TRUE(verifies(d.t.m, /*lowered=*/true));
}

TEST(InsertBarriers, AStageVariableThatChangesNamesAnotherStage) {
  // After the writes of stage 1 - s, `s = 1 - s` makes a second product read the stage just
  // written: a read-after-write hazard, though the read names %s and the write named 1 - %s.
  DoubleBufferKernel d;
  d.build(d.other(), {Assign::make(d.s, d.other()), d.product()});
  std::string why;
  EXPECT_FALSE(verifyLowered(d.t.m, &why));
  EXPECT_NE(why.find("read-after-write hazard on shared buffer 'a_smem'"), std::string::npos)
      << why;
  runPass(d.t.m, "insert-barriers", hip());
  EXPECT_EQ(d.barriersInLoop(), 2) << d.t.str();
  EXPECT_TRUE(verifies(d.t.m, /*lowered=*/true));
}
