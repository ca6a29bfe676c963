//===- CompileFuzzer.cpp - `tilekit compile` to AscendC and C++ -----------===//
//
// A verified kernel (PTO or AscendC) through what `tilekit compile --arch`
// runs: the capacity gate, the lowering and the C220 or C310 pipeline, with
// or without L0 lowering (the input's last byte chooses), then
// `--emit=cpp`. Errors are expected; crashes are findings, and so is C++
// that clang rejects under -Wall -Werror: the first 32 distinct C++ files a
// run emits are checked with `clang++-22 -fsyntax-only` against the CPU
// runtime's declarations (TILEKIT_FUZZ_RUNTIME), when clang++-22 is on PATH.

#include "KernelFuzzer.h"

#include "tilekit/Conversion/AscendCToEmitC.h"
#include "tilekit/Driver/CompilePipeline.h"

#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace mlir;
using namespace tilekit;

/// Checks `cpp` with clang -Wall -Werror; aborts with its output when it
/// fails. At most 32 distinct files per process: a check takes a second.
static void syntaxCheck(const std::string &cpp) {
  static llvm::StringSet<> checked;
  static std::optional<std::string> compiler = [] {
    llvm::ErrorOr<std::string> found =
        llvm::sys::findProgramByName("clang++-22");
    return found ? std::optional<std::string>(*found) : std::nullopt;
  }();
  if (!compiler || checked.size() >= 32 || !checked.insert(cpp).second)
    return;
  llvm::SmallString<128> source, log;
  if (llvm::sys::fs::createTemporaryFile("fuzz-compile", "cpp", source) ||
      llvm::sys::fs::createTemporaryFile("fuzz-compile", "log", log))
    return;
  {
    std::error_code error;
    llvm::raw_fd_ostream os(source, error);
    os << cpp;
  }
  std::string runtime = TILEKIT_FUZZ_RUNTIME;
  std::string ascendc = "-I" + runtime + "/runtime/ascendc-cpu";
  std::string include = "-I" + runtime + "/include";
  StringRef args[] = {*compiler, "-std=c++17", "-fsyntax-only", "-Wall",
                      "-Werror", ascendc,      include,         source};
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(log),
                                          StringRef(log)};
  int status =
      llvm::sys::ExecuteAndWait(*compiler, args, std::nullopt, redirects);
  if (status != 0) {
    auto output = llvm::MemoryBuffer::getFile(log);
    llvm::errs() << "compile --emit=cpp wrote C++ that clang rejects:\n"
                 << (output ? (*output)->getBuffer() : "") << "\n"
                 << cpp;
    abort();
  }
  llvm::sys::fs::remove(source);
  llvm::sys::fs::remove(log);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0)
    return 0;
  uint8_t choice = data[size - 1];
  OwningOpRef<ModuleOp> module = tilekit::fuzz::parseKernel(data, size - 1);
  if (!module)
    return 0;
  pto::BufferCapacities capacities;
  if (driver::holdsPTO(*module) &&
      failed(driver::checkWorkItemsFit(*module, capacities)))
    return 0;
  PassManager pm(&tilekit::fuzz::getContext(), ModuleOp::getOperationName());
  driver::buildCompilePipeline(
      pm, *module, choice & 1 ? ascendc::Arch::C310 : ascendc::Arch::C220,
      /*lowerToL0=*/choice & 2, /*stopAfter=*/"", capacities);
  if (failed(pm.run(*module)))
    return 0;
  std::string cpp;
  llvm::raw_string_ostream os(cpp);
  if (failed(translateAscendCToCpp(*module, os)))
    return 0;
  syntaxCheck(cpp);
  return 0;
}
