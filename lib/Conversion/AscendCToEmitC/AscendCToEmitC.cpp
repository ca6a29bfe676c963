//===- AscendCToEmitC.cpp - AscendC kernels to EmitC and C++ --------------===//
//
// The type converter, the shared builders and the pass. The patterns, one
// family per file: Tensors.cpp (tensors and data movement), Compute.cpp
// (the cube and the vector unit), Control.cpp (kernels, core groups,
// synchronization, queries and debugging). `scf` and `arith` go through
// MLIR's conversions to EmitC.
//
//===----------------------------------------------------------------------===//

#include "tilekit/Conversion/AscendCToEmitC.h"

#include "Emit.h"

#include "tilekit/Conversion/LocatedConversion.h"

#include "tilekit/Machine/Machine.h"

#include "mlir/Conversion/ArithToEmitC/ArithToEmitC.h"
#include "mlir/Conversion/MemRefToEmitC/MemRefToEmitC.h"
#include "mlir/Conversion/SCFToEmitC/SCFToEmitC.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/EmitC/IR/EmitCInterfaces.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/Cpp/CppEmitter.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Path.h"

#include <cmath>
#include <cstdio>

using namespace mlir;
using namespace tilekit;
using namespace tilekit::emit;

static bool isCppKeyword(StringRef name);

std::string emit::elementName(Type type) {
  if (type.isF32())
    return "float";
  if (type.isF16())
    return "half";
  if (type.isBF16())
    return "bfloat16_t";
  if (type.isInteger(1))
    return "bool";
  if (auto integer = dyn_cast<IntegerType>(type)) {
    unsigned width = integer.getWidth();
    if (width != 8 && width != 16 && width != 32 && width != 64)
      return "";
    return (integer.isUnsigned() ? "uint" : "int") + std::to_string(width) +
           "_t";
  }
  return "";
}

AscendCToEmitCTypes::AscendCToEmitCTypes() {
  addConversion([](Type type) { return type; });
  addConversion([](ascendc::GlobalTensorType type) -> std::optional<Type> {
    std::string element = elementName(type.getElementType());
    if (element.empty())
      return std::nullopt;
    return opaqueType(type.getContext(),
                      "AscendC::GlobalTensor<" + element + ">");
  });
  addConversion([](ascendc::LocalTensorType type) -> std::optional<Type> {
    std::string element = elementName(type.getElementType());
    if (element.empty())
      return std::nullopt;
    return opaqueType(type.getContext(),
                      "AscendC::LocalTensor<" + element + ">");
  });
  // memref<1xi1>: the accumulators' first-step flags.
  populateMemRefToEmitCTypeConversion(*this);
  useSignedIndex();
}

void AscendCToEmitCTypes::useSignedIndex() {
  // The latest conversion added wins over those MLIR's populate functions
  // add (size_t).
  addConversion([](IndexType type) -> Type {
    return emitc::PtrDiffTType::get(type.getContext());
  });
}

emitc::OpaqueType emit::opaqueType(MLIRContext *context, StringRef text) {
  return emitc::OpaqueType::get(context, text);
}

emitc::OpaqueAttr emit::opaque(MLIRContext *context, StringRef text) {
  return emitc::OpaqueAttr::get(context, text);
}

std::string emit::pipeName(ascendc::Pipe pipe) {
  return "PIPE_" + llvm::StringRef(ascendc::stringifyPipe(pipe)).upper();
}

std::string emit::hardEventName(ascendc::Pipe src, ascendc::Pipe dst) {
  return "AscendC::HardEvent::" +
         llvm::StringRef(ascendc::stringifyPipe(src)).upper() + "_" +
         llvm::StringRef(ascendc::stringifyPipe(dst)).upper();
}

std::string emit::positionName(ascendc::Position position) {
  return "AscendC::TPosition::" +
         llvm::StringRef(ascendc::stringifyPosition(position)).upper();
}

Value emit::call(OpBuilder &builder, Location loc, StringRef callee,
                 TypeRange results, ValueRange operands,
                 ArrayRef<Attribute> args, ArrayRef<Attribute> templateArgs) {
  MLIRContext *context = builder.getContext();
  auto op = emitc::CallOpaqueOp::create(
      builder, loc, results, callee, operands,
      args.empty() ? ArrayAttr() : ArrayAttr::get(context, args),
      templateArgs.empty() ? ArrayAttr()
                           : ArrayAttr::get(context, templateArgs));
  return op->getNumResults() ? op->getResult(0) : Value();
}

