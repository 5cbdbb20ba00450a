# Precompiled headers for the libraries whose files spend most of their
# compile time in the same MLIR dialect headers.
#
# With g++ -O3, a file that includes nothing but
# mlir/Dialect/LLVMIR/NVVMDialect.h takes about 25 s to compile, TileOps.h
# about 13 s, and a typical file of lib/Conversion/TileToNVGPU 35-40 s, of
# which its own code is a few seconds. Parsing those headers once per
# library instead of once per file is what keeps a cold build quick on two
# cores (docs/getting-started.md, "Build time").
#
# The sources still include what they use: with
# -DTILE_PRECOMPILED_HEADERS=OFF the same tree builds without them.

option(TILE_PRECOMPILED_HEADERS
  "Precompile the MLIR headers most files of a library include (faster cold builds)."
  ON)

# tile_precompile_headers(TARGET HEADER...): TARGET's files are compiled
# with the HEADERs (include paths, as in `#include <HEADER>`) precompiled
# and included first.
function(tile_precompile_headers target)
  if(NOT TILE_PRECOMPILED_HEADERS)
    return()
  endif()
  set(headers)
  foreach(header IN LISTS ARGN)
    list(APPEND headers "<${header}>")
  endforeach()
  target_precompile_headers(${target} PRIVATE ${headers})
endfunction()
