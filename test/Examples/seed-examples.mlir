// The seed's three kernels parse, verify and print back to the same text.
// RUN: tile-opt %tile_src_root/examples/matmul_auto.mlir > %t.auto
// RUN: tile-opt %t.auto | diff %t.auto -
// RUN: FileCheck %s --check-prefix=AUTO < %t.auto
// RUN: tile-opt %tile_src_root/examples/matmul_manual.mlir > %t.manual
// RUN: tile-opt %t.manual | diff %t.manual -
// RUN: FileCheck %s --check-prefix=MANUAL < %t.manual
// RUN: tile-opt %tile_src_root/examples/matmul_plain.mlir > %t.plain
// RUN: tile-opt %t.plain | diff %t.plain -
// RUN: FileCheck %s --check-prefix=PLAIN < %t.plain

// AUTO-LABEL: func.func @matmul_auto(%{{.*}}: memref<4096x4096xf16>, %{{.*}}: memref<4096x4096xf16>, %{{.*}}: memref<4096x4096xf16>)
// AUTO: tile.kernel grid({{.*}}) threads(128)
// AUTO: tile.alloc_shared : memref<128x32xf16, #gpu.address_space<workgroup>>
// AUTO: tile.alloc_shared : memref<32x128xf16, #gpu.address_space<workgroup>>
// AUTO: tile.alloc_fragment : memref<128x128xf32, #gpu.address_space<private>>
// AUTO: tile.pipelined %{{[a-z0-9_]+}} to %{{[a-z0-9_]+}} step %{{[a-z0-9_]+}} num_stages = 3 as (%k) {
// AUTO-NOT: stage =
// AUTO: tile.gemm

// The manual kernel's loop carries its own schedule and no num_stages: the
// header is matched whole, each operand a single name, so a num_stages
// attribute has nowhere to hide in it.
// MANUAL-LABEL: func.func @matmul_manual
// MANUAL: tile.pipelined %{{[a-z0-9_]+}} to %{{[a-z0-9_]+}} step %{{[a-z0-9_]+}} stage = [0, 0, 1] order = [0, 1, 2] as (%k) {
// MANUAL-NOT: num_stages

// PLAIN-LABEL: func.func @matmul_plain
// PLAIN-NOT: tile.pipelined
// PLAIN: scf.for
// PLAIN: tile.copy
// PLAIN: tile.copy
// PLAIN: tile.gemm
