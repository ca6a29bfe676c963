//===- TraceFuzzer.cpp - The binary and text trace readers, and sim -------===//
//
// Either trace form (told apart by the first bytes, as `tilekit sim`
// does): what the reader accepts must be simulated without a crash (a
// trace that cannot make progress is an error), and its text form must
// read back to the same number of records.

#include "tilekit/Timing/MachineConfig.h"
#include "tilekit/Timing/Simulator.h"
#include "tilekit/Trace/Trace.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace tilekit;

static const timing::MachineConfig &getConfig() {
  static const timing::MachineConfig config = [] {
    auto loaded = timing::loadMachineConfig(TILEKIT_FUZZ_CONFIG);
    if (!loaded) {
      llvm::errs() << llvm::toString(loaded.takeError()) << "\n";
      abort();
    }
    return *loaded;
  }();
  return config;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef bytes(reinterpret_cast<const char *>(data), size);
  llvm::Expected<trace::Trace> parsed = trace::parseTrace(bytes, "fuzz.trace");
  if (!parsed) {
    llvm::consumeError(parsed.takeError());
    return 0;
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  trace::printTrace(os, *parsed);
  llvm::Expected<trace::Trace> again = trace::parseTrace(text, "again.trace");
  if (!again || again->records.size() != parsed->records.size()) {
    llvm::errs() << "an accepted trace does not survive its text form:\n"
                 << text;
    abort();
  }
  llvm::Expected<timing::SimResult> result =
      timing::simulate(*parsed, getConfig());
  if (!result)
    llvm::consumeError(result.takeError());
  return 0;
}
