//===- Pipelines.cpp - The AscendC pass order per architecture ------------===//

#include "tilekit/Dialect/AscendC/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

namespace tilekit::ascendc {

/// A pass that acts on each kernel (function) on its own: the pass manager
/// runs it on the functions in parallel, and adjacent ones share a walk.
static void addPerKernel(OpPassManager &pm, std::unique_ptr<Pass> pass) {
  pm.nestAny().addPass(std::move(pass));
}

void buildAscendCPipeline(OpPassManager &pm, Arch arch, bool debug,
                          bool lowerToL0) {
  // One machine throughout: the module is marked with (or must already
  // carry) the pipeline's architecture.
  SetTargetArchOptions target;
  target.arch = arch == Arch::C310 ? "c310" : "c220";
  pm.addPass(createSetTargetArch(target));
  // Shape the kernel first: which cores it uses and whether it prints.
  if (!debug)
    addPerKernel(pm, createRemoveDebugOps());
  pm.addPass(createPromoteCvBlock());
  // Memory: positions, reuse, then addresses and the capacity check.
  addPerKernel(pm, createRefineCubePosition());
  addPerKernel(pm, createComputeReuseGroup());
  addPerKernel(pm, createReuseTensorAllocation());
  addPerKernel(pm, createReuseUbAllocation());
  pm.addPass(createDispatchAlloc());
  addPerKernel(pm, createAllocateTensor());
  addPerKernel(pm, createUnifyBiasTensor());
  ComputeMemoryConsumptionOptions capacity;
  capacity.checkCapacity = true;
  pm.addPass(createComputeMemoryConsumption(capacity));
  // Instructions.
  addPerKernel(pm, createFixupMmadAccParams());
  if (lowerToL0)
    addPerKernel(pm, createLowerToL0());
  addPerKernel(pm, createFillAscOperands());
  // Synchronization: buffer ids order pipes on C310, hard events on C220;
  // cores always need their flags.
  if (arch == Arch::C310) {
    addPerKernel(pm, createInsertBufIdSync());
    addPerKernel(pm, createFuseBufIdSync());
    // Buffer ids cover local tensors only; GM between pipes needs events.
    InsertPipeSyncOptions gm;
    gm.globalOnly = true;
    addPerKernel(pm, createInsertPipeSync(gm));
  } else {
    addPerKernel(pm, createInsertPipeSync());
  }
  addPerKernel(pm, createInsertCrossCoreSync());
  addPerKernel(pm, createInsertCrossCoreSyncGm());
  // Entry code last, so that it stays first in each function.
  pm.addPass(createInsertSubblockGuard());
  if (debug)
    pm.addPass(createInsertInitDump());
}

namespace {
struct PipelineOptions : public PassPipelineOptions<PipelineOptions> {
  Option<bool> debug{*this, "debug",
                     llvm::cl::desc("Keep printf, dump_tensor and assert, "
                                    "and set up the dump area"),
                     llvm::cl::init(false)};
  Option<bool> lowerToL0{*this, "lower-to-l0",
                         llvm::cl::desc("Rewrite simple-level vector ops as "
                                        "low-level ones"),
                         llvm::cl::init(false)};
};
} // namespace

void registerAscendCPipelines() {
  PassPipelineRegistration<PipelineOptions>(
      "ascendc-c220-pipeline",
      "The AscendC passes in the order a C220 (910B) target needs",
      [](OpPassManager &pm, const PipelineOptions &options) {
        buildAscendCPipeline(pm, Arch::C220, options.debug, options.lowerToL0);
      });
  PassPipelineRegistration<PipelineOptions>(
      "ascendc-c310-pipeline",
      "The AscendC passes in the order a C310 target needs (buffer-id sync)",
      [](OpPassManager &pm, const PipelineOptions &options) {
        buildAscendCPipeline(pm, Arch::C310, options.debug, options.lowerToL0);
      });
}

} // namespace tilekit::ascendc
