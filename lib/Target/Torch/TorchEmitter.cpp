//===- TorchEmitter.cpp - PTO programs as PyTorch scripts -----------------===//
//
// A statement per op, an expression per value: each op maps to a call of a
// preamble helper or a torch function; scf loops become Python loops whose
// carried variables are updated by one tuple assignment (simultaneously),
// and calls of group functions go through the mixed-kernel scheduler.
//
//===----------------------------------------------------------------------===//

#include "tilekit/Target/TorchEmitter.h"

#include "tilekit/Dialect/PTO/IR/PTOOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace tilekit;
using namespace tilekit::pto;

static const char kPreamble[] =
#include "TorchPreamble.inc"
    ;

namespace {

/// The Python for one PTO op: an expression assigned to its results, or a
/// statement (ops without results).
struct PtoText {
  std::string text;
  bool isStatement = false;
  /// An addressed result's bytes are written to its pool (not when the op
  /// only allocates).
  bool writeBytes = true;

  static PtoText value(std::string text) { return {std::move(text)}; }
  static PtoText statement(std::string text) { return {std::move(text), true}; }
};

class TorchEmitter {
public:
  TorchEmitter(raw_ostream &os, const TorchEmitOptions &options)
      : os(os), options(options) {}

  LogicalResult emitModule(ModuleOp module);

  /// How each PTO op outside the elementwise families becomes Python, by
  /// op class (ElementwiseOpInterface ops map by family and function).
  using PtoRule = std::function<PtoText(TorchEmitter &, Operation *)>;
  using PtoRules = DenseMap<TypeID, PtoRule>;
  static const PtoRules &getPtoRules();

private:
  /// `_reg_scope(captures, addrs, program, yields)` for a register scope:
  /// its body as a list of steps the preamble runs.
  static std::string regScopeCall(TorchEmitter &e, pto::RegScopeOp scope);
  LogicalResult emitFunction(func::FuncOp func);
  /// Emits the ops of `block`; `pass` when it has none and nothing
  /// follows (`trailing` is false).
  LogicalResult emitBlock(Block &block, bool trailing = false);
  LogicalResult emitOp(Operation *op);
  LogicalResult emitScf(Operation *op);
  LogicalResult emitArith(Operation *op);
  LogicalResult emitPto(Operation *op);

  /// The Python name of a value, made unique within the function.
  std::string name(Value value);
  std::string names(ValueRange values);
  std::string list(ValueRange values) { return "[" + names(values) + "]"; }
  /// `list(values)`, or None when there are none.
  std::string optionalList(ValueRange values) {
    return values.empty() ? std::string("None") : list(values);
  }
  SmallVector<std::string> nameList(ValueRange values) {
    return llvm::map_to_vector(values, [&](Value v) { return name(v); });
  }
  std::string fresh(StringRef base);

  raw_ostream &line() { return os.indent(indent * 4); }
  /// `result = expression` (and its shape check); an addressed tile's
  /// bytes are written to its pool unless `writeBytes` is false.
  void assign(Value result, const Twine &expression, bool writeBytes = true);
  /// Writes the bytes of the addressed tiles among `values` to their pool.
  void storeAddressed(ValueRange values);
  /// Reads the addressed tiles among `values` back from their pool, so that
  /// they see writes through tiles that alias them.
  void reloadAddressed(ValueRange values);
  void checkShape(Value value);

  raw_ostream &os;
  const TorchEmitOptions &options;
  unsigned indent = 0;
  DenseMap<Value, std::string> valueNames;
  llvm::StringSet<> usedNames;
  llvm::StringMap<std::string> functionNames;
};

} // namespace

//===----------------------------------------------------------------------===//
// Names
//===----------------------------------------------------------------------===//

static bool isPythonKeyword(StringRef word) {
  static const llvm::StringSet<> keywords = {
      "False", "None", "True", "and", "as", "assert", "async", "await", "break",
      "class", "continue", "def", "del", "elif", "else", "except", "finally",
      "for", "from", "global", "if", "import", "in", "is", "lambda", "nonlocal",
      "not", "or", "pass", "raise", "return", "try", "while", "with", "yield",
      // Modules and builtins the script itself uses.
      "torch", "math", "threading", "time", "max", "min", "int", "float",
      "range"};
  return keywords.contains(word);
}

/// Replaces characters outside [A-Za-z0-9_] with '_', collapses repeated
/// underscores, and avoids keywords and leading digits.
static std::string sanitize(StringRef raw) {
  std::string out;
  for (char c : raw) {
    char d = (isalnum(static_cast<unsigned char>(c)) || c == '_') ? c : '_';
    if (d == '_' && !out.empty() && out.back() == '_')
      continue;
    out.push_back(d);
  }
  if (out.empty() || out == "_")
    out = "v";
  if (isdigit(static_cast<unsigned char>(out.front())))
    out = "v_" + out;
  if (isPythonKeyword(out))
    out += "_";
  return out;
}

std::string TorchEmitter::fresh(StringRef base) {
  std::string candidate = sanitize(base);
  if (candidate.front() == '_')
    candidate = "v" + candidate; // leave leading underscores to the preamble
  std::string unique = candidate;
  for (unsigned n = 1;
       usedNames.contains(unique) || functionNames.count(unique); ++n)
    unique = candidate + "_" + std::to_string(n);
  usedNames.insert(unique);
  return unique;
}

std::string TorchEmitter::name(Value value) {
  auto it = valueNames.find(value);
  if (it != valueNames.end())
    return it->second;
  std::optional<std::string> source =
      options.sourceName ? options.sourceName(value) : std::nullopt;
  std::string base;
  if (source)
    base = *source;
  else if (auto arg = dyn_cast<BlockArgument>(value))
    base = "arg" + std::to_string(arg.getArgNumber());
  else
    base = "v" + std::to_string(valueNames.size());
  std::string result = fresh(base);
  valueNames[value] = result;
  return result;
}

std::string TorchEmitter::names(ValueRange values) {
  std::string text;
  for (auto [i, value] : llvm::enumerate(values))
    text += (i ? ", " : "") + name(value);
  return text;
}

//===----------------------------------------------------------------------===//
// Types and shape checks
//===----------------------------------------------------------------------===//

static std::string dtypeName(Type type) {
  if (auto shaped = dyn_cast<ShapedType>(type))
    type = shaped.getElementType();
  if (type.isF32())
    return "f32";
  if (type.isF16())
    return "f16";
  if (type.isBF16())
    return "bf16";
  if (type.isIndex())
    return "index";
  if (auto integer = dyn_cast<IntegerType>(type)) {
    if (integer.getWidth() == 1)
      return "i1";
    return (integer.isUnsigned() ? "ui" : "i") +
           std::to_string(integer.getWidth());
  }
  return "unsupported";
}

