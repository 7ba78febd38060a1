#include "translator/InstanceNames.h"

#include <map>
#include <set>

namespace tilec::translator {

std::string scopePrefix(const ir::Kernel &k) {
  std::string r;
  for (const ir::EnclosingNamespace &ns : k.scope)
    r += ns.name + "::";
  return r;
}

std::string parameterSignature(const ir::Kernel &k) {
  std::string r;
  for (const ir::Var &p : k.params) {
    const ir::Type &t = p->type;
    r += (r.empty() ? "" : "_") + std::string(t.constPointee ? "c" : "") + ir::name(t.elem) +
         (t.pointer ? "p" : "");
  }
  return r.empty() ? "void" : r;
}

void disambiguateInstanceNames(const std::vector<ir::Kernel *> &kernels) {
  // Groups of one readable name in one scope, in order of first appearance.
  std::map<std::pair<std::string, std::string>, std::vector<ir::Kernel *>> groups;
  for (ir::Kernel *k : kernels)
    groups[{scopePrefix(*k), k->instanceName}].push_back(k);
  for (auto &[key, group] : groups) {
    if (group.size() < 2)
      continue;
    std::set<std::string> signatures;
    for (const ir::Kernel *k : group)
      signatures.insert(parameterSignature(*k));
    if (signatures.size() == group.size()) {
      for (ir::Kernel *k : group)
        k->instanceName += "_" + parameterSignature(*k);
    } else {
      for (size_t i = 1; i < group.size(); ++i)
        group[i]->instanceName += "_" + std::to_string(i + 1);
    }
  }
  // Whatever still clashes (a name made above that another kernel has, an instance named like
  // another's launcher) takes the next free counter, in order.
  std::set<std::string> taken; // scope prefix + name, for namespaces and launchers alike
  for (ir::Kernel *k : kernels) {
    const std::string scope = scopePrefix(*k), base = k->instanceName;
    auto free = [&](const std::string &name) {
      return !taken.count(scope + name) && !taken.count(scope + "launch_" + name);
    };
    std::string name = base;
    for (int n = 2; !free(name); ++n)
      name = base + "_" + std::to_string(n);
    k->instanceName = name;
    taken.insert(scope + name);
    taken.insert(scope + "launch_" + name);
  }
}

} // namespace tilec::translator
