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

/* Collects a callback's text. */
struct Buffer {
  char data[1 << 16];
  size_t length;
};

static void append(MlirStringRef text, void *userData) {
  struct Buffer *buffer = (struct Buffer *)userData;
  size_t room = sizeof(buffer->data) - 1 - buffer->length;
  size_t n = text.length < room ? text.length : room;
  memcpy(buffer->data + buffer->length, text.data, n);
  buffer->length += n;
  buffer->data[buffer->length] = 0;
}

static struct Buffer compiled, artifact;

/* Diagnostics, whatever the user data of the call. */
static void report(MlirStringRef text, void *userData) {
  (void)userData;
  print(text, stdout);
}

/* Compiles a kernel that copies A into shared memory and back to B down to
   PTX, then writes the PTX and the launch description as tile-run loads
   them. */
static void emitKernel(void) {
  static const char *source =
      "func.func @f(%A: memref<64x64xf16>, %B: memref<64x64xf16>) {\n"
      "  %c1 = arith.constant 1 : index\n"
      "  tile.kernel grid(%c1) threads(128) as (%bx) {\n"
      "    %s = tile.alloc_shared : memref<64x64xf16, "
      "#gpu.address_space<workgroup>>\n"
      "    tile.copy %A to %s : memref<64x64xf16> to memref<64x64xf16, "
      "#gpu.address_space<workgroup>>\n"
      "    tile.copy %s to %B : memref<64x64xf16, "
      "#gpu.address_space<workgroup>> to memref<64x64xf16>\n"
      "  }\n"
      "  return\n"
      "}\n";
  static const char *pipeline =
      "builtin.module(tile-to-ptx{chip=sm_80 print-budget=false})";
  MlirLogicalResult result =
      tileCompile(mlirStringRefCreate(source, strlen(source)),
                  mlirStringRefCreate(pipeline, strlen(pipeline)), append,
                  report, &compiled);
  printf("to ptx: %d\n", mlirLogicalResultIsSuccess(result));
  MlirStringRef module = mlirStringRefCreate(compiled.data, compiled.length);
  result = tileEmitPTX(module, append, report, &artifact);
  printf("ptx: %d\n%s", mlirLogicalResultIsSuccess(result), artifact.data);
  artifact.length = 0;
  result = tileEmitLaunch(module, append, report, &artifact);
  printf("launch: %d\n%s", mlirLogicalResultIsSuccess(result), artifact.data);

  /* A module that did not go through tile-to-ptx holds neither. */
  artifact.length = 0;
  result = tileEmitPTX(mlirStringRefCreate(source, strlen(source)), append,
                       report, &artifact);
  printf("ptx of the source: %d, output %zu bytes\n",
         mlirLogicalResultIsSuccess(result), artifact.length);
  result = tileEmitLaunch(mlirStringRefCreate(source, strlen(source)), append,
                          report, &artifact);
  printf("launch of the source: %d\n", mlirLogicalResultIsSuccess(result));
}

/* Each diagnostic, its notes included, comes in one call. */
static void countCall(MlirStringRef text, void *userData) {
  ++*(int *)userData;
  printf("[call]\n");
  print(text, stdout);
}

static void reportWholeDiagnostics(void) {
  static const char *source =
      "func.func @f() {\n"
      "  %c0 = arith.constant 0 : index\n"
      "  %c1 = arith.constant 1 : index\n"
      "  tile.kernel grid(%c1) threads(32) as (%bx) {\n"
      "    tile.pipelined %c0 to %c1 step %c1 as (%i) {\n"
      "      tile.pipelined %c0 to %c1 step %c1 as (%j) {\n"
      "      }\n"
      "    }\n"
      "  }\n"
      "  return\n"
      "}\n";
  int calls = 0;
  MlirLogicalResult result = tileCompile(
      mlirStringRefCreate(source, strlen(source)), mlirStringRefCreate("", 0),
      print, countCall, &calls);
  printf("nested: %d, diagnostic calls: %d\n",
         mlirLogicalResultIsSuccess(result), calls);
}

int main(void) {
  /* The dialect handle is there for hosts that use MLIR's C API. */
  MlirDialectHandle handle = mlirGetDialectHandle__tile__();
  printf("handle: %s\n", handle.ptr ? "ok" : "null");
  printf("valid: %d\n", compile("128"));
  printf("invalid: %d\n", compile("96 + 4"));
  printf("bad threads: %d\n", compile("100"));
  reportWholeDiagnostics();
  emitKernel();
  return 0;
}
