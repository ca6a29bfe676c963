//===- Pipelines.cpp - The AscendC pass order per architecture ------------===//

#include "tilekit/Dialect/AscendC/Transforms/BufferCapacities.h"
#include "tilekit/Dialect/AscendC/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

namespace tilekit::ascendc {

namespace {
/// Adds passes to a pipeline: those that act on each kernel (function) on
/// its own go into one nested pipeline per run of adjacent ones, which the
/// pass manager runs on the functions in parallel and after which it
/// verifies the module once (a nested pipeline per pass verified the
/// module's symbol uses after every pass: a fifth of the pipeline's time
/// on large kernels).
class PipelineBuilder {
public:
  PipelineBuilder(OpPassManager &pm, StringRef stopAfter)
      : pm(pm), stopAfter(stopAfter) {}
  void addPerKernel(std::unique_ptr<Pass> pass) {
    if (!admit(*pass))
      return;
    if (!kernels)
      kernels = &pm.nestAny();
    kernels->addPass(std::move(pass));
  }
  void addPerModule(std::unique_ptr<Pass> pass) {
    if (!admit(*pass))
      return;
    kernels = nullptr;
    pm.addPass(std::move(pass));
  }
  /// Whether the pass `stopAfter` names was added (true without one).
  bool reachedStop() const { return stopAfter.empty() || stopped; }

private:
  /// False for the passes after `stopAfter`.
  bool admit(const Pass &pass) {
    if (stopped)
      return false;
    stopped = !stopAfter.empty() && pass.getArgument() == stopAfter;
    return true;
  }

  OpPassManager &pm;
  StringRef stopAfter;
  bool stopped = false;
  OpPassManager *kernels = nullptr;
};
} // namespace

std::optional<Arch> parseArchName(StringRef name) {
  for (Arch arch : {Arch::C220, Arch::C310})
    if (name == getArchName(arch))
      return arch;
  return std::nullopt;
}

StringRef getArchName(Arch arch) {
  return arch == Arch::C310 ? "c310" : "c220";
}

bool buildAscendCPipeline(
    OpPassManager &pm, Arch arch, bool debug, bool lowerToL0,
    StringRef stopAfter,
    const std::array<int64_t, machine::kNumBuffers> *capacities,
    unsigned cores) {
  PipelineBuilder p(pm, stopAfter);
  // One machine throughout: the module is marked with (or must already
  // carry) the pipeline's architecture.
  SetTargetArchOptions target;
  target.arch = getArchName(arch).str();
  p.addPerModule(createSetTargetArch(target));
  // Shape the kernel first: which cores it uses and whether it prints.
  if (!debug)
    p.addPerKernel(createRemoveDebugOps());
  p.addPerModule(createPromoteCvBlock());
  // Memory: the API's scratch, positions, reuse, then addresses and the
  // capacity check.
  p.addPerModule(createDispatchAlloc());
  p.addPerKernel(createRefineCubePosition());
  p.addPerKernel(createComputeReuseGroup());
  ReuseTensorAllocationOptions reuse;
  reuse.keepLifetimes = true; // for ascendc-reuse-ub-allocation, next
  p.addPerKernel(createReuseTensorAllocation(reuse));
  p.addPerKernel(createReuseUbAllocation());
  p.addPerKernel(createAllocateTensor());
  p.addPerKernel(createUnifyBiasTensor());
  ComputeMemoryConsumptionOptions capacity;
  capacity.checkCapacity = true;
  if (capacities)
    setCapacityOptions(capacity, *capacities);
  p.addPerModule(createComputeMemoryConsumption(capacity));
  // Instructions.
  p.addPerKernel(createFixupMmadAccParams());
  if (lowerToL0)
    p.addPerKernel(createLowerToL0());
  p.addPerKernel(createFillAscOperands());
  // Synchronization: buffer ids order pipes on C310, hard events on C220;
  // cores always need their flags.
  if (arch == Arch::C310) {
    p.addPerKernel(createInsertBufIdSync());
    p.addPerKernel(createFuseBufIdSync());
    // Buffer ids cover local tensors only; GM between pipes needs events.
    InsertPipeSyncOptions gm;
    gm.globalOnly = true;
    p.addPerKernel(createInsertPipeSync(gm));
  } else {
    p.addPerKernel(createInsertPipeSync());
  }
  p.addPerKernel(createInsertCrossCoreSync());
  p.addPerKernel(createInsertCrossCoreSyncGm());
  // Lanes on their own sub-blocks where they can be; the rest of a mixed
  // kernel on sub-block 0. Entry code last, so that it stays first.
  p.addPerKernel(createGuardLanes());
  p.addPerModule(createInsertSubblockGuard());
  if (debug)
    p.addPerModule(createInsertInitDump());
  // One launch per host function, over kernels that are complete.
  FormLaunchOptions launch;
  launch.cores = cores;
  if (capacities)
    setCapacityOptions(launch, *capacities);
  p.addPerModule(createFormLaunch(launch));
  return p.reachedStop();
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
