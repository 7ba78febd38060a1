/// The Clang front end: runs Clang on a kernel source (plus the --instantiate requests, appended in
/// memory), finds the TILEC_KERNEL functions and the instantiations to compile, and lowers each one
/// (Lowering.cpp).

#include "translator/Translator.h"
#include "translator/FrontEnd.h"

#include <clang/AST/ASTConsumer.h>
#include <clang/AST/Attr.h>
#include <clang/AST/DeclFriend.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/ExprCXX.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendAction.h>
#include <clang/Frontend/FrontendActions.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>
#include <clang/Frontend/Utils.h>
#include <clang/Lex/Preprocessor.h>
#include <clang/Tooling/Tooling.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/VirtualFileSystem.h>
#include <llvm/Support/raw_os_ostream.h>

#include <algorithm>
#include <cerrno>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>

#ifndef TILEC_CLANG_RESOURCE_DIR
#error "TILEC_CLANG_RESOURCE_DIR must be defined by the build (Clang's builtin headers)"
#endif

namespace tilec::translator {
namespace {

/// One --instantiate request and where its line lives in the in-memory main file.
struct Request {
  std::string spelling;   ///< `kernel<args>`
  std::string kernelName; ///< the part before '<'
  std::string varName;    ///< `tilec_instantiation_N`
  unsigned line = 0;      ///< 1-based line of the appended code
  std::string clangError; ///< first C++ error Clang reported on that line
};

struct Job {
  std::string fileName;
  unsigned originalSize = 0;  ///< bytes of the user's file (the appended code follows)
  unsigned originalLines = 0;
  std::vector<Request> requests;
  ir::Module *module = nullptr;
  llvm::raw_ostream *diagOut = nullptr;
  std::ostream *err = nullptr;
  bool precompiledTl = false; ///< <tilec/tl.hpp> comes from TranslateOptions::precompiledHeader
  bool ok = false;
  bool consumerRan = false;
  bool clangErrorsShown = false;       ///< Clang printed a C++ error of the user's source
  bool clangErrorsShownBefore = false; ///< (value before the diagnostic being filtered)
  bool inTilecReport = false;          ///< a tilec diagnostic is being reported
  /// The files Clang read (the source and every header it includes), when the caller asked.
  std::shared_ptr<clang::DependencyCollector> dependencies;
};

/// Collects every file the preprocessor enters, system headers included (as `clang -MD` does), so
/// that a build re-runs tilec when any of them changes.
class AllDependencies : public clang::DependencyCollector {
  bool needSystemDependencies() override { return true; }
};

/// Prints a diagnostic that has no source location (`file: error: message`) in tilec's format.
void plainError(Job &job, const std::string &where, DiagId id, const std::vector<std::string> &args) {
  job.diagOut->flush();
  DiagnosticEngine d(*job.err);
  d.report(id, where, 0, 0, args);
}

/// Forwards Clang's diagnostics to the text printer, except those located in the appended
/// instantiation code: errors there are remembered per request (reported as BadInstantiation or
/// KernelNotFound), notes there ("requested here") are dropped.
class FilteringConsumer : public clang::DiagnosticConsumer {
public:
  FilteringConsumer(clang::DiagnosticConsumer &inner, Job &job) : inner(inner), job(job) {}
  void BeginSourceFile(const clang::LangOptions &lo, const clang::Preprocessor *pp) override {
    inner.BeginSourceFile(lo, pp);
  }
  void EndSourceFile() override {
    flushPending();
    inner.EndSourceFile();
  }
  void finish() override {
    flushPending();
    inner.finish();
  }
  void clear() override { inner.clear(); }
  void HandleDiagnostic(clang::DiagnosticsEngine::Level level, const clang::Diagnostic &info) override {
    clang::DiagnosticConsumer::HandleDiagnostic(level, info);
    job.clangErrorsShownBefore = job.clangErrorsShown;
    if (level == clang::DiagnosticsEngine::Note && droppingNotes)
      return;
    droppingNotes = false;
    if (level >= clang::DiagnosticsEngine::Error && !job.inTilecReport)
      job.clangErrorsShown = true;
    if (relocate(level, info))
      return;
    if (info.getLocation().isValid() && info.hasSourceManager()) {
      const clang::SourceManager &sm = info.getSourceManager();
      clang::SourceLocation loc = sm.getExpansionLoc(info.getLocation());
      if (sm.getFileID(loc) == sm.getMainFileID() && sm.getFileOffset(loc) >= job.originalSize) {
        unsigned line = sm.getExpansionLineNumber(loc);
        auto r = std::find_if(job.requests.begin(), job.requests.end(),
                              [&](const Request &q) { return q.line == line; });
        // Only a request's own line: without requests, the end of the user's file (where Clang
        // reports a brace left open when the file does not end with a newline) is the user's.
        if (r != job.requests.end()) {
          if (level >= clang::DiagnosticsEngine::Error) {
            if (r->clangError.empty()) {
              llvm::SmallString<128> msg;
              info.FormatDiagnostic(msg);
              r->clangError = msg.str().str();
              // Clang's words about the helper variable mean the arguments did not fit.
              if (r->clangError.find("tilec_instantiation_") != std::string::npos ||
                  r->clangError.find("overloaded function") != std::string::npos)
                r->clangError = "the template arguments do not match the kernel's template parameters";
            }
            droppingNotes = true;
            job.clangErrorsShown = job.clangErrorsShownBefore; // reported as BadInstantiation
          }
          return;
        }
      }
    }
    inner.HandleDiagnostic(level, info);
  }

private:
  /// Whether `loc` lies in tilec's language header (tilec/tl.hpp and its detail/ headers).
  static bool inLanguageHeader(const clang::SourceManager &sm, clang::SourceLocation loc) {
    llvm::StringRef file = sm.getFilename(sm.getSpellingLoc(loc));
    return file.ends_with("tilec/tl.hpp") || file.contains("tilec/detail/");
  }

