// capplan version: the single place it is written; CMakeLists.txt parses these three lines.
#pragma once

#define CAPPLAN_VERSION_MAJOR 0
#define CAPPLAN_VERSION_MINOR 1
#define CAPPLAN_VERSION_PATCH 0

namespace capplan {
inline constexpr int version_major = CAPPLAN_VERSION_MAJOR;
inline constexpr int version_minor = CAPPLAN_VERSION_MINOR;
inline constexpr int version_patch = CAPPLAN_VERSION_PATCH;
inline constexpr const char* version_string = "0.1.0";
}  // namespace capplan
