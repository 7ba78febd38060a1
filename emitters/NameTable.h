#pragma once
/// \file Unique C++ identifiers: the user's names where possible, `_1`, `_2` suffixes on
/// collision. Reserved words (C++ keywords, CUDA/HIP built-ins) are never handed out.

#include <set>
#include <string>

namespace tilec::emitters {

class NameTable {
public:
  NameTable();
  /// Marks `name` as taken without handing it out (e.g. a name the emitter uses itself).
  void reserve(const std::string &name) { taken_.insert(name); }
  bool isTaken(const std::string &name) const { return taken_.count(name) != 0; }
  /// `hint` itself when free (and a valid identifier), else `hint_1`, `hint_2`, ...
  std::string unique(const std::string &hint);

private:
  std::set<std::string> taken_; // membership only: never iterated, so ordering cannot leak
};

} // namespace tilec::emitters