  /// An error inside tl.hpp (a static_assert saying an operand is wrong, or Clang's words about a
  /// template of it) is the user's mistake at the tl:: call that instantiated it: it is reported
  /// there, with the static_assert's own words, followed by the instantiation notes from there on
  /// (the kernel and its explicit instantiation); the notes inside tl.hpp are dropped. Returns
  /// whether the diagnostic was handled here.
  bool relocate(clang::DiagnosticsEngine::Level level, const clang::Diagnostic &info) {
    const bool located = info.getLocation().isValid() && info.hasSourceManager();
    if (level >= clang::DiagnosticsEngine::Error && located &&
        inLanguageHeader(info.getSourceManager(), info.getLocation())) {
      llvm::SmallString<256> msg;
      info.FormatDiagnostic(msg);
      std::string text = msg.str().str();
      // "static assertion failed due to requirement 'isFloatLike<int>': tl: math functions ..."
      const std::string prefix = "static assertion failed";
      if (text.rfind(prefix, 0) == 0) {
        size_t colon = text.find(": ");
        text = colon == std::string::npos ? text : text.substr(colon + 2);
      }
      flushPending();
      pendingError = text;
      pendingLevel = level;
      clang::PresumedLoc p = info.getSourceManager().getPresumedLoc(info.getLocation());
      pendingWhere = p.isValid() ? std::string(p.getFilename()) + ":" + std::to_string(p.getLine()) + ":" +
                                       std::to_string(p.getColumn())
                                 : "tilec/tl.hpp";
      return true;
    }
    if (pendingError.empty())
      return false;
    if (level == clang::DiagnosticsEngine::Note && located) {
      const clang::SourceManager &sm = info.getSourceManager();
      if (inLanguageHeader(sm, info.getLocation()) || sm.isInSystemHeader(sm.getSpellingLoc(info.getLocation())))
        return true; // inside tl.hpp (or the standard library under it)
      // The first note in the user's code: the tl:: call. The error goes there.
      std::string text = std::move(pendingError);
      pendingError.clear();
      inner.HandleDiagnostic(pendingLevel, clang::Diagnostic(info.getDiags(), text));
      return true;
    }
    flushPending(); // nothing in the user's code named it
    return false;
  }

  /// An error inside tl.hpp that no note placed in the user's code: reported where it is.
  void flushPending() {
    if (pendingError.empty())
      return;
    *job.diagOut << pendingWhere << ": error: " << pendingError << "\n";
    pendingError.clear();
  }

  clang::DiagnosticConsumer &inner;
  Job &job;
  bool droppingNotes = false;
  std::string pendingError; ///< an error inside tl.hpp waiting for the user's call site
  std::string pendingWhere; ///< where it is: file:line:column
  clang::DiagnosticsEngine::Level pendingLevel = clang::DiagnosticsEngine::Error;
};

/// Collects the declarations carrying the kernel annotation, wherever the source declares them:
/// in namespaces, classes and linkage specifications, as templates' patterns, as parameters and as
/// local declarations in function and lambda bodies. Instantiations are not walked (their
/// declarations are the patterns', already seen), nor implicit declarations (no source writes an
/// annotation on them). A walk of its own rather than clang::RecursiveASTVisitor, whose
/// instantiation would be most of this unit's compile time.
class KernelFinder {
public:
  std::vector<const clang::FunctionDecl *> kernels; // templated decls or plain functions
  std::vector<const clang::Decl *> misplaced;        // annotated non-functions

