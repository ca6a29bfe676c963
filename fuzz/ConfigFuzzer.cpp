//===- ConfigFuzzer.cpp - The machine-config reader -----------------------===//
//
// Whatever the reader accepts must give finite costs without overflow
// (UBSan watches the arithmetic) for DMA, cube and vector work.

#include "tilekit/Timing/MachineConfig.h"

#include <cstdlib>

using namespace tilekit;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef json(reinterpret_cast<const char *>(data), size);
  llvm::Expected<timing::MachineConfig> config =
      timing::parseMachineConfig(json, "fuzz.json");
  if (!config) {
    llvm::consumeError(config.takeError());
    return 0;
  }
  for (double bandwidth : config->pathBytesPerCycle)
    if (bandwidth > 0)
      (void)config->dmaCycles(uint64_t(1) << 30, bandwidth);
  (void)config->cubeCycles(4096, 4096, 4096, "f16", 2);
  // Every op of the table, in each of its forms, at extreme sizes.
  for (const auto &entry : config->vectorOps)
    for (uint64_t elements : {uint64_t(0), uint64_t(1), uint64_t(1) << 40})
      (void)config->vectorCycles(entry.first(), "f32", 4, elements,
                                 {elements, 1});
  (void)config->vectorCycles("add", "f32", 4, uint64_t(1) << 32);
  return 0;
}
