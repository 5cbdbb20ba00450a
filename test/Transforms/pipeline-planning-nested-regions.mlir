// RUN: tile-opt %s --tile-pipeline-planning | FileCheck %s

// The effects of a statement with regions are those of the ops inside, each
// asked once: a walk that asked every op of a region and then each of those
// again for its own regions visited an op n levels deep 2^n times: each
// level of scf.if around the gemm doubled the time to plan (18 levels took
// 3 s, 24 over 30 s; this test has 30).

!G = memref<64x64xf16>
!S = memref<16x16xf16, #gpu.address_space<workgroup>>
!F = memref<16x16xf32, #gpu.address_space<private>>

// CHECK: tile.pipelined {{.*}} num_stages = 2 stage = [0, 1] order = [0, 1]
func.func @nested(%A: !G) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %a = tile.alloc_shared : !S
    %f = tile.alloc_fragment : !F
    tile.pipelined %c0 to %c4 step %c1 num_stages = 2 as (%k) {
      tile.copy %A[%c0, %c0] to %a : !G to !S
      %t = arith.cmpi ult, %k, %c4 : index
      scf.if %t {
        scf.if %t {
          scf.if %t {
            scf.if %t {
              scf.if %t {
                scf.if %t {
                  scf.if %t {
                    scf.if %t {
                      scf.if %t {
                        scf.if %t {
                          scf.if %t {
                            scf.if %t {
                              scf.if %t {
                                scf.if %t {
                                  scf.if %t {
                                    scf.if %t {
                                      scf.if %t {
                                        scf.if %t {
                                          scf.if %t {
                                            scf.if %t {
                                              scf.if %t {
                                                scf.if %t {
                                                  scf.if %t {
                                                    scf.if %t {
                                                      scf.if %t {
                                                        scf.if %t {
                                                          scf.if %t {
                                                            scf.if %t {
                                                              scf.if %t {
                                                                scf.if %t {
                                                                  tile.gemm %a, %a, %f : !S, !S, !F
                                                                }
                                                              }
                                                            }
                                                          }
                                                        }
                                                      }
                                                    }
                                                  }
                                                }
                                              }
                                            }
                                          }
                                        }
                                      }
                                    }
                                  }
                                }
                              }
                            }
                          }
                        }
                      }
                    }
                  }
                }
              }
            }
          }
        }
      }
    }
  }
  return
}
