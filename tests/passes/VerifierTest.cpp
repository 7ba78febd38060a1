#include "BackTestUtil.h"

using namespace tilec::ir;
using namespace tilec::testing;

namespace {

::testing::AssertionResult rejects(const Module &m, const std::string &expected,
                                   bool lowered = false) {
  std::string why;
  bool ok = lowered ? verifyLowered(m, &why) : verify(m, &why);
  if (ok)
    return ::testing::AssertionFailure() << "accepted";
  if (why.find(expected) == std::string::npos)
    return ::testing::AssertionFailure() << "rejected for another reason: " << why;
  return ::testing::AssertionSuccess();
}

LayoutRef l1() { return Layout::blocked({1}, {32}, {4}, {0}); }

// The vector-add kernel as the translator produces it (no layouts).
Module vectorAdd() {
  Module m;
  m.kernels.emplace_back();
  Kernel &k = m.kernels.back();
  k.name = "add";
  Var x = k.newVar("x", Type::ptr(ScalarType::F32, true), VarKind::Param, {});
  Var out = k.newVar("out", Type::ptr(ScalarType::F32, false), VarKind::Param, {});
  Var n = k.newVar("n", Type::scalar(ScalarType::I32), VarKind::Param, {});
  k.params = {x, out, n};
  Var pid = k.newVar("pid", Type::scalar(ScalarType::I32), VarKind::Local, {});
  Expr offsE = Binary::make(BinaryOp::Add,
                            Splat::make(Binary::make(BinaryOp::Mul, VarRef::make(pid), i32(1024)),
                                        {1024}),
                            Arange::make(0, 1024));
  Var offs = k.newVar("offs", offsE->type, VarKind::Local, {});
  Expr mask = Binary::make(BinaryOp::Lt, VarRef::make(offs), Splat::make(VarRef::make(n), {1024}));
  Expr ptrs = Binary::make(BinaryOp::Add, Splat::make(VarRef::make(x), {1024}), VarRef::make(offs));
  Expr outPtrs =
      Binary::make(BinaryOp::Add, Splat::make(VarRef::make(out), {1024}), VarRef::make(offs));
  k.body = Block::make({Decl::make(pid, ProgramId::make(0, false)), Decl::make(offs, offsE),
                        Store::make(outPtrs, Load::make(ptrs, mask, nullptr), mask)});
  return m;
}

TEST(Verifier, AcceptsTranslatorOutput) { EXPECT_TRUE(verifies(vectorAdd())); }

TEST(Verifier, RejectsUseBeforeDeclaration) {
  Module m = vectorAdd();
  auto &stmts = const_cast<std::vector<Stmt> &>(as<Block>(m.kernels[0].body)->stmts);
  std::swap(stmts[0], stmts[1]);
  EXPECT_TRUE(rejects(m, "'pid' used before its declaration"));
}

TEST(Verifier, RejectsLoopVarOutsideItsLoop) {
  TestKernel t;
  Var i = t.k().newVar("i", Type::scalar(ScalarType::I32), VarKind::LoopIndex, {});
  t.k().body = Block::make({For::make(i, i32(0), i32(4), i32(1), Block::make({}), false),
                            t.storeScalar(Cast::make(ScalarType::F32, VarRef::make(i)))});
  EXPECT_TRUE(rejects(t.m, "'i' used before its declaration"));
}

TEST(Verifier, RejectsBadTypes) {
  {
    // Elementwise operands of different shapes (built around make()'s own checks).
    TestKernel t;
    auto b = std::make_shared<Binary>();
    b->op = BinaryOp::Add;
    b->a = Arange::make(0, 128);
    b->b = Arange::make(0, 64);
    b->type = b->a->type;
    Var v = t.local("v", b->type);
    t.k().body = Block::make({Decl::make(v, b)});
    EXPECT_TRUE(rejects(t.m, "binary add operand shapes"));
  }
  {
    // A float mask.
    TestKernel t;
    Expr p = Splat::make(VarRef::make(t.out), {64});
    Expr v = Splat::make(VarRef::make(t.a), {64});
    auto st = std::make_shared<Store>();
    st->ptr = p;
    st->value = v;
    st->mask = v;
    t.k().body = Block::make({st});
    EXPECT_TRUE(rejects(t.m, "store mask tile<64xf32>"));
  }
  {
    // A float loop bound and a tile condition.
    TestKernel t;
    Var i = t.k().newVar("i", Type::scalar(ScalarType::I32), VarKind::LoopIndex, {});
    t.k().body = Block::make({For::make(i, i32(0), f32(4), i32(1), Block::make({}), false)});
    EXPECT_TRUE(rejects(t.m, "for bounds must be scalar integers, got f32"));
    t.k().body = Block::make(
        {If::make(Binary::make(BinaryOp::Lt, Arange::make(0, 4), Arange::make(0, 4)),
                  Block::make({}), nullptr)});
    EXPECT_TRUE(rejects(t.m, "if condition must be a scalar bool or integer"));
  }
  {
    // Decl init of another type than its var.
    TestKernel t;
    Var v = t.local("v", Type::scalar(ScalarType::I32));
    t.k().body = Block::make({Decl::make(v, f32(1))});
    EXPECT_TRUE(rejects(t.m, "value of type f32 for 'v' of type i32"));
  }
}

TEST(Verifier, LayoutRules) {
  {
    // Once one tile has a layout, all must.
    TestKernel t;
    std::vector<Stmt> body;
    Var x = t.tile(body, "x", {128}, l1());
    Expr bad = Binary::make(BinaryOp::Add, VarRef::make(x), Splat::make(VarRef::make(t.a), {128}));
    body.push_back(Decl::make(t.local("y", x->type), lay(bad, l1())));
    t.k().body = Block::make(body);
    EXPECT_TRUE(rejects(t.m, "Splat: tile without a layout"));
  }
  {
    // Elementwise operand in another layout.
    TestKernel t;
    std::vector<Stmt> body;
    Var x = t.tile(body, "x", {128}, l1());
    LayoutRef other = Layout::blocked({4}, {32}, {4}, {0});
    Expr bad = Binary::make(BinaryOp::Add, VarRef::make(x),
                            lay(Splat::make(VarRef::make(t.a), {128}), other));
    body.push_back(Decl::make(t.local("y", x->type), lay(bad, l1())));
    t.k().body = Block::make(body);
    EXPECT_TRUE(rejects(t.m, "binary operand tile<128xf32, #blocked<spt=[4]"));
  }
  {
    // tpw not covering the warp, and wpb not num_warps.
    TestKernel t(64);
    std::vector<Stmt> body;
    t.tile(body, "x", {128}, l1());
    t.k().body = Block::make(body);
    EXPECT_TRUE(rejects(t.m, "has 32 threads per warp; the warp size is 64"));
    TestKernel u(32, 8);
    std::vector<Stmt> body2;
    u.tile(body2, "x", {128}, l1());
    u.k().body = Block::make(body2);
    EXPECT_TRUE(rejects(u.m, "spans 4 warps; the kernel has num_warps=8"));
  }
  {
    // A tile-valued reduce must be in the slice of its operand's layout.
    TestKernel t;
    std::vector<Stmt> body;
    LayoutRef l2 = Layout::blocked({1, 1}, {1, 32}, {4, 1}, {1, 0});
    Var x = t.tile(body, "x", {8, 32}, l2);
    Expr r = lay(Reduce::make(ReduceOp::Sum, 1, VarRef::make(x)), Layout::slice(l2, 0));
    body.push_back(Decl::make(t.local("r", r->type), r));
    t.k().body = Block::make(body);
    EXPECT_TRUE(rejects(t.m, "reduce result tile<8xf32, #slice<dim=0"));
  }
}

TEST(Verifier, LoweredFormRequiresTheEmitterContract) {
  // A reduction before lowering is fine for verify() and not for verifyLowered().
  TestKernel t;
  std::vector<Stmt> body;
  Var x = t.tile(body, "x", {128}, l1());
  Expr r = Reduce::make(ReduceOp::Sum, 0, VarRef::make(x));
  Var s = t.local("s", r->type);
  body.push_back(Decl::make(s, r));
  t.k().body = Block::make(body);
  EXPECT_TRUE(verifies(t.m));
  EXPECT_TRUE(rejects(t.m, "reduce remains after the pipeline", true));
  runBackHalf(t.m);
  EXPECT_TRUE(verifies(t.m, true));

  // The combine nested inside an expression.
  {
    TestKernel u;
    u.k().buffers = {{"b", Type::scalar(ScalarType::F32), {4}, 4, 16, 0}};
    u.k().sharedBytes = 16;
    Expr comb = SharedRead::makeCombine(0, ReduceOp::Sum, 4, Type::scalar(ScalarType::F32));
    u.k().body = Block::make({u.storeScalar(Binary::make(BinaryOp::Add, comb, f32(1)))});
    EXPECT_TRUE(verifies(u.m));
    EXPECT_TRUE(rejects(u.m, "shared_read must be the whole init", true));
  }
  // A missing read-after-write barrier.
  {
    TestKernel u;
    std::vector<Stmt> b2;
    Var y = u.tile(b2, "y", {128}, l1());
    u.k().buffers = {{"b", Type::scalar(ScalarType::F32), {128}, 128, 512, 0}};
    u.k().sharedBytes = 512;
    Var z = u.local("z", y->type);
    b2.push_back(SharedWrite::makeTile(0, VarRef::make(y)));
    b2.push_back(Decl::make(z, SharedRead::makeTile(0, z->type)));
    u.k().body = Block::make(b2);
    EXPECT_TRUE(rejects(u.m, "read-after-write hazard on shared buffer 'b'", true));
  }
  // Overlapping bytes of live-together buffers.
  {
    TestKernel u;
    std::vector<Stmt> b2;
    Var y = u.tile(b2, "y", {128}, l1());
    u.k().buffers = {{"b", Type::scalar(ScalarType::F32), {128}, 128, 512, 0},
                     {"c", Type::scalar(ScalarType::F32), {128}, 128, 512, 256}};
    u.k().sharedBytes = 768;
    Var z = u.local("z", y->type), w = u.local("w", y->type);
    b2.push_back(SharedWrite::makeTile(0, VarRef::make(y)));
    b2.push_back(SharedWrite::makeTile(1, VarRef::make(y)));
    b2.push_back(Barrier::make());
    b2.push_back(Decl::make(z, SharedRead::makeTile(0, z->type)));
    b2.push_back(Decl::make(w, SharedRead::makeTile(1, w->type)));
    u.k().body = Block::make(b2);
    EXPECT_TRUE(rejects(u.m, "shared buffers 'b' and 'c' are live together but share bytes", true));
  }
  // Swizzles a buffer's rows cannot hold: padded rows, and rows of fewer chunks than phases.
  for (auto [rowStride, maxPhase] : {std::pair<int64_t, int>{40, 4}, {32, 8}}) {
    TestKernel u;
    u.k().buffers = {
        {"s", Type::scalar(ScalarType::F16), {64, 32}, rowStride, 64 * rowStride * 2, 0}};
    u.k().buffers[0].swizzle = {8, 2, maxPhase};
    u.k().sharedBytes = u.k().buffers[0].sizeBytes;
    u.k().body = Block::make({});
    EXPECT_TRUE(rejects(u.m, "shared buffer 0 's' has a swizzle its rows cannot hold", true))
        << rowStride << " " << maxPhase;
    u.k().buffers[0].rowStride = 32;
    u.k().buffers[0].swizzle.maxPhase = 4;
    EXPECT_TRUE(verifies(u.m, true));
  }
}

TEST(Verifier, LoadVecMustDivideSizePerThread) {
  TestKernel t;
  LayoutRef l = Layout::blocked({2}, {32}, {4}, {0});
  Expr p = lay(Binary::make(BinaryOp::Add, lay(Splat::make(VarRef::make(t.out), {256}), l),
                            lay(Arange::make(0, 256), l)),
               l);
  auto ld = std::const_pointer_cast<ExprNode>(lay(Load::make(p, nullptr, nullptr), l));
  static_cast<Load *>(ld.get())->vec = 4;
  Var v = t.local("v", ld->type);
  t.k().body = Block::make({Decl::make(v, ld)});
  EXPECT_TRUE(verifies(t.m));
  EXPECT_TRUE(rejects(t.m, "load vec=4 does not divide spt[order[0]]", true));
}

} // namespace

