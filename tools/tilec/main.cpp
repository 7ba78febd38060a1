/// The tilec command: parses the command line (the only user of Boost.Program_options) into
/// tilec::Options and runs the driver.

#include "driver/Options.h"

#include <boost/program_options.hpp>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <regex>
#include <sstream>
#include <string>
#include <system_error>
#include <vector>

namespace po = boost::program_options;

namespace {

const char *kUsage = "usage: tilec [options] <kernel.cpp>... [-- <clang arguments>]";

const char *kExamples = R"(Inputs: one or more kernel sources (their kernels go into one output file). <tilec/tl.hpp> is
found in the include folder of tilec's install prefix, else in tilec's source tree.

Examples:
  tilec vector_add.cpp                         # writes vector_add.cu (CUDA, sm_90a)
  tilec --target=hip softmax.cpp -o softmax.hip
  tilec --instantiate 'add_kernel<4096>' vector_add.cpp
  tilec --emit=ir --stop-after=layout-assignment vector_add.cpp -o -
  tilec kernel.cpp -- -DBLOCK=256 -I include
  tilec k.cpp -o k.cu --header k.h --depfile k.cu.d   # what tilec_add_kernels() in CMake runs

Exit codes: 0 success, 1 error in the kernel (or output not writable), 2 bad command line,
3 internal compiler error. On any error no output file (nor --header, nor --depfile) is written and
existing ones are left untouched.
)";

/// Where <tilec/tl.hpp> is: in an installed tilec's prefix (bin/../include by default), then the
/// source tree.
std::vector<std::string> defaultIncludeDirs(const char *argv0) {
  namespace fs = std::filesystem;
  std::vector<std::string> dirs;
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec)
    exe = fs::absolute(argv0, ec);
  if (!exe.empty()) {
    fs::path inc = (exe.parent_path() / TILEC_INCLUDE_FROM_BINDIR).lexically_normal();
    if (fs::exists(inc / "tilec" / "tl.hpp", ec))
      dirs.push_back(inc.string());
  }
  if (fs::exists(TILEC_SOURCE_RUNTIME_HEADERS, ec))
    dirs.push_back(TILEC_SOURCE_RUNTIME_HEADERS);
  return dirs;
}

/// Repeatable options that also accept comma-separated lists (--print-after=a,b).
std::vector<std::string> splitCommas(const std::vector<std::string> &in) {
  std::vector<std::string> out;
  for (auto &s : in) {
    std::stringstream ss(s);
    std::string part;
    while (std::getline(ss, part, ','))
      if (!part.empty())
        out.push_back(part);
  }
  return out;
}

int usageError(const std::string &msg) {
  std::cerr << "tilec: error: " << msg << "\n" << kUsage << "\n(see 'tilec --help')\n";
  return tilec::ExitUsage;
}

/// Counts what passes through to standard output, to tell whether a run wrote any.
class CountingBuf : public std::streambuf {
public:
  explicit CountingBuf(std::streambuf *inner) : inner_(inner) {}
  size_t count = 0;

protected:
  int_type overflow(int_type c) override {
    if (traits_type::eq_int_type(c, traits_type::eof()))
      return traits_type::not_eof(c);
    ++count;
    return inner_->sputc(traits_type::to_char_type(c));
  }
  std::streamsize xsputn(const char *s, std::streamsize n) override {
    count += static_cast<size_t>(n);
    return inner_->sputn(s, n);
  }
  int sync() override { return inner_->pubsync(); }

private:
  std::streambuf *inner_;
};

int run(int argc, char **argv);

} // namespace

/// Standard output is checked as a compiler checks its output file: `-o -` (or --help) into a
/// closed or full standard output is an error, not a silent success.
int main(int argc, char **argv) {
  // A closed descriptor 0, 1 or 2 would be the next file the run opens, and text meant for the
  // stream would go there: each gets /dev/null, and a closed standard output is remembered.
  bool stdoutClosed = false;
  for (int fd = 0; fd <= 2; ++fd)
    if (::fcntl(fd, F_GETFD) < 0 && errno == EBADF) {
      stdoutClosed |= fd == 1;
      int null = ::open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
      if (null >= 0 && null != fd) {
        ::dup2(null, fd);
        ::close(null);
      }
    }
  CountingBuf counting(std::cout.rdbuf());
  std::streambuf *original = std::cout.rdbuf(&counting);
  int rc = run(argc, argv);
  std::cout.flush();
  const int flushErrno = errno;
  const bool failed = !std::cout || (stdoutClosed && counting.count > 0);
  std::cout.rdbuf(original);
  if (failed) {
    std::cerr << "tilec: error: cannot write to standard output: "
              << std::strerror(stdoutClosed ? EBADF : flushErrno ? flushErrno : EIO) << '\n';
    return rc == tilec::ExitSuccess ? tilec::ExitUserError : rc;
  }
  return rc;
}

