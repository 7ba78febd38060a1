#include "tests/fuzz/FuzzPipeline.h"

#include "driver/Driver.h"
#include "ir/Clone.h"
#include "ir/Printer.h"
#include "ir/Verifier.h"

#include <sstream>

namespace tilec::fuzz {
namespace {

/// Diagnostics go through a string first: a user error must have printed "error:".
bool saysError(const std::string &s) { return s.find("error: ") != std::string::npos; }

} // namespace

Result compileBoth(const std::string &code, const std::string &fileName,
                   const translator::TranslateOptions &topts, std::ostream &err) {
  Result r;
  std::ostringstream diags;
  auto internal = [&](const std::string &why) {
    err << diags.str() << "tilec-fuzz: " << why << '\n';
    r.outcome = Outcome::Internal;
    return r;
  };

  ir::Module module;
  bool translated = translator::translateCode(code, fileName, topts, module, diags);
  if (!translated) {
    if (!saysError(diags.str()))
      return internal("the translation failed without an error message");
    err << diags.str();
    return r;
  }
  std::string why;
  if (!ir::verify(module, &why))
    return internal("the translated module does not verify: " + why);
  std::ostringstream printed;
  ir::print(printed, module);
  r.ir = printed.str();

  ir::Module forHip = ir::clone(module);
  bool failed = false;
  struct Run {
    ir::Module &module;
    ir::TargetKind target;
    EmitKind emit;
    std::string &text, &header;
  };
  for (Run run : {Run{module, ir::TargetKind::Cuda, EmitKind::Cuda, r.cuda, r.cudaHeader},
                  Run{forHip, ir::TargetKind::Hip, EmitKind::Hip, r.hip, r.hipHeader}}) {
    Options opts; // tilec's defaults, as tools/tilec/main.cpp sets them
    opts.target = run.target;
    opts.emit = run.emit;
    opts.header = "launchers.h"; // compileModule prints the declarations; nothing is written
    Compiled compiled;
    int rc = compileModule(run.module, opts, compiled, diags);
    if (rc == ExitInternalError)
      return internal("compileModule reported an internal error");
    if (rc == ExitSuccess) {
      run.text = std::move(compiled.text);
      run.header = std::move(compiled.header);
    } else if (rc != ExitUserError || !saysError(diags.str())) {
      return internal("compileModule failed (" + std::to_string(rc) + ") without an error message");
    } else {
      failed = true; // the other target still runs: its limits differ (warp size)
    }
  }
  err << diags.str();
  r.outcome = failed ? Outcome::UserError : Outcome::Compiled;
  return r;
}

} // namespace tilec::fuzz