// A product left in flight (SharedDot::inFlight, pipeline-dots on wgmma): `acc = shared_dot(...,
// acc=acc, in_flight)` directly in a loop's body, on wgmma, reading a stage, accumulating in fp32,
// and the loop's only access to `acc`; anything else is rejected.
struct InFlightKernel {
  TestKernel t;
  Var acc, s, i;
  std::vector<Stmt> pre;
  explicit InFlightKernel(Layout::MmaInstr instr = Layout::MmaInstr::Wgmma) {
    for (const char *name : {"a_smem", "b_smem"}) {
      t.k().buffers.push_back({name, Type::scalar(ScalarType::F16), {64, 16}, 16, 4 * 2048, -1});
      t.k().buffers.back().stages = 4;
    }
    t.k().buffers[1].shape = {16, 64};
    t.k().buffers[1].rowStride = 64;
    acc = t.tile(pre, "acc", {64, 64}, Layout::mma(4, 1, instr));
    s = t.local("s", Type::scalar(ScalarType::I32));
    i = t.k().newVar("i", Type::scalar(ScalarType::I32), VarKind::LoopIndex, {});
    pre.push_back(Decl::make(s, i32(0)));
  }
  Stmt product(Expr accIn = nullptr) {
    return Assign::make(acc, SharedDot::make(0, 1, accIn ? accIn : VarRef::make(acc),
                                             DotPrecision::Ieee, acc->type, {}, VarRef::make(s),
                                             false, false, /*inFlight=*/true));
  }
  /// for i { [body] }, then the kernel's body.
  Module &build(std::vector<Stmt> body, bool inLoop = true) {
    std::vector<Stmt> all = pre;
    if (inLoop)
      all.push_back(For::make(i, i32(0), i32(8), i32(1), Block::make(body), false));
    else
      all.insert(all.end(), body.begin(), body.end());
    t.k().body = Block::make(all);
    return t.m;
  }
};

