/*===-- tile-c/Dialects.h - C API for the tile dialect ------------*- C -*-===*\
|*                                                                            *|
|* Part of tile-mlir. Registration of the tile dialect through MLIR's C API.  *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef TILE_C_DIALECTS_H
#define TILE_C_DIALECTS_H

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Tile, tile);

#ifdef __cplusplus
}
#endif

#endif /* TILE_C_DIALECTS_H */
