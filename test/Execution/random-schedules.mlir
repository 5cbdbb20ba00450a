// Random pipelined GEMMs on the CPU (test/Execution/Inputs/random_schedules.py):
// random num_stages, or stage and order by hand, valid or not; small sizes
// that are not tile multiples, transposed operands, shifted or
// element-counted K loops, bf16 and f32 element types, the steady state
// unrolled or not. The script decides from how it drew each configuration
// whether tile-opt must accept it (every num_stages-only one; a hand-written
// schedule when `order` is a permutation and the gemm runs after both copies)
// or reject it. An accepted one runs through --tile-software-pipeline,
// --tile-specialize-interior-blocks (versioned wherever the sizes leave
// interior blocks) and --tile-specialize-interior-steps (K loops split
// where a ragged K leaves the last k-tiles) and must match the f32 reference exactly; a rejected one
// must fail with an error diagnostic. A legal schedule rejected, an illegal
// one accepted, a crash, an assertion, a hang or a wrong number is a failure.
// A fixed seed, so a failure reproduces; the summary pins how many of its 40
// configurations are legal (26) and illegal (14).

// RUN: %python %S/Inputs/random_schedules.py --seed 1 --count 40 \
// RUN:   --gen %S/Inputs/gemm.py --tile-opt tile-opt --to-llvm "%tile_cpu_to_llvm" \
// RUN:   --runner "%tile_cpu_runner" | FileCheck %s

// CHECK-NOT: FAIL
// CHECK: {{^}}40 configurations: 26 ran and matched, 14 rejected with a diagnostic, 0 failures{{$}}

// With --regions, the gemm, the copy of B or A's K offset also sit under an
// scf.if (a copy of B under one must share the gemm's stage): 22 legal, 18 not.
// RUN: %python %S/Inputs/random_schedules.py --seed 2 --count 40 --regions \
// RUN:   --gen %S/Inputs/gemm.py --tile-opt tile-opt --to-llvm "%tile_cpu_to_llvm" \
// RUN:   --runner "%tile_cpu_runner" | FileCheck %s --check-prefix=REGIONS

// REGIONS-NOT: FAIL
// REGIONS: {{^}}40 configurations: 22 ran and matched, 18 rejected with a diagnostic, 0 failures{{$}}

// With --two-gemms too, half of the num_stages-only kernels copy A and B in
// two halves of each K tile and run two gemms into the accumulator: six
// statements to plan, pipeline and multi-buffer.
// RUN: %python %S/Inputs/random_schedules.py --seed 3 --count 40 --regions --two-gemms \
// RUN:   --gen %S/Inputs/gemm.py --tile-opt tile-opt --to-llvm "%tile_cpu_to_llvm" \
// RUN:   --runner "%tile_cpu_runner" | FileCheck %s --check-prefix=TWO

// TWO-NOT: FAIL
// TWO: {{^}}40 configurations: 26 ran and matched, 14 rejected with a diagnostic, 0 failures{{$}}

// With --persistent too, half of the configurations get 50 to 100 rows and go
// through --tile-persistent-blocks (1 to 7 blocks, block-group 1, 2, 3 or 8):
// the tiles of up to 7 rows of blocks in grouped order with short last
// groups, and every tile computed once (a wrong tile order fails here: 4 of
// these configurations when BlockOrder.cpp ignored short groups).
// RUN: %python %S/Inputs/random_schedules.py --seed 4 --count 40 --regions --two-gemms --persistent \
// RUN:   --gen %S/Inputs/gemm.py --tile-opt tile-opt --to-llvm "%tile_cpu_to_llvm" \
// RUN:   --runner "%tile_cpu_runner" | FileCheck %s --check-prefix=PERSISTENT

// PERSISTENT-NOT: FAIL
// PERSISTENT: declined by tile-persistent-blocks: 0
// PERSISTENT: {{^}}40 configurations: 29 ran and matched, 11 rejected with a diagnostic, 0 failures{{$}}

// With --dynamic, half of the kernels take memref<?x?x...> operands and read
// M, N and K with memref.dim: dynamic trip counts for the pipeliner, dynamic
// grids for the interior blocks and dynamic split points for the interior
// steps.
// RUN: %python %S/Inputs/random_schedules.py --seed 5 --count 40 --regions --two-gemms --dynamic \
// RUN:   --gen %S/Inputs/gemm.py --tile-opt tile-opt --to-llvm "%tile_cpu_to_llvm" \
// RUN:   --runner "%tile_cpu_runner" | FileCheck %s --check-prefix=DYNAMIC

// DYNAMIC-NOT: FAIL
// DYNAMIC: {{^}}40 configurations: 23 ran and matched, 17 rejected with a diagnostic, 0 failures{{$}}

// Both: persistent kernels over tensors of dynamic size, whose tile count is
// known at run time only (5 of these 40 were declined before tile-persistent-
// blocks took dynamic grids).
// RUN: %python %S/Inputs/random_schedules.py --seed 6 --count 40 --regions --two-gemms --persistent --dynamic \
// RUN:   --gen %S/Inputs/gemm.py --tile-opt tile-opt --to-llvm "%tile_cpu_to_llvm" \
// RUN:   --runner "%tile_cpu_runner" | FileCheck %s --check-prefix=BOTH

// BOTH-NOT: FAIL
// BOTH: declined by tile-persistent-blocks: 0
// BOTH: {{^}}40 configurations: 22 ran and matched, 18 rejected with a diagnostic, 0 failures{{$}}

// Leads: a third of the K loops of the seed's form read every K tile some
// elements early (gemm.py --k-lead), so the first tile starts at a negative
// offset; what lies before A and B must read as zero for the product to
// match.
// RUN: %python %S/Inputs/random_schedules.py --seed 7 --count 40 --regions --two-gemms --dynamic --leads \
// RUN:   --gen %S/Inputs/gemm.py --tile-opt tile-opt --to-llvm "%tile_cpu_to_llvm" \
// RUN:   --runner "%tile_cpu_runner" | FileCheck %s --check-prefix=LEADS

// LEADS-NOT: FAIL
// LEADS: ran and matched with --k-lead: 8
// LEADS: {{^}}40 configurations: 27 ran and matched, 13 rejected with a diagnostic, 0 failures{{$}}

// Tile loops: a third of the kernels compute 2 or 3 tiles of a row of C per
// block (gemm.py --tiles-per-block, half of them in an scf.while), so each
// block runs its pipeline again after its store; with persistent blocks,
// the tile loop is inside the loop over tiles.
// RUN: %python %S/Inputs/random_schedules.py --seed 9 --count 40 --regions --two-gemms --persistent --tile-loops \
// RUN:   --gen %S/Inputs/gemm.py --tile-opt tile-opt --to-llvm "%tile_cpu_to_llvm" \
// RUN:   --runner "%tile_cpu_runner" | FileCheck %s --check-prefix=LOOPS

// LOOPS-NOT: FAIL
// LOOPS: ran and matched with --tiles-per-block: 11
// LOOPS: {{^}}40 configurations: 29 ran and matched, 11 rejected with a diagnostic, 0 failures{{$}}
