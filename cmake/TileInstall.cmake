# Install rules and the CMake package (find_package(TileMLIR)).

include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# The CUDA side of the runtime (tile-run's driver, device and cuBLAS
# wrappers) is not installed, so neither are its headers; the launch
# description, PTX and host-data support is, in TileRuntimeSupport.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/tile ${PROJECT_SOURCE_DIR}/include/tile-c
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.h" PATTERN "*.td"
  PATTERN "Runtime/CudaDriver.h" EXCLUDE
  PATTERN "Runtime/Device.h" EXCLUDE
  PATTERN "Runtime/Blas.h" EXCLUDE)
install(TARGETS TileRuntimeSupport ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY ${PROJECT_BINARY_DIR}/include/tile
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.inc")
install(TARGETS tile-opt tile-translate RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

# The static libraries behind TileInitAll, in link order (each before the
# libraries it uses), read off the targets' own link dependencies so the
# package cannot fall out of step with lib/.
function(tile_collect_link_order target out)
  set(order "${${out}}")
  if(NOT TARGET ${target} OR NOT target MATCHES "^Tile" OR target IN_LIST order)
    set(${out} "${order}" PARENT_SCOPE)
    return()
  endif()
  get_target_property(deps ${target} LINK_LIBRARIES)
  if(deps)
    foreach(dep ${deps})
      tile_collect_link_order(${dep} order)
    endforeach()
  endif()
  # Post-order: dependencies first; reversed below.
  list(APPEND order ${target})
  set(${out} "${order}" PARENT_SCOPE)
endfunction()
set(TILE_EXPORTED_LIBS)
tile_collect_link_order(TileInitAll TILE_EXPORTED_LIBS)
list(REVERSE TILE_EXPORTED_LIBS)
# Used by none of them, and using nothing: last.
if(NOT TileRuntimeSupport IN_LIST TILE_EXPORTED_LIBS)
  list(APPEND TILE_EXPORTED_LIBS TileRuntimeSupport)
endif()

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
