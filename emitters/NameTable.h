#pragma once
/// \file Unique C++ identifiers: the user's names where possible, `_1`, `_2` suffixes on
/// collision. Reserved words are never handed out: C++ keywords, what the output names unqualified
/// (ir::namesTheOutputUses), CUDA's and HIP's macros (VendorMacros.inc), every `TILEC_` name, and
/// whatever the caller reserves (the sources' macros).

#include <set>
#include <string>

namespace tilec::emitters {

class NameTable {
public:
  NameTable();
  /// Marks `name` as taken without handing it out (e.g. a name the emitter uses itself).
  void reserve(const std::string &name) { taken_.insert(name); }
  template <class Names> void reserveAll(const Names &names) {
    for (const std::string &n : names)
      taken_.insert(n);
  }
  bool isTaken(const std::string &name) const;
  /// `hint` as an identifier that a number suffix can make free (ir::asciiIdentifier, and `v_`
  /// before a `TILEC_` name).
  static std::string identifier(const std::string &hint);
  /// `hint` itself when free (and a valid identifier), else `hint_1`, `hint_2`, ...
  std::string unique(const std::string &hint);

private:
  std::set<std::string> taken_; // membership only: never iterated, so ordering cannot leak
};

} // namespace tilec::emitters
