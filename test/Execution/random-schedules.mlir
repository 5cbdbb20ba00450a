// Random pipelined GEMMs on the CPU (test/Execution/Inputs/random_schedules.py):
// random num_stages, or stage and order by hand, valid or not; small sizes
// that are not tile multiples, transposed operands, shifted or
// element-counted K loops, bf16 and f32 element types, the steady state
// unrolled or not. Each one is either rejected with an error diagnostic or
// runs through --tile-software-pipeline and --tile-specialize-interior-blocks
// (versioned wherever the sizes leave interior blocks) and matches the f32
// reference exactly; none crashes, asserts, hangs or computes a wrong number.
// A fixed seed, so a failure reproduces; the summary line also requires that
// both outcomes occur.

// RUN: %python %S/Inputs/random_schedules.py --seed 1 --count 40 \
// RUN:   --gen %S/Inputs/gemm.py --tile-opt tile-opt --to-llvm "%tile_cpu_to_llvm" \
// RUN:   --runner "%tile_cpu_runner" | FileCheck %s

// CHECK-NOT: FAIL
// CHECK: 40 configurations: {{[1-9][0-9]*}} ran and matched, {{[1-9][0-9]*}} rejected with a diagnostic, 0 failures