TEST(Verifier, ProductsLeftInFlight) {
  {
    InFlightKernel f;
    EXPECT_TRUE(verifies(f.build({f.product()}))) << f.t.str();
  }
  {
    InFlightKernel f; // another access to the accumulator in the loop
    Stmt scale = Assign::make(
        f.acc, Binary::make(BinaryOp::Mul, VarRef::make(f.acc),
                            lay(Splat::make(VarRef::make(f.t.a), {64, 64}), f.acc->type.layout)));
    EXPECT_TRUE(rejects(f.build({f.product(), scale}),
                        "into 'acc', which the loop accesses nowhere else"));
  }
  {
    InFlightKernel f; // not in a loop
    EXPECT_TRUE(rejects(f.build({f.product()}, false), "shared_dot in flight outside"));
  }
  {
    InFlightKernel f(Layout::MmaInstr::M16N8K16); // mma.sync has no products in flight
    EXPECT_TRUE(rejects(f.build({f.product()}), "shared_dot in flight: not a wgmma product"));
  }
}

// A product left in flight reads its stages until the wgmma_wait after its loop: shared memory the
// epilogue writes over those stages needs a barrier after the loop (as pipeline-dots' matmul
// epilogue once lacked on the TMA ring, where no cp.async wait after the loop forced one: the
// emulator reported the operands changed under the last product).
TEST(Verifier, ProductInFlightReadsItsStagesUntilAfterTheLoop) {
  for (bool barrier : {false, true}) {
    InFlightKernel f;
    Kernel &k = f.t.k();
    k.buffers[0].offsetBytes = 0;
    k.buffers[1].offsetBytes = 8192;
    k.buffers.push_back({"c_smem", Type::scalar(ScalarType::F32), {64, 64}, 64, 16384, 0});
    k.sharedBytes = 16384;
    // The loop as pipeline-dots leaves it: the barrier after the product (its wgmma_wait retires
    // the last iteration's product) orders the reads the product has made so far, not those it
    // makes while it stays in flight.
    Module &m = f.build({f.product(), Barrier::make()});
    std::vector<Stmt> body = as<Block>(k.body)->stmts;
    if (barrier)
      body.push_back(Barrier::make());
    body.push_back(SharedWrite::makeTile(2, VarRef::make(f.acc)));
    k.body = Block::make(body);
    if (barrier)
      EXPECT_TRUE(verifies(m, true)) << f.t.str();
    else
      EXPECT_TRUE(
          rejects(m, "write-after-read hazard on shared buffer 'c_smem' without a barrier", true))
          << f.t.str();
  }
}

