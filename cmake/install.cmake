# Install rules: headers, the exported targets, capplanConfig.cmake + version file, capplan.pc.
install(DIRECTORY include/capplan DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

# Two export sets, so that the io component (and its nlohmann-json dependency) is loaded only by a
# consumer that asks for it: find_package(capplan COMPONENTS io).
install(TARGETS capplan EXPORT capplanTargets)
set(CAPPLAN_CMAKE_DIR ${CMAKE_INSTALL_DATADIR}/cmake/capplan)
install(EXPORT capplanTargets NAMESPACE capplan:: DESTINATION ${CAPPLAN_CMAKE_DIR})
if(TARGET capplan_io)
  install(TARGETS capplan_io EXPORT capplanIoTargets)
  install(EXPORT capplanIoTargets NAMESPACE capplan:: DESTINATION ${CAPPLAN_CMAKE_DIR})
endif()

configure_package_config_file(cmake/capplanConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/capplanConfig.cmake
  INSTALL_DESTINATION ${CAPPLAN_CMAKE_DIR})
# Header-only: the package fits any architecture.
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/capplanConfigVersion.cmake
  COMPATIBILITY SameMinorVersion ARCH_INDEPENDENT)
install(FILES
  ${CMAKE_CURRENT_BINARY_DIR}/capplanConfig.cmake
  ${CMAKE_CURRENT_BINARY_DIR}/capplanConfigVersion.cmake
  DESTINATION ${CAPPLAN_CMAKE_DIR})

configure_file(cmake/capplan.pc.in ${CMAKE_CURRENT_BINARY_DIR}/capplan.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/capplan.pc DESTINATION ${CMAKE_INSTALL_DATADIR}/pkgconfig)
