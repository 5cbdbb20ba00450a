/*===-- tile-c/Compiler.h - Embedding the tile-mlir compiler ------*- C -*-===*\
|*                                                                            *|
|* Part of tile-mlir. The C entry points a host program (or Python, through   *|
|* ctypes) uses to run tile-mlir without linking C++: register what the       *|
|* pipeline needs, or compile a module in one call.                           *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef TILE_C_COMPILER_H
#define TILE_C_COMPILER_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Inserts into `registry` the tile dialect and every upstream dialect,
/// extension and LLVM IR translation that tile-mlir's pipelines use.
MLIR_CAPI_EXPORTED void tileRegisterAllDialects(MlirDialectRegistry registry);

/// Registers every tile pass and pipeline (`tile-pipeline-planning`, ...)
/// and the upstream passes, so textual pipelines can name them.
MLIR_CAPI_EXPORTED void tileRegisterAllPasses(void);

/// Parses `source` (MLIR assembly), runs `pipeline` (a textual pass
/// pipeline as `tile-opt --pass-pipeline` takes it, for example
/// "builtin.module(tile-pipeline-planning)"; empty runs nothing but the
/// verifier) and hands the printed result to `output`. Every diagnostic is
/// handed, formatted as `tile-opt` prints it and with its notes, to
/// `diagnostic` in one call. Returns failure when parsing, verification or a
/// pass failed.
MLIR_CAPI_EXPORTED MlirLogicalResult tileCompile(MlirStringRef source,
                                                 MlirStringRef pipeline,
                                                 MlirStringCallback output,
                                                 MlirStringCallback diagnostic,
                                                 void *userData);

/// Parses `module`, the output of the tile-to-ptx pipeline (for example
/// "builtin.module(tile-to-ptx{chip=sm_90a})" run by tileCompile), and
/// hands the PTX of its gpu.binary to `output`, as
/// `tile-translate --tile-emit-ptx` writes it. Diagnostics go to
/// `diagnostic`. Fails when parsing fails or the module holds no PTX.
MLIR_CAPI_EXPORTED MlirLogicalResult tileEmitPTX(MlirStringRef module,
                                                 MlirStringCallback output,
                                                 MlirStringCallback diagnostic,
                                                 void *userData);

/// As tileEmitPTX, for the launch description of each kernel launch (the
/// `.launch` file of `tile-translate --tile-emit-launch`, which tile-run
/// reads next to the PTX).
MLIR_CAPI_EXPORTED MlirLogicalResult
tileEmitLaunch(MlirStringRef module, MlirStringCallback output,
               MlirStringCallback diagnostic, void *userData);

#ifdef __cplusplus
}
#endif

#endif /* TILE_C_COMPILER_H */