// Warp specialization (pipeline-dots on sm_90): one WarpSpecialize node, the body's last
// statement, in a kernel with producer threads; the producer runs scalar code, TMA copies and
// stage waits only; a stage is freed in the consumers and waited for in the producer. The printed
// form names both sides.
TEST(Verifier, WarpSpecializedShape) {
  auto build = [](TestKernel &t, Stmt producer, Stmt consumers, bool last = true) {
    Kernel &k = t.k();
    SharedBuffer ring{"a_smem", Type::scalar(ScalarType::F16), {64, 64}, 64, 2 * 8192, 0};
    ring.stages = 2;
    ring.tma = TmaTensor{t.out->id, i32(64), i32(64), i32(64), 0};
    k.buffers = {ring};
    k.sharedBytes = 2 * 8192;
    k.producerThreads = 128;
    std::vector<Stmt> body{WarpSpecialize::make(std::move(producer), std::move(consumers))};
    if (!last)
      body.push_back(t.storeScalar(f32(1)));
    k.body = Block::make(body);
  };
  auto wait = [] { return StageFree::makeWait(0, i32(1), i32(0)); };
  auto release = [] { return StageFree::make(0, i32(1)); };
  {
    TestKernel t;
    build(t, Block::make({wait()}), Block::make({release(), t.storeScalar(f32(2))}));
    EXPECT_TRUE(verifies(t.m, true)) << t.str();
    const std::string printed = t.str();
    EXPECT_NE(printed.find("producer_threads=128"), std::string::npos) << printed;
    EXPECT_NE(printed.find("producer {"), std::string::npos) << printed;
    EXPECT_NE(printed.find("stage_free_wait ring 0 stage 1:i32 parity 0:i32"), std::string::npos)
        << printed;
    EXPECT_NE(printed.find("consumers {"), std::string::npos) << printed;
    EXPECT_NE(printed.find("stage_free ring 0 stage 1:i32"), std::string::npos) << printed;
  }
  {
    TestKernel t; // the producer stores
    build(t, Block::make({wait(), t.storeScalar(f32(2))}), Block::make({release()}));
    EXPECT_TRUE(rejects(t.m, "the producer runs scalar code, TMA copies and stage waits only"));
  }
  {
    TestKernel t; // sides swapped
    build(t, Block::make({release()}), Block::make({wait()}));
    EXPECT_TRUE(rejects(t.m, "the producer waits for free stages"));
  }
  {
    TestKernel t; // statements after the node: the producer's threads would skip them
    build(t, Block::make({wait()}), Block::make({release()}), false);
    EXPECT_TRUE(rejects(t.m, "warp specialization is one node, the body's last statement"));
  }
  {
    TestKernel t; // no producer threads to run it
    build(t, Block::make({wait()}), Block::make({release()}));
    t.k().producerThreads = 0;
    EXPECT_TRUE(rejects(t.m, "warp specialization is one node, the body's last statement"));
  }
}

