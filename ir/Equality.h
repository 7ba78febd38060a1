#pragma once
// Placeholder: structural equality of IR trees.