static std::string quoted(StringRef text) { return "'" + text.str() + "'"; }

static std::string shapeList(ArrayRef<int64_t> shape, bool dynamicAsNone) {
  std::string text = "[";
  for (auto [i, dim] : llvm::enumerate(shape))
    text += (i ? ", " : "") + (ShapedType::isDynamic(dim)
                                   ? std::string(dynamicAsNone ? "None" : "?")
                                   : std::to_string(dim));
  return text + "]";
}

void TorchEmitter::checkShape(Value value) {
  if (!options.checkShapes || !isa<ShapedType>(value.getType()))
    return;
  auto shaped = cast<ShapedType>(value.getType());
  line() << "_check_shape(" << name(value) << ", " << quoted(dtypeName(shaped))
         << ", " << shapeList(shaped.getShape(), /*dynamicAsNone=*/true) << ", "
         << quoted(name(value)) << ")\n";
}

/// The pool arguments of an addressed tile: space, address, element type
/// and layout; none for other values.
static std::optional<std::string> poolSpec(Type type) {
  auto tile = dyn_cast<TileType>(type);
  if (!tile || !tile.getAddr())
    return std::nullopt;
  return llvm::formatv("{0}, {1}, {2}, ({3}, {4}, {5})",
                       quoted(stringifyMemorySpace(tile.getMemorySpace())),
                       *tile.getAddr(), quoted(dtypeName(tile)),
                       quoted(stringifyBLayout(tile.getBlayout())),
                       quoted(stringifySLayout(tile.getSlayout())),
                       tile.getFractal())
      .str();
}

void TorchEmitter::storeAddressed(ValueRange values) {
  for (Value value : values)
    if (std::optional<std::string> spec = poolSpec(value.getType()))
      line() << "_pools.store(" << name(value) << ", " << *spec << ")\n";
}

void TorchEmitter::reloadAddressed(ValueRange values) {
  llvm::SmallDenseSet<Value, 4> seen;
  for (Value value : values)
    if (std::optional<std::string> spec = poolSpec(value.getType()))
      if (seen.insert(value).second)
        line() << name(value) << " = _pools.load(" << name(value) << ", "
               << *spec << ")\n";
}

void TorchEmitter::assign(Value result, const Twine &expression,
                          bool writeBytes) {
  line() << name(result) << " = " << expression << "\n";
  checkShape(result);
  if (writeBytes)
    storeAddressed(result);
}

//===----------------------------------------------------------------------===//
// Module and functions
//===----------------------------------------------------------------------===//

LogicalResult TorchEmitter::emitModule(ModuleOp module) {
  os << "# Generated by `tilekit emit --target=torch`"
     << (options.sourceFile.empty() ? "" : " from " + options.sourceFile)
     << ".\n# A readable PyTorch reference of the PTO program: the runtime "
        "preamble, group\n# metadata, and one function per function of the "
        "program.\n\n";
  // The machine's split codes, which the preamble's cross-core runtime reads.
  os << "_SPLIT_CODES = {";
  for (unsigned c = 0; c < machine::kNumSplitCodes; ++c) {
    auto code = static_cast<machine::SplitCode>(c);
    int axis = machine::getSplitAxis(code);
    os << (c ? ", " : "") << c << ": ("
       << (axis < 0 ? std::string("None") : std::to_string(axis)) << ", "
       << (machine::isOddSplit(code) ? "True" : "False") << ")";
  }
  os << "}\n\n" << kPreamble << "\n";
  for (auto func : module.getOps<func::FuncOp>())
    functionNames[func.getSymName()] = sanitize(func.getSymName());

  std::string meta;
  for (auto func : module.getOps<func::FuncOp>()) {
    std::optional<GroupInfo> group = resolveGroup(func);
    if (!group)
      continue;
    meta += llvm::formatv(
        "    {0}: {{'aic': {1}, 'aiv': {2}, 'split': {3}, "
        "'dual_aiv_dispatch': {4}},\n",
        quoted(functionNames[func.getSymName()]),
        quoted(functionNames[cast<func::FuncOp>(group->aic).getSymName()]),
        quoted(functionNames[cast<func::FuncOp>(group->aiv).getSymName()]),
        group->split, group->dualAivDispatch ? "True" : "False");
  }
  if (!meta.empty())
    os << "\n# Groups: the cube and vector functions each one runs.\n"
       << "_GROUP_META.update({\n"
       << meta << "})\n";

  for (auto func : module.getOps<func::FuncOp>())
    if (failed(emitFunction(func)))
      return failure();

  // Runnable on its own: the only orchestration function, else the only
  // function, is the default entry (as for `tilekit run`).
  std::string table, entry = "None";
  SmallVector<func::FuncOp> defined, orchestration;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isExternal())
      continue;
    defined.push_back(func);
    if (getFunctionKind(func) == FunctionKind::Orchestration)
      orchestration.push_back(func);
    std::string pyName = functionNames[func.getSymName()];
    table += (table.empty() ? "" : ", ") + quoted(pyName) + ": " + pyName;
  }
  if (orchestration.size() == 1)
    entry = quoted(functionNames[orchestration[0].getSymName()]);
  else if (defined.size() == 1)
    entry = quoted(functionNames[defined[0].getSymName()]);
  os << "\n\n# Run from the shell: python3 SCRIPT [--entry NAME] --input "
        "x=x.npy ... [--output y=y.npy]\n"
     << "if __name__ == \"__main__\":\n"
     << "    _main({" << table << "}, " << entry << ")\n";
  return success();
}

LogicalResult TorchEmitter::emitFunction(func::FuncOp func) {
  // Names are per function.
  valueNames.clear();
  usedNames.clear();
  std::string pyName = functionNames[func.getSymName()];
  std::optional<FunctionKind> kind = getFunctionKind(func);
  os << "\n\n";
  if (kind)
    os << "# " << stringifyFunctionKind(*kind) << " function @"
       << func.getSymName() << "\n";
  if (func.isExternal()) {
    std::string params;
    for (unsigned i = 0; i < func.getNumArguments(); ++i)
      params += (i ? ", " : "") + std::string("arg") + std::to_string(i);
    os << "def " << pyName << "(" << params << "):\n";
    if (kind == FunctionKind::Group)
      os << "    return _run_group_call(" << quoted(pyName)
         << (params.empty() ? "" : ", ") << params << ")\n";
    else
      os << "    raise NotImplementedError(" << quoted(pyName)
         << " + ' is a declaration')\n";
    return success();
  }
  Block &entry = func.getBody().front();
  os << "def " << pyName << "(" << names(entry.getArguments()) << "):\n";
  indent = 1;
  // Addressed tiles share one byte pool per space and invocation.
  bool addressed = func.walk([](Operation *op) {
                         auto isAddressed = [](Value value) {
                           return poolSpec(value.getType()).has_value();
                         };
                         if (llvm::any_of(op->getResults(), isAddressed) ||
                             llvm::any_of(op->getOperands(), isAddressed))
                           return WalkResult::interrupt();
                         return WalkResult::advance();
                       })
                       .wasInterrupted();
  if (addressed) {
    line() << "_pools = _BytePools()\n";
    storeAddressed(entry.getArguments());
  }
  if (options.checkShapes)
    for (BlockArgument arg : entry.getArguments())
      if (isa<ShapedType>(arg.getType()))
        line() << "_check_dtype(" << name(arg) << ", "
               << quoted(dtypeName(arg.getType())) << ", " << quoted(name(arg))
               << ")\n";
  // Calling a group runs its members; its own body only returns.
  if (kind == FunctionKind::Group) {
    line() << "return _run_group_call(" << quoted(pyName)
           << (entry.getNumArguments() ? ", " : "")
           << names(entry.getArguments()) << ")\n";
    return success();
  }
  return emitBlock(entry);
}

