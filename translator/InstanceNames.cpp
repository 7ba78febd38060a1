#include "translator/InstanceNames.h"

#include "ir/Identifier.h"

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

namespace {

/// Calls `f` on each group of two or more kernels whose instance names are equal, in order of first
/// appearance.
template <class F> void forEachClash(const std::vector<ir::Kernel *> &kernels, F f) {
  std::map<std::string, std::vector<ir::Kernel *>> groups;
  std::vector<std::string> order;
  for (ir::Kernel *k : kernels) {
    auto &g = groups[k->instanceName];
    if (g.empty())
      order.push_back(k->instanceName);
    g.push_back(k);
  }
  for (const std::string &name : order)
    if (groups[name].size() > 1)
      f(groups[name]);
}

} // namespace

void disambiguateInstanceNames(const std::vector<ir::Kernel *> &kernels,
                               const std::function<bool(const std::string &)> &takenBySource) {
  // Namespaces first: `a::k<128>` beside `b::k<128>`.
  forEachClash(kernels, [](std::vector<ir::Kernel *> &group) {
    std::set<std::string> scopes;
    for (const ir::Kernel *k : group)
      scopes.insert(scopePrefix(*k));
    if (scopes.size() < 2)
      return;
    for (ir::Kernel *k : group) {
      std::string prefix;
      for (const ir::EnclosingNamespace &ns : k->scope)
        prefix += ir::asciiIdentifier(ns.name) + "_";
      k->instanceName = prefix + k->instanceName;
    }
  });
  // Then overloads, or a number for look-alikes.
  forEachClash(kernels, [](std::vector<ir::Kernel *> &group) {
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
  });
  // Whatever still clashes (a name made above that another kernel has, an instance named like
  // another's launcher or like a declaration of a source) takes the next free number, in order.
  std::set<std::string> taken; // instance namespaces and launchers alike
  for (ir::Kernel *k : kernels) {
    const std::string base = k->instanceName;
    auto free = [&](const std::string &name) {
      const std::string launcher = "launch_" + name;
      return !taken.count(name) && !taken.count(launcher) && !takenBySource(name) &&
             !takenBySource(launcher);
    };
    std::string name = base;
    for (int n = 2; !free(name); ++n)
      name = base + "_" + std::to_string(n);
    k->instanceName = name;
    taken.insert(name);
    taken.insert("launch_" + name);
  }
}

} // namespace tilec::translator
