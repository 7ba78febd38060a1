// Shared by the kernel and the host program: the kernel clamps its results to [-kLimit, kLimit].
#pragma once

constexpr float kLimit = 4.0f;
