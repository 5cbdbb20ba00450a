// RUN: not tile-opt %s --tile-lower-to-nvgpu=chip=sm_70 2>&1 | FileCheck %s
// RUN: not tile-opt %s --tile-to-ptx=chip=sm_12 2>&1 | FileCheck %s

// CHECK: error: unknown chip '{{sm_70|sm_12}}'; known chips: sm_80, sm_86, sm_89, sm_90, sm_90a
func.func @f() {
  return
}
