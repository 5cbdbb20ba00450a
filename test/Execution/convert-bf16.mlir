// Copies that convert to bf16 round to nearest even exactly, as the GPU's
// cvt.rn.bf16.f32 and cvt.rn.bf16.f64 do, on any host: the CPU lowering
// rounds in integer arithmetic. LLVM's own conversion flushed an f32
// subnormal to zero on x86 hosts with AVX512-BF16, and rounded f64 twice
// (through f32), which moves a value that is just above a tie.
// Each value is copied from f64 straight to bf16, and from f64 to f32 to
// bf16; the bf16 bits are printed. Expected bits (exact rational rounding):
//   1.01e-39 (an f32 subnormal)          0x000b    0x000b
//   1 + 2^-8 + 2^-30                      0x3f81    0x3f80 (f32 makes it a tie)
//   1 + 2^-8 (a tie: to even, down)       0x3f80    0x3f80
//   1 + 3 * 2^-8 (a tie: to even, up)     0x3f82    0x3f82
//   3.7e38 (above the f32 range)          0x7f80    0x7f80 (inf)
//   -2.5e-3                               0xbb24    0xbb24
//   the largest finite bf16               0x7f7f    0x7f7f
//
// RUN: tile-opt %s --tile-lower-to-cpu %tile_cpu_to_llvm | %tile_cpu_runner | FileCheck %s
// CHECK:      11
// CHECK-NEXT: 16257
// CHECK-NEXT: 16256
// CHECK-NEXT: 16258
// CHECK-NEXT: 32640
// CHECK-NEXT: 47908
// CHECK-NEXT: 32639
// CHECK-NEXT: 11
// CHECK-NEXT: 16256
// CHECK-NEXT: 16256
// CHECK-NEXT: 16258
// CHECK-NEXT: 32640
// CHECK-NEXT: 47908
// CHECK-NEXT: 32639

!G = memref<1x7xf64>
!O = memref<1x7xbf16>
!F64 = memref<1x7xf64, #gpu.address_space<private>>
!F32 = memref<1x7xf32, #gpu.address_space<private>>
!B = memref<1x7xbf16, #gpu.address_space<private>>

func.func @convert(%G: !G, %direct: !O, %through: !O) {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(32) as (%bx) {
    %b64 = tile.alloc_fragment : !B
    %f32 = tile.alloc_fragment : !F32
    %b32 = tile.alloc_fragment : !B
    tile.copy %G to %b64 : !G to !B
    tile.copy %G to %f32 : !G to !F32
    tile.copy %f32 to %b32 : !F32 to !B
    tile.copy %b64 to %direct : !B to !O
    tile.copy %b32 to %through : !B to !O
  }
  return
}

func.func @print(%O: !O) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  scf.for %i = %c0 to %c7 step %c1 {
    %v = memref.load %O[%c0, %i] : !O
    %bits = arith.bitcast %v : bf16 to i16
    %wide = arith.extui %bits : i16 to i32
    vector.print %wide : i32
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %G = memref.alloc() : !G
  %values = arith.constant dense<[0x37D5FEF02B6D11CF, 0x3FF0100000400000, 0x3FF0100000000000, 0x3FF0300000000000, 0x47F165B686EE88C4, 0xBF647AE147AE147B, 0x47EFE00000000000]> : vector<7xi64>
  %floats = arith.bitcast %values : vector<7xi64> to vector<7xf64>
  vector.store %floats, %G[%c0, %c0] : !G, vector<7xf64>
  %direct = memref.alloc() : !O
  %through = memref.alloc() : !O
  call @convert(%G, %direct, %through) : (!G, !O, !O) -> ()
  call @print(%direct) : (!O) -> ()
  call @print(%through) : (!O) -> ()
  memref.dealloc %G : !G
  memref.dealloc %direct : !O
  memref.dealloc %through : !O
  return
}
