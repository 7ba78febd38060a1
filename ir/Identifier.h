#pragma once
/// \file Names in the generated code: what the user wrote, made into an identifier that every
/// compiler of the output accepts.

#include <string>
#include <vector>

namespace tilec::ir {

/// `text` as a plain ASCII C++ identifier. Letters, digits and `_` stay; a character outside ASCII
/// (decoded from UTF-8) becomes `u` and its code point in hex between underscores (`größe` ->
/// `gr_u00f6_u00df_e`: nvcc accepts no other character in the name of a kernel), any other
/// character `_`. Never reserved for the implementation: no `__`, no leading `_`, no leading digit
/// (`v` is put in front). Empty text gives `v`.
std::string asciiIdentifier(const std::string &text);

/// The names the generated code uses without qualification and does not declare itself: CUDA's and
/// HIP's built-in variables, types, launch API and math functions, the fixed-width integer types,
/// the runtime headers' namespace `tilec` and their macros. A parameter or local of the same name
/// would hide one of them, and a declaration of the same name in a namespace around a kernel would
/// too (the output declares the kernel's instantiation in the kernel's namespaces).
const std::vector<std::string> &namesTheOutputUses();

} // namespace tilec::ir
