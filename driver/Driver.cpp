/// tilec's driver: translate every input, run the pass pipeline, emit CUDA/HIP (or print the IR)
/// and write the output file (with --header and --depfile, those too) through temporaries in the
/// same directories, renamed once all were written, so that a failed translation never leaves a
/// partial or stale-looking output behind.

#include "driver/Driver.h"
#include "driver/AlignedVariants.h"
#include "emitters/Emitter.h"
#include "ir/Clone.h"
#include "ir/Diagnostics.h"
#include "ir/Printer.h"
#include "passes/Pass.h"
#include "translator/InstanceNames.h"
#include "translator/Translator.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <optional>
#include <sstream>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace tilec {
namespace {

const char *extensionFor(EmitKind k) {
  switch (k) {
  case EmitKind::Ir: return ".tir";
  case EmitKind::Cuda: return ".cu";
  case EmitKind::Hip: return ".hip";
  }
  return ".out";
}

bool knownPass(const std::string &name) {
  for (auto &p : passes::registeredPasses())
    if (name == p.name)
      return true;
  return false;
}

std::string validPassNames() {
  std::string r;
  for (auto &p : passes::registeredPasses())
    r += (r.empty() ? "" : ", ") + std::string(p.name);
  return r;
}

/// One output file on its way: its text is written to a temporary in the same directory, which is
/// renamed over `path` only once every output of the run was written.
struct Staged {
  std::string path;
  std::string tmp;
};

/// Writes `text` to a new temporary next to `path` (recorded in `staged`). Returns an error
/// message, empty on success; on failure no temporary is left.
std::string stage(const std::string &path, const std::string &text, Staged &staged) {
  namespace fs = std::filesystem;
  fs::path target(path);
  fs::path dir = target.parent_path();
  // `.<name>.tilec-XXXXXX`, the name cut so that the temporary's stays within NAME_MAX (255).
  std::string name = target.filename().string();
  constexpr size_t kNameMax = 255, kAround = sizeof(".") - 1 + sizeof(".tilec-XXXXXX") - 1;
  if (name.size() > kNameMax - kAround)
    name.resize(kNameMax - kAround);
  std::string tmpl = (dir.empty() ? fs::path(".") : dir).string() + "/." + name + ".tilec-XXXXXX";
  std::vector<char> buf(tmpl.begin(), tmpl.end());
  buf.push_back('\0');
  int fd = ::mkstemp(buf.data());
  if (fd < 0)
    return std::strerror(errno);
  std::string tmp(buf.data());
  size_t done = 0;
  while (done < text.size()) {
    ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0) {
      if (errno == EINTR)
        continue;
      std::string msg = std::strerror(errno);
      ::close(fd);
      ::unlink(tmp.c_str());
      return msg;
    }
    done += static_cast<size_t>(n);
  }
  // mkstemp creates 0600; give the output the usual permissions (umask applies).
  mode_t mask = ::umask(0);
  ::umask(mask);
  ::fchmod(fd, 0666 & ~mask);
  if (::close(fd) != 0) {
    std::string msg = std::strerror(errno);
    ::unlink(tmp.c_str());
    return msg;
  }
  staged = {path, tmp};
  return {};
}

/// Writes `text` to an existing file that is not a regular one (a character device such as
/// /dev/null, a FIFO), in place: it cannot be staged, and renaming a temporary over it would replace
/// the device with a regular file.
std::string writeInPlace(const std::string &path, const std::string &text) {
  int fd = ::open(path.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
  if (fd < 0)
    return std::strerror(errno);
  size_t done = 0;
  while (done < text.size()) {
    ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0) {
      if (errno == EINTR)
        continue;
      std::string msg = std::strerror(errno);
      ::close(fd);
      return msg;
    }
    done += static_cast<size_t>(n);
  }
  return ::close(fd) == 0 ? std::string() : std::string(std::strerror(errno));
}

