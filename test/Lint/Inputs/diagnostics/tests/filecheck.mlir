// RUN: tile-opt %s | FileCheck %s
// CHECK: a FileCheck line is not a diagnostic test
// CHECK: it writes at an offset into its shared tile
