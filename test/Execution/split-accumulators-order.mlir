// A loop over tiles whose tiles overlap: each of the block's four 128-row
// tiles starts 64 rows after the last, so a later tile's store overwrites
// half of the one before (and a K loop of t + 1 steps gives each a value of
// its own). With the accumulator in parts of 64 rows, parts in blocks of
// their own would write those rows in no order with one another; the parts
// run one after another inside the loop, which keeps the order, and C is
// the same as without the split.
//
// RUN: tile-opt %s --tile-pipeline-planning --tile-software-pipeline \
// RUN:     --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm | %tile_cpu_runner > %t.whole
// RUN: tile-opt %s --tile-pipeline-planning --tile-split-accumulators=chip=sm_90a --tile-software-pipeline \
// RUN:     --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm 2>%t.remark | %tile_cpu_runner > %t.parts
// RUN: diff %t.whole %t.parts
// RUN: FileCheck %s < %t.remark
// RUN: FileCheck %s --check-prefix=SUM < %t.whole

// CHECK: remark: this 128x64 accumulator {{.*}} it is computed in 2 parts of 64x64, one after another, each with its own reduction loop (not in blocks of their own: its store in a loop may write tiles that overlap from one iteration to the next (its row is not known to be a multiple of 128), and blocks of their own would not keep their order)
// SUM: checksum: 426607


!A = memref<256x64xf16>
!B = memref<64x64xf16>
!C = memref<256x64xf16>
!As = memref<128x16xf16, #gpu.address_space<workgroup>>
!Bs = memref<16x64xf16, #gpu.address_space<workgroup>>
!Cl = memref<128x64xf32, #gpu.address_space<private>>

func.func @gemm(%A: !A, %B: !B, %C: !C) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %bm = arith.constant 128 : index
  %bn = arith.constant 64 : index
  %bk = arith.constant 16 : index
  %M = arith.constant 256 : index
  %N = arith.constant 64 : index
  %K = arith.constant 64 : index
  %tiles_n = arith.ceildivui %N, %bn : index
  %tpb = arith.constant 3 : index
  %gx = arith.ceildivui %tiles_n, %tpb : index
  %gy = arith.ceildivui %M, %bm : index
  %kt = arith.ceildivui %K, %bk : index
  %c64 = arith.constant 64 : index
  %c4 = arith.constant 4 : index
  tile.kernel grid(%c1, %c1) threads(32) as (%bx, %by) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    scf.for %t = %c0 to %c4 step %c1 {
      tile.clear %C_l : !Cl
      %row = arith.muli %t, %c64 : index
      %col = arith.muli %bx, %bn : index
      %ktt = arith.addi %t, %c1 : index
      tile.pipelined %c0 to %ktt step %c1 num_stages = 3 as (%k) {
        %ko = arith.muli %k, %bk : index
        tile.copy %A[%row, %ko] to %A_s : !A to !As
        tile.copy %B[%ko, %col] to %B_s : !B to !Bs
        tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
      }
      tile.copy %C_l to %C[%row, %col] : !Cl to !C
    }
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c9 = arith.constant 9 : index
  %c11 = arith.constant 11 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %A = memref.alloc() : memref<256x64xf16>
  %B = memref.alloc() : memref<64x64xf16>
  %C = memref.alloc() : memref<256x64xf16>
  scf.for %i = %c0 to %c256 step %c1 {
    scf.for %j = %c0 to %c64 step %c1 {
      %ti = arith.muli %i, %c7 : index
      %tj = arith.muli %j, %c3 : index
      %s = arith.addi %ti, %tj : index
      %r = arith.remui %s, %c11 : index
      %v = arith.subi %r, %c5 : index
      %vi = arith.index_cast %v : index to i32
      %vf = arith.sitofp %vi : i32 to f16
      memref.store %vf, %A[%i, %j] : memref<256x64xf16>
    }
  }
  scf.for %i = %c0 to %c64 step %c1 {
    scf.for %j = %c0 to %c64 step %c1 {
      %ti = arith.muli %i, %c5 : index
      %tj = arith.muli %j, %c2 : index
      %s = arith.addi %ti, %tj : index
      %r = arith.remui %s, %c9 : index
      %v = arith.subi %r, %c4 : index
      %vi = arith.index_cast %v : index to i32
      %vf = arith.sitofp %vi : i32 to f16
      memref.store %vf, %B[%i, %j] : memref<64x64xf16>
    }
  }
  // The reference reads copies taken before the call: @gemm may write to
  // %A and %B, not to these.
  %A0 = memref.alloc() : memref<256x64xf16>
  %B0 = memref.alloc() : memref<64x64xf16>
  memref.copy %A, %A0 : memref<256x64xf16> to memref<256x64xf16>
  memref.copy %B, %B0 : memref<64x64xf16> to memref<64x64xf16>
  %poison = arith.constant -3.000000e+04 : f16
  scf.for %i = %c0 to %c256 step %c1 {
    scf.for %j = %c0 to %c64 step %c1 {
      memref.store %poison, %C[%i, %j] : memref<256x64xf16>
    }
  }

  func.call @gemm(%A, %B, %C) : (memref<256x64xf16>, memref<64x64xf16>, memref<256x64xf16>) -> ()

  %cs_M = arith.constant 256 : index
  %cs_N = arith.constant 64 : index
  %cs_0 = arith.constant 0 : index
  %cs_1 = arith.constant 1 : index
  %cs_z = arith.constant 0.0 : f64
  %cs = scf.for %i = %cs_0 to %cs_M step %cs_1 iter_args(%s0 = %cs_z) -> (f64) {
    %s1 = scf.for %j = %cs_0 to %cs_N step %cs_1 iter_args(%s = %s0) -> (f64) {
      %v = memref.load %C[%i, %j] : memref<256x64xf16>
      %vd = arith.extf %v : f16 to f64
      %w0 = arith.muli %i, %cs_N : index
      %w1 = arith.addi %w0, %j : index
      %w2 = arith.addi %w1, %cs_1 : index
      %w3 = arith.index_cast %w2 : index to i64
      %w = arith.sitofp %w3 : i64 to f64
      %p = arith.mulf %vd, %w : f64
      %s2 = arith.addf %s, %p : f64
      scf.yield %s2 : f64
    }
    scf.yield %s1 : f64
  }
  vector.print str "checksum: "
  %csi = arith.fptosi %cs : f64 to i64
  vector.print %csi : i64
  return
}
