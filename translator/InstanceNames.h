#pragma once
/// \file The names of the instantiations' namespaces and launchers in the generated code.
///
/// Each instantiation is declared at global scope in the generated code as
/// `namespace <instance> { ... }` and `launch_<instance>(...)`. The readable name is the kernel's
/// name and its template arguments (`k_128`, `scale_f16_256`; a kernel that is not a template:
/// `k_instance`; a static member `S::k<128>`: `S_k_128`). The output never reopens the source's
/// namespaces (their names may be taken in CUDA's and HIP's global scope, or their declarations
/// may hide what the output calls): where instantiations of one output would share a name,
///   - those from different namespaces get their namespaces in front (`a::k<128>` beside
///     `b::k<128>`: `a_k_128`, `b_k_128`; one at global scope keeps `k_128`);
///   - overloads (`k<128>(float *)` beside `k<128>(int *)`) all get their parameter types appended
///     (`k_128_f32p`, `k_128_i32p`; `c` marks a pointer to const);
///   - other look-alikes (`k<1, 28>` beside `k_1<28>`) keep the first one's name, in order, and
///     number the others `_2`, `_3`, ...;
/// and a name still taken (by another instance or launcher, or by what the sources declare at
/// global scope, which host code compiles beside the output) takes the next free number.

#include "ir/IR.h"

#include <functional>
#include <string>
#include <vector>

namespace tilec::translator {

/// `a::b::` for a kernel in namespaces a::b, "" at global scope.
std::string scopePrefix(const ir::Kernel &k);

/// The parameter-type suffix that tells overloads apart, e.g. `cf32p_f32p_i32`.
std::string parameterSignature(const ir::Kernel &k);

/// Makes the instance names of `kernels` (whose instanceName holds the readable name) unique, as
/// the file comment says; `takenBySource(name)` says whether a source declares `name` at global
/// scope. Deterministic: depends on the order of `kernels` only.
void disambiguateInstanceNames(const std::vector<ir::Kernel *> &kernels,
                               const std::function<bool(const std::string &)> &takenBySource);

} // namespace tilec::translator
