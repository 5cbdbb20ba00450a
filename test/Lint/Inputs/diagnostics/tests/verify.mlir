// RUN: tile-opt %s -verify-diagnostics
// expected-error@+1 {{needs a shared tile; got 'memref.copy'}}
// expected-error@+1 {{needs more shared memory than the chip
// allows}}
// expected-remark@+1 {{stay cp.async: its destination is not a whole 2-D tile}}
// expected-error@+1 {{'tile.copy' op the unsupported memory space of a copy's destination}}