Attribute emit::operandRef(MLIRContext *context, unsigned index) {
  return IntegerAttr::get(IndexType::get(context), index);
}

Attribute emit::literal(MLIRContext *context, int64_t value) {
  return IntegerAttr::get(IntegerType::get(context, 64), value);
}

Value emit::paramStruct(OpBuilder &builder, Location loc, StringRef type,
                        ArrayRef<std::pair<StringRef, Value>> fields) {
  MLIRContext *context = builder.getContext();
  auto structType = opaqueType(context, type);
  Value object = emitc::VariableOp::create(
      builder, loc, emitc::LValueType::get(structType), opaque(context, ""));
  for (auto [field, value] : fields) {
    Value member = emitc::MemberOp::create(
        builder, loc, emitc::LValueType::get(value.getType()), field, object);
    emitc::AssignOp::create(builder, loc, member, value);
  }
  return emitc::LoadOp::create(builder, loc, structType, object);
}

Value emit::indexConstant(OpBuilder &builder, Location loc, int64_t value) {
  auto type = emitc::PtrDiffTType::get(builder.getContext());
  return emitc::ConstantOp::create(
      builder, loc, type,
      emitc::OpaqueAttr::get(builder.getContext(), std::to_string(value)));
}

Value emit::indexArith(OpBuilder &builder, Location loc, char op, Value lhs,
                       Value rhs) {
  Type type = lhs.getType();
  switch (op) {
  case '+':
    return emitc::AddOp::create(builder, loc, type, lhs, rhs);
  case '-':
    return emitc::SubOp::create(builder, loc, type, lhs, rhs);
  case '*':
    return emitc::MulOp::create(builder, loc, type, lhs, rhs);
  default:
    return emitc::DivOp::create(builder, loc, type, lhs, rhs);
  }
}

namespace {

/// A verbatim line that prints values (a name marker placed before the
/// lowering) prints what they became.
struct VerbatimOperands : OpConversionPattern<emitc::VerbatimOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(emitc::VerbatimOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.modifyOpInPlace(
        op, [&] { op.getFmtArgsMutable().assign(adaptor.getFmtArgs()); });
    return success();
  }
};

struct ConvertAscendCToEmitCPass
    : PassWrapper<ConvertAscendCToEmitCPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ConvertAscendCToEmitCPass)

  StringRef getArgument() const final { return "convert-ascendc-to-emitc"; }
  StringRef getDescription() const final {
    return "Planned, synchronized AscendC kernels to EmitC: Ascend C API "
           "calls in extern \"C\" __global__ __aicore__ functions";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<emitc::EmitCDialect>();
  }

  void runOnOperation() override {
    MLIRContext *context = &getContext();
    // A kernel named like a C++ keyword (`double`) gets a suffix.
    ModuleOp module = getOperation();
    for (auto func : llvm::make_early_inc_range(module.getOps<func::FuncOp>()))
      if (std::string name = emit::cppFunctionName(func);
          name != func.getName()) {
        if (failed(SymbolTable::replaceAllSymbolUses(
                func, StringAttr::get(context, name), module)))
          return signalPassFailure();
        SymbolTable::setSymbolName(func, name);
      }
    AscendCToEmitCTypes types;
    RewritePatternSet patterns(context);
    populateTensorPatterns(types, patterns);
    populateComputePatterns(types, patterns);
    populateControlPatterns(types, patterns);
    populateArithGapsToEmitCPatterns(types, patterns);
    populateArithToEmitCPatterns(types, patterns);
    populateSCFToEmitCConversionPatterns(patterns, types);
    types.useSignedIndex();
    // The accumulators' first-step flags (ascendc-fixup-mmad-acc-params).
    populateMemRefToEmitCConversionPatterns(patterns, types);

    patterns.add<VerbatimOperands>(types, context);
    ConversionTarget target(*context);
    target.addLegalDialect<emitc::EmitCDialect>();
    target.addDynamicallyLegalOp<emitc::VerbatimOp>(
        [&](emitc::VerbatimOp op) { return types.isLegal(op); });
    target.addLegalOp<ModuleOp>();
    target.addIllegalDialect<ascendc::AscendCDialect, arith::ArithDialect,
                             scf::SCFDialect, func::FuncDialect,
                             memref::MemRefDialect>();
    if (failed(convertSayingWhy(
            getOperation(), "has no Ascend C C++ form here", [&] {
              return applyFullConversion(getOperation(), target,
                                         std::move(patterns));
            })))
      signalPassFailure();
  }
};

} // namespace