  /// Walks the translation unit. With a precompiled <tilec/tl.hpp> (TranslateOptions), its
  /// declarations hold no kernels and are left unloaded: walking them would read the whole C++
  /// library back from the file, which costs more than the rest of a small kernel's translation.
  void findIn(clang::TranslationUnitDecl *tu, bool skipPrecompiled) {
    if (!skipPrecompiled) {
      walkDecl(tu);
      return;
    }
    for (clang::Decl *d : tu->noload_decls())
      if (!d->isFromASTFile())
        walkDecl(d);
  }

private:
  void visit(const clang::Decl *d) {
    if (!kernelAttr(d))
      return;
    if (auto *fd = llvm::dyn_cast<clang::FunctionDecl>(d)) {
      if (!llvm::isa<clang::CXXMethodDecl>(fd) || llvm::cast<clang::CXXMethodDecl>(fd)->isStatic())
        kernels.push_back(fd);
      else
        misplaced.push_back(d);
    } else if (!llvm::isa<clang::FunctionTemplateDecl>(d)) {
      misplaced.push_back(d);
    }
  }

  void walkDecl(const clang::Decl *d) {
    using namespace clang;
    if (!d || d->isImplicit())
      return;
    if (auto *fd = dyn_cast<FunctionDecl>(d); fd && fd->isTemplateInstantiation())
      return;
    if (auto *cs = dyn_cast<ClassTemplateSpecializationDecl>(d);
        cs && cs->getSpecializationKind() != TSK_ExplicitSpecialization)
      return;
    visit(d);
    if (auto *td = dyn_cast<TemplateDecl>(d))
      walkDecl(td->getTemplatedDecl());
    if (auto *fr = dyn_cast<FriendDecl>(d))
      walkDecl(fr->getFriendDecl());
    if (auto *vd = dyn_cast<VarDecl>(d))
      walkStmt(vd->getInit());
    if (auto *fd = dyn_cast<FunctionDecl>(d)) {
      for (const ParmVarDecl *p : fd->parameters())
        walkDecl(p);
      if (fd->doesThisDeclarationHaveABody())
        walkStmt(fd->getBody());
      return; // its DeclContext holds the parameters and local declarations, walked above
    }
    if (auto *dc = dyn_cast<DeclContext>(d))
      for (const Decl *c : dc->decls())
        walkDecl(c);
  }

  void walkStmt(const clang::Stmt *s) {
    using namespace clang;
    if (!s)
      return;
    if (auto *ds = dyn_cast<DeclStmt>(s)) {
      for (const Decl *d : ds->decls())
        walkDecl(d); // with their initializers
      return;
    }
    if (auto *le = dyn_cast<LambdaExpr>(s)) {
      for (const LambdaCapture &c : le->captures())
        if (c.capturesVariable() && le->isInitCapture(&c))
          walkDecl(c.getCapturedVar()); // an init-capture's variable and its initializer
      for (const ParmVarDecl *p : le->getCallOperator()->parameters())
        walkDecl(p);
      walkStmt(le->getBody());
      return;
    }
    for (const Stmt *child : s->children())
      walkStmt(child);
  }
};

class TilecConsumer : public clang::ASTConsumer {
public:
  TilecConsumer(Job &job, clang::Preprocessor &pp) : job(job), pp(pp) {}

