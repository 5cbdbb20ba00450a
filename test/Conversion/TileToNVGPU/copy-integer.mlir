// RUN: tile-opt %s --tile-lower-to-nvgpu=chip=sm_90 \
// RUN:   | FileCheck %s --implicit-check-not=arith.extf --implicit-check-not=arith.truncf

// Copies of integer elements keep their type: the chunks are loaded and
// stored as they are, with no float conversion (which an assertions build
// used to stop at, casting i8 to a float type).

// CHECK-LABEL: gpu.func @int8_copy_kernel
// CHECK:         vector.load {{.*}} : memref<256x512xi8>, vector<16xi8>
// CHECK:         vector.store {{.*}} : memref<32x128xi8, #gpu.address_space<workgroup>>, vector<16xi8>
func.func @int8_copy(%B: memref<256x512xi8>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  tile.kernel grid(%c4, %c4) threads(128) as (%bx, %by) {
    %b = tile.alloc_shared : memref<32x128xi8, #gpu.address_space<workgroup>>
    tile.copy %B[%c0, %c0] to %b : memref<256x512xi8> to memref<32x128xi8, #gpu.address_space<workgroup>>
  }
  return
}
