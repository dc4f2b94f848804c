// capplan version: the single place it is written; CMakeLists.txt parses these three lines.
#pragma once

#define CAPPLAN_VERSION_MAJOR 0
#define CAPPLAN_VERSION_MINOR 1
#define CAPPLAN_VERSION_PATCH 0

#define CAPPLAN_VERSION_STRINGIFY_(x) #x
#define CAPPLAN_VERSION_STRINGIFY(x) CAPPLAN_VERSION_STRINGIFY_(x)

namespace capplan {
inline constexpr int version_major = CAPPLAN_VERSION_MAJOR;
inline constexpr int version_minor = CAPPLAN_VERSION_MINOR;
inline constexpr int version_patch = CAPPLAN_VERSION_PATCH;
// "MAJOR.MINOR.PATCH", spelled from the three numbers above so it cannot disagree with them.
inline constexpr const char* version_string =
    CAPPLAN_VERSION_STRINGIFY(CAPPLAN_VERSION_MAJOR) "." CAPPLAN_VERSION_STRINGIFY(CAPPLAN_VERSION_MINOR) "." CAPPLAN_VERSION_STRINGIFY(CAPPLAN_VERSION_PATCH);
}  // namespace capplan