  void HandleTranslationUnit(clang::ASTContext &ctx) override {
    auto &sm = ctx.getSourceManager();
    job.consumerRan = true;
    job.inTilecReport = true; // from here on, errors are tilec's own
    FrontEndContext fe(ctx, *job.module, job.originalLines);
    fe.mainFileIndex();
    bool failed = ctx.getDiagnostics().hasErrorOccurred();

    KernelFinder finder;
    finder.findIn(ctx.getTranslationUnitDecl(), job.precompiledTl);
    for (const clang::Decl *d : finder.misplaced) {
      std::string name = "declaration";
      if (auto *nd = llvm::dyn_cast<clang::NamedDecl>(d))
        name = nd->getNameAsString();
      fe.report(DiagId::NotAKernelTemplate, d->getLocation(), {name});
      failed = true;
    }

    // The requested instantiations: unknown kernel names first, then C++ errors on their lines.
    for (auto &r : job.requests) {
      bool known = std::any_of(finder.kernels.begin(), finder.kernels.end(), [&](const clang::FunctionDecl *fd) {
        return fd->getNameAsString() == r.kernelName || fd->getQualifiedNameAsString() == r.kernelName;
      });
      if (!known) {
        plainError(job, "tilec", DiagId::KernelNotFound, {r.kernelName});
        failed = true;
      } else if (!r.clangError.empty()) {
        plainError(job, "tilec", DiagId::BadInstantiation, {r.spelling, r.clangError});
        failed = true;
      }
    }
    if (failed || ctx.getDiagnostics().hasErrorOccurred())
      return;

    // Explicit instantiation definitions (and plain kernel functions) in the main file, in source
    // order; then the --instantiate requests in command-line order.
    struct Item {
      clang::SourceLocation at;
      const clang::FunctionDecl *fn;
      const clang::FunctionDecl *primary;
      bool explicitInstantiation = false;
    };
    std::vector<Item> items;
    for (const clang::FunctionDecl *k : finder.kernels) {
      if (const clang::FunctionTemplateDecl *ftd = k->getDescribedFunctionTemplate()) {
        for (const clang::FunctionDecl *spec : ftd->specializations()) {
          if (spec->getTemplateSpecializationKind() != clang::TSK_ExplicitInstantiationDefinition)
            continue;
          clang::SourceLocation poi = spec->getPointOfInstantiation();
          if (poi.isValid() && sm.isWrittenInMainFile(sm.getExpansionLoc(poi)) &&
              sm.getFileOffset(sm.getExpansionLoc(poi)) < job.originalSize)
            items.push_back({sm.getExpansionLoc(poi), spec, k, true});
        }
      } else if (k->doesThisDeclarationHaveABody() && sm.isWrittenInMainFile(sm.getExpansionLoc(k->getLocation()))) {
        items.push_back({sm.getExpansionLoc(k->getLocation()), k, k});
      }
    }
    std::stable_sort(items.begin(), items.end(), [&](const Item &a, const Item &b) {
      return sm.isBeforeInTranslationUnit(a.at, b.at);
    });
    for (auto &r : job.requests) {
      auto lookup = ctx.getTranslationUnitDecl()->lookup(&ctx.Idents.get(r.varName));
      const clang::FunctionDecl *fn = nullptr;
      for (clang::NamedDecl *nd : lookup)
        if (auto *vd = llvm::dyn_cast<clang::VarDecl>(nd); vd && vd->getInit())
          if (auto *u = llvm::dyn_cast<clang::UnaryOperator>(vd->getInit()->IgnoreParenImpCasts()))
            if (auto *dre = llvm::dyn_cast<clang::DeclRefExpr>(u->getSubExpr()->IgnoreParenImpCasts()))
              fn = llvm::dyn_cast<clang::FunctionDecl>(dre->getDecl());
      const clang::FunctionDecl *primary = nullptr;
      if (fn) {
        if (auto *ftd = fn->getPrimaryTemplate())
          primary = ftd->getTemplatedDecl();
        else
          primary = fn;
        if (!kernelAttr(primary))
          primary = nullptr;
      }
      if (!fn || !primary) {
        plainError(job, "tilec", DiagId::KernelNotFound, {r.kernelName});
        return;
      }
      items.push_back({clang::SourceLocation(), fn, primary});
    }

    std::vector<const clang::FunctionDecl *> done;
    struct Lowered {
      ir::Kernel kernel;
      clang::SourceLocation at; // where it is instantiated (or defined, without a template)
      const clang::FunctionDecl *primary;
    };
    std::vector<Lowered> lowered;
    for (const Item &it : items) {
      const clang::FunctionDecl *canon = it.fn->getCanonicalDecl();
      if (std::find(done.begin(), done.end(), canon) != done.end())
        continue;
      done.push_back(canon);
      const clang::FunctionDecl *def = it.fn;
      if (const clang::FunctionDecl *withBody = nullptr; it.fn->hasBody(withBody))
        def = withBody;
      ir::Kernel k;
      fe.instantiationLoc = it.explicitInstantiation ? it.at : clang::SourceLocation();
      fe.instantiationName.clear();
      if (it.explicitInstantiation) {
        llvm::raw_string_ostream os(fe.instantiationName);
        clang::PrintingPolicy pp(ctx.getLangOpts());
        pp.SuppressScope = true;
        it.fn->getNameForDiagnostic(os, pp, /*Qualified=*/false);
      }
      if (!lowerKernel(fe, def, it.primary, k)) {
        failed = true;
        continue;
      }
      lowered.push_back({std::move(k), it.at.isValid() ? it.at : it.primary->getLocation(), it.primary});
    }
    for (Lowered &l : lowered)
      job.module->kernels.push_back(std::move(l.kernel));
    collectGlobalNames(ctx);
    if (failed)
      return;
    if (done.empty()) {
      plainError(job, job.fileName, DiagId::NoKernels, {job.fileName});
      return;
    }
    job.ok = true;
  }

private:
  /// What the source declares at global scope, outside system headers, and the macros it defines:
  /// host code compiles the source beside the output, so the output's global names must differ
  /// from them, and its other names must not be one of the macros.
  void collectGlobalNames(clang::ASTContext &ctx) {
    auto &sm = ctx.getSourceManager();
    auto fromUser = [&](clang::SourceLocation loc) {
      return loc.isValid() && !sm.isInSystemHeader(sm.getExpansionLoc(loc)) &&
             !sm.isWrittenInBuiltinFile(sm.getExpansionLoc(loc)) &&
             !sm.isWrittenInCommandLineFile(sm.getExpansionLoc(loc));
    };
    for (const clang::Decl *d : ctx.getTranslationUnitDecl()->noload_decls())
      if (auto *nd = llvm::dyn_cast<clang::NamedDecl>(d))
        if (nd->getIdentifier() && !d->isFromASTFile() && fromUser(d->getLocation()))
          job.module->globalNames.insert(nd->getName().str());
    for (const auto &[id, state] : pp.macros(/*IncludeExternalMacros=*/false))
      if (const clang::MacroInfo *mi = pp.getMacroInfo(id); mi && fromUser(mi->getDefinitionLoc()))
        job.module->sourceMacros.insert(id->getName().str());
  }

