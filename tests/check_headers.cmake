# Every public header compiles on its own (includes what it uses): each is compiled alone with
# -fsyntax-only. Run by CTest as test "headers.self_contained".
file(GLOB_RECURSE headers RELATIVE ${SOURCE_DIR}/include ${SOURCE_DIR}/include/capplan/*.hpp)
list(SORT headers)
set(failed)
foreach(h IN LISTS headers)
  file(WRITE ${WORK_DIR}/header_check.cpp "#include <${h}>\n#include <${h}>\n")
  execute_process(
    COMMAND ${CXX} -std=c++20 -fsyntax-only -Wall -Wextra -Werror -I${SOURCE_DIR}/include ${WORK_DIR}/header_check.cpp
    RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    list(APPEND failed ${h})
    message("${h} does not compile on its own:\n${err}")
  endif()
endforeach()
list(LENGTH headers n)
if(failed)
  message(FATAL_ERROR "headers that do not compile alone: ${failed}")
endif()
message(STATUS "${n} headers compile on their own")
