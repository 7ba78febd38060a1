// Helpers in a header of the user's, for tests/lit/device_functions.cpp.
#pragma once
#include <tilec/tl.hpp>

namespace helpers {
/// The row's sum and max, folded into one value: a reduction inside a helper.
template <class T> float spread(const T &row) { return tl::max(row) - tl::sum(row) / 64.0f; }
} // namespace helpers