// The kernel's combine functions (tl::reduce, tl::associative_scan) and the nodes that name them.
TEST(Verifier, CombineFunctions) {
  auto withCombine = [](TestKernel &t, Expr body, Var a, Var b) {
    CombineFunction c;
    c.a = a;
    c.b = b;
    c.body = body;
    t.k().combines.push_back(c);
  };
  {
    TestKernel t; // reads the kernel's parameter `a`, not one of its arguments
    Var x = t.local("x", Type::scalar(ScalarType::F32)),
        y = t.local("y", Type::scalar(ScalarType::F32));
    withCombine(t, Binary::make(BinaryOp::Add, VarRef::make(x), VarRef::make(t.a)), x, y);
    t.k().body = Block::make({});
    EXPECT_TRUE(rejects(t.m, "combine function 0 reads 'a', not one of its arguments"));
  }
  {
    TestKernel t; // an int32 combine function named by a reduction of floats
    Var x = t.local("x", Type::scalar(ScalarType::I32)),
        y = t.local("y", Type::scalar(ScalarType::I32));
    withCombine(t, Binary::make(BinaryOp::Xor, VarRef::make(x), VarRef::make(y)), x, y);
    std::vector<Stmt> body;
    Var v = t.tile(body, "v", {128}, nullptr);
    body.push_back(t.storeScalar(Reduce::make(ReduceOp::Combine, 0, VarRef::make(v), {}, 0)));
    t.k().body = Block::make(body);
    EXPECT_TRUE(rejects(t.m, "combine function 0 of another element type"));
  }
  {
    TestKernel t; // a whole scan where only its parts may remain
    std::vector<Stmt> body;
    Var v = t.tile(body, "v", {128}, l1());
    Var s = t.local("s", v->type);
    body.push_back(Decl::make(s, lay(Scan::make(ScanOp::Sum, 0, false, VarRef::make(v)), l1())));
    t.k().body = Block::make(body);
    EXPECT_TRUE(verifies(t.m));
    EXPECT_TRUE(rejects(t.m, "scan remains after the pipeline", true));
  }
}