LogicalResult TorchEmitter::emitBlock(Block &block, bool trailing) {
  bool emitted = false;
  for (Operation &op : block) {
    if (isa<scf::YieldOp, scf::ConditionOp>(op))
      continue; // the enclosing op handles its terminator
    if (failed(emitOp(&op)))
      return failure();
    emitted = true;
  }
  if (!emitted && !trailing)
    line() << "pass\n";
  return success();
}

//===----------------------------------------------------------------------===//
// Ops
//===----------------------------------------------------------------------===//

LogicalResult TorchEmitter::emitOp(Operation *op) {
  reloadAddressed(op->getOperands());
  if (auto ret = dyn_cast<func::ReturnOp>(op)) {
    if (ret.getNumOperands() == 0)
      line() << "return\n";
    else
      line() << "return " << names(ret.getOperands()) << "\n";
    return success();
  }
  if (auto call = dyn_cast<func::CallOp>(op)) {
    auto callee = dyn_cast_or_null<func::FuncOp>(
        SymbolTable::lookupNearestSymbolFrom(op, call.getCalleeAttr()));
    std::string pyName = functionNames.lookup(call.getCallee());
    std::string expression;
    if (callee && getFunctionKind(callee) == FunctionKind::Group)
      expression = "_run_group_call(" + quoted(pyName) +
                   (call.getNumOperands() ? ", " : "") +
                   names(call.getOperands()) + ")";
    else
      expression = pyName + "(" + names(call.getOperands()) + ")";
    if (call.getNumResults() == 0)
      line() << expression << "\n";
    else
      line() << names(call.getResults()) << " = " << expression << "\n";
    for (Value result : call.getResults())
      checkShape(result);
    storeAddressed(call.getResults());
    return success();
  }
  if (isa<scf::ForOp, scf::WhileOp, scf::IfOp>(op))
    return emitScf(op);
  StringRef dialect = op->getDialect() ? op->getDialect()->getNamespace() : "";
  if (dialect == "arith")
    return emitArith(op);
  if (dialect == "pto")
    return emitPto(op);
  return op->emitOpError() << "cannot be emitted as PyTorch";
}

LogicalResult TorchEmitter::emitScf(Operation *op) {
  if (auto loop = dyn_cast<scf::ForOp>(op)) {
    Block *body = loop.getBody();
    ValueRange carried = body->getArguments().drop_front();
    if (!carried.empty())
      line() << names(carried) << " = " << names(loop.getInitArgs()) << "\n";
    line() << "for " << name(loop.getInductionVar()) << " in range("
           << name(loop.getLowerBound()) << ", " << name(loop.getUpperBound())
           << ", " << name(loop.getStep()) << "):\n";
    ++indent;
    if (failed(emitBlock(*body, /*trailing=*/!carried.empty())))
      return failure();
    auto yield = cast<scf::YieldOp>(body->getTerminator());
    // One tuple assignment: every carried value updates at once.
    reloadAddressed(yield.getOperands());
    if (!carried.empty())
      line() << names(carried) << " = " << names(yield.getOperands()) << "\n";
    --indent;
    if (loop.getNumResults())
      line() << names(loop.getResults()) << " = " << names(carried) << "\n";
    return success();
  }
  if (auto loop = dyn_cast<scf::WhileOp>(op)) {
    Block &before = loop.getBefore().front(), &after = loop.getAfter().front();
    line() << names(before.getArguments()) << " = " << names(loop.getInits())
           << "\n";
    line() << "while True:\n";
    ++indent;
    if (failed(emitBlock(before)))
      return failure();
    auto condition = cast<scf::ConditionOp>(before.getTerminator());
    reloadAddressed(condition.getArgs());
    line() << "if not " << name(condition.getCondition()) << ":\n";
    ++indent;
    if (loop.getNumResults())
      line() << names(loop.getResults()) << " = " << names(condition.getArgs())
             << "\n";
    line() << "break\n";
    --indent;
    if (after.getNumArguments())
      line() << names(after.getArguments()) << " = "
             << names(condition.getArgs()) << "\n";
    if (failed(emitBlock(after, /*trailing=*/true)))
      return failure();
    auto yield = cast<scf::YieldOp>(after.getTerminator());
    reloadAddressed(yield.getOperands());
    line() << names(before.getArguments()) << " = "
           << names(yield.getOperands()) << "\n";
    --indent;
    return success();
  }
  auto branch = cast<scf::IfOp>(op);
  auto emitArm = [&](Region &region) -> LogicalResult {
    ++indent;
    Block &block = region.front();
    if (failed(emitBlock(block, /*trailing=*/branch.getNumResults() != 0)))
      return failure();
    auto yield = cast<scf::YieldOp>(block.getTerminator());
    reloadAddressed(yield.getOperands());
    if (branch.getNumResults())
      line() << names(branch.getResults()) << " = "
             << names(yield.getOperands()) << "\n";
    --indent;
    return success();
  };
  line() << "if " << name(branch.getCondition()) << ":\n";
  if (failed(emitArm(branch.getThenRegion())))
    return failure();
  if (!branch.getElseRegion().empty()) {
    line() << "else:\n";
    if (failed(emitArm(branch.getElseRegion())))
      return failure();
  }
  return success();
}

/// The Python text of a float attribute: exact for its type.
static std::string floatLiteral(FloatAttr attr) {
  double value = attr.getValueAsDouble();
  if (std::isinf(value))
    return value > 0 ? "math.inf" : "-math.inf";
  if (std::isnan(value))
    return "math.nan";
  // A float literal in Python even when integral: "-0" would be the int 0.
  std::string text = llvm::formatv("{0}", llvm::format("%.17g", value)).str();
  if (text.find_first_of(".e") == std::string::npos)
    text += ".0";
  return text;
}

