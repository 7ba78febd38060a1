#pragma once
// Placeholder: axis analysis (contiguity, divisibility, constancy per dimension).
