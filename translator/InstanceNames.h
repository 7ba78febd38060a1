#pragma once
/// \file The names of the instantiations' namespaces and launchers in the generated code.
///
/// Each instantiation is declared in the generated code as `namespace <instance> { ... }` and
/// `launch_<instance>(...)`, inside the C++ namespaces that enclose the kernel in its source
/// (`a::k<128>` gives `a::k_128` and `a::launch_k_128`). The readable name is the kernel's name and
/// its template arguments (`k_128`, `scale_f16_256`; a kernel that is not a template: `k_instance`).
/// Where two instantiations of one translation would get the same name in one namespace:
///   - overloads (`k<128>(float *)` beside `k<128>(int *)`) all get their parameter types appended
///     (`k_128_f32p`, `k_128_i32p`; `c` marks a pointer to const);
///   - otherwise (`k<1, 28>` beside `k_1<28>`) the first in source order keeps the name and the
///     others get `_2`, `_3`, ...
/// and any instance or launcher name still taken gets the next free counter.

#include "ir/IR.h"

#include <string>
#include <vector>

namespace tilec::translator {

/// `a::b::` for a kernel in namespaces a::b, "" at global scope.
std::string scopePrefix(const ir::Kernel &k);

/// The parameter-type suffix that tells overloads apart, e.g. `cf32p_f32p_i32`.
std::string parameterSignature(const ir::Kernel &k);

/// Makes the instance names of `kernels` (whose instanceName holds the readable name) unique in
/// their scope, as the file comment says. Deterministic: depends on the order of `kernels` only.
void disambiguateInstanceNames(const std::vector<ir::Kernel *> &kernels);

} // namespace tilec::translator