/// Writes every (path, text) pair: all temporaries first, then the renames, so that an error while
/// writing (a full disk, a missing directory) leaves none of the outputs written and existing ones
/// untouched. Only a failing rename, after everything was written, can leave the files before it
/// renamed. Reports the first failure.
///
/// An output that is a symbolic link is written through it: the file it leads to is replaced and
/// the link stays. An existing output that is not a regular file (/dev/null, a FIFO) is written in
/// place, as compilers do, after every temporary was written.
bool writeAll(const std::vector<std::pair<std::string, std::string>> &files, std::ostream &err) {
  namespace fs = std::filesystem;
  std::vector<Staged> staged;
  std::vector<std::pair<std::string, const std::string *>> inPlace;
  auto fail = [&](const std::string &path, const std::string &error, size_t firstUnrenamed) {
    for (size_t i = firstUnrenamed; i < staged.size(); ++i)
      ::unlink(staged[i].tmp.c_str());
    DiagnosticEngine d(err);
    d.report(DiagId::CannotWriteOutput, "tilec", 0, 0, {path, error});
    return false;
  };
  for (auto &[path, text] : files) {
    std::error_code ec;
    std::string where = path;
    if (fs::is_symlink(path, ec)) {
      fs::path to = fs::weakly_canonical(fs::absolute(path, ec), ec);
      if (!ec)
        where = to.string();
    }
    fs::file_status st = fs::status(where, ec);
    // rename() fails on a directory only after the other files were renamed: refuse it first.
    if (fs::is_directory(st))
      return fail(path, std::strerror(EISDIR), 0);
    if (fs::exists(st) && !fs::is_regular_file(st)) {
      inPlace.emplace_back(where, &text);
      continue;
    }
    Staged s;
    std::string error = stage(where, text, s);
    if (!error.empty())
      return fail(path, error, 0);
    staged.push_back(s);
  }
  for (auto &[path, text] : inPlace)
    if (std::string error = writeInPlace(path, *text); !error.empty())
      return fail(path, error, 0);
  for (size_t i = 0; i < staged.size(); ++i)
    if (std::rename(staged[i].tmp.c_str(), staged[i].path.c_str()) != 0)
      return fail(staged[i].path, std::strerror(errno), i);
  return true;
}

/// A path as Make and Ninja read it in a depfile.
std::string makeEscaped(const std::string &path) {
  std::string r;
  for (char c : path) {
    if (c == ' ' || c == '#')
      r += '\\';
    else if (c == '$')
      r += '$';
    r += c;
  }
  return r;
}

/// `target: dep dep...` in Make syntax (what `clang -MD -MP` writes): the files that the
/// translation read, then an empty rule per header so that a deleted header does not break `make`.
/// Each file is named by its canonical path: Clang spells system headers with `..` after symbolic
/// links (`/../lib/gcc/x86_64-linux-gnu/12/../../../../include/c++/12/array` on a merged-/usr
/// system), which build tools that normalize paths lexically (CMake) would turn into a file that
/// does not exist, and rebuild every time.
std::string depfileText(const std::string &target, const std::vector<std::string> &deps) {
  namespace fs = std::filesystem;
  std::string text = makeEscaped(target) + ":";
  std::vector<std::string> abs;
  for (const std::string &d : deps) {
    std::error_code ec;
    fs::path p = fs::canonical(d, ec);
    if (ec)
      p = fs::absolute(d, ec);
    std::string s = ec ? d : p.string();
    if (std::find(abs.begin(), abs.end(), s) == abs.end())
      abs.push_back(s);
  }
  for (const std::string &d : abs)
    text += " \\\n  " + makeEscaped(d);
  text += "\n";
  for (size_t i = 1; i < abs.size(); ++i)
    text += "\n" + makeEscaped(abs[i]) + ":\n";
  return text;
}

/// Names the instantiations' namespaces and launchers (translator/InstanceNames.h), after a check
/// that no two are the same instantiation of the same kernel: two inputs translated into one output
/// may both instantiate it, and the host code of each expects its launcher under the one name, so
/// that is a located error naming both.
bool nameInstances(ir::Module &module, std::ostream &err) {
  DiagnosticEngine d(err);
  d.setModule(&module);
  auto identity = [](const ir::Kernel &k) {
    return translator::scopePrefix(k) + k.instanceName + " " + k.templateArgs + " " +
           translator::parameterSignature(k);
  };
  for (size_t i = 0; i < module.kernels.size(); ++i)
    for (size_t j = 0; j < i; ++j) {
      const ir::Kernel &a = module.kernels[j], &b = module.kernels[i];
      if (identity(a) != identity(b))
        continue;
      const std::string qualified = translator::scopePrefix(b) + b.name + b.templateArgs;
      d.report(DiagId::DuplicateInstance, b.loc, {"'" + qualified + "'"});
      d.report(DiagId::NoteOtherInstance, a.loc, {"'" + qualified + "'"});
      break;
    }
  if (d.hasErrors())
    return false;
  std::vector<ir::Kernel *> kernels;
  for (ir::Kernel &k : module.kernels)
    kernels.push_back(&k);
  translator::disambiguateInstanceNames(kernels, [&](const std::string &name) {
    return module.globalNames.count(name) || module.sourceMacros.count(name);
  });
  return true;
}

