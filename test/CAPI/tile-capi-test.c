/*===- tile-capi-test.c - The C API, used from C --------------------------===*\
|*                                                                            *|
|* Part of tile-mlir. Compiled as C (not C++) so the headers stay C.         *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "tile-c/Compiler.h"
#include "tile-c/Dialects.h"

#include <stdio.h>
#include <string.h>

static void print(MlirStringRef text, void *userData) {
  fwrite(text.data, 1, text.length, (FILE *)userData);
}

static const char *kernel =
    "func.func @f(%A: memref<64x64xf16>) {\n"
    "  %c1 = arith.constant 1 : index\n"
    "  tile.kernel grid(%c1) threads(THREADS) as (%bx) {\n"
    "    %s = tile.alloc_shared : memref<64x64xf16, "
    "#gpu.address_space<workgroup>>\n"
    "  }\n"
    "  return\n"
    "}\n";

static int compile(const char *threads) {
  static const char *pipeline = "builtin.module(cse)";
  char source[1024];
  const char *at = strstr(kernel, "THREADS");
  snprintf(source, sizeof(source), "%.*s%s%s", (int)(at - kernel), kernel,
           threads, at + strlen("THREADS"));
  MlirLogicalResult result = tileCompile(
      mlirStringRefCreate(source, strlen(source)),
      mlirStringRefCreate(pipeline, strlen(pipeline)), print, print, stdout);
  return mlirLogicalResultIsSuccess(result);
}

int main(void) {
  /* The dialect handle is there for hosts that use MLIR's C API. */
  MlirDialectHandle handle = mlirGetDialectHandle__tile__();
  printf("handle: %s\n", handle.ptr ? "ok" : "null");
  printf("valid: %d\n", compile("128"));
  printf("invalid: %d\n", compile("96 + 4"));
  printf("bad threads: %d\n", compile("100"));
  return 0;
}