std::unique_ptr<Pass> tilekit::createConvertAscendCToEmitCPass() {
  return std::make_unique<ConvertAscendCToEmitCPass>();
}

void tilekit::registerConvertAscendCToEmitCPass() {
  PassRegistration<ConvertAscendCToEmitCPass>();
}

// Index arithmetic whose only user folded away, say.
void tilekit::removeUnusedEmitCValues(ModuleOp module) {
  bool erased = true;
  while (erased) {
    erased = false;
    SmallVector<Operation *> dead;
    module.walk([&](Operation *op) {
      auto expression = dyn_cast<emitc::CExpressionInterface>(op);
      // A call runs its callee whether or not its result is used.
      bool call = isa<emitc::CallOp, emitc::CallOpaqueOp>(op);
      bool pure = op->hasTrait<mlir::OpTrait::ConstantLike>() ||
                  (expression && !call && !expression.hasSideEffects());
      if (pure && op->getNumResults() && op->use_empty())
        dead.push_back(op);
    });
    for (Operation *op : dead)
      op->erase();
    erased = !dead.empty();
  }
}

std::string tilekit::cppStringLiteral(StringRef text) {
  std::string literal = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\')
      literal += '\\';
    if (c == '\n') {
      literal += "\\n";
      continue;
    }
    literal += c;
  }
  return literal + "\"";
}

/// -9223372036854775808 is not a C++ literal but the negation of one too
/// large for any signed type (clang: -Wimplicitly-unsigned-literal); the
/// smallest int64_t is spelled as an expression instead.
static void spellInt64Min(ModuleOp module) {
  module.walk([](emitc::ConstantOp constant) {
    auto value = dyn_cast<IntegerAttr>(constant.getValue());
    if (!value || value.getType().isUnsignedInteger() ||
        value.getValue().getBitWidth() != 64 ||
        !value.getValue().isMinSignedValue())
      return;
    OpBuilder builder(constant);
    constant.replaceAllUsesWith(
        emitc::LiteralOp::create(builder, constant.getLoc(), constant.getType(),
                                 "(-9223372036854775807 - 1)")
            .getResult());
    constant.erase();
  });
}

/// MLIR's C++ emitter spells f16 constants with clang's own type
/// (`_Float16 v = 1.5e+00f16`); Ascend C's is `half`, which takes an
/// immediate (the built-in data types page), so an f16 constant becomes
/// `half(...)`, exact. (bfloat16_t takes no immediate there.)
static void spellHalfConstants(ModuleOp module) {
  module.walk([](emitc::ConstantOp constant) {
    auto value = dyn_cast<FloatAttr>(constant.getValue());
    if (!value || !(value.getType().isF16() || value.getType().isBF16()))
      return;
    double number = value.getValueAsDouble(); // exact: 16 bits fit a double
    std::string digits;
    if (std::isnan(number)) {
      digits = "NAN";
    } else if (std::isinf(number)) {
      digits = number < 0 ? "-INFINITY" : "INFINITY";
    } else {
      char text[32];
      std::snprintf(text, sizeof(text), "%.17g", number);
      digits = text;
    }
    // bfloat16_t takes no immediate: it is converted from a float (exact,
    // as every bf16 value is a float), ToBfloat16's page.
    std::string spelled = value.getType().isF16()
                              ? "half(" + digits + ")"
                              : "AscendC::ToBfloat16(float(" + digits + "))";
    OpBuilder builder(constant);
    constant.replaceAllUsesWith(
        emitc::LiteralOp::create(builder, constant.getLoc(), constant.getType(),
                                 spelled)
            .getResult());
    constant.erase();
  });
}

