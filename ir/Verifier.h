#pragma once
// Placeholder: the IR verifier.