LogicalResult TorchEmitter::emitArith(Operation *op) {
  if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
    Attribute value = constant.getValue();
    if (auto integer = dyn_cast<IntegerAttr>(value)) {
      if (integer.getType().isInteger(1)) {
        assign(constant, integer.getValue().getBoolValue() ? "True" : "False");
        return success();
      }
      assign(constant, std::to_string(integer.getValue().getSExtValue()));
      return success();
    }
    if (auto floating = dyn_cast<FloatAttr>(value)) {
      assign(constant, floatLiteral(floating));
      return success();
    }
    return op->emitOpError() << "cannot be emitted as PyTorch (only scalar "
                                "constants)";
  }
  std::string dtype = dtypeName(op->getResult(0).getType());
  auto wrapInt = [&](const std::string &expression) {
    return dtype == "index"
               ? expression
               : "_wrap(" + expression + ", " + quoted(dtype) + ")";
  };
  auto roundFloat = [&](const std::string &expression) {
    return "_round(" + expression + ", " + quoted(dtype) + ")";
  };
  auto operand = [&](unsigned i) { return name(op->getOperand(i)); };
  StringRef opName = op->getName().stripDialect();
  static const llvm::StringMap<StringRef> intInfix = {
      {"addi", "+"}, {"subi", "-"}, {"muli", "*"},
      {"andi", "&"}, {"ori", "|"},  {"xori", "^"}};
  static const llvm::StringMap<StringRef> floatInfix = {
      {"addf", "+"}, {"subf", "-"}, {"mulf", "*"}};
  Value result = op->getResult(0);
  if (auto it = intInfix.find(opName); it != intInfix.end()) {
    assign(result,
           wrapInt(operand(0) + " " + it->second.str() + " " + operand(1)));
    return success();
  }
  if (auto it = floatInfix.find(opName); it != floatInfix.end()) {
    assign(result,
           roundFloat(operand(0) + " " + it->second.str() + " " + operand(1)));
    return success();
  }
  std::string a = op->getNumOperands() > 0 ? operand(0) : "";
  std::string b = op->getNumOperands() > 1 ? operand(1) : "";
  // The unsigned view of operand i (index values are unbounded).
  auto unsignedOperand = [&](unsigned i) {
    std::string from = dtypeName(op->getOperand(i).getType());
    return from == "index" || from == "i1"
               ? operand(i)
               : "_u(" + operand(i) + ", " + quoted(from) + ")";
  };
  std::string expression;
  if (opName == "divsi")
    expression = wrapInt("_divs(" + a + ", " + b + ")");
  else if (opName == "remsi")
    expression = "_rems(" + a + ", " + b + ")";
  else if (opName == "floordivsi")
    expression = wrapInt("(" + a + " // " + b + ")");
  else if (opName == "ceildivsi")
    expression = wrapInt("(-(-" + a + " // " + b + "))");
  else if (opName == "minui" || opName == "maxui" || opName == "divui" ||
           opName == "remui" || opName == "shrui") {
    // Unsigned views of the operands (index values are unbounded).
    std::string ua =
        dtype == "index" ? a : "_u(" + a + ", " + quoted(dtype) + ")";
    std::string ub =
        dtype == "index" ? b : "_u(" + b + ", " + quoted(dtype) + ")";
    if (opName == "minui")
      expression = "(" + a + " if " + ua + " <= " + ub + " else " + b + ")";
    else if (opName == "maxui")
      expression = "(" + a + " if " + ua + " >= " + ub + " else " + b + ")";
    else if (opName == "divui")
      expression = wrapInt("(" + ua + " // " + ub + ")");
    else if (opName == "remui")
      expression = wrapInt("(" + ua + " % " + ub + ")");
    else
      expression =
          "_shift_scalar(" + ua + ", " + b + ", False, " + quoted(dtype) + ")";
  } else if (opName == "minsi")
    expression = "min(" + a + ", " + b + ")";
  else if (opName == "maxsi")
    expression = "max(" + a + ", " + b + ")";
  else if (opName == "divf")
    expression = roundFloat("_fdiv(" + a + ", " + b + ")");
  else if (opName == "remf")
    expression = roundFloat("_fmod(" + a + ", " + b + ")");
  else if (opName == "maximumf" || opName == "maxnumf" ||
           opName == "minimumf" || opName == "minnumf")
    expression = "_" + opName.str() + "(" + a + ", " + b + ")";
  else if (opName == "shli" || opName == "shrsi")
    expression = "_shift_scalar(" + a + ", " + b + ", " +
                 (opName == "shli" ? "True" : "False") + ", " + quoted(dtype) +
                 ")";
  else if (opName == "negf")
    expression = "(-" + a + ")";
  else if (opName == "select")
    expression = "(" + b + " if " + a + " else " + operand(2) + ")";
  else if (opName == "index_cast" || opName == "extsi" || opName == "trunci")
    expression = wrapInt(a);
  else if (opName == "index_castui" || opName == "extui")
    expression = wrapInt(unsignedOperand(0));
  else if (opName == "uitofp")
    expression = roundFloat("float(" + unsignedOperand(0) + ")");
  else if (opName == "sitofp" || opName == "extf" || opName == "truncf")
    expression = roundFloat("float(" + a + ")");
  else if (opName == "fptosi" || opName == "fptoui")
    expression = "_fptoi(" + a + ", " + quoted(dtype) +
                 (opName == "fptoui" ? ", unsigned=True" : "") + ")";
  else if (auto cmp = dyn_cast<arith::CmpIOp>(op)) {
    static const char *const symbols[] = {"==", "!=", "<",  "<=", ">",
                                          ">=", "<",  "<=", ">",  ">="};
    auto predicate = static_cast<unsigned>(cmp.getPredicate());
    // ult, ule, ugt, uge compare the unsigned views.
    bool isUnsigned =
        predicate >= static_cast<unsigned>(arith::CmpIPredicate::ult);
    expression = "(" + (isUnsigned ? unsignedOperand(0) : a) + " " +
                 symbols[predicate] + " " +
                 (isUnsigned ? unsignedOperand(1) : b) + ")";
  } else if (auto cmp = dyn_cast<arith::CmpFOp>(op)) {
    // Python comparisons with NaN are false except `!=`, which matches the
    // ordered predicates but `one`; the unordered ones (true when either
    // side is NaN) negate the opposite ordered comparison.
    using P = arith::CmpFPredicate;
    static const llvm::DenseMap<P, const char *> forms = {
        {P::AlwaysFalse, "False"},
        {P::OEQ, "({0} == {1})"},
        {P::OGT, "({0} > {1})"},
        {P::OGE, "({0} >= {1})"},
        {P::OLT, "({0} < {1})"},
        {P::OLE, "({0} <= {1})"},
        {P::ONE, "({0} < {1} or {0} > {1})"},
        {P::ORD, "({0} == {0} and {1} == {1})"},
        {P::UEQ, "(not ({0} < {1} or {0} > {1}))"},
        {P::UGT, "(not ({0} <= {1}))"},
        {P::UGE, "(not ({0} < {1}))"},
        {P::ULT, "(not ({0} >= {1}))"},
        {P::ULE, "(not ({0} > {1}))"},
        {P::UNE, "({0} != {1})"},
        {P::UNO, "({0} != {0} or {1} != {1})"},
        {P::AlwaysTrue, "True"}};
    expression = llvm::formatv(forms.lookup(cmp.getPredicate()), a, b).str();
  } else {
    return op->emitOpError() << "cannot be emitted as PyTorch";
  }
  assign(result, expression);
  return success();
}