/// Puts `AscendC::cpu::at("file:line:col");` before each AscendC
/// instruction (an op with effects), so that the CPU runtime's reports
/// name the instruction.
static void markOrigins(ModuleOp module) {
  module.walk([](Operation *op) {
    if (!isa<ascendc::AscendCDialect>(op->getDialect()) ||
        isMemoryEffectFree(op))
      return;
    auto loc = op->getLoc()->findInstanceOf<FileLineColLoc>();
    if (!loc)
      return;
    std::string where = (loc.getFilename().getValue() + ":" +
                         Twine(loc.getLine()) + ":" + Twine(loc.getColumn()))
                            .str();
    OpBuilder builder(op);
    emitc::VerbatimOp::create(builder, op->getLoc(),
                              "AscendC::cpu::at(" + cppStringLiteral(where) +
                                  ");");
  });
}

/// The flags of the public Ascend C contract the emitted calls must keep
/// (docs/emit-cpp.md, "The Ascend C contract"): a hard event between pipes
/// the chips pair, an event id static tensor programming may use, a
/// cross-core flag id the machine has. A located error at the first that
/// does not.
static LogicalResult checkFlagContract(ModuleOp module) {
  auto pipe = [](ascendc::Pipe p) {
    return static_cast<machine::Pipe>(p); // EnumAgreement.cpp
  };
  WalkResult result = module.walk([&](Operation *op) {
    std::optional<ascendc::Pipe> src, dst;
    int64_t event = 0;
    if (auto set = dyn_cast<ascendc::SetFlagOp>(op)) {
      src = set.getSrc(), dst = set.getDst(), event = set.getEvent();
    } else if (auto wait = dyn_cast<ascendc::WaitFlagOp>(op)) {
      src = wait.getSrc(), dst = wait.getDst(), event = wait.getEvent();
    } else if (isa<ascendc::GetBufOp, ascendc::RlsBufOp>(op)) {
      auto get = dyn_cast<ascendc::GetBufOp>(op);
      int64_t id =
          get ? get.getBufId() : cast<ascendc::RlsBufOp>(op).getBufId();
      if (id < machine::kMutexIds)
        return WalkResult::advance();
      op->emitOpError() << "uses buffer id " << id
                        << ", past the Mutex ids a kernel picks (0 to "
                        << machine::kMutexIds - 1 << ")";
      return WalkResult::interrupt();
    } else if (isa<ascendc::CrossCoreSetFlagOp, ascendc::CrossCoreWaitFlagOp>(
                   op)) {
      auto set = dyn_cast<ascendc::CrossCoreSetFlagOp>(op);
      int64_t flag = set ? set.getFlag()
                         : cast<ascendc::CrossCoreWaitFlagOp>(op).getFlag();
      ascendc::Pipe on = set ? set.getPipe()
                             : cast<ascendc::CrossCoreWaitFlagOp>(op).getPipe();
      if (on == ascendc::Pipe::S || on == ascendc::Pipe::All) {
        op->emitOpError() << (set ? "sets" : "waits for") << " cross-core flag "
                          << flag << " on PIPE_"
                          << (on == ascendc::Pipe::S ? "S" : "ALL")
                          << ", which Ascend C's cross-core flags do not take";
        return WalkResult::interrupt();
      }
      if (flag < machine::kCrossCoreFlags)
        return WalkResult::advance();
      op->emitOpError() << (set ? "sets" : "waits for") << " cross-core flag "
                        << flag << "; Ascend C's ids are 0 to "
                        << machine::kCrossCoreFlags - 1;
      return WalkResult::interrupt();
    } else {
      return WalkResult::advance();
    }
    if (!machine::hasHardEvent(pipe(*src), pipe(*dst))) {
      op->emitOpError() << "orders " << ascendc::stringifyPipe(*src)
                        << " before " << ascendc::stringifyPipe(*dst)
                        << ", a pair of pipes no Ascend C HardEvent names";
      return WalkResult::interrupt();
    }
    if (event >= machine::kFirstReservedEventId) {
      op->emitOpError() << "uses event id " << event
                        << ", which static tensor programming leaves to the "
                           "framework (ids 0 to "
                        << machine::kFirstReservedEventId - 1 << ")";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

/// Puts `// kernel.mlir:LINE` before each run of Ascend C calls that come
/// from one line of the kernel (after the lowering, the PTO op they
/// implement), so that a reader of the C++ finds its source. Runs on the
/// EmitC module: an instruction is a call of the API that returns nothing.
static void commentSourceLines(ModuleOp module) {
  module.walk([](Block *block) {
    std::optional<std::pair<StringRef, unsigned>> last;
    for (Operation &op : *block) {
      auto call = dyn_cast<emitc::CallOpaqueOp>(op);
      auto loc = op.getLoc()->findInstanceOf<FileLineColLoc>();
      if (!call || call.getNumResults() || !loc ||
          !call.getCallee().starts_with("AscendC::") ||
          call.getCallee().starts_with("AscendC::cpu::"))
        continue;
      std::pair<StringRef, unsigned> line = {
          llvm::sys::path::filename(loc.getFilename().getValue()),
          loc.getLine()};
      if (last == line)
        continue;
      last = line;
      OpBuilder builder(&op);
      emitc::VerbatimOp::create(
          builder, op.getLoc(),
          ("// " + line.first + ":" + Twine(line.second)).str());
    }
  });
}

static bool isIdentifierChar(char c) { return llvm::isAlnum(c) || c == '_'; }

/// The markers `markNames` leaves for `applyNames`.
static constexpr llvm::StringLiteral kMarkerPrefix = "//@tilekit-";
static constexpr llvm::StringLiteral kNameMarker = "//@tilekit-name ";
static constexpr llvm::StringLiteral kArgsMarker = "//@tilekit-args ";
static constexpr llvm::StringLiteral kLoopMarker = "//@tilekit-loop ";
static constexpr llvm::StringLiteral kValueMarker = "//@tilekit-value ";

/// The source name a location carries (KernelFile::nameLocations), if any.
static std::optional<StringRef> getSourceName(Location loc) {
  if (auto name = loc->findInstanceOf<NameLoc>())
    return name.getName().getValue();
  return std::nullopt;
}

/// MLIR's C++ emitter names every variable `v<N>`. Where the kernel named
/// the value, a marker before the op (or, for a function's arguments, at
/// the top of its body) tells `applyNames` which name it had: only before
/// ops the emitter prints as a declaration of their result.
static void markNames(ModuleOp module) {
  module.walk([](Operation *op) {
    OpBuilder builder(op);
    if (auto func = dyn_cast<FunctionOpInterface>(op)) {
      if (func.isExternal())
        return;
      std::string names;
      bool any = false;
      for (BlockArgument arg : func.getArguments()) {
        std::optional<StringRef> name = getSourceName(arg.getLoc());
        names += (arg.getArgNumber() ? "," : "") + name.value_or("").str();
        any |= name.has_value();
      }
      if (!any)
        return;
      builder.setInsertionPointToStart(&func.getFunctionBody().front());
      emitc::VerbatimOp::create(builder, op->getLoc(),
                                (kArgsMarker + names).str());
      return;
    }
    // The values that stand for a kernel's own: its tiles (local tensors),
    // the GlobalTensor objects of its arguments and its loops' counters;
    // not the helpers a lowering makes with the same location (shape
    // arrays, counts, windows into GM).
    std::optional<StringRef> name;
    if (isa<emitc::CallOpaqueOp, emitc::VariableOp>(op) &&
        op->getNumResults() == 1) {
      Type type = op->getResult(0).getType();
      if (auto lvalue = dyn_cast<emitc::LValueType>(type))
        type = lvalue.getValueType();
      auto opaque = dyn_cast<emitc::OpaqueType>(type);
      StringRef spelled = opaque ? opaque.getValue() : "";
      if (spelled.starts_with("AscendC::LocalTensor<") ||
          (isa<emitc::VariableOp>(op) &&
           spelled.starts_with("AscendC::GlobalTensor<")))
        name = getSourceName(op->getLoc());
    }
    if (name)
      emitc::VerbatimOp::create(builder, op->getLoc(),
                                (kNameMarker + *name).str());
  });
}

/// The counter of a loop the kernel named (`%i`): marked before the
/// lowering to EmitC, which gives the new loop's counter the loop's own
/// location. The marker precedes the loop's carried variables, if any.
static void markLoopNames(ModuleOp module) {
  module.walk([](scf::ForOp loop) {
    if (std::optional<StringRef> name =
            getSourceName(loop.getInductionVar().getLoc())) {
      OpBuilder builder(loop);
      emitc::VerbatimOp::create(builder, loop.getLoc(),
                                (kLoopMarker + *name).str());
    }
  });
}

/// A scalar the kernel named: a marker after its op prints the C++ name of
/// what the lowering made of it (`//@tilekit-value row v13`).
static void markValueNames(ModuleOp module) {
  module.walk([](Operation *op) {
    auto name = op->getAttrOfType<StringAttr>(kValueNameAttr);
    if (!name || op->getNumResults() != 1)
      return;
    OpBuilder builder(op->getContext());
    builder.setInsertionPointAfter(op);
    emitc::VerbatimOp::create(builder, op->getLoc(),
                              (kValueMarker + name.getValue() + " {}").str(),
                              op->getResults());
  });
}

/// Drops the value markers of values nothing else uses (which the C++
/// would declare for the marker alone: an unused variable); whether it
/// dropped any.
static bool dropLoneValueMarkers(ModuleOp module) {
  SmallVector<Operation *> lone;
  module.walk([&](emitc::VerbatimOp marker) {
    if (marker.getValue().starts_with(kValueMarker) &&
        llvm::all_of(marker.getFmtArgs(),
                     [](Value value) { return value.hasOneUse(); }))
      lone.push_back(marker);
  });
  for (Operation *marker : lone)
    marker->erase();
  return !lone.empty();
}

/// Whether `name` is a C++ keyword (or `main`), which no identifier of
/// the emitted file may be.
static bool isCppKeyword(StringRef name) {
  static const llvm::StringSet<> keywords = {
      "alignas",   "alignof",  "and",      "asm",      "auto",      "bool",
      "break",     "case",     "catch",    "char",     "class",     "const",
      "constexpr", "continue", "decltype", "default",  "delete",    "do",
      "double",    "else",     "enum",     "explicit", "export",    "extern",
      "false",     "float",    "for",      "friend",   "goto",      "if",
      "inline",    "int",      "long",     "mutable",  "namespace", "new",
      "noexcept",  "not",      "nullptr",  "operator", "or",        "private",
      "protected", "public",   "register", "return",   "short",     "signed",
      "sizeof",    "static",   "struct",   "switch",   "template",  "this",
      "throw",     "true",     "try",      "typedef",  "typename",  "union",
      "unsigned",  "using",    "virtual",  "void",     "volatile",  "while",
      "xor",       "main"};
  return keywords.contains(name);
}

std::string emit::cppFunctionName(func::FuncOp func) {
  if (!isCppKeyword(func.getName()))
    return func.getName().str();
  std::string name = func.getName().str() + "_";
  while (SymbolTable::lookupSymbolIn(func->getParentOp(), name))
    name += "_";
  return name;
}

/// A C++ identifier for a source name: other characters become `_`, and
/// a name that is a keyword, looks like the emitter's own `v<N>`, or is
/// taken (`taken`: every identifier of the function, and the names given)
/// gets a suffix.
static std::string pickName(StringRef source, llvm::StringSet<> &taken) {
  std::string name;
  for (char c : source)
    name += llvm::isAlnum(c) || c == '_' ? c : '_';
  if (name.empty() || llvm::isDigit(name[0]))
    name = "_" + name;
  // Leading underscores with a capital, and double ones, are reserved.
  if (StringRef(name).starts_with("__") ||
      (name[0] == '_' && name.size() > 1 && llvm::isUpper(name[1])))
    name = "x" + name;
  StringRef ref(name);
  if (isCppKeyword(name) || (ref.consume_front("v") && !ref.empty() &&
                             llvm::all_of(ref, llvm::isDigit)))
    name += "_";
  std::string unique = name;
  for (unsigned n = 1; taken.contains(unique); ++n)
    unique = name + "_" + std::to_string(n);
  taken.insert(unique);
  return unique;
}

/// Renames the `v<N>` variables that `markNames` marked, function by
/// function, and drops the markers.
static std::string applyNames(StringRef cpp) {
  // Only `tilekit compile --emit=cpp` has source names to give.
  if (!cpp.contains(kMarkerPrefix))
    return cpp.str();
  SmallVector<StringRef> lines;
  cpp.split(lines, '\n');
  std::string out;
  // The identifiers of a text, in order.
  auto identifiers = [&](StringRef text) {
    SmallVector<StringRef> found;
    for (size_t i = 0; i < text.size();) {
      if (!isIdentifierChar(text[i]) || (i && isIdentifierChar(text[i - 1]))) {
        ++i;
        continue;
      }
      size_t end = i;
      while (end < text.size() && isIdentifierChar(text[end]))
        ++end;
      if (!llvm::isDigit(text[i]))
        found.push_back(text.slice(i, end));
      i = end;
    }
    return found;
  };
  auto isEmitterName = [](StringRef token) {
    return token.consume_front("v") && !token.empty() &&
           llvm::all_of(token, llvm::isDigit);
  };
  // One function at a time: from its signature to its closing brace.
  SmallVector<std::string> body;
  SmallVector<std::pair<std::string, std::string>> wanted;
  std::optional<std::string> pending, pendingLoop;
  auto flush = [&] {
    llvm::StringSet<> taken;
    for (const std::string &line : body)
      for (StringRef token : identifiers(line))
        if (!isEmitterName(token))
          taken.insert(token);
    llvm::StringMap<std::string> rename;
    for (auto &[from, to] : wanted)
      if (!rename.count(from))
        rename[from] = pickName(to, taken);
    for (const std::string &line : body) {
      StringRef rest(line);
      size_t last = 0;
      std::string renamed;
      for (StringRef token : identifiers(line)) {
        auto it = rename.find(token);
        if (it == rename.end())
          continue;
        size_t at = token.data() - rest.data();
        renamed += rest.slice(last, at).str() + it->second;
        last = at + token.size();
      }
      out += renamed + rest.drop_front(last).str() + "\n";
    }
    body.clear();
    wanted.clear();
    pending.reset();
    pendingLoop.reset();
  };
  for (StringRef line : lines) {
    StringRef trimmed = line.ltrim();
    if (trimmed.consume_front(kNameMarker)) {
      pending = trimmed.str();
      continue;
    }
    if (trimmed.consume_front(kLoopMarker)) {
      pendingLoop = trimmed.str();
      continue;
    }
    // `for (T <counter> = ...`: the counter is the name before " = ".
    if (pendingLoop && trimmed.starts_with("for (")) {
      StringRef header = trimmed.split(" = ").first;
      StringRef counter = header.substr(header.find_last_of(' ') + 1);
      wanted.push_back({counter.str(), *pendingLoop});
      pendingLoop.reset();
    }
    if (trimmed.consume_front(kValueMarker)) {
      auto [name, spelled] = trimmed.rsplit(' ');
      if (isEmitterName(spelled))
        wanted.push_back({spelled.str(), name.str()});
      continue;
    }
    if (trimmed.consume_front(kArgsMarker)) {
      // The signature is the last line before the body that opens it.
      SmallVector<StringRef> names;
      trimmed.split(names, ',');
      SmallVector<StringRef> params;
      for (auto it = body.rbegin(); it != body.rend(); ++it)
        if (StringRef(*it).ends_with("{")) {
          for (StringRef token : identifiers(*it))
            if (isEmitterName(token))
              params.push_back(token);
          break;
        }
      for (auto [param, name] : llvm::zip(params, names))
        if (!name.empty())
          wanted.push_back({param.str(), name.str()});
      continue;
    }
    if (pending) {
      for (StringRef token : identifiers(line))
        if (isEmitterName(token)) {
          wanted.push_back({token.str(), *pending});
          break;
        }
      pending.reset();
    }
    body.push_back(line.str());
    if (line == "}")
      flush();
  }
  flush();
  // split() gave one line past the last newline.
  if (!out.empty() && !cpp.ends_with("\n"))
    out.pop_back();
  return out;
}

/// Ascend C's names for the 16-bit float types where MLIR's C++ emitter
/// writes clang's (`_Float16`, `__bf16`): a kernel's f16 argument is a
/// `half` on the device. The emitter prints them only as type names.
static std::string spellHalfTypes(StringRef cpp) {
  std::string out;
  out.reserve(cpp.size());
  for (size_t i = 0; i < cpp.size();) {
    bool boundary = i == 0 || !isIdentifierChar(cpp[i - 1]);
    auto replace = [&](StringRef from, StringRef to) {
      if (!boundary || !cpp.substr(i).starts_with(from) ||
          (i + from.size() < cpp.size() &&
           isIdentifierChar(cpp[i + from.size()])))
        return false;
      out += to;
      i += from.size();
      return true;
    };
    if (replace("_Float16", "half") || replace("__bf16", "bfloat16_t"))
      continue;
    out += cpp[i++];
  }
  return out;
}

LogicalResult tilekit::translateAscendCToCpp(ModuleOp module, raw_ostream &os,
                                             bool withOrigins) {
  // C++ has no statements at file scope.
  for (Operation &op : module.getBody()->getOperations())
    if (!isa<func::FuncOp>(op))
      return op.emitOpError()
             << "is at module scope, which the emitted C++ cannot hold (only "
                "functions go to file scope): move it into a function";
  if (failed(checkFlagContract(module)))
    return failure();
  OwningOpRef<ModuleOp> copy(cast<ModuleOp>(module->clone()));
  // Host functions (the orchestration that launches the kernels) are the
  // caller's to run: the C++ holds the kernels.
  for (auto func : llvm::make_early_inc_range(copy->getOps<func::FuncOp>()))
    if (func->hasAttr(ascendc::AscendCDialect::kHostAttrName) ||
        func.isExternal())
      func.erase();
  // Queries and arithmetic whose results nothing uses (a get_block_idx
  // that fed a removed printf) would be unused variables, which -Wall
  // -Werror rejects.
  for (bool erased = true; erased;) {
    SmallVector<Operation *> dead;
    copy->walk([&](Operation *op) {
      if (op->getNumResults() && isOpTriviallyDead(op))
        dead.push_back(op);
    });
    for (Operation *op : dead)
      op->erase();
    erased = !dead.empty();
  }
  if (withOrigins)
    markOrigins(*copy);
  markLoopNames(*copy);
  markValueNames(*copy);
  PassManager pm(module.getContext());
  pm.addPass(createConvertAscendCToEmitCPass());
  pm.addPass(createCSEPass());
  if (failed(pm.run(*copy)))
    return failure();
  // Until what is left is used: a value only a dead op used is lone once
  // the op is gone.
  do
    removeUnusedEmitCValues(*copy);
  while (dropLoneValueMarkers(*copy));
  spellInt64Min(*copy);
  spellHalfConstants(*copy);
  commentSourceLines(*copy);
  markNames(*copy);
  OpBuilder builder(copy->getBodyRegion());
  builder.setInsertionPointToStart(copy->getBody());
  emitc::IncludeOp::create(builder, copy->getLoc(), "kernel_operator.h",
                           /*is_standard_include=*/false);
  // On the CPU the kernels share the C library's name space (a kernel
  // named `select` or `abs` would clash with its extern "C" functions):
  // there each kernel's symbol gets a prefix. The glue that follows the
  // source (the entry points, the host code) names the kernels as the
  // source did, through a macro after it: before it, a macro would also
  // rename the API's fields (a kernel `k` and MmadParams::k).
  std::string renames;
  if (withOrigins) {
    llvm::StringMap<std::string> prefixed;
    for (auto func :
         llvm::make_early_inc_range(copy->getOps<emitc::FuncOp>())) {
      std::string name = func.getName().str(), to = "tilekit_cpu_" + name;
      if (failed(SymbolTable::replaceAllSymbolUses(
              func, StringAttr::get(module.getContext(), to),
              copy->getOperation())))
        return func.emitError() << "cannot rename the kernel for the CPU";
      SymbolTable::setSymbolName(func, to);
      renames += "#define " + name + " " + to + "\n";
      prefixed[name] = to;
    }
    // A launch kernel calls the kernels it launches by name (call_opaque).
    copy->walk([&](emitc::CallOpaqueOp call) {
      if (auto it = prefixed.find(call.getCallee()); it != prefixed.end())
        call.setCallee(it->second);
    });
  }
  std::string text;
  llvm::raw_string_ostream cpp(text);
  if (failed(emitc::translateToCpp(*copy, cpp)))
    return failure();
  os << applyNames(spellHalfTypes(text)) << renames;
  return success();
}

bool tilekit::hasCppForm(OperationName name) {
  MLIRContext *context = name.getContext();
  AscendCToEmitCTypes types;
  RewritePatternSet patterns(context);
  populateTensorPatterns(types, patterns);
  populateComputePatterns(types, patterns);
  populateControlPatterns(types, patterns);
  return llvm::any_of(
      patterns.getNativePatterns(),
      [&](const std::unique_ptr<RewritePattern> &pattern) {
        if (std::optional<OperationName> root = pattern->getRootKind())
          return *root == name;
        if (std::optional<TypeID> interface = pattern->getRootInterfaceID())
          return name.hasInterface(*interface);
        if (std::optional<TypeID> trait = pattern->getRootTraitID())
          return name.hasTrait(*trait);
        return false;
      });
}
