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
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace tilekit;
using namespace tilekit::pto;

static const char kPreamble[] =
#include "TorchPreamble.inc"
    ;

namespace {

class TorchEmitter {
public:
  TorchEmitter(raw_ostream &os, const TorchEmitOptions &options)
      : os(os), options(options) {}

  LogicalResult emitModule(ModuleOp module);

private:
  LogicalResult emitFunction(func::FuncOp func);
  /// Emits the ops of `block`; `pass` when it has none and nothing
  /// follows (`trailing` is false).
  LogicalResult emitBlock(Block &block, bool trailing = false);
  LogicalResult emitOp(Operation *op);
  LogicalResult emitScf(Operation *op);
  LogicalResult emitArith(Operation *op);
  LogicalResult emitTile(Operation *op);
  LogicalResult emitTensor(Operation *op);

  /// The Python name of a value, made unique within the function.
  std::string name(Value value);
  std::string names(ValueRange values);
  std::string list(ValueRange values) { return "[" + names(values) + "]"; }
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
  os << kPreamble << "\n";
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
    return op->getName().getStringRef().starts_with("pto.tensor.")
               ? emitTensor(op)
               : emitTile(op);
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
static std::optional<std::string> binaryFunction(StringRef stem) {
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
  auto it = table.find(stem);
  if (it == table.end())
    return std::nullopt;
  return it->second.str();
}

static std::optional<std::string> unaryFunction(StringRef stem) {
  static const llvm::StringMap<StringRef> table = {
      {"neg", "torch.neg"},     {"exp", "torch.exp"},
      {"log", "torch.log"},     {"sqrt", "torch.sqrt"},
      {"rsqrt", "torch.rsqrt"}, {"recip", "torch.reciprocal"},
      {"abs", "torch.abs"},     {"relu", "_relu"},
      {"not", "_not"},          {"tanh", "torch.tanh"},
      {"sigmoid", "_sigmoid"},  {"erf", "torch.erf"}};
  auto it = table.find(stem);
  if (it == table.end())
    return std::nullopt;
  return it->second.str();
}

/// The elementwise/reduction families shared by tiles and tensors.
static std::optional<std::string>
emitFamily(Operation *op, StringRef stem,
           const std::function<std::string(unsigned)> &operand) {
  std::string opName = quoted(op->getName().getStringRef());
  // Binary and tile-scalar forms.
  if (op->getNumOperands() == 2 &&
      isa<ShapedType>(op->getOperand(0).getType())) {
    bool scalar = !isa<ShapedType>(op->getOperand(1).getType());
    StringRef base = stem;
    if (scalar && base.ends_with("s"))
      base = base.drop_back();
    if (base == "div" || base == "rem") {
      std::string call =
          "_" + base.str() + "(" + operand(0) + ", " +
          (scalar ? "_scalar(" + operand(0) + ", " + operand(1) + ")"
                  : operand(1)) +
          ", " + opName + ")";
      return "_like(" + call + ", " + operand(0) + ")";
    }
    if (std::optional<std::string> fn = binaryFunction(base))
      return (scalar ? "_binary_scalar(" : "_binary(") + *fn + ", " +
             operand(0) + ", " + operand(1) + ")";
  }
  if (op->getNumOperands() == 1) {
    if (std::optional<std::string> fn = unaryFunction(stem))
      return "_unary(" + *fn + ", " + operand(0) + ")";
    for (StringRef kind : {"sum", "max", "min", "prod"}) {
      if (stem == ("row_" + kind).str())
        return "_reduce(" + quoted(kind) + ", " + operand(0) + ", True)";
      if (stem == ("col_" + kind).str())
        return "_reduce(" + quoted(kind) + ", " + operand(0) + ", False)";
    }
  }
  return std::nullopt;
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

LogicalResult TorchEmitter::emitTile(Operation *op) {
  auto operand = [&](unsigned i) { return name(op->getOperand(i)); };
  auto resultType = [&]() {
    return cast<ShapedType>(op->getResult(0).getType());
  };
  auto shapeOf = [&](Type type) {
    return shapeList(cast<ShapedType>(type).getShape(), false);
  };
  auto optionalList = [&](ValueRange values) {
    return values.empty() ? std::string("None") : list(values);
  };
  StringRef stem = op->getName().getStringRef();
  stem.consume_front("pto.tile.");
  stem.consume_front("pto.system.");

  // Ops without results first.
  if (op->getName().getStringRef().starts_with("pto.system.")) {
    line() << "pass  # " << op->getName()
           << ": orders pipes, a no-op in the reference\n";
    return success();
  }
  if (auto push = dyn_cast<TPushToAivOp>(op)) {
    line() << "_cross_core_rt.push_to_aiv(" << name(push.getTile()) << ", "
           << push.getSplitAttr().getInt()
           << (push.getLaneStride()
                   ? ", lane_stride=" + std::to_string(*push.getLaneStride())
                   : std::string())
           << ", pipe=" << push.getPipeIdAttr().getInt() << ")\n";
    return success();
  }
  if (auto push = dyn_cast<TPushToAicOp>(op)) {
    line() << "_cross_core_rt.push_to_aic(" << name(push.getTile()) << ", "
           << push.getSplitAttr().getInt()
           << ", pipe=" << push.getPipeIdAttr().getInt() << ")\n";
    return success();
  }

  // Ops with two tile results (values and indices).
  std::string pair;
  if (isa<TileRowArgmaxOp, TileRowArgminOp>(op))
    pair = "_row_arg(" + quoted(stem.drop_front(strlen("row_arg"))) + ", " +
           operand(0) + ")";
  else if (isa<TileSort32Op>(op))
    pair = "_sort32(" + operand(0) + ", " +
           quoted(op->getName().getStringRef()) + ")";
  else if (auto merge = dyn_cast<TileMrgSortOp>(op))
    pair = "_mrgsort(" + operand(0) + ", " + operand(1) + ", " +
           std::to_string(merge.getBlock()) + ", " +
           quoted(op->getName().getStringRef()) + ")";
  if (!pair.empty()) {
    line() << names(op->getResults()) << " = " << pair << "\n";
    for (Value value : op->getResults())
      checkShape(value);
    storeAddressed(op->getResults());
    return success();
  }

  Value result = op->getResult(0);
  std::string expression;
  if (auto iota = dyn_cast<TileIotaOp>(op))
    expression = "_iota(" + shapeOf(result.getType()) + ", " +
                 quoted(dtypeName(resultType())) + ", " + operand(0) +
                 (iota.getDescending() ? ", descending=True" : "") + ")";
  else if (isa<TileRowCumsumOp, TileColCumsumOp>(op))
    expression = "_cumsum(" + operand(0) + ", " +
                 (isa<TileRowCumsumOp>(op) ? "True" : "False") + ")";
  else if (isa<TileGatherOp>(op))
    expression = "_gather(" + operand(0) + ", " + operand(1) + ")";
  else if (isa<TileScatterOp>(op))
    expression =
        "_scatter(" + operand(0) + ", " + operand(1) + ", " + operand(2) + ")";
  else if (auto dim = dyn_cast<TileValidDimOp>(op))
    expression =
        "_valid(" + operand(0) + ")[" + std::to_string(dim.getDim()) + "]";
  else if (auto load = dyn_cast<TileLoadOp>(op))
    expression = "_tile_load(" + name(load.getSrc()) + ", " +
                 list(load.getOffsets()) + ", " + shapeOf(result.getType()) +
                 ", " + optionalList(load.getValidShape()) + ")";
  else if (auto store = dyn_cast<TileStoreOp>(op))
    expression = "_tile_store(" + name(store.getTile()) + ", " +
                 name(store.getDst()) + ", " + list(store.getOffsets()) +
                 (store.getAtomicAdd() ? ", atomic_add=True" : "") + ")";
  else if (auto create = dyn_cast<TileCreateOp>(op))
    expression = "_tile_create(" + shapeOf(result.getType()) + ", " +
                 quoted(dtypeName(resultType())) + ", " +
                 optionalList(create.getValidShape()) + ")";
  else if (auto full = dyn_cast<TileFullOp>(op))
    expression = "_tile_full(" + shapeOf(result.getType()) + ", " +
                 quoted(dtypeName(resultType())) + ", " +
                 name(full.getValue()) + ", " +
                 optionalList(full.getValidShape()) + ")";
  else if (auto move = dyn_cast<TileMoveOp>(op))
    expression = "_convert(" + name(move.getSrc()) + ", " +
                 quoted(dtypeName(resultType())) + ")";
  else if (auto slice = dyn_cast<TileSliceOp>(op))
    expression =
        "_tile_slice(" + name(slice.getSrc()) + ", " +
        list(slice.getOffsets()) + ", " + shapeOf(result.getType()) + ", " +
        optionalList(slice.getValidShape()) + ", " +
        quoted(stringifyPadValue(slice.getPad().value_or(PadValue::Zero))) +
        ")";
  else if (auto assemble = dyn_cast<TileAssembleOp>(op))
    expression = "_assemble(" + name(assemble.getSrc()) + ", " +
                 name(assemble.getDst()) + ", " + list(assemble.getOffsets()) +
                 ")";
  else if (auto fill = dyn_cast<TileFillPadOp>(op))
    expression = "_fillpad(" + name(fill.getSrc()) + ", " +
                 quoted(stringifyPadValue(fill.getPad())) + ")";
  else if (auto valid = dyn_cast<TileSetValidShapeOp>(op))
    expression = "_set_validshape(" + name(valid.getSrc()) + ", " +
                 list(valid.getValidShape()) + ")";
  else if (auto reshape = dyn_cast<TileReshapeOp>(op))
    expression = "_reshape(" + name(reshape.getSrc()) + ", " +
                 shapeOf(result.getType()) + ")";
  else if (isa<TileTransposeOp>(op))
    expression = "_transpose(" + operand(0) + ")";
  else if (auto read = dyn_cast<TileReadOp>(op))
    expression =
        "_read(" + name(read.getSrc()) + ", " + list(read.getIndices()) + ")";
  else if (auto write = dyn_cast<TileWriteOp>(op))
    expression = "_write(" + name(write.getDst()) + ", " +
                 list(write.getIndices()) + ", " + name(write.getValue()) + ")";
  else if (auto cast_ = dyn_cast<TileCastOp>(op))
    expression =
        "_cast(" + name(cast_.getSrc()) + ", " +
        quoted(dtypeName(resultType())) + ", " +
        quoted(stringifyRoundMode(cast_.getRound().value_or(RoundMode::None))) +
        ")";
  else if (auto cmp = dyn_cast<TileCmpOp>(op))
    expression = "_cmp(" + quoted(stringifyCmpPredicate(cmp.getPredicate())) +
                 ", " + name(cmp.getLhs()) + ", " + name(cmp.getRhs()) + ")";
  else if (auto cmp = dyn_cast<TileCmpSOp>(op))
    expression = "_cmps(" + quoted(stringifyCmpPredicate(cmp.getPredicate())) +
                 ", " + name(cmp.getSrc()) + ", " + name(cmp.getScalar()) + ")";
  else if (isa<TileSelOp>(op))
    expression =
        "_sel(" + operand(0) + ", " + operand(1) + ", " + operand(2) + ")";
  else if (isa<TileSelSOp>(op))
    expression =
        "_sels(" + operand(0) + ", " + operand(1) + ", " + operand(2) + ")";
  else if (isa<TileRowExpandOp, TileColExpandOp>(op))
    expression = "_expand(" + operand(0) + ", " + shapeOf(result.getType()) +
                 (isa<TileRowExpandOp>(op) ? ", True)" : ", False)");
  else if (stem.starts_with("row_expand_") || stem.starts_with("col_expand_")) {
    StringRef kind = stem.drop_front(strlen("row_expand_"));
    if (kind == "expdif")
      expression = "_expdif(" + operand(0) + ", " + operand(1) + ")";
    else if (kind == "div") // integer division truncates, as `div` does
      expression = "_like(_div(" + operand(0) + ", " + operand(1) +
                   ".expand_as(" + operand(0) + "), " +
                   quoted(op->getName().getStringRef()) + "), " + operand(0) +
                   ")";
    else
      expression = "_expand_binary(" + *binaryFunction(kind) + ", " +
                   operand(0) + ", " + operand(1) + ")";
  } else if (isa<TileMatmulOp, TileBatchMatmulOp, TileGemvOp>(op))
    expression = "_matmul(" + operand(0) + ", " + operand(1) + ", " +
                 quoted(dtypeName(resultType())) + ")";
  else if (auto bias = dyn_cast<TileMatmulBiasOp>(op))
    expression = "_matmul_bias(" + name(bias.getLhs()) + ", " +
                 name(bias.getRhs()) + ", " + name(bias.getBias()) + ", " +
                 quoted(dtypeName(resultType())) + ")";
  else if (isa<TileMatmulAccOp, TileBatchMatmulAccOp, TileGemvAccOp>(op)) {
    Value init = op->getNumOperands() > 3 ? op->getOperand(3) : Value();
    expression =
        accumulateExpression(init, operand(0),
                             "_matmul(" + operand(1) + ", " + operand(2) +
                                 ", " + quoted(dtypeName(resultType())) + ")",
                             init ? name(init) : "");
  } else if (auto pop = dyn_cast<TPopFromAicOp>(op))
    expression = "_cross_core_rt.pop_from_aic(" +
                 std::to_string(pop.getSplitAttr().getInt()) + ", " +
                 shapeOf(result.getType()) + ", " +
                 quoted(dtypeName(resultType())) +
                 ", pipe=" + std::to_string(pop.getPipeIdAttr().getInt()) + ")";
  else if (auto pop = dyn_cast<TPopFromAivOp>(op))
    expression = "_cross_core_rt.pop_from_aiv(" +
                 std::to_string(pop.getSplitAttr().getInt()) + ", " +
                 shapeOf(result.getType()) + ", " +
                 quoted(dtypeName(resultType())) +
                 ", pipe=" + std::to_string(pop.getPipeIdAttr().getInt()) + ")";
  else if (isa<GetSubblockIdxOp>(op))
    expression = "_get_subblock_idx()";
  else if (isa<GetBlockIdxOp>(op))
    expression = "_BLOCK['idx']";
  else if (isa<GetBlockNumOp>(op))
    expression = "_BLOCK['num']";
  else if (std::optional<std::string> family = emitFamily(op, stem, operand))
    expression = *family;
  else
    return op->emitOpError() << "cannot be emitted as PyTorch";
  // tile.create allocates: an addressed tile holds whatever its bytes hold.
  assign(result, expression, /*writeBytes=*/!isa<TileCreateOp>(op));
  return success();
}

LogicalResult TorchEmitter::emitTensor(Operation *op) {
  auto operand = [&](unsigned i) { return name(op->getOperand(i)); };
  auto resultType = [&]() {
    return cast<ShapedType>(op->getResult(0).getType());
  };
  /// A shape with '?' extents taken from `sizes`, in order.
  auto concreteShape = [&](ShapedType type, ValueRange sizes) {
    std::string text = "[";
    unsigned next = 0;
    for (auto [i, dim] : llvm::enumerate(type.getShape()))
      text +=
          (i ? ", " : "") + (ShapedType::isDynamic(dim) ? name(sizes[next++])
                                                        : std::to_string(dim));
    return text + "]";
  };
  StringRef stem = op->getName().getStringRef();
  stem.consume_front("pto.tensor.");
  Value result = op->getResult(0);
  std::string expression;
  if (auto create = dyn_cast<TensorCreateOp>(op))
    expression = "_tile_create(" +
                 concreteShape(resultType(), create.getSizes()) + ", " +
                 quoted(dtypeName(resultType())) + ")";
  else if (auto full = dyn_cast<TensorFullOp>(op))
    expression = "_tile_full(" + concreteShape(resultType(), full.getSizes()) +
                 ", " + quoted(dtypeName(resultType())) + ", " +
                 name(full.getValue()) + ")";
  else if (auto view = dyn_cast<TensorViewOp>(op))
    expression = "_tensor_view(" + name(view.getSrc()) + ", " +
                 concreteShape(resultType(), view.getSizes()) + ")";
  else if (auto dim = dyn_cast<TensorDimOp>(op))
    expression = name(dim.getSrc()) + ".shape[" +
                 std::to_string(dim.getDimAttr().getInt()) + "]";
  else if (auto slice = dyn_cast<TensorSliceOp>(op))
    expression = "_tensor_slice(" + name(slice.getSrc()) + ", " +
                 list(slice.getOffsets()) + ", " +
                 shapeList(resultType().getShape(), false) + ", " +
                 (slice.getValidShape().empty() ? std::string("None")
                                                : list(slice.getValidShape())) +
                 ")";
  else if (auto assemble = dyn_cast<TensorAssembleOp>(op))
    expression = "_tensor_assemble(" + name(assemble.getSrc()) + ", " +
                 name(assemble.getDst()) + ", " + list(assemble.getOffsets()) +
                 ")";
  else if (auto read = dyn_cast<TensorReadOp>(op))
    expression = "_read(" + name(read.getSrc()) + ", " +
                 list(read.getIndices()) + ", 'pto.tensor.read')";
  else if (auto write = dyn_cast<TensorWriteOp>(op))
    expression = "_tensor_write(" + name(write.getDst()) + ", " +
                 list(write.getIndices()) + ", " + name(write.getValue()) + ")";
  else if (auto cast_ = dyn_cast<TensorCastOp>(op))
    expression =
        "_cast(" + name(cast_.getSrc()) + ", " +
        quoted(dtypeName(resultType())) + ", " +
        quoted(stringifyRoundMode(cast_.getRound().value_or(RoundMode::None))) +
        ")";
  else if (auto matmul = dyn_cast<TensorMatmulOp>(op))
    expression = "_tensor_matmul(" + name(matmul.getLhs()) + ", " +
                 name(matmul.getRhs()) + ", " +
                 quoted(dtypeName(resultType())) +
                 ", a_trans=" + (matmul.getATrans() ? "True" : "False") +
                 ", b_trans=" + (matmul.getBTrans() ? "True" : "False") + ")";
  else if (auto matmul = dyn_cast<TensorMatmulAccOp>(op))
    expression = accumulateExpression(
        matmul.getInitCond(), name(matmul.getAcc()),
        "_tensor_matmul(" + name(matmul.getLhs()) + ", " +
            name(matmul.getRhs()) + ", " + quoted(dtypeName(resultType())) +
            ", a_trans=" + (matmul.getATrans() ? "True" : "False") +
            ", b_trans=" + (matmul.getBTrans() ? "True" : "False") + ")",
        matmul.getInitCond() ? name(matmul.getInitCond()) : "");
  else if (std::optional<std::string> family = emitFamily(op, stem, operand))
    expression = *family;
  else
    return op->emitOpError() << "cannot be emitted as PyTorch";
  assign(result, expression);
  return success();
}

LogicalResult tilekit::emitTorchScript(ModuleOp module, raw_ostream &os,
                                       const TorchEmitOptions &options) {
  return TorchEmitter(os, options).emitModule(module);
}
