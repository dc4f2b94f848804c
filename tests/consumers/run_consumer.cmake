# Configures, builds and runs tests/consumers/app in WORK_DIR, consuming capplan by MODE.
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})

function(run)
  execute_process(COMMAND ${ARGV} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "command failed (${rc}): ${ARGV}\n${out}\n${err}")
  endif()
  set(LAST_OUTPUT "${out}" PARENT_SCOPE)
endfunction()

set(extra)
if(MODE STREQUAL "find_package")
  # A fresh install of the current tree.
  set(prefix ${WORK_DIR}/prefix)
  run(${CMAKE_COMMAND} -S ${CAPPLAN_SOURCE_DIR} -B ${WORK_DIR}/capplan-build -G ${GENERATOR}
      -DCMAKE_CXX_COMPILER=${CXX} -DCAPPLAN_BUILD_TESTS=OFF -DCAPPLAN_BUILD_EXAMPLES=OFF
      -DCAPPLAN_BUILD_APPS=OFF -DCAPPLAN_INSTALL=ON -DCMAKE_INSTALL_PREFIX=${prefix})
  run(${CMAKE_COMMAND} --install ${WORK_DIR}/capplan-build)
  set(extra -DCMAKE_PREFIX_PATH=${prefix})
  if(NOT EXISTS ${prefix}/share/pkgconfig/capplan.pc)
    message(FATAL_ERROR "capplan.pc was not installed")
  endif()
endif()

run(${CMAKE_COMMAND} -S ${CMAKE_CURRENT_LIST_DIR}/app -B ${WORK_DIR}/app-build -G ${GENERATOR}
    -DCMAKE_CXX_COMPILER=${CXX} -DMODE=${MODE} -DCAPPLAN_SOURCE_DIR=${CAPPLAN_SOURCE_DIR} ${extra})
run(${CMAKE_COMMAND} --build ${WORK_DIR}/app-build)
run(${WORK_DIR}/app-build/consumer)
if(NOT LAST_OUTPUT MATCHES "876.00 USD")
  message(FATAL_ERROR "consumer printed an unexpected result: ${LAST_OUTPUT}")
endif()
message(STATUS "consumer (${MODE}) printed: ${LAST_OUTPUT}")
if(MODE STREQUAL "find_package")
  run(${WORK_DIR}/app-build/consumer_io)
  if(NOT LAST_OUTPUT MATCHES "io: 124475904 parameters")
    message(FATAL_ERROR "consumer_io printed an unexpected result: ${LAST_OUTPUT}")
  endif()
  message(STATUS "consumer_io (${MODE}) printed: ${LAST_OUTPUT}")
endif()
