# Install rules and the CMake package (find_package(TileMLIR)).

include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/tile ${PROJECT_SOURCE_DIR}/include/tile-c
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.h" PATTERN "*.td")
install(DIRECTORY ${PROJECT_BINARY_DIR}/include/tile
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.inc")
install(TARGETS tile-opt RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

# Static libraries in link order: each before the libraries it uses.
set(TILE_EXPORTED_LIBS
  TileInitAll
  TileToNVGPU
  TileTransforms
  TileDialect
  TileTarget
  )

set(TILE_CONFIG_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/TileMLIR)
configure_package_config_file(
  ${PROJECT_SOURCE_DIR}/cmake/TileMLIRConfig.cmake.in
  ${PROJECT_BINARY_DIR}/cmake/TileMLIRConfig.cmake
  INSTALL_DESTINATION ${TILE_CONFIG_DIR}
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR CMAKE_INSTALL_LIBDIR CMAKE_INSTALL_BINDIR)
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/cmake/TileMLIRConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES
  ${PROJECT_BINARY_DIR}/cmake/TileMLIRConfig.cmake
  ${PROJECT_BINARY_DIR}/cmake/TileMLIRConfigVersion.cmake
  DESTINATION ${TILE_CONFIG_DIR})