  Job &job;
  clang::Preprocessor &pp;
};

class TilecAction : public clang::ASTFrontendAction {
public:
  explicit TilecAction(Job &job) : job(job) {}
  bool BeginInvocation(clang::CompilerInstance &ci) override {
    // No "N errors generated." on the process's stderr: tilec's diagnostics go to one stream.
    ci.setVerboseOutputStream(std::make_unique<llvm::raw_null_ostream>());
    if (job.dependencies)
      ci.addDependencyCollector(job.dependencies);
    return true;
  }
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance &ci, llvm::StringRef) override {
    return std::make_unique<TilecConsumer>(job, ci.getPreprocessor());
  }

private:
  Job &job;
};

/// Lines as Clang counts them: each ends at "\r\n", "\n" or a lone "\r" (or at the end).
unsigned countLines(const std::string &s) {
  unsigned n = 0;
  for (size_t i = 0; i < s.size(); ++i)
    if (s[i] == '\n' || (s[i] == '\r' && (i + 1 == s.size() || s[i + 1] != '\n')))
      ++n;
  if (!s.empty() && s.back() != '\n' && s.back() != '\r')
    ++n;
  return n;
}

} // namespace

bool translateCode(const std::string &code, const std::string &fileName, const TranslateOptions &opts,
                   ir::Module &module, std::ostream &err, std::vector<std::string> *dependencies) {
  Job job;
  if (dependencies)
    job.dependencies = std::make_shared<AllDependencies>();
  job.fileName = fileName;
  job.module = &module;
  job.err = &err;
  job.originalSize = static_cast<unsigned>(code.size());
  job.originalLines = countLines(code);

  // Ask Sema for each --instantiate by taking the kernel's address in appended code.
  std::string full = code;
  if (!full.empty() && full.back() != '\n')
    full += '\n';
  unsigned line = countLines(full);
  for (size_t i = 0; i < opts.instantiate.size(); ++i) {
    Request r;
    r.spelling = opts.instantiate[i];
    r.kernelName = r.spelling.substr(0, r.spelling.find('<'));
    while (!r.kernelName.empty() && r.kernelName.back() == ' ')
      r.kernelName.pop_back();
    r.varName = "tilec_instantiation_" + std::to_string(i);
    r.line = ++line;
    full += "[[maybe_unused]] static auto *const " + r.varName + " = &" + r.spelling + ";\n";
    job.requests.push_back(r);
  }

  auto overlay = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(llvm::vfs::getRealFileSystem());
  auto memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  overlay->pushOverlay(memory);
  if (auto cwd = llvm::vfs::getRealFileSystem()->getCurrentWorkingDirectory())
    overlay->setCurrentWorkingDirectory(*cwd);
  memory->addFile(fileName, 0, llvm::MemoryBuffer::getMemBufferCopy(full, fileName));
  auto files = llvm::makeIntrusiveRefCnt<clang::FileManager>(clang::FileSystemOptions(), overlay);

  std::vector<std::string> args = {"tilec", "-fsyntax-only", "-std=c++20", "-x", "c++",
                                   "-resource-dir", TILEC_CLANG_RESOURCE_DIR};
  for (auto &dir : opts.includeDirs)
    args.push_back("-I" + dir);
  if (!opts.precompiledHeader.empty()) {
    job.precompiledTl = true;
    args.push_back("-include-pch");
    args.push_back(opts.precompiledHeader);
  }
  for (auto &a : opts.clangArgs)
    args.push_back(a);
  args.push_back(fileName);

  llvm::raw_os_ostream diagStream(err);
  job.diagOut = &diagStream;
  auto diagOpts = llvm::makeIntrusiveRefCnt<clang::DiagnosticOptions>();
  // Locations as `#line` directives in the source say, as clang++ prints them (its driver sets
  // this; the options' default does not): for Clang's diagnostics and tilec's alike.
  diagOpts->ShowPresumedLoc = true;
  clang::TextDiagnosticPrinter printer(diagStream, diagOpts.get());
  FilteringConsumer filter(printer, job);

  clang::tooling::ToolInvocation invocation(args, std::make_unique<TilecAction>(job), files.get());
  invocation.setDiagnosticConsumer(&filter);
  bool ran = invocation.run();
  diagStream.flush();
  if (job.consumerRan && job.clangErrorsShown)
    plainError(job, fileName, DiagId::SourceErrors, {});
  if (dependencies)
    for (const std::string &d : job.dependencies->getDependencies())
      dependencies->push_back(d);
  return ran && job.ok;
}