/// A block holds at most 1024 threads on both targets: num_warps = 32 fits CUDA's 32-lane warps,
/// but is 2048 threads with HIP's 64-lane wavefronts.
bool threadsFit(const ir::Module &module, const ir::Target &target, std::ostream &err) {
  DiagnosticEngine d(err);
  d.setModule(&module);
  for (const ir::Kernel &k : module.kernels) {
    const int threads = k.settings.numWarps * target.warpSize();
    if (threads > 1024)
      d.report(DiagId::TooManyThreads, k.loc,
               {std::to_string(k.settings.numWarps), std::to_string(threads), target.name(),
                std::to_string(target.warpSize()), std::to_string(1024 / target.warpSize())});
  }
  return !d.hasErrors();
}

/// 64-bit FNV-1a, for the name of a precompiled header (stable across runs and builds).
uint64_t fnv1a(const std::string &s, uint64_t h = 14695981039346656037ull) {
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

/// --pch-dir: the path of the precompiled <tilec/tl.hpp> in that directory for this run's include
/// directories and Clang arguments (relative Clang arguments also depend on the working directory).
std::string precompiledTlPath(const Options &opts) {
  uint64_t h = fnv1a(TILEC_VERSION);
  for (auto &d : opts.includeDirs)
    h = fnv1a(d + '\0', fnv1a("-I", h));
  for (auto &a : opts.clangArgs)
    h = fnv1a(a + '\0', h);
  if (!opts.clangArgs.empty()) {
    std::error_code ec;
    h = fnv1a(std::filesystem::current_path(ec).string(), h);
  }
  char name[32];
  std::snprintf(name, sizeof name, "tl-%016llx.pch", static_cast<unsigned long long>(h));
  return (std::filesystem::path(opts.pchDir) / name).string();
}

/// Builds the precompiled header `pch` (translator::writePrecompiledTl): under a temporary name in
/// the same directory, renamed over `pch` once complete, so that runs beside this one read either
/// none or a whole one. The one-line header it is built from (the temporary's name + ".hpp") stays:
/// Clang checks, when reading the precompiled header, that it exists unchanged.
bool buildPrecompiledTl(const std::string &pch, const translator::TranslateOptions &topts,
                        std::ostream &err) {
  namespace fs = std::filesystem;
  std::string dir = fs::path(pch).parent_path().string();
  auto fail = [&](const std::string &why) {
    err << "tilec: error: cannot precompile <tilec/tl.hpp> into --pch-dir '" << dir << "': " << why
        << '\n';
    return false;
  };
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec)
    return fail(ec.message());
  std::string tmpl = pch + ".tmp-XXXXXX";
  std::vector<char> buf(tmpl.begin(), tmpl.end());
  buf.push_back('\0');
  int fd = ::mkstemp(buf.data());
  if (fd < 0)
    return fail(std::strerror(errno));
  ::close(fd);
  std::string tmp(buf.data());
  auto removeTmp = [&] {
    ::unlink(tmp.c_str());
    ::unlink((tmp + ".hpp").c_str());
  };
  std::ostringstream clangErr;
  if (!translator::writePrecompiledTl(tmp, topts, clangErr)) {
    removeTmp();
    err << clangErr.str();
    return fail("Clang failed");
  }
  if (std::rename(tmp.c_str(), pch.c_str()) != 0) {
    std::string why = std::strerror(errno);
    removeTmp();
    return fail(why);
  }
  return true;
}

} // namespace

