# Runs the capplan CLI with ARGS (a ;-list), checks its exit code against EXPECT_RC and its
# standard output (or, for a non-zero EXPECT_RC, its standard error) against the golden file
# GOLDEN. On a difference the actual output is written to ACTUAL (in the build tree, never beside
# the golden file). With CAPPLAN_UPDATE_GOLDEN=1 in the environment, rewrites the golden file instead.
separate_arguments(args UNIX_COMMAND "${ARGS}")
# Prices are judged against a fixed date (capplan --today), so the goldens do not age.
set(ENV{CAPPLAN_TODAY} "2026-11-26")
execute_process(COMMAND ${CAPPLAN} ${args}
  WORKING_DIRECTORY ${SOURCE_DIR}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc STREQUAL EXPECT_RC)
  message(FATAL_ERROR "capplan ${ARGS}: exit code ${rc}, expected ${EXPECT_RC}\nstdout:\n${out}\nstderr:\n${err}")
endif()
if(EXPECT_RC STREQUAL "0")
  set(actual "${out}")
else()
  set(actual "${err}")
endif()
if("$ENV{CAPPLAN_UPDATE_GOLDEN}" STREQUAL "1")
  file(WRITE ${GOLDEN} "${actual}")
  return()
endif()
if(NOT EXISTS ${GOLDEN})
  message(FATAL_ERROR "missing golden file ${GOLDEN}; run with CAPPLAN_UPDATE_GOLDEN=1 and review it")
endif()
file(READ ${GOLDEN} expected)
if(NOT actual STREQUAL expected)
  file(WRITE ${ACTUAL} "${actual}")
  message(FATAL_ERROR "capplan ${ARGS}: output differs from ${GOLDEN}\n(diff ${GOLDEN} ${ACTUAL})\n--- actual:\n${actual}")
endif()
