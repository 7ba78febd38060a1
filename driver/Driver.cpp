/// tilec's driver: translate every input, run the pass pipeline, emit CUDA/HIP (or print the IR) and
/// write the output file atomically (a temporary in the same directory, renamed on success), so that
/// a failed translation never leaves a partial or stale-looking output behind.

#include "driver/Options.h"
#include "emitters/Emitter.h"
#include "ir/Diagnostics.h"
#include "ir/Printer.h"
#include "passes/Pass.h"
#include "translator/Translator.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <sstream>
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

/// Write `text` to `path` through a temporary file in the same directory, renamed over `path` only
/// when everything was written. Returns an error message, empty on success.
std::string writeAtomically(const std::string &path, const std::string &text) {
  namespace fs = std::filesystem;
  fs::path target(path);
  fs::path dir = target.parent_path();
  std::string tmpl = (dir.empty() ? fs::path(".") : dir).string() + "/." +
                     target.filename().string() + ".tilec-XXXXXX";
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
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::string msg = std::strerror(errno);
    ::unlink(tmp.c_str());
    return msg;
  }
  return {};
}

} // namespace

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

  try {
    ir::Module module;
    translator::TranslateOptions topts;
    topts.instantiate = opts.instantiate;
    topts.includeDirs = opts.includeDirs;
    topts.clangArgs = opts.clangArgs;
    bool ok = true;
    for (auto &input : opts.inputs)
      ok = translator::translateFile(input, topts, module, err) && ok;
    if (!ok)
      return ExitUserError;

    ir::Target target;
    target.kind = opts.target;
    target.arch = !opts.arch.empty() ? opts.arch : opts.target == ir::TargetKind::Cuda ? "sm_90a" : "gfx90a";
    for (auto &k : module.kernels)
      k.warpSize = target.warpSize();

    DiagnosticEngine diags(err);
    diags.setModule(&module);
    passes::PassContext ctx{diags, target};
    passes::PipelineOptions popts;
    popts.stopAfter = opts.stopAfter;
    popts.printAfter = opts.printAfter;
    popts.printStream = &err;
    bool pipelineAvailable = !passes::registeredPasses().empty() &&
                             passes::createPass(passes::registeredPasses().front().name) != nullptr;
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

    std::string text;
    if (opts.emit == EmitKind::Ir) {
      std::ostringstream os;
      ir::print(os, module);
      text = os.str();
    } else {
      emitters::EmitOptions eopts;
      eopts.target = target;
      eopts.provenance = opts.provenance;
      eopts.lineDirectives = opts.lineDirectives;
      eopts.toolVersion = TILEC_VERSION;
      text = emitters::emitModule(module, eopts);
    }

    if (opts.output == "-") {
      out << text;
      out.flush();
      return ExitSuccess;
    }
    std::string path = opts.output;
    if (path.empty())
      path = std::filesystem::path(opts.inputs.front()).stem().string() + extensionFor(opts.emit);
    std::string error = writeAtomically(path, text);
    if (!error.empty()) {
      DiagnosticEngine d(err);
      d.report(DiagId::CannotWriteOutput, "tilec", 0, 0, {path, error});
      return ExitUserError;
    }
    return ExitSuccess;
  } catch (const std::exception &e) {
    err << "tilec: internal error: " << e.what() << '\n';
    return ExitInternalError;
  }
}

} // namespace tilec