int compileModule(ir::Module &module, const Options &opts, Compiled &out, std::ostream &err) {
  if (!nameInstances(module, err))
    return ExitUserError;

  ir::Target target;
  target.kind = opts.target;
  target.arch = !opts.arch.empty() ? opts.arch : opts.target == ir::TargetKind::Cuda ? "sm_90a" : "gfx90a";
  for (auto &k : module.kernels)
    k.warpSize = target.warpSize();
  if (!threadsFit(module, target, err))
    return ExitUserError;

  DiagnosticEngine diags(err);
  diags.setModule(&module);
  passes::PassContext ctx{diags, target};
  passes::PipelineOptions popts;
  popts.stopAfter = opts.stopAfter;
  popts.printAfter = opts.printAfter;
  popts.printStream = &err;
  bool pipelineAvailable = !passes::registeredPasses().empty() &&
                           passes::createPass(passes::registeredPasses().front().name) != nullptr;
  // Aligned variants start from the module as translated (the pipeline changes it in place).
  const bool variants = opts.alignedVariants && opts.emit != EmitKind::Ir && opts.stopAfter.empty() &&
                        pipelineAvailable;
  std::optional<ir::Module> pristine;
  if (variants)
    pristine = ir::clone(module);
  if (pipelineAvailable) {
    if (!passes::runPipeline(module, ctx, popts)) {
      if (!diags.hasErrors())
        err << "tilec: internal error: the pass pipeline failed without reporting a diagnostic\n";
      return diags.hasErrors() ? ExitUserError : ExitInternalError;
    }
  } else if (opts.emit != EmitKind::Ir) {
    err << "tilec: error: the pass pipeline is not available in this build; only --emit=ir works\n";
    return ExitInternalError;
  }

  emitters::EmitOptions eopts;
  eopts.target = target;
  eopts.provenance = opts.provenance;
  eopts.lineDirectives = opts.lineDirectives;
  eopts.toolVersion = TILEC_VERSION;
  eopts.outputNamespace = opts.outputNamespace;
  if (variants)
    addAlignedVariants(*pristine, module, target, eopts);
  if (opts.emit == EmitKind::Ir) {
    std::ostringstream os;
    ir::print(os, module);
    out.text = os.str();
  } else {
    out.text = emitters::emitModule(module, eopts);
  }
  if (!opts.header.empty())
    out.header = emitters::emitLauncherDeclarations(module, eopts);
  return ExitSuccess;
}