bool writePrecompiledTl(const std::string &path, const TranslateOptions &opts, std::ostream &err) {
  std::string stub = path + ".hpp";
  {
    std::ofstream out(stub, std::ios::binary | std::ios::trunc);
    out << "#include <tilec/tl.hpp>\n";
    if (!out.flush()) {
      err << "tilec: error: cannot write '" << stub << "'\n";
      return false;
    }
  }
  // Templates instantiated while the header is built (-fpch-instantiate-templates) are not
  // instantiated again at the end of every translation unit that reads it.
  std::vector<std::string> args = {"tilec", "-std=c++20", "-x", "c++-header", "-fpch-instantiate-templates",
                                   "-resource-dir", TILEC_CLANG_RESOURCE_DIR};
  for (auto &dir : opts.includeDirs)
    args.push_back("-I" + dir);
  for (auto &a : opts.clangArgs)
    args.push_back(a);
  args.insert(args.end(), {stub, "-o", path});
  auto files = llvm::makeIntrusiveRefCnt<clang::FileManager>(clang::FileSystemOptions());
  llvm::raw_os_ostream diagStream(err);
  auto diagOpts = llvm::makeIntrusiveRefCnt<clang::DiagnosticOptions>();
  clang::TextDiagnosticPrinter printer(diagStream, diagOpts.get());
  clang::tooling::ToolInvocation invocation(args, std::make_unique<clang::GeneratePCHAction>(), files.get());
  invocation.setDiagnosticConsumer(&printer);
  return invocation.run() && !printer.getNumErrors();
}

bool translateFile(const std::string &path, const TranslateOptions &opts, ir::Module &module,
                   std::ostream &err, std::vector<std::string> *dependencies) {
  auto cannotRead = [&](std::errc why) {
    DiagnosticEngine d(err);
    d.report(DiagId::CannotReadInput, "tilec", 0, 0, {path, std::make_error_code(why).message()});
    return false;
  };
  // A directory opens for reading on Linux; reading it fails.
  if (llvm::sys::fs::is_directory(path))
    return cannotRead(std::errc::is_a_directory);
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return cannotRead(errno ? static_cast<std::errc>(errno) : std::errc::no_such_file_or_directory);
  std::stringstream ss;
  ss << in.rdbuf();
  if (in.bad())
    return cannotRead(std::errc::io_error);
  return translateCode(ss.str(), path, opts, module, err, dependencies);
}

} // namespace tilec::translator
