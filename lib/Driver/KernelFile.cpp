//===- KernelFile.cpp - Loading a kernel for the driver -------------------===//

#include "tilekit/Driver/KernelFile.h"

#include "tilekit/Conversion/AscendCToEmitC.h"

#include "tilekit/Dialect/PTO/IR/PTODialect.h"
#include "tilekit/InitAll.h"
#include "tilekit/Support/InputFile.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace tilekit;
using namespace tilekit::driver;

static DialectRegistry makeRegistry() {
  DialectRegistry registry;
  registerAllDialects(registry);
  return registry;
}

KernelFile::KernelFile() : context(makeRegistry()) {
  context.loadAllAvailableDialects();
}

LogicalResult KernelFile::load(StringRef path, StringRef reader) {
  auto buffer = readInputFile(path);
  if (!buffer)
    return emitError(FileLineColLoc::get(&context, path, 0, 0))
           << reader << ": " << toString(buffer.takeError());
  sourceMgr.AddNewSourceBuffer(std::move(*buffer), llvm::SMLoc());
  return parseBuffer(path);
}

LogicalResult KernelFile::loadText(StringRef text, StringRef bufferName) {
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(text, bufferName), llvm::SMLoc());
  return parseBuffer(bufferName);
}

/// The registered op of `name`'s dialect closest to it in spelling, when
/// one is close (a typo, not another op).
static std::optional<StringRef> closestOpName(MLIRContext &context,
                                              StringRef name) {
  // Op names are short; a long unknown name is no typo of one (and the
  // distance would cost its length squared per op).
  constexpr size_t kLongestName = 64;
  if (name.size() > kLongestName)
    return std::nullopt;
  StringRef dialect = name.split('.').first;
  unsigned limit = std::max<unsigned>(2, name.size() / 4);
  std::optional<StringRef> best;
  unsigned bestDistance = limit + 1;
  for (RegisteredOperationName op : context.getRegisteredOperations()) {
    StringRef candidate = op.getStringRef();
    if (op.getDialectNamespace() != dialect ||
        std::max(candidate.size(), name.size()) -
                std::min(candidate.size(), name.size()) >
            limit)
      continue;
    unsigned distance = name.edit_distance(candidate,
                                           /*AllowReplacements=*/true, limit);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/// The op name an unknown-op error names, if the error is one.
static std::optional<StringRef> unknownOpName(StringRef message) {
  for (StringRef prefix : {"custom op '", "unregistered operation '"})
    if (message.consume_front(prefix))
      return message.split('\'').first;
  return std::nullopt;
}

LogicalResult KernelFile::parseBuffer(StringRef path) {
  Block block;
  ParserConfig config(&context, /*verifyAfterParse=*/false);
  // An unknown op name gets the closest registered one as a note; the
  // error then goes on to whoever reports it.
  ScopedDiagnosticHandler suggest(&context, [&](Diagnostic &diag) {
    if (diag.getSeverity() != DiagnosticSeverity::Error)
      return failure();
    std::string message = diag.str();
    if (std::optional<StringRef> name = unknownOpName(message))
      if (std::optional<StringRef> close = closestOpName(context, *name))
        diag.attachNote(diag.getLocation())
            << "did you mean '" << *close << "'?";
    return failure();
  });
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

/// The text of a definition range without its '%' (and ':N' suffix).
static std::optional<std::string> definitionName(llvm::SMRange range) {
  if (!range.isValid())
    return std::nullopt;
  StringRef text(range.Start.getPointer(),
                 range.End.getPointer() - range.Start.getPointer());
  if (!text.consume_front("%") || text.empty())
    return std::nullopt;
  return text.split(':').first.str();
}

std::optional<std::string> KernelFile::getValueName(Value value) const {
  if (auto argument = dyn_cast<BlockArgument>(value)) {
    const AsmParserState::BlockDefinition *def =
        asmState.getBlockDef(argument.getOwner());
    if (!def || argument.getArgNumber() >= def->arguments.size())
      return std::nullopt;
    return definitionName(def->arguments[argument.getArgNumber()].loc);
  }
  auto result = cast<OpResult>(value);
  const AsmParserState::OperationDefinition *def =
      asmState.getOpDef(result.getOwner());
  if (!def)
    return std::nullopt;
  unsigned number = result.getResultNumber();
  for (auto it = def->resultGroups.rbegin(); it != def->resultGroups.rend();
       ++it) {
    if (it->startIndex > number)
      continue;
    std::optional<std::string> base = definitionName(it->definition.loc);
    if (!base)
      return std::nullopt;
    // A group `%r:3` names its results r_0, r_1, r_2.
    bool grouped = (it + 1 == def->resultGroups.rend() || true) &&
                   result.getOwner()->getNumResults() > 1 &&
                   def->resultGroups.size() == 1;
    return grouped ? *base + "_" + std::to_string(number - it->startIndex)
                   : *base;
  }
  return std::nullopt;
}

std::string KernelFile::getArgumentName(BlockArgument argument) const {
  if (auto func = dyn_cast_or_null<FunctionOpInterface>(
          argument.getOwner()->getParentOp());
      func && argument.getOwner()->isEntryBlock())
    if (auto name = func.getArgAttrOfType<StringAttr>(argument.getArgNumber(),
                                                      kArgumentNameAttr))
      return name.str();
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

llvm::StringMap<unsigned>
KernelFile::getArgumentIndex(FunctionOpInterface func,
                             std::vector<std::string> &names) const {
  llvm::StringMap<unsigned> index;
  Region &body = func.getFunctionBody();
  for (BlockArgument arg : body.getArguments()) {
    names.push_back(getArgumentName(arg));
    index[names.back()] = arg.getArgNumber();
  }
  // Positions name arguments too (arg0, arg1, ...), unless a name took them.
  for (BlockArgument arg : body.getArguments())
    index.try_emplace("arg" + std::to_string(arg.getArgNumber()),
                      arg.getArgNumber());
  return index;
}

FunctionOpInterface driver::findEntry(ModuleOp module, StringRef name,
                                      std::string &why) {
  SmallVector<FunctionOpInterface> all, orchestration;
  for (auto func : module.getOps<FunctionOpInterface>()) {
    if (func.isExternal())
      continue;
    if (!name.empty() && func.getName() == name)
      return func;
    // A private function is a helper, which only its module calls.
    if (func.isPrivate())
      continue;
    all.push_back(func);
    if (pto::getFunctionKind(func) == pto::FunctionKind::Orchestration)
      orchestration.push_back(func);
  }
  if (!name.empty()) {
    why = "no function @" + name.str() + " with a body";
    return {};
  }
  if (orchestration.size() == 1)
    return orchestration.front();
  if (all.size() == 1)
    return all.front();
  why = "candidates:";
  for (FunctionOpInterface func : all)
    why += " @" + func.getName().str();
  return {};
}

void KernelFile::nameLocations() {
  auto named = [&](Value value, Location loc) -> Location {
    std::optional<std::string> name = getValueName(value);
    // `%0`, `%1`: the printer's numbering, not a name.
    if (!name || isa<NameLoc>(loc) || llvm::all_of(*name, [](char c) {
          return llvm::isDigit(c) || c == '_';
        }))
      return loc;
    return NameLoc::get(StringAttr::get(&context, *name), loc);
  };
  getModule().walk([&](Operation *op) {
    // An op of several results names none: one location serves them all.
    if (op->getNumResults() == 1) {
      op->setLoc(named(op->getResult(0), op->getLoc()));
      // A named scalar (index arithmetic) also says so on the op itself,
      // which the lowering keeps but does not copy to the ops it makes.
      if (auto name = op->getLoc()->findInstanceOf<NameLoc>();
          name && op->getResult(0).getType().isIntOrIndexOrFloat())
        op->setAttr(kValueNameAttr, name.getName());
    }
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          arg.setLoc(named(arg, arg.getLoc()));
  });
}

void KernelFile::stampArgumentNames() {
  getModule().walk([&](FunctionOpInterface func) {
    if (func.isExternal())
      return;
    for (BlockArgument arg : func.getArguments())
      func.setArgAttr(arg.getArgNumber(), kArgumentNameAttr,
                      StringAttr::get(&context, getArgumentName(arg)));
  });
}