//===----------------------------------------------------------------------===//
// Tile and tensor ops
//===----------------------------------------------------------------------===//

/// torch functions of the binary, unary and broadcast families.
static std::optional<std::string> binaryFunction(StringRef function) {
  static const llvm::StringMap<StringRef> table = {{"add", "torch.add"},
                                                   {"sub", "torch.sub"},
                                                   {"mul", "torch.mul"},
                                                   {"max", "_maxnum"},
                                                   {"min", "_minnum"},
                                                   {"and", "torch.bitwise_and"},
                                                   {"or", "torch.bitwise_or"},
                                                   {"xor", "torch.bitwise_xor"},
                                                   {"shl", "_shl"},
                                                   {"shr", "_shr"}};
  auto it = table.find(function);
  if (it == table.end())
    return std::nullopt;
  return it->second.str();
}

static std::optional<std::string> unaryFunction(StringRef function) {
  static const llvm::StringMap<StringRef> table = {
      {"neg", "torch.neg"},     {"exp", "torch.exp"},
      {"log", "torch.log"},     {"sqrt", "torch.sqrt"},
      {"rsqrt", "torch.rsqrt"}, {"recip", "torch.reciprocal"},
      {"abs", "torch.abs"},     {"relu", "_relu"},
      {"not", "_not"},          {"tanh", "torch.tanh"},
      {"sigmoid", "_sigmoid"},  {"erf", "torch.erf"}};
  auto it = table.find(function);
  if (it == table.end())
    return std::nullopt;
  return it->second.str();
}

/// The expression of an elementwise-family op computing `function` over
/// `operands` (Python names); `opName` names the op in run-time errors.
static std::optional<std::string>
elementwiseExpression(ElementwiseFamily family, StringRef function,
                      StringRef opName, ArrayRef<std::string> operands) {
  std::string op = quoted(opName);
  switch (family) {
  case ElementwiseFamily::Binary:
  case ElementwiseFamily::Scalar: {
    bool scalar = family == ElementwiseFamily::Scalar;
    if (function == "div" || function == "rem") {
      std::string call =
          "_" + function.str() + "(" + operands[0] + ", " +
          (scalar ? "_scalar(" + operands[0] + ", " + operands[1] + ")"
                  : operands[1]) +
          ", " + op + ")";
      return "_like(" + call + ", " + operands[0] + ")";
    }
    if (std::optional<std::string> fn = binaryFunction(function))
      return (scalar ? "_binary_scalar(" : "_binary(") + *fn + ", " +
             operands[0] + ", " + operands[1] + ")";
    return std::nullopt;
  }
  case ElementwiseFamily::Unary:
    if (std::optional<std::string> fn = unaryFunction(function))
      return "_unary(" + *fn + ", " + operands[0] + ")";
    return std::nullopt;
  case ElementwiseFamily::RowReduce:
  case ElementwiseFamily::ColReduce:
    if (!llvm::is_contained({"sum", "max", "min", "prod"}, function))
      return std::nullopt;
    return "_reduce(" + quoted(function) + ", " + operands[0] + ", " +
           (family == ElementwiseFamily::RowReduce ? "True" : "False") + ")";
  case ElementwiseFamily::RowExpand:
  case ElementwiseFamily::ColExpand:
    if (function == "expdif")
      return "_expdif(" + operands[0] + ", " + operands[1] + ")";
    if (function == "div") // integer division truncates, as `div` does
      return "_like(_div(" + operands[0] + ", " + operands[1] + ".expand_as(" +
             operands[0] + "), " + op + "), " + operands[0] + ")";
    if (std::optional<std::string> fn = binaryFunction(function))
      return "_expand_binary(" + *fn + ", " + operands[0] + ", " + operands[1] +
             ")";
    return std::nullopt;
  }
  llvm_unreachable("unknown elementwise family");
}

/// The matmul of an accumulating op, folding a literal init_cond to the arm
/// it selects.
static std::string accumulateExpression(Value initCond, const std::string &acc,
                                        const std::string &product,
                                        const std::string &init) {
  if (!initCond)
    return "_accumulate(" + acc + ", " + product + ")";
  if (matchPattern(initCond, m_One()))
    return product;
  if (matchPattern(initCond, m_Zero()))
    return "_accumulate(" + acc + ", " + product + ")";
  return "_acc_init(" + acc + ", " + product + ", " + init + ")";
}

static std::string shapeOf(Type type) {
  return shapeList(cast<ShapedType>(type).getShape(), false);
}
static std::string dtypeOf(Value value) {
  return quoted(dtypeName(cast<ShapedType>(value.getType())));
}
/// A shape with '?' extents taken from `sizes` (Python names), in order.
static std::string concreteShape(Value result, ArrayRef<std::string> sizes) {
  std::string text = "[";
  unsigned next = 0;
  for (auto [i, dim] :
       llvm::enumerate(cast<ShapedType>(result.getType()).getShape()))
    text += (i ? ", " : "") +
            (ShapedType::isDynamic(dim) ? sizes[next++] : std::to_string(dim));
  return text + "]";
}
static std::string trans(bool flag) { return flag ? "True" : "False"; }

/// Registers `fn` (called with the op cast to its class) for each of `Ops`.
template <typename... Ops, typename Fn>
static void addRule(TorchEmitter::PtoRules &rules, Fn fn) {
  (rules.try_emplace(
       TypeID::get<Ops>(),
       [fn](TorchEmitter &e, Operation *op) { return fn(e, cast<Ops>(op)); }),
   ...);
}

