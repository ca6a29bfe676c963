//===- ParseFuzzer.cpp - PTO and AscendC parsers and verifiers ------------===//
//
// Any text: parse and verify it; what verifies must print and parse back
// to a module that verifies (a printer/parser pair that disagree is a
// finding, reported by abort()).

#include "KernelFuzzer.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  mlir::OwningOpRef<mlir::ModuleOp> module =
      tilekit::fuzz::parseKernel(data, size);
  if (!module)
    return 0;
  std::string printed;
  llvm::raw_string_ostream os(printed);
  module->print(os);
  if (!tilekit::fuzz::parseKernel(
          reinterpret_cast<const uint8_t *>(printed.data()), printed.size())) {
    llvm::errs() << "printed module does not parse back:\n" << printed;
    abort();
  }
  return 0;
}
