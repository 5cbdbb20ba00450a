// On sm_90a, each step of an unrolled steady state runs its gemm before the
// step's copies and ends it with wgmma.wait_group 1: the group stays in
// flight while the copies issue and the next step waits and synchronizes.
// The copies then overwrite the stage of the previous step's gemm, which the
// wait completed; a barrier makes that true for every warp.
// The rolled remainder loop, whose buffer versions are not constants, keeps
// the copies first and wait_group 0, and so do 2-stage pipelines. A
// wait_group 0 follows every loop with groups in flight.

// RUN: %python %tile_src_root/test/Execution/Inputs/gemm.py --variant auto --emit kernel --M 256 --N 256 --K 512 --bm 128 --bn 128 --bk 32 --threads 128 --num-stages 3 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline --tile-lower-to-nvgpu=chip=sm_90a \
// RUN:   | FileCheck %s --check-prefix=S3
// S3-LABEL: gpu.func @gemm_kernel
// The rolled remainder loop: copies, then the gemm, which waits for itself.
// S3: scf.for %{{.*}} step %c1
// S3: nvvm.cp.async.wait.group 1
// S3-NEXT: gpu.barrier
// S3: nvgpu.device_async_copy
// S3: nvvm.cp.async.commit.group
// S3: nvvm.wgmma.commit.group.sync.aligned
// S3-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// S3: } {tile.steady_state = 3 : i64}
// The unrolled loop: three steps of [wait, barrier, gemm, wait 1, barrier,
// copies].
// S3-NEXT: scf.for %{{.*}} step %c3
// S3-NEXT: nvvm.cp.async.wait.group 1
// S3-NEXT: gpu.barrier
// S3-NOT: nvgpu.device_async_copy
// S3: nvvm.wgmma.fence.aligned
// S3: nvvm.wgmma.commit.group.sync.aligned
// S3-NEXT: nvvm.wgmma.wait.group.sync.aligned 1
// S3-NEXT: gpu.barrier
// S3-NOT: gpu.barrier
// S3: nvgpu.device_async_copy
// S3: nvvm.cp.async.commit.group
// S3-NEXT: nvvm.cp.async.wait.group 1
// S3-NEXT: gpu.barrier
// S3-NOT: nvgpu.device_async_copy
// S3: nvvm.wgmma.fence.aligned
// S3: nvvm.wgmma.commit.group.sync.aligned
// S3-NEXT: nvvm.wgmma.wait.group.sync.aligned 1
// S3-NEXT: gpu.barrier
// S3-NOT: gpu.barrier
// S3: nvgpu.device_async_copy
// S3: nvvm.cp.async.commit.group
// S3-NEXT: nvvm.cp.async.wait.group 1
// S3-NEXT: gpu.barrier
// S3-NOT: nvgpu.device_async_copy
// S3: nvvm.wgmma.fence.aligned
// S3: nvvm.wgmma.commit.group.sync.aligned
// S3-NEXT: nvvm.wgmma.wait.group.sync.aligned 1
// S3-NEXT: gpu.barrier
// S3-NOT: gpu.barrier
// S3: nvgpu.device_async_copy
// S3: nvvm.cp.async.commit.group
// S3-NEXT: } {tile.steady_state = 3 : i64}
// S3-NEXT: nvvm.wgmma.wait.group.sync.aligned 0

// RUN: %python %tile_src_root/test/Execution/Inputs/gemm.py --variant auto --emit kernel --M 256 --N 512 --K 512 --bm 128 --bn 256 --bk 32 --threads 256 --num-stages 4 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline --tile-lower-to-nvgpu=chip=sm_90a \
// RUN:   | FileCheck %s --check-prefix=TWO-GROUPS
// TWO-GROUPS: scf.for %{{.*}} step %c4
// TWO-GROUPS: nvvm.wgmma.commit.group.sync.aligned
// TWO-GROUPS-NEXT: nvvm.wgmma.wait.group.sync.aligned 1
// TWO-GROUPS-NEXT: gpu.barrier
// TWO-GROUPS: nvgpu.device_async_copy
// TWO-GROUPS: } {tile.steady_state = 4 : i64}
// TWO-GROUPS-NEXT: nvvm.wgmma.wait.group.sync.aligned 0

// RUN: %python %tile_src_root/test/Execution/Inputs/gemm.py --variant auto --emit kernel --M 256 --N 256 --K 512 --bm 128 --bn 128 --bk 32 --threads 128 --num-stages 2 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline --tile-lower-to-nvgpu=chip=sm_90a \
// RUN:   | FileCheck %s --check-prefix=S2
// S2: nvvm.wgmma.mma_async
// S2-NOT: nvvm.wgmma.wait.group.sync.aligned 1
