// Included by depfile_header.cpp: must appear in its depfile.
#pragma once
constexpr float kScale = 2.0f;
