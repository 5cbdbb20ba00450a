//===- EarlyLoads.cpp - Where synchronous copies issue their loads --------===//
//
// Part of tile-mlir. A synchronous copy from global into shared memory loads
// into registers and then stores; its loads need not wait for the barrier
// and the wait that precede the copy in a pipeline step, only its stores do.
// This finds how far up its block a run of copies may issue its loads.
//
//===----------------------------------------------------------------------===//

#include "CopyLoweringDetail.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace mlir::tile;

/// Whether stores into `memref` stay inside the block or the thread: shared
/// and fragment tiles, and the registers of a lowered fragment (an alloca,
/// possibly through views).
static bool isBlockLocal(Value memref) {
  auto type = dyn_cast<MemRefType>(memref.getType());
  if (!type)
    return false;
  std::optional<MemorySpace> space = getMemorySpace(type);
  if (space && *space != MemorySpace::Global)
    return true;
  while (auto view = memref.getDefiningOp<ViewLikeOpInterface>())
    memref = view.getViewSource();
  return memref.getDefiningOp<memref::AllocaOp>() != nullptr;
}

/// Whether `op` itself (not its regions) may write global memory. Unknown
/// ops may; the group, barrier, fence and wgmma ops that the lowerings leave
/// between a step's copies do not, nor does an empty asm (the wgmma gemm's
/// operand fence), which runs no instruction.
static bool mayWriteGlobalMemory(Operation *op) {
  if (isa<CommitGroupOp, WaitGroupOp, BarrierOp, gpu::BarrierOp,
          NVVM::CpAsyncCommitGroupOp, NVVM::CpAsyncWaitGroupOp,
          NVVM::FenceProxyOp, NVVM::WgmmaFenceAlignedOp,
          NVVM::WgmmaGroupSyncAlignedOp, NVVM::WgmmaWaitGroupSyncOp,
          NVVM::WgmmaMmaAsyncOp>(op) ||
      op->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
    return false;
  if (auto inlineAsm = dyn_cast<LLVM::InlineAsmOp>(op))
    return !inlineAsm.getAsmString().empty();
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects)
    return true;
  SmallVector<MemoryEffects::EffectInstance> instances;
  effects.getEffects(instances);
  return llvm::any_of(instances, [](const MemoryEffects::EffectInstance &e) {
    if (!isa<MemoryEffects::Write, MemoryEffects::Free>(e.getEffect()))
      return false;
    Value value = e.getValue();
    return !value || !isBlockLocal(value);
  });
}

/// The ops that contain `op`, outermost first, up to the kernel.
static SmallVector<Operation *> ancestorsOf(Operation *op) {
  SmallVector<Operation *> chain;
  for (; op && !isa<KernelOp>(op); op = op->getParentOp())
    chain.push_back(op);
  std::reverse(chain.begin(), chain.end());
  return chain;
}

/// Whether one thread may run `write` before `read`: `write` comes first in
/// a block that holds both, or a loop holds both (an earlier iteration).
/// The two branches of an scf.if outside any such loop exclude each other.
static bool mayRunBefore(Operation *write, Operation *read) {
  SmallVector<Operation *> w = ancestorsOf(write), r = ancestorsOf(read);
  size_t d = 0;
  while (d < w.size() && d < r.size() && w[d] == r[d])
    ++d;
  for (size_t i = 0; i < d; ++i)
    if (isa<LoopLikeOpInterface>(w[i]))
      return true;
  if (d == w.size() || d == r.size())
    return true; // one contains the other
  if (w[d]->getBlock() == r[d]->getBlock())
    return w[d]->isBeforeInBlock(r[d]);
  return !(d > 0 && isa<scf::IfOp>(w[d - 1]));
}

/// Whether a barrier in front of `read` may order a global write before it:
/// some op of the kernel that may write global memory may run earlier.
static bool globalWriteMayPrecede(Operation *read) {
  auto kernel = read->getParentOfType<KernelOp>();
  WalkResult result = kernel.walk([&](Operation *op) {
    return mayWriteGlobalMemory(op) && mayRunBefore(op, read)
               ? WalkResult::interrupt()
               : WalkResult::advance();
  });
  return result.wasInterrupted();
}

/// The operands that the loads of a global-to-shared copy use.
static void addSourceOperands(Operation *op,
                              llvm::SmallPtrSetImpl<Value> &needed) {
  auto add = [&](auto copy) {
    needed.insert(copy.getSource());
    needed.insert(copy.getSourceIndices().begin(),
                  copy.getSourceIndices().end());
  };
  if (auto copy = dyn_cast<CopyOp>(op))
    add(copy);
  else if (auto copy = dyn_cast<CopyAsyncOp>(op))
    add(copy);
}

Operation *copy::prepareEarlyLoads(ArrayRef<Operation *> run,
                                   Operation *previous, Value tid) {
  llvm::SmallPtrSet<Value, 8> needed;
  needed.insert(tid);
  for (Operation *op : run)
    addSourceOperands(op, needed);

  // Walk up the block over what the loads may pass: pure ops, ops that
  // write only block-local memory, copies into shared memory, waits,
  // fences, a wgmma gemm, and barriers when no global write can come before
  // them. A pure op that computes an operand of the loads goes up with
  // them; the previous step's commit, a region, an ldmatrix or any other op
  // ends the walk. Loads above an mma.sync gemm's ldmatrix hold their
  // registers through the whole gemm, where those kernels have none to
  // spare: on an H200, 4095^3 on sm_90 lost 5% that way (112.7 -> 107.1
  // TFLOP/s) and gains nothing by it elsewhere.
  SmallVector<Operation *> operandOps;
  Operation *anchor = nullptr;
  std::optional<bool> barrierOrdersWrites;
  for (Operation *op = previous; op; op = op->getPrevNode()) {
    if (llvm::any_of(op->getResults(),
                     [&](Value v) { return needed.contains(v); })) {
      if (!isPure(op) || op->getNumRegions() != 0)
        break;
      operandOps.push_back(op);
      needed.insert(op->operand_begin(), op->operand_end());
      continue;
    }
    if (isa<CommitGroupOp, NVVM::CpAsyncCommitGroupOp, nvgpu::LdMatrixOp>(op) ||
        op->getNumRegions() != 0)
      break;
    if (isa<BarrierOp, gpu::BarrierOp>(op)) {
      if (!barrierOrdersWrites)
        barrierOrdersWrites = globalWriteMayPrecede(run.front());
      if (*barrierOrdersWrites)
        break;
    } else if (mayWriteGlobalMemory(op)) {
      break;
    }
    anchor = op;
  }
  if (!anchor)
    return nullptr;
  // The operand ops that the walk passed below the anchor move above it, in
  // their order; those above it stay.
  for (Operation *op : llvm::reverse(operandOps))
    if (anchor->isBeforeInBlock(op))
      op->moveBefore(anchor);
  return anchor;
}
