/* Compiles one kernel through the installed C API. */
#include "tile-c/Compiler.h"

#include <stdio.h>
#include <string.h>

static void print(MlirStringRef text, void *userData) {
  fwrite(text.data, 1, text.length, (FILE *)userData);
}

int main(void) {
  const char *source = "func.func @f(%n: index) {\n"
                       "  tile.kernel grid(%n) threads(64) as (%bx) {\n"
                       "    %s = tile.alloc_shared : memref<16x16xf16, "
                       "#gpu.address_space<workgroup>>\n"
                       "  }\n"
                       "  return\n"
                       "}\n";
  MlirLogicalResult result =
      tileCompile(mlirStringRefCreate(source, strlen(source)),
                  mlirStringRefCreate("", 0), print, print, stdout);
  return mlirLogicalResultIsSuccess(result) ? 0 : 1;
}