const TorchEmitter::PtoRules &TorchEmitter::getPtoRules() {
  static const PtoRules rules = [] {
    PtoRules r;
    using Text = PtoText;
    // Ordering ops: no-ops in the reference.
    addRule<SyncSrcOp, SyncDstOp, BarVOp, BarMOp, BarAllOp, AicInitializePipeOp,
            AivInitializePipeOp>(r, [](TorchEmitter &, auto op) {
      return Text::statement("pass  # " + op->getName().getStringRef().str() +
                             ": orders pipes, a no-op in the reference");
    });
    // Cross-core pipes.
    addRule<TPushToAivOp>(r, [](TorchEmitter &e, TPushToAivOp push) {
      return Text::statement(
          "_cross_core_rt.push_to_aiv(" + e.name(push.getTile()) + ", " +
          std::to_string(push.getSplitAttr().getInt()) +
          (push.getLaneStride()
               ? ", lane_stride=" + std::to_string(*push.getLaneStride())
               : std::string()) +
          ", pipe=" + std::to_string(push.getPipeIdAttr().getInt()) + ")");
    });
    addRule<TPushToAicOp>(r, [](TorchEmitter &e, TPushToAicOp push) {
      return Text::statement(
          "_cross_core_rt.push_to_aic(" + e.name(push.getTile()) + ", " +
          std::to_string(push.getSplitAttr().getInt()) +
          ", pipe=" + std::to_string(push.getPipeIdAttr().getInt()) + ")");
    });
    addRule<TPopFromAicOp, TPopFromAivOp>(r, [](TorchEmitter &, auto pop) {
      StringRef from = isa<TPopFromAicOp>(pop.getOperation()) ? "aic" : "aiv";
      return Text::value(
          "_cross_core_rt.pop_from_" + from.str() + "(" +
          std::to_string(pop.getSplitAttr().getInt()) + ", " +
          shapeOf(pop.getType()) + ", " + dtypeOf(pop.getResult()) +
          ", pipe=" + std::to_string(pop.getPipeIdAttr().getInt()) + ")");
    });
    // Ops with two tile results (values and indices).
    addRule<TileRowArgmaxOp>(r, [](TorchEmitter &e, TileRowArgmaxOp op) {
      return Text::value("_row_arg('max', " + e.name(op.getSrc()) + ")");
    });
    addRule<TileRowArgminOp>(r, [](TorchEmitter &e, TileRowArgminOp op) {
      return Text::value("_row_arg('min', " + e.name(op.getSrc()) + ")");
    });
    addRule<TileSort32Op>(r, [](TorchEmitter &e, TileSort32Op op) {
      return Text::value("_sort32(" + e.name(op->getOperand(0)) + ", " +
                         quoted(op->getName().getStringRef()) + ")");
    });
    addRule<TileMrgSortOp>(r, [](TorchEmitter &e, TileMrgSortOp op) {
      return Text::value("_mrgsort(" + e.name(op->getOperand(0)) + ", " +
                         e.name(op->getOperand(1)) + ", " +
                         std::to_string(op.getBlock()) + ", " +
                         quoted(op->getName().getStringRef()) + ")");
    });
    // Index ops.
    addRule<TileIotaOp>(r, [](TorchEmitter &e, TileIotaOp iota) {
      return Text::value(
          "_iota(" + shapeOf(iota.getType()) + ", " +
          dtypeOf(iota.getResult()) + ", " + e.name(iota->getOperand(0)) +
          (iota.getDescending() ? ", descending=True" : "") + ")");
    });
    addRule<TileRowCumsumOp>(r, [](TorchEmitter &e, TileRowCumsumOp op) {
      return Text::value("_cumsum(" + e.name(op.getSrc()) + ", True)");
    });
    addRule<TileColCumsumOp>(r, [](TorchEmitter &e, TileColCumsumOp op) {
      return Text::value("_cumsum(" + e.name(op.getSrc()) + ", False)");
    });
    addRule<TileGatherOp>(r, [](TorchEmitter &e, TileGatherOp op) {
      return Text::value("_gather(" + e.names(op->getOperands()) + ")");
    });
    addRule<TileScatterOp>(r, [](TorchEmitter &e, TileScatterOp op) {
      return Text::value("_scatter(" + e.names(op->getOperands()) + ")");
    });
    addRule<TileValidDimOp>(r, [](TorchEmitter &e, TileValidDimOp dim) {
      return Text::value("_valid(" + e.name(dim->getOperand(0)) + ")[" +
                         std::to_string(dim.getDim()) + "]");
    });
    // Tile data movement and construction.
    addRule<TileLoadOp>(r, [](TorchEmitter &e, TileLoadOp load) {
      return Text::value("_tile_load(" + e.name(load.getSrc()) + ", " +
                         e.list(load.getOffsets()) + ", " +
                         shapeOf(load.getType()) + ", " +
                         e.optionalList(load.getValidShape()) + ")");
    });
    addRule<TileStoreOp>(r, [](TorchEmitter &e, TileStoreOp store) {
      return Text::value(
          "_tile_store(" + e.name(store.getTile()) + ", " +
          e.name(store.getDst()) + ", " + e.list(store.getOffsets()) +
          (store.getAtomicAdd() ? ", atomic_add=True" : "") + ")");
    });
    addRule<TileCreateOp>(r, [](TorchEmitter &e, TileCreateOp create) {
      // tile.create allocates: an addressed tile holds whatever its bytes
      // hold.
      Text text = Text::value("_tile_create(" + shapeOf(create.getType()) +
                              ", " + dtypeOf(create.getResult()) + ", " +
                              e.optionalList(create.getValidShape()) + ")");
      text.writeBytes = false;
      return text;
    });
    addRule<TileFullOp>(r, [](TorchEmitter &e, TileFullOp full) {
      return Text::value("_tile_full(" + shapeOf(full.getType()) + ", " +
                         dtypeOf(full.getResult()) + ", " +
                         e.name(full.getValue()) + ", " +
                         e.optionalList(full.getValidShape()) + ")");
    });
    addRule<TileMoveOp>(r, [](TorchEmitter &e, TileMoveOp move) {
      return Text::value("_convert(" + e.name(move.getSrc()) + ", " +
                         dtypeOf(move.getResult()) + ")");
    });
    addRule<TileSliceOp>(r, [](TorchEmitter &e, TileSliceOp slice) {
      return Text::value(
          "_tile_slice(" + e.name(slice.getSrc()) + ", " +
          e.list(slice.getOffsets()) + ", " + shapeOf(slice.getType()) + ", " +
          e.optionalList(slice.getValidShape()) + ", " +
          quoted(stringifyPadValue(slice.getPad().value_or(PadValue::Zero))) +
          ")");
    });
    addRule<TileAssembleOp>(r, [](TorchEmitter &e, TileAssembleOp op) {
      return Text::value("_assemble(" + e.name(op.getSrc()) + ", " +
                         e.name(op.getDst()) + ", " + e.list(op.getOffsets()) +
                         ")");
    });
    addRule<TileFillPadOp>(r, [](TorchEmitter &e, TileFillPadOp fill) {
      return Text::value("_fillpad(" + e.name(fill.getSrc()) + ", " +
                         quoted(stringifyPadValue(fill.getPad())) + ")");
    });
    addRule<TileSetValidShapeOp>(
        r, [](TorchEmitter &e, TileSetValidShapeOp valid) {
          return Text::value("_set_validshape(" + e.name(valid.getSrc()) +
                             ", " + e.list(valid.getValidShape()) + ")");
        });
    addRule<TileReshapeOp>(r, [](TorchEmitter &e, TileReshapeOp reshape) {
      return Text::value("_reshape(" + e.name(reshape.getSrc()) + ", " +
                         shapeOf(reshape.getType()) + ")");
    });
    addRule<TileTransposeOp>(r, [](TorchEmitter &e, TileTransposeOp op) {
      return Text::value("_transpose(" + e.name(op->getOperand(0)) + ")");
    });
    addRule<TileReadOp>(r, [](TorchEmitter &e, TileReadOp read) {
      return Text::value("_read(" + e.name(read.getSrc()) + ", " +
                         e.list(read.getIndices()) + ")");
    });
    addRule<TileWriteOp>(r, [](TorchEmitter &e, TileWriteOp write) {
      return Text::value("_write(" + e.name(write.getDst()) + ", " +
                         e.list(write.getIndices()) + ", " +
                         e.name(write.getValue()) + ")");
    });
    // Casts, compares, selects, broadcasts.
    addRule<TileCastOp, TensorCastOp>(r, [](TorchEmitter &e, auto cast_) {
      return Text::value("_cast(" + e.name(cast_.getSrc()) + ", " +
                         dtypeOf(cast_.getResult()) + ", " +
                         quoted(stringifyRoundMode(
                             cast_.getRound().value_or(RoundMode::None))) +
                         ")");
    });
    addRule<TileCmpOp>(r, [](TorchEmitter &e, TileCmpOp cmp) {
      return Text::value(
          "_cmp(" + quoted(stringifyCmpPredicate(cmp.getPredicate())) + ", " +
          e.name(cmp.getLhs()) + ", " + e.name(cmp.getRhs()) + ")");
    });
    addRule<TileCmpSOp>(r, [](TorchEmitter &e, TileCmpSOp cmp) {
      return Text::value(
          "_cmps(" + quoted(stringifyCmpPredicate(cmp.getPredicate())) + ", " +
          e.name(cmp.getSrc()) + ", " + e.name(cmp.getScalar()) + ")");
    });
    addRule<TileSelOp>(r, [](TorchEmitter &e, TileSelOp op) {
      return Text::value("_sel(" + e.names(op->getOperands()) + ")");
    });
    addRule<TileSelSOp>(r, [](TorchEmitter &e, TileSelSOp op) {
      return Text::value("_sels(" + e.names(op->getOperands()) + ")");
    });
    addRule<TileRowExpandOp>(r, [](TorchEmitter &e, TileRowExpandOp op) {
      return Text::value("_expand(" + e.name(op->getOperand(0)) + ", " +
                         shapeOf(op.getType()) + ", True)");
    });
    addRule<TileColExpandOp>(r, [](TorchEmitter &e, TileColExpandOp op) {
      return Text::value("_expand(" + e.name(op->getOperand(0)) + ", " +
                         shapeOf(op.getType()) + ", False)");
    });
    // Cube ops.
    addRule<TileMatmulOp, TileBatchMatmulOp, TileGemvOp>(
        r, [](TorchEmitter &e, auto mm) {
          return Text::value("_matmul(" + e.name(mm.getLhs()) + ", " +
                             e.name(mm.getRhs()) + ", " +
                             dtypeOf(mm.getResult()) + ")");
        });
    addRule<TileMatmulBiasOp>(r, [](TorchEmitter &e, TileMatmulBiasOp mm) {
      return Text::value("_matmul_bias(" + e.name(mm.getLhs()) + ", " +
                         e.name(mm.getRhs()) + ", " + e.name(mm.getBias()) +
                         ", " + dtypeOf(mm.getResult()) + ")");
    });
    addRule<TileMatmulAccOp, TileBatchMatmulAccOp, TileGemvAccOp>(
        r, [](TorchEmitter &e, auto mm) {
          Value init = mm.getInitCond();
          return Text::value(accumulateExpression(
              init, e.name(mm.getAcc()),
              "_matmul(" + e.name(mm.getLhs()) + ", " + e.name(mm.getRhs()) +
                  ", " + dtypeOf(mm.getResult()) + ")",
              init ? e.name(init) : ""));
        });
    // Block queries.
    addRule<GetSubblockIdxOp>(r, [](TorchEmitter &, GetSubblockIdxOp) {
      return Text::value("_get_subblock_idx()");
    });
    addRule<GetBlockIdxOp>(r, [](TorchEmitter &, GetBlockIdxOp) {
      return Text::value("_BLOCK['idx']");
    });
    addRule<GetBlockNumOp>(r, [](TorchEmitter &, GetBlockNumOp) {
      return Text::value("_BLOCK['num']");
    });
    // Tensors (orchestration).
    addRule<TensorCreateOp>(r, [](TorchEmitter &e, TensorCreateOp create) {
      return Text::value(
          "_tile_create(" +
          concreteShape(create.getResult(), e.nameList(create.getSizes())) +
          ", " + dtypeOf(create.getResult()) + ")");
    });
    addRule<TensorFullOp>(r, [](TorchEmitter &e, TensorFullOp full) {
      return Text::value(
          "_tile_full(" +
          concreteShape(full.getResult(), e.nameList(full.getSizes())) + ", " +
          dtypeOf(full.getResult()) + ", " + e.name(full.getValue()) + ")");
    });
    addRule<TensorViewOp>(r, [](TorchEmitter &e, TensorViewOp view) {
      return Text::value(
          "_tensor_view(" + e.name(view.getSrc()) + ", " +
          concreteShape(view.getResult(), e.nameList(view.getSizes())) + ")");
    });
    addRule<TensorDimOp>(r, [](TorchEmitter &e, TensorDimOp dim) {
      return Text::value(e.name(dim.getSrc()) + ".shape[" +
                         std::to_string(dim.getDimAttr().getInt()) + "]");
    });
    addRule<TensorSliceOp>(r, [](TorchEmitter &e, TensorSliceOp slice) {
      return Text::value("_tensor_slice(" + e.name(slice.getSrc()) + ", " +
                         e.list(slice.getOffsets()) + ", " +
                         shapeOf(slice.getType()) + ", " +
                         e.optionalList(slice.getValidShape()) + ")");
    });
    addRule<TensorAssembleOp>(r, [](TorchEmitter &e, TensorAssembleOp op) {
      return Text::value("_tensor_assemble(" + e.name(op.getSrc()) + ", " +
                         e.name(op.getDst()) + ", " + e.list(op.getOffsets()) +
                         ")");
    });
    addRule<TensorReadOp>(r, [](TorchEmitter &e, TensorReadOp read) {
      return Text::value("_read(" + e.name(read.getSrc()) + ", " +
                         e.list(read.getIndices()) + ", 'pto.tensor.read')");
    });
    addRule<TensorWriteOp>(r, [](TorchEmitter &e, TensorWriteOp write) {
      return Text::value("_tensor_write(" + e.name(write.getDst()) + ", " +
                         e.list(write.getIndices()) + ", " +
                         e.name(write.getValue()) + ")");
    });
    addRule<TensorMatmulOp>(r, [](TorchEmitter &e, TensorMatmulOp mm) {
      return Text::value("_tensor_matmul(" + e.name(mm.getLhs()) + ", " +
                         e.name(mm.getRhs()) + ", " + dtypeOf(mm.getResult()) +
                         ", a_trans=" + trans(mm.getATrans()) +
                         ", b_trans=" + trans(mm.getBTrans()) + ")");
    });
    addRule<TensorMatmulAccOp>(r, [](TorchEmitter &e, TensorMatmulAccOp mm) {
      Value init = mm.getInitCond();
      return Text::value(accumulateExpression(
          init, e.name(mm.getAcc()),
          "_tensor_matmul(" + e.name(mm.getLhs()) + ", " + e.name(mm.getRhs()) +
              ", " + dtypeOf(mm.getResult()) +
              ", a_trans=" + trans(mm.getATrans()) +
              ", b_trans=" + trans(mm.getBTrans()) + ")",
          init ? e.name(init) : ""));
    });
    addRule<RegScopeOp>(r, [](TorchEmitter &e, RegScopeOp scope) {
      std::string call = regScopeCall(e, scope);
      return scope.getNumResults() ? Text::value(call) : Text::statement(call);
    });
    return r;
  }();
  return rules;
}