namespace {

int run(int argc, char **argv) {
  // Everything after `--` goes to Clang untouched.
  std::vector<std::string> args, clangArgs;
  bool afterDashDash = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (!afterDashDash && a == "--") {
      afterDashDash = true;
      continue;
    }
    (afterDashDash ? clangArgs : args).push_back(a);
  }

  po::options_description visible("Options");
  // clang-format off
  visible.add_options()
    ("help,h", "print this help and exit")
    ("version", "print tilec's version and exit")
    ("output,o", po::value<std::string>()->value_name("FILE"),
     "output file; '-' writes to stdout (default: <input stem>.cu, .hip or .tir in the current directory)")
    ("header", po::value<std::string>()->value_name("FILE"),
     "also write FILE: a header declaring the host launchers, for the host code to include")
    ("depfile", po::value<std::string>()->value_name("FILE"),
     "also write FILE: the output's dependencies (the kernel source and every header it includes) "
     "in Make syntax, for build systems (CMake's DEPFILE, Ninja's depfile)")
    ("target", po::value<std::string>()->value_name("cuda|hip")->default_value("cuda"),
     "target language")
    ("arch", po::value<std::string>()->value_name("ARCH"),
     "GPU architecture (default: sm_90a for cuda, gfx90a for hip)")
    ("emit", po::value<std::string>()->value_name("ir|cuda|hip"),
     "what to write (default: the target's language; 'ir' with --stop-after): 'ir' prints the Tile IR "
     "after the passes that ran")
    ("namespace", po::value<std::string>()->value_name("NS"),
     "declare everything the output declares (the instantiations' namespaces, the launchers) in "
     "namespace NS (e.g. mylib::kernels), so that two outputs with the same kernel link into one "
     "program; choose a namespace of its own")
    ("instantiate", po::value<std::vector<std::string>>()->value_name("'KERNEL<ARGS>'")->composing(),
     "also compile this instantiation, e.g. 'add_kernel<4096>' (repeatable); explicit instantiations "
     "in the source are always compiled")
    ("list-passes", "print the pass pipeline (name and description) and exit")
    ("print-after", po::value<std::vector<std::string>>()->value_name("PASS|all")->composing(),
     "print the Tile IR to stderr after PASS (repeatable, or comma-separated; 'all' for every pass)")
    ("stop-after", po::value<std::string>()->value_name("PASS"),
     "stop the pipeline after PASS (implies --emit=ir unless --emit is given)")
    ("no-aligned-variants",
     "emit each kernel once: no variant for 16-byte aligned pointers and integer arguments that are "
     "multiples of 16 beside the general kernel (by default tilec emits one where it changes the "
     "code, and the launcher picks it when the arguments qualify)")
    ("no-provenance", "omit the '// file:line: source' comments in the generated code")
    ("line-directives", "emit #line directives that map the generated code back to the kernel source")
    ("pch-dir", po::value<std::string>()->value_name("DIR"),
     "keep a precompiled <tilec/tl.hpp> in DIR (created if missing) and read it instead of parsing the "
     "header: for many runs over small sources, such as test suites. Built on first use, once per set "
     "of include folders and Clang arguments, and again when a header it was built from changes; the "
     "output and the diagnostics are the same as without it (a --depfile also names the precompiled "
     "header)");
  // clang-format on
  po::options_description hidden;
  hidden.add_options()("input", po::value<std::vector<std::string>>()->composing(), "input files");
  po::options_description all;
  all.add(visible).add(hidden);
  po::positional_options_description positional;
  positional.add("input", -1);

  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args)
                  .options(all)
                  .positional(positional)
                  .style(po::command_line_style::default_style & ~po::command_line_style::allow_guessing)
                  .run(),
              vm);
    po::notify(vm);
  } catch (const po::error &e) {
    return usageError(e.what());
  }

  if (vm.count("help")) {
    std::cout << "tilec " << TILEC_VERSION
              << ": translates Triton-style tile kernels written in C++ against <tilec/tl.hpp> into\n"
                 "readable CUDA or HIP C++.\n\n"
              << kUsage << "\n\n"
              << visible << "\n  -- <args>                    pass the remaining arguments to Clang "
                            "(e.g. -D, -I, -std=)\n\n"
              << kExamples;
    return tilec::ExitSuccess;
  }
  if (vm.count("version")) {
    std::cout << "tilec " << TILEC_VERSION << "\n";
    return tilec::ExitSuccess;
  }

  tilec::Options opts;
  std::string target = vm["target"].as<std::string>();
  if (target == "cuda")
    opts.target = tilec::ir::TargetKind::Cuda;
  else if (target == "hip")
    opts.target = tilec::ir::TargetKind::Hip;
  else
    return usageError("invalid --target '" + target + "'; expected 'cuda' or 'hip'");
  opts.emit = opts.target == tilec::ir::TargetKind::Hip ? tilec::EmitKind::Hip : tilec::EmitKind::Cuda;
  if (vm.count("stop-after"))
    opts.stopAfter = vm["stop-after"].as<std::string>();
  if (vm.count("emit")) {
    std::string e = vm["emit"].as<std::string>();
    if (e == "ir")
      opts.emit = tilec::EmitKind::Ir;
    else if (e == "cuda" || e == "hip") {
      auto want = e == "cuda" ? tilec::ir::TargetKind::Cuda : tilec::ir::TargetKind::Hip;
      if (!vm["target"].defaulted() && want != opts.target)
        return usageError("--emit=" + e + " contradicts --target=" + target);
      opts.target = want;
      opts.emit = e == "cuda" ? tilec::EmitKind::Cuda : tilec::EmitKind::Hip;
      if (!opts.stopAfter.empty())
        return usageError("--stop-after needs --emit=ir (the generated code needs the whole pipeline)");
    } else {
      return usageError("invalid --emit '" + e + "'; expected 'ir', 'cuda' or 'hip'");
    }
  } else if (!opts.stopAfter.empty()) {
    opts.emit = tilec::EmitKind::Ir;
  }
  if (vm.count("arch")) {
    opts.arch = vm["arch"].as<std::string>();
    // The name goes into the output's header comment and names what the code is built for: it must
    // be one the target's compiler takes.
    bool cuda = opts.target == tilec::ir::TargetKind::Cuda;
    static const std::regex cudaArch("sm_[0-9]{2,3}[a-z]?"), hipArch("gfx[0-9a-f]{3,4}(:(sramecc|xnack)[+-])*");
    if (!std::regex_match(opts.arch, cuda ? cudaArch : hipArch))
      return usageError("invalid --arch '" + opts.arch + "' for --target=" + (cuda ? "cuda" : "hip") +
                        (cuda ? "; expected sm_ and a compute capability, such as sm_90a or sm_80"
                              : "; expected gfx and a processor, such as gfx90a or gfx942"));
  }
  if (vm.count("output"))
    opts.output = vm["output"].as<std::string>();
  if (vm.count("namespace"))
    opts.outputNamespace = vm["namespace"].as<std::string>();
  if (vm.count("header"))
    opts.header = vm["header"].as<std::string>();
  if (vm.count("depfile"))
    opts.depfile = vm["depfile"].as<std::string>();
  if (vm.count("instantiate"))
    opts.instantiate = vm["instantiate"].as<std::vector<std::string>>();
  if (vm.count("print-after"))
    opts.printAfter = splitCommas(vm["print-after"].as<std::vector<std::string>>());
  opts.listPasses = vm.count("list-passes") > 0;
  opts.provenance = vm.count("no-provenance") == 0;
  opts.alignedVariants = vm.count("no-aligned-variants") == 0;
  opts.lineDirectives = vm.count("line-directives") > 0;
  if (vm.count("input"))
    opts.inputs = vm["input"].as<std::vector<std::string>>();
  if (vm.count("pch-dir")) {
    opts.pchDir = vm["pch-dir"].as<std::string>();
    if (opts.pchDir.empty())
      return usageError("--pch-dir needs a directory name");
  }
  opts.clangArgs = clangArgs;
  opts.includeDirs = defaultIncludeDirs(argv[0]);
  return tilec::runTilec(opts, std::cout, std::cerr);
}

} // namespace
