// The fuzz target's code path (FuzzPipeline.cpp: one translation with a precompiled <tilec/tl.hpp>,
// CUDA on the module, HIP on its clone) gives what the tilec command gives: every golden, byte for
// byte. A fuzz target that compiled differently from tilec would fuzz something else.

#include "tests/fuzz/FuzzPipeline.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace {

namespace fs = std::filesystem;

std::string readFile(const fs::path &p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct GoldenCase {
  std::string name, source; // golden/cases.txt: <case> <source relative to the repository root>
};

std::vector<GoldenCase> goldenCases() {
  std::vector<GoldenCase> cases;
  std::ifstream in(fs::path(TILEC_SOURCE_DIR) / "golden" / "cases.txt");
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#')
      continue;
    std::istringstream fields(line);
    GoldenCase c;
    fields >> c.name >> c.source;
    cases.push_back(c);
  }
  return cases;
}

/// One precompiled header for all the cases: writing it costs more than a case's translation.
TEST(FuzzPipeline, GivesTheGoldens) {
  fs::path scratch = fs::temp_directory_path() / "tilec-fuzz-test-XXXXXX";
  std::string tmpl = scratch.string();
  ASSERT_NE(::mkdtemp(tmpl.data()), nullptr);
  scratch = tmpl;
  tilec::translator::TranslateOptions options;
  options.includeDirs = {TILEC_RUNTIME_HEADERS_DIR};
  std::ostringstream pchErr;
  std::string pch = (scratch / "tl.pch").string();
  ASSERT_TRUE(tilec::translator::writePrecompiledTl(pch, options, pchErr)) << pchErr.str();
  options.precompiledHeader = pch;

  std::vector<GoldenCase> cases = goldenCases();
  EXPECT_GE(cases.size(), 10u);
  fs::path cwd = fs::current_path();
  for (const GoldenCase &c : cases) {
    SCOPED_TRACE(c.name);
    fs::path src = fs::path(TILEC_SOURCE_DIR) / c.source;
    // From the source's folder, as the goldens are made (tests/golden/translate.sh).
    fs::current_path(src.parent_path());
    std::ostringstream err;
    tilec::fuzz::Result r =
        tilec::fuzz::compileBoth(readFile(src), src.filename().string(), options, err);
    fs::current_path(cwd);
    ASSERT_EQ(r.outcome, tilec::fuzz::Outcome::Compiled) << err.str();
    fs::path golden = fs::path(TILEC_SOURCE_DIR) / "golden" / c.name / c.name;
    EXPECT_EQ(r.cuda, readFile(golden.string() + ".cu"));
    EXPECT_EQ(r.hip, readFile(golden.string() + ".hip"));
    EXPECT_NE(r.cudaHeader.find("launch_"), std::string::npos);
    EXPECT_NE(r.hipHeader.find("launch_"), std::string::npos);
  }
  std::error_code ec;
  fs::remove_all(scratch, ec);
}

TEST(FuzzPipelineOutcome, UserErrorIsNotInternal) {
  tilec::translator::TranslateOptions options;
  options.includeDirs = {TILEC_RUNTIME_HEADERS_DIR};
  std::ostringstream err;
  tilec::fuzz::Result r = tilec::fuzz::compileBoth("#include <tilec/tl.hpp>\nint x = y;\n",
                                                   "bad.cpp", options, err);
  EXPECT_EQ(r.outcome, tilec::fuzz::Outcome::UserError);
  EXPECT_NE(err.str().find("bad.cpp:2:9: error: use of undeclared identifier 'y'"), std::string::npos)
      << err.str();
}

} // namespace
