/// libFuzzer target over tilec's whole pipeline (docs/robustness.md): each input is a kernel source
/// file, translated once and compiled for CUDA and for HIP (FuzzPipeline.cpp).
///
/// A crash, for libFuzzer, is anything tilec would report as a compiler bug: an internal error
/// (tilec's exit status 3), an uncaught exception (it terminates at the throw, so the stack shows
/// where), an assertion, a sanitizer report. An error in the kernel (a diagnostic) is a normal
/// outcome. Diagnostics are kept in memory and printed only before an abort.
///
/// <tilec/tl.hpp> and the C++ library headers it includes are parsed once, into a precompiled
/// header in a temporary directory (LLVMFuzzerInitialize), and read from it by every translation:
/// parsing them dominates a small kernel's translation otherwise.
///
/// An input can also ask for instantiations, as tilec's --instantiate does, with the lines that the
/// diagnostics cases use: `// ARG: --instantiate` followed by `// ARG: k<args>`. Those seeds carry
/// them, so the fuzzer reaches the translator's handling of requests too.

#include "tests/fuzz/FuzzPipeline.h"

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#ifndef TILEC_RUNTIME_HEADERS_DIR
#error "TILEC_RUNTIME_HEADERS_DIR must be defined by the build (where <tilec/tl.hpp> is)"
#endif

namespace {

tilec::translator::TranslateOptions options;
std::filesystem::path scratch; // holds the precompiled header

void removeScratch() {
  std::error_code ec;
  std::filesystem::remove_all(scratch, ec);
}

/// The --instantiate requests the input's `// ARG:` lines make.
std::vector<std::string> requests(const std::string &code) {
  std::vector<std::string> args, out;
  std::istringstream lines(code);
  for (std::string line; std::getline(lines, line);)
    if (line.rfind("// ARG: ", 0) == 0)
      args.push_back(line.substr(8));
  for (size_t i = 0; i + 1 < args.size(); ++i)
    if (args[i] == "--instantiate")
      out.push_back(args[++i]);
  return out;
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  namespace fs = std::filesystem;
  std::error_code ec;
  std::string tmpl = (fs::temp_directory_path(ec) / "tilec-fuzz-XXXXXX").string();
  if (ec || !::mkdtemp(tmpl.data())) {
    std::cerr << "tilec-fuzz: cannot create a temporary directory for the precompiled header\n";
    std::exit(1);
  }
  scratch = tmpl;
  std::atexit(removeScratch);
  options.includeDirs = {TILEC_RUNTIME_HEADERS_DIR};
  std::string pch = (scratch / "tl.pch").string();
  if (!tilec::translator::writePrecompiledTl(pch, options, std::cerr)) {
    std::cerr << "tilec-fuzz: cannot precompile <tilec/tl.hpp> into " << pch << '\n';
    std::exit(1);
  }
  options.precompiledHeader = pch;
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string code(reinterpret_cast<const char *>(data), size);
  std::ostringstream err;
  tilec::translator::TranslateOptions withRequests = options;
  withRequests.instantiate = requests(code);
  tilec::fuzz::Result r = tilec::fuzz::compileBoth(code, "fuzz.cpp", withRequests, err);
  if (r.outcome == tilec::fuzz::Outcome::Internal) {
    std::cerr << err.str();
    std::abort();
  }
  return 0;
}
