// Placeholder: replaced by the emitter.
#include "emitters/Emitter.h"
namespace tilec::emitters {
std::string emitModule(const ir::Module &, const EmitOptions &) { return {}; }
std::string emitLauncherDeclarations(const ir::Module &, const EmitOptions &) { return {}; }
} // namespace tilec::emitters
