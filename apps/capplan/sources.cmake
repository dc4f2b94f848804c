# The command-line tool's translation units, apart from main.cpp: listed once for every build that
# compiles the tool (apps/CMakeLists.txt; fuzz/CMakeLists.txt runs it in-process under libFuzzer;
# web/CMakeLists.txt compiles it to WebAssembly for the browser planner). Paths are absolute.
set(CAPPLAN_CLI_SOURCES)
foreach(_unit cli args context output scenario workload_args cmd_build cmd_catalog cmd_compare cmd_memory cmd_power
              cmd_tco cmd_train)
  list(APPEND CAPPLAN_CLI_SOURCES ${CMAKE_CURRENT_LIST_DIR}/${_unit}.cpp)
endforeach()
