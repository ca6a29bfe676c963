//===- KernelFuzzer.cpp - What the kernel fuzz targets share --------------===//

#include "KernelFuzzer.h"
#include "KernelMutator.h"

#include "tilekit/InitAll.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/Verifier.h"
#include "llvm/Support/SourceMgr.h"

#include <cstring>
#include <vector>

using namespace mlir;
using namespace tilekit::fuzz;

extern "C" size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t maxSize);

MLIRContext &tilekit::fuzz::getContext() {
  static MLIRContext *context = [] {
    DialectRegistry registry;
    tilekit::registerAllDialects(registry);
    auto *created = new MLIRContext(registry, MLIRContext::Threading::DISABLED);
    created->loadAllAvailableDialects();
    created->getDiagEngine().registerHandler([](Diagnostic &) {});
    return created;
  }();
  return *context;
}

OwningOpRef<ModuleOp> tilekit::fuzz::parseKernel(const uint8_t *data,
                                                 size_t size) {
  MLIRContext &context = getContext();
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(
          llvm::StringRef(reinterpret_cast<const char *>(data), size),
          "kernel.mlir"),
      llvm::SMLoc());
  Block block;
  ParserConfig config(&context, /*verifyAfterParse=*/false);
  if (failed(parseAsmSourceFile(sourceMgr, &block, config)))
    return nullptr;
  OwningOpRef<ModuleOp> module;
  if (llvm::hasSingleElement(block) && isa<ModuleOp>(block.front())) {
    Operation *op = &block.front();
    op->remove();
    module = cast<ModuleOp>(op);
  } else {
    module = ModuleOp::create(UnknownLoc::get(&context));
    while (!block.empty())
      block.front().moveBefore(module->getBody(), module->getBody()->end());
  }
  if (failed(verify(*module)))
    return nullptr;
  return module;
}

static const std::vector<std::string> &getOpNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> all;
    for (RegisteredOperationName name : getContext().getRegisteredOperations())
      all.push_back(name.getStringRef().str());
    return all;
  }();
  return names;
}

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size,
                                          size_t maxSize, unsigned int seed) {
  std::mt19937_64 rng(seed);
  // Some byte-level mutations keep the lexer and parser errors covered.
  if (std::uniform_int_distribution<int>(0, 4)(rng) == 0)
    return LLVMFuzzerMutate(data, size, maxSize);
  std::string text(reinterpret_cast<const char *>(data), size);
  int rounds = std::uniform_int_distribution<int>(1, 3)(rng);
  for (int i = 0; i < rounds; ++i) {
    auto kind =
        static_cast<KernelMutation>(std::uniform_int_distribution<unsigned>(
            0, kNumKernelMutations - 1)(rng));
    mutateKernelText(text, kind, rng, getOpNames());
  }
  if (text.size() > maxSize)
    return LLVMFuzzerMutate(data, size, maxSize);
  std::memcpy(data, text.data(), text.size());
  return text.size();
}
