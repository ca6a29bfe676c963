//===- KernelFile.cpp - Loading a kernel for the driver -------------------===//

#include "KernelFile.h"

#include "tilekit/Dialect/PTO/IR/PTODialect.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Verifier.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace tilekit;
using namespace tilekit::driver;

static DialectRegistry makeRegistry() {
  DialectRegistry registry;
  registry.insert<pto::PTODialect, arith::ArithDialect, func::FuncDialect,
                  scf::SCFDialect>();
  return registry;
}

KernelFile::KernelFile() : context(makeRegistry()) {
  context.loadAllAvailableDialects();
}

LogicalResult KernelFile::load(StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFileOrSTDIN(path);
  if (std::error_code error = buffer.getError())
    return emitError(FileLineColLoc::get(&context, path, 0, 0))
           << "cannot open the kernel: " << error.message();
  sourceMgr.AddNewSourceBuffer(std::move(*buffer), llvm::SMLoc());

  Block block;
  ParserConfig config(&context, /*verifyAfterParse=*/false);
  if (failed(parseAsmSourceFile(sourceMgr, &block, config, &asmState)))
    return failure();
  // A file holds either one module or top-level ops to wrap into one.
  if (llvm::hasSingleElement(block) && isa<ModuleOp>(block.front())) {
    Operation *op = &block.front();
    op->remove();
    module = cast<ModuleOp>(op);
  } else {
    module = ModuleOp::create(FileLineColLoc::get(&context, path, 1, 1));
    Block *body = module->getBody();
    while (!block.empty())
      block.front().moveBefore(body, body->end());
  }
  if (failed(verify(*module)))
    return failure();
  // Runtime errors point at the op's source; its generic form adds noise.
  context.printOpOnDiagnostic(false);
  return success();
}

std::string KernelFile::getArgumentName(BlockArgument argument) const {
  if (const AsmParserState::BlockDefinition *def =
          asmState.getBlockDef(argument.getOwner())) {
    unsigned number = argument.getArgNumber();
    if (number < def->arguments.size()) {
      llvm::SMRange range = def->arguments[number].loc;
      StringRef text(range.Start.getPointer(),
                     range.End.getPointer() - range.Start.getPointer());
      if (text.consume_front("%") && !text.empty())
        return text.str();
    }
  }
  return "arg" + std::to_string(argument.getArgNumber());
}
