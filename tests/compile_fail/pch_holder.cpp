// Holds the Boost precompiled header that every compile-fail case and twin reuses
// (tests/compile_fail/CMakeLists.txt); it compiles nothing of its own.
