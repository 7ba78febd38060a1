#include "BackTestUtil.h"

#include <stdexcept>
#include <string>
#include <vector>

using namespace tilec;
using namespace tilec::ir;
using namespace tilec::testing;

namespace {

// A kernel no pass changes: store(%out, %a).
TestKernel trivial() {
  TestKernel t;
  t.k().body = Block::make({t.storeScalar(VarRef::make(t.a))});
  return t;
}

struct PipelineRun {
  std::ostringstream diagOut, printed;
  DiagnosticEngine diags{diagOut};
  bool ok = false;
  bool operator()(Module &m, passes::PipelineOptions opts) {
    passes::PassContext ctx{diags, Target{}};
    opts.printStream = &printed;
    ok = passes::runPipeline(m, ctx, opts);
    return ok;
  }
};

TEST(PassManager, RegistryAndFactoriesAgree) {
  const auto &all = passes::registeredPasses();
  std::vector<std::string> names;
  for (auto &info : all)
    names.push_back(info.name);
  EXPECT_EQ(names, (std::vector<std::string>{
                       "simplify", "dead-decls", "materialize", "sink-decls", "rematerialize",
                       "prefetch-loads", "layout-assignment", "lower-reductions", "lower-dots",
                       "pipeline-dots", "lower-layout-conversions", "allocate-shared",
                       "insert-barriers"}));
  for (auto &info : all) {
    auto p = passes::createPass(info.name);
    ASSERT_TRUE(p) << info.name;
    EXPECT_STREQ(p->name(), info.name);
  }
  EXPECT_EQ(passes::createPass("no-such-pass"), nullptr);
}

TEST(PassManager, PrintAfterAndStopAfter) {
  TestKernel t = trivial();
  PipelineRun run;
  passes::PipelineOptions opts;
  opts.printAfter = {"simplify", "materialize"};
  opts.stopAfter = "materialize";
  EXPECT_TRUE(run(t.m, opts));
  std::string body = "kernel @k instance=k num_warps=4 {\n  param %out: ptr<f32>\n  param %a: f32\n"
                     "  store(%out, %a)\n}\n";
  EXPECT_EQ(run.printed.str(), "// -----// IR after simplify //----- //\n" + body +
                                   "// -----// IR after materialize //----- //\n" + body);
}

TEST(PassManager, PrintAfterAllRunsTheWholePipeline) {
  TestKernel t = trivial();
  PipelineRun run;
  passes::PipelineOptions opts;
  opts.printAfter = {"all"};
  EXPECT_TRUE(run(t.m, opts));
  std::string s = run.printed.str();
  size_t n = 0;
  for (size_t p = s.find("// -----// IR after "); p != std::string::npos;
       p = s.find("// -----// IR after ", p + 1))
    ++n;
  EXPECT_EQ(n, passes::registeredPasses().size());
  EXPECT_NE(s.find("// -----// IR after insert-barriers //----- //\n"), std::string::npos);
}

TEST(PassManager, UnknownNamesReturnFalse) {
  TestKernel t = trivial();
  PipelineRun run;
  passes::PipelineOptions opts;
  opts.stopAfter = "no-such-pass";
  EXPECT_FALSE(run(t.m, opts));
  opts.stopAfter.clear();
  opts.printAfter = {"nope"};
  EXPECT_FALSE(run(t.m, opts));
  EXPECT_EQ(run.printed.str(), "");
}

TEST(PassManager, StopsAtTheFirstPassReportingAnError) {
  // An (unused) oversized buffer: allocate-shared reports; insert-barriers never runs.
  TestKernel t = trivial();
  t.k().buffers = {{"huge", Type::scalar(ScalarType::F32), {65536}, 65536, 262144, -1}};
  PipelineRun run;
  passes::PipelineOptions opts;
  opts.printAfter = {"all"};
  EXPECT_FALSE(run(t.m, opts));
  EXPECT_NE(run.diagOut.str().find("kernel needs 262144 bytes of shared memory"), std::string::npos)
      << run.diagOut.str();
  EXPECT_NE(run.printed.str().find("IR after lower-layout-conversions"), std::string::npos);
  EXPECT_EQ(run.printed.str().find("IR after allocate-shared"), std::string::npos);
}

TEST(PassManager, VerifyEachNamesThePassThatBrokeTheIR) {
  // Broken input: the first pass after which the verifier runs is named.
  TestKernel t;
  Var ghost = t.local("ghost", Type::scalar(ScalarType::F32));
  t.k().body = Block::make({t.storeScalar(VarRef::make(ghost))});
  PipelineRun run;
  try {
    run(t.m, {});
    FAIL() << "expected an internal error";
  } catch (const std::logic_error &e) {
    EXPECT_NE(std::string(e.what()).find("internal error: IR verification failed after pass "
                                         "'simplify': kernel 'k': 'ghost' used before"),
              std::string::npos)
        << e.what();
  }
  // Without verify-each the stricter end-of-pipeline check still catches it.
  TestKernel u;
  Var ghost2 = u.local("ghost", Type::scalar(ScalarType::F32));
  u.k().body = Block::make({u.storeScalar(VarRef::make(ghost2))});
  passes::PipelineOptions opts;
  opts.verifyEach = false;
  EXPECT_THROW(run(u.m, opts), std::logic_error);
}

} // namespace