int runTilec(const Options &opts, std::ostream &out, std::ostream &err) {
  if (opts.listPasses) {
    size_t width = 0;
    for (auto &p : passes::registeredPasses())
      width = std::max(width, std::strlen(p.name));
    for (auto &p : passes::registeredPasses())
      out << "  " << p.name << std::string(width + 2 - std::strlen(p.name), ' ') << p.description << '\n';
    return ExitSuccess;
  }
  for (auto &name : opts.printAfter)
    if (name != "all" && !knownPass(name)) {
      err << "tilec: error: unknown pass '" << name << "' in --print-after; valid names: all, "
          << validPassNames() << '\n';
      return ExitUsage;
    }
  if (!opts.stopAfter.empty() && !knownPass(opts.stopAfter)) {
    err << "tilec: error: unknown pass '" << opts.stopAfter << "' in --stop-after; valid names: "
        << validPassNames() << '\n';
    return ExitUsage;
  }
  if (opts.inputs.empty()) {
    err << "tilec: error: no input files (see 'tilec --help')\n";
    return ExitUsage;
  }
  if (!opts.header.empty() && opts.emit == EmitKind::Ir) {
    err << "tilec: error: --header needs CUDA or HIP output, not --emit=ir\n";
    return ExitUsage;
  }
  if (!opts.outputNamespace.empty()) {
    if (std::string why = emitters::invalidOutputNamespace(opts.outputNamespace); !why.empty()) {
      err << "tilec: error: invalid --namespace '" << opts.outputNamespace << "': " << why << '\n';
      return ExitUsage;
    }
  }
  if (!opts.depfile.empty() && opts.output == "-") {
    err << "tilec: error: --depfile needs an output file (-o FILE), not '-o -'\n";
    return ExitUsage;
  }
  for (const std::string *extra : {&opts.header, &opts.depfile})
    if (*extra == "-") {
      err << "tilec: error: --header and --depfile need a file name, not '-'\n";
      return ExitUsage;
    }
  std::string path = opts.output;
  if (path.empty())
    path = std::filesystem::path(opts.inputs.front()).stem().string() + extensionFor(opts.emit);
  // No output may overwrite another output or an input (`-o k.cpp`, `--header k.cpp`), through
  // whatever spelling or symbolic link: compare where the paths lead.
  auto where = [](const std::string &p) {
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::path a = fs::absolute(p, ec);
    fs::path c = ec ? fs::path() : fs::weakly_canonical(a, ec);
    return ec ? fs::path(p).lexically_normal() : c;
  };
  std::vector<std::pair<std::string, std::string>> outputs; // (what, path)
  if (path != "-")
    outputs.emplace_back("the output", path);
  if (!opts.header.empty())
    outputs.emplace_back("--header", opts.header);
  if (!opts.depfile.empty())
    outputs.emplace_back("--depfile", opts.depfile);
  for (size_t i = 0; i < outputs.size(); ++i) {
    for (size_t j = i + 1; j < outputs.size(); ++j)
      if (where(outputs[i].second) == where(outputs[j].second)) {
        err << "tilec: error: the output, --header and --depfile must be different files\n";
        return ExitUsage;
      }
    for (const std::string &input : opts.inputs)
      if (where(outputs[i].second) == where(input)) {
        err << "tilec: error: " << outputs[i].first << " '" << outputs[i].second
            << "' is the input '" << input << "'; tilec will not overwrite it\n";
        return ExitUsage;
      }
  }

  try {
    ir::Module module;
    translator::TranslateOptions topts;
    topts.instantiate = opts.instantiate;
    topts.includeDirs = opts.includeDirs;
    topts.clangArgs = opts.clangArgs;
    bool ok = true;
    std::vector<std::string> deps; // with --depfile: the files Clang read
    std::vector<std::string> *depsOut = opts.depfile.empty() ? nullptr : &deps;
    std::string pch;
    if (!opts.pchDir.empty()) {
      pch = precompiledTlPath(opts);
      std::error_code ec;
      if (!std::filesystem::exists(pch, ec) && !buildPrecompiledTl(pch, topts, err))
        return ExitUserError;
      topts.precompiledHeader = pch;
    }
    for (auto &input : opts.inputs) {
      if (pch.empty()) {
        ok = translator::translateFile(input, topts, module, err, depsOut) && ok;
        continue;
      }
      // Clang refuses a precompiled header that is out of date (a header it read changed since,
      // another Clang wrote it, it is damaged) with an error that names it, before the source is
      // parsed: then it is built again and the input translated once more.
      std::ostringstream buffered;
      size_t files = module.files.size(), kernels = module.kernels.size(), read = deps.size();
      bool done = translator::translateFile(input, topts, module, buffered, depsOut);
      std::string text = buffered.str();
      if (!done && text.find(pch) != std::string::npos && module.files.size() == files &&
          module.kernels.size() == kernels) {
        if (!buildPrecompiledTl(pch, topts, err))
          return ExitUserError;
        deps.resize(read);
        ok = translator::translateFile(input, topts, module, err, depsOut) && ok;
        continue;
      }
      err << text;
      ok = done && ok;
    }
    if (!ok)
      return ExitUserError;
    Compiled compiled;
    if (int rc = compileModule(module, opts, compiled, err); rc != ExitSuccess)
      return rc;
    const std::string &text = compiled.text;

    // Everything goes to disk together or not at all: the header, the depfile, then the output.
    std::vector<std::pair<std::string, std::string>> files;
    if (!opts.header.empty())
      files.emplace_back(opts.header, compiled.header);
    if (!opts.depfile.empty())
      files.emplace_back(opts.depfile, depfileText(path, deps));
    if (path != "-")
      files.emplace_back(path, text);
    if (!writeAll(files, err))
      return ExitUserError;
    if (path == "-") {
      out << text;
      out.flush();
    }
    return ExitSuccess;
  } catch (const std::exception &e) {
    err << "tilec: internal error: " << e.what() << '\n';
    return ExitInternalError;
  }
}

} // namespace tilec
