//===- PipelineFuzzer.cpp - The AscendC pass pipelines --------------------===//
//
// A verified kernel through each architecture's pipeline (plain, debug and
// lowered to L0); whatever the passes produce must verify, since the pass
// manager verifies after each pass and a pass that breaks the IR without
// failing is a finding.

#include "KernelFuzzer.h"

#include "tilekit/Dialect/AscendC/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"

#include <cstdlib>

using namespace tilekit::ascendc;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0)
    return 0;
  // The last byte chooses the pipeline, so each input tests one.
  uint8_t choice = data[size - 1];
  mlir::OwningOpRef<mlir::ModuleOp> module =
      tilekit::fuzz::parseKernel(data, size - 1);
  if (!module)
    return 0;
  mlir::PassManager pm(&tilekit::fuzz::getContext());
  buildAscendCPipeline(pm, choice & 1 ? Arch::C310 : Arch::C220, choice & 2,
                       choice & 4);
  (void)pm.run(*module);
  return 0;
}