LogicalResult TorchEmitter::emitPto(Operation *op) {
  std::optional<PtoText> text;
  const PtoRules &rules = getPtoRules();
  if (auto it = rules.find(op->getName().getTypeID()); it != rules.end()) {
    text = it->second(*this, op);
  } else if (auto elementwise = dyn_cast<ElementwiseOpInterface>(op)) {
    std::optional<std::string> expression = elementwiseExpression(
        elementwise.getFamily(), elementwise.getFunction(),
        op->getName().getStringRef(), nameList(op->getOperands()));
    if (expression)
      text = PtoText::value(*expression);
  }
  if (!text)
    return op->emitOpError() << "cannot be emitted as PyTorch";
  if (text->isStatement) {
    line() << text->text << "\n";
    return success();
  }
  if (op->getNumResults() == 1) {
    assign(op->getResult(0), text->text, text->writeBytes);
    return success();
  }
  line() << names(op->getResults()) << " = " << text->text << "\n";
  for (Value value : op->getResults())
    checkShape(value);
  storeAddressed(op->getResults());
  return success();
}

std::string TorchEmitter::regScopeCall(TorchEmitter &e, RegScopeOp scope) {
  Block &body = scope.getBody().front();
  llvm::DenseMap<Value, unsigned> numbers;
  auto number = [&](Value value) -> std::string {
    if (auto arg = dyn_cast<BlockArgument>(value);
        arg && arg.getOwner() == &body)
      return std::to_string(arg.getArgNumber());
    return std::to_string(
        numbers.try_emplace(value, numbers.size()).first->second);
  };
  std::string program;
  llvm::raw_string_ostream os(program);
  auto step = [&](StringRef kind, Value result,
                  ArrayRef<std::string> operands) {
    os << (program.empty() ? "" : ", ") << "(" << quoted(kind) << ", "
       << (result ? number(result) : "None");
    for (const std::string &operand : operands)
      os << ", " << operand;
    os << ")";
  };
  for (Operation &op : body.without_terminator()) {
    llvm::TypeSwitch<Operation *>(&op)
        .Case([&](VRegLoadOp load) {
          step("load", load.getResult(),
               {number(load.getTile()), std::to_string(load.getOffset())});
        })
        .Case([&](VRegStoreOp store) {
          step("store", Value(),
               {number(store.getTile()), std::to_string(store.getOffset()),
                number(store.getValue()),
                store.getMask() ? number(store.getMask()) : "None"});
        })
        .Case<VRegAddOp, VRegSubOp, VRegMulOp, VRegDivOp, VRegMaxOp, VRegMinOp>(
            [&](Operation *binary) {
              StringRef kind = binary->getName().getStringRef();
              kind.consume_front("pto.vreg.");
              step(kind, binary->getResult(0),
                   {number(binary->getOperand(0)),
                    number(binary->getOperand(1))});
            })
        .Case([&](VRegBroadcastOp op) {
          step("broadcast", op.getResult(), {number(op.getScalar())});
        })
        .Case([&](VRegCmpOp op) {
          step("cmp", op.getResult(),
               {quoted(stringifyCmpPredicate(op.getPredicate())),
                number(op.getLhs()), number(op.getRhs())});
        })
        .Case([&](VRegSelectOp op) {
          step(
              "select", op.getResult(),
              {number(op.getMask()), number(op.getLhs()), number(op.getRhs())});
        })
        .Case([&](VRegPrefixMaskOp op) {
          step("prefix", op.getResult(), {std::to_string(op.getCount())});
        })
        .Case([&](VRegSuffixMaskOp op) {
          step("suffix", op.getResult(), {std::to_string(op.getCount())});
        })
        .Case([&](VRegRuntimeMaskOp op) {
          step("runtime", op.getResult(),
               {number(op.getCount()), std::to_string(op.getBase())});
        });
  }
  std::string addrs, yields;
  for (Value capture : scope.getCaptures()) {
    auto tile = dyn_cast<TileType>(capture.getType());
    addrs += (addrs.empty() ? "" : ", ") +
             (tile && tile.getAddr() ? std::to_string(*tile.getAddr())
                                     : std::string("None"));
  }
  for (unsigned i = 0; i < scope.getNumResults(); ++i)
    yields += (i ? ", " : "") +
              std::to_string(scope.getYieldedCapture(i).getArgNumber());
  return "_reg_scope(" + e.list(scope.getCaptures()) + ", [" + addrs + "], [" +
         program + "], [" + yields + "])";
}

bool tilekit::canEmitTorch(RegisteredOperationName name) {
  if (TorchEmitter::getPtoRules().contains(name.getTypeID()))
    return true;
  auto *elementwise = name.getInterface<ElementwiseOpInterface>();
  if (!elementwise)
    return false;
  std::string operands[] = {"a", "b"};
  return elementwiseExpression(elementwise->getFamily(),
                               elementwise->getFunction(), name.getStringRef(),
                               operands)
      .has_value();
}

LogicalResult tilekit::emitTorchScript(ModuleOp module, raw_ostream &os,
                                       const TorchEmitOptions &options) {
  return TorchEmitter(os, options).emitModule(module);
}
