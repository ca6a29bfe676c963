//===- ProducerEmission.h - What compiled trace producers are made of -*- C++
//-*-===//
//
// Shared by the PTO and the AscendC producers (PTOToTraceProducer.cpp,
// AscendCToTraceProducer.cpp): the generated file's tables (names,
// locations, prototype records), the calls an op becomes, and the entry
// points' parameter conversions. Internal to the conversion library.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_LIB_CONVERSION_PRODUCEREMISSION_H
#define TILEKIT_LIB_CONVERSION_PRODUCEREMISSION_H

#include "tilekit/Conversion/AscendCToEmitC.h"
#include "tilekit/Dialect/PTO/IR/PTOOps.h"
#include "tilekit/Interp/ElementKind.h"
#include "tilekit/Interp/Values.h"
#include "tilekit/Trace/Trace.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/EmitC/IR/EmitC.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/Cpp/CppEmitter.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace tilekit::producer {

using llvm::raw_ostream;
using mlir::Attribute;
using mlir::cast;
using mlir::dyn_cast;
using mlir::FileLineColLoc;
using mlir::IndexType;
using mlir::IntegerType;
using mlir::isa;
namespace emitc = mlir::emitc;
using llvm::ArrayRef;
using llvm::SmallVector;
using llvm::StringRef;
using llvm::Twine;
using mlir::ConversionPatternRewriter;
using mlir::Location;
using mlir::MLIRContext;
using mlir::Operation;
using mlir::Type;
using mlir::TypeRange;
using mlir::Value;
using mlir::ValueRange;
using pto::TileType;
using trace::Record;

inline constexpr llvm::StringLiteral kNs = "tilekit_producer::";

/// What the generated file holds besides its functions: the names and
/// locations records refer to, the prototype records, the vector ops'
/// operand descriptions and the buffer slots of tile values.
struct ProducerTables {
  std::vector<std::string> names;
  llvm::StringMap<unsigned> nameIndex;
  std::vector<std::tuple<std::string, unsigned, unsigned>> locations{
      {"", 0, 0}};
  std::vector<std::string> locationOps{""}; // the op at each, for faults
  std::map<std::tuple<std::string, unsigned, unsigned>, unsigned> locationIndex;
  std::vector<Record> protos;
  std::vector<std::string> operandTables;
  std::vector<std::string> groups; // GroupSpec initializers
  /// Tile values by their defining op and result number; addressed tiles
  /// by (space, address): tiles at one address are one buffer.
  llvm::DenseMap<Value, unsigned> slots;
  std::map<std::pair<unsigned, int64_t>, unsigned> addressSlots;
  unsigned numSlots = 0;

  unsigned name(StringRef text) {
    auto [it, inserted] = nameIndex.try_emplace(text, names.size());
    if (inserted)
      names.push_back(text.str());
    return it->second;
  }
  unsigned location(Operation *op) {
    auto position = op->getLoc()->findInstanceOf<FileLineColLoc>();
    if (!position)
      return 0;
    std::tuple<std::string, unsigned, unsigned> key{
        position.getFilename().str(), position.getLine(), position.getColumn()};
    auto [it, inserted] = locationIndex.try_emplace(key, locations.size());
    if (inserted) {
      locations.push_back(key);
      locationOps.push_back(op->getName().getStringRef().str());
    }
    return it->second;
  }
  /// The slot of the tile `value` defines.
  unsigned slot(Value value) {
    auto type = cast<TileType>(value.getType());
    if (std::optional<int64_t> addr = type.getAddr()) {
      auto [it, inserted] = addressSlots.try_emplace(
          {static_cast<unsigned>(type.getMemorySpace()), *addr}, numSlots);
      numSlots += inserted;
      return it->second;
    }
    auto [it, inserted] = slots.try_emplace(value, numSlots);
    numSlots += inserted;
    return it->second;
  }
  /// `kOperandsN` describing tile operands of `types` (rank, element size,
  /// type name), or `nullptr` for none.
  std::string operandTable(ArrayRef<TileType> types) {
    if (types.empty())
      return "nullptr";
    std::string symbol = "kOperands" + std::to_string(operandTables.size());
    std::string table =
        "static const " + kNs.str() + "OperandInfo " + symbol + "[] = {";
    for (TileType type : types)
      table += "{" + std::to_string(type.getRank()) + ", " +
               std::to_string(
                   interp::getByteSize(interp::kindOf(type.getElementType()))) +
               ", " +
               std::to_string(name(interp::getKindName(
                   interp::kindOf(type.getElementType())))) +
               "}, ";
    operandTables.push_back(table + "};\n");
    return symbol;
  }
  /// `kProtos[i]` for a new prototype record.
  std::string proto(const Record &record) {
    protos.push_back(record);
    return "kProtos[" + std::to_string(protos.size() - 1) + "]";
  }
  /// The C++ of the tables.
  void print(raw_ostream &os) const;
};

inline void ProducerTables::print(llvm::raw_ostream &os) const {
  os << "static const char *const kNames[] = {";
  for (const std::string &text : names)
    os << cppStringLiteral(text) << ", ";
  os << "nullptr};\n";
  os << "static const char *const kLocationFiles[] = {";
  for (const auto &[file, line, column] : locations)
    os << cppStringLiteral(file) << ", ";
  os << "};\n";
  os << "static const char *const kLocationOps[] = {";
  for (const std::string &name : locationOps)
    os << cppStringLiteral(name) << ", ";
  os << "};\n";
  os << "static const uint32_t kLocationLines[] = {";
  for (const auto &[file, line, column] : locations)
    os << line << ", " << column << ", ";
  os << "};\n";
  os << "static const tilekit_trace_record kProtos[] = {\n";
  for (const Record &r : protos)
    os << "    {.kind = " << unsigned(r.kind)
       << ", .core = " << unsigned(r.core) << ", .lane = " << unsigned(r.lane)
       << ", .sub = " << unsigned(r.sub)
       << ", .elem_size = " << unsigned(r.elem_size)
       << ", .flags = " << unsigned(r.flags)
       << ", .set_pipe = " << unsigned(r.set_pipe)
       << ", .wait_pipe = " << unsigned(r.wait_pipe)
       << ", .space = " << unsigned(r.space) << ", .dtype = " << r.dtype
       << ", .op = " << r.op << ", .loc = " << r.loc << ", .shape = {"
       << r.shape[0] << ", " << r.shape[1] << ", " << r.shape[2]
       << "}, .amount = " << r.amount << "u, .write_bytes = " << r.write_bytes
       << "u},\n";
  os << "    {}};\n";
  for (const std::string &table : operandTables)
    os << table;
  if (!groups.empty()) {
    os << "static const " << kNs << "GroupSpec kGroups[] = {";
    llvm::interleaveComma(groups, os);
    os << "};\n";
  }
  os << "static constexpr uint32_t kSlots = " << numSlots << ";\n";
}

/// index and the C++ types it becomes (casts between them keep the value).
inline bool isIndexLike(Type type) {
  return isa<IndexType, emitc::PtrDiffTType, emitc::SizeTType>(type);
}

/// Builds the calls of one op.
struct CallBuilder {
  ConversionPatternRewriter &rewriter;
  Location loc;
  SmallVector<Value> operands;
  SmallVector<Attribute> args;

  MLIRContext *context() { return rewriter.getContext(); }
  CallBuilder &literal(const Twine &text) {
    args.push_back(emitc::OpaqueAttr::get(context(), text.str()));
    return *this;
  }
  CallBuilder &value(Value operand) {
    args.push_back(rewriter.getIndexAttr(operands.size()));
    operands.push_back(operand);
    return *this;
  }
  /// `tilekit_producer::ints(values...)`.
  CallBuilder &ints(ValueRange values) {
    Type type = emitc::OpaqueType::get(
        context(), (kNs + "Ints<" + Twine(values.size()) + ">").str());
    return value(emitc::CallOpaqueOp::create(rewriter, loc, type,
                                             (kNs + "ints").str(), values)
                     .getResult(0));
  }
  CallBuilder &ints(ArrayRef<int64_t> values) {
    std::string text = (kNs + "ints(").str();
    llvm::raw_string_ostream os(text);
    llvm::interleaveComma(values, os, [&](int64_t v) { os << v << "LL"; });
    os << ")";
    return literal(text);
  }
  Value call(StringRef callee, Type result) {
    auto op = emitc::CallOpaqueOp::create(
        rewriter, loc, result ? TypeRange(result) : TypeRange(),
        (kNs + callee).str(), operands, rewriter.getArrayAttr(args));
    return result ? op.getResult(0) : Value();
  }
};

/// The C++ type of a scalar parameter, and how its int64 argument becomes
/// it.
inline std::string scalarParameter(Type type, const std::string &arg,
                                   std::string &kind) {
  if (type.isIndex()) {
    kind = "index";
    return "static_cast<ptrdiff_t>(" + arg + ")";
  }
  if (type.isInteger(1)) {
    kind = "int";
    return arg + " != 0";
  }
  if (auto integer = dyn_cast<IntegerType>(type)) {
    kind = "int";
    return "static_cast<" + std::string(integer.isUnsigned() ? "uint" : "int") +
           std::to_string(integer.getWidth()) + "_t>(" + arg + ")";
  }
  kind = "float";
  std::string cType = type.isF64()   ? "double"
                      : type.isF32() ? "float"
                      : type.isF16() ? "_Float16"
                                     : "__bf16";
  return "static_cast<" + cType + ">(" + kNs.str() + "asDouble(" + arg + "))";
}

/// A type converter whose index becomes ptrdiff_t once asked (after
/// MLIR's populate functions): the kernels' index arithmetic may go below
/// zero before it is clamped; an index the first stage's calls took is a C
/// cast of it.
class SignedIndexTypes : public mlir::TypeConverter {
public:
  void useSignedIndex() {
    addConversion([](IndexType type) -> Type {
      return emitc::PtrDiffTType::get(type.getContext());
    });
    auto cast = [](mlir::OpBuilder &builder, Type type, ValueRange inputs,
                   Location loc) -> Value {
      if (inputs.size() != 1 || !isIndexLike(type) ||
          !isIndexLike(inputs[0].getType()))
        return Value();
      return emitc::CastOp::create(builder, loc, type, inputs[0]);
    };
    addSourceMaterialization(cast);
    addTargetMaterialization(cast);
  }
};

/// index -> ptrdiff_t -> index pairs the two stages leave.
inline void foldIndexCasts(mlir::ModuleOp module) {
  module.walk([](emitc::CastOp outer) {
    auto inner = outer.getSource().getDefiningOp<emitc::CastOp>();
    if (inner && inner.getSource().getType() == outer.getType() &&
        isIndexLike(outer.getType()) && isIndexLike(inner.getType()))
      outer.replaceAllUsesWith(inner.getSource());
  });
}

/// The exported entry points of a producer: the ABI version, the
/// parameters (`params`, a line each), and `tilekit_trace_produce`, which
/// binds the arguments (`binds`) and runs `run`.
inline void printEntryPoints(raw_ostream &os, StringRef params, StringRef binds,
                             StringRef run) {
  os << "extern \"C\" uint32_t tilekit_trace_producer_abi(void) {\n"
     << "  return TILEKIT_TRACE_ABI_VERSION;\n}\n\n"
     << "extern \"C\" const char *tilekit_trace_producer_params(void) {\n"
     << "  return \"" << params << "\";\n}\n\n"
     << "extern \"C\" int tilekit_trace_produce(const tilekit_trace_sink "
        "*sink, const int64_t *args, size_t num_args, int64_t blocks, "
        "uint32_t flags, const tilekit_trace_limits *limits, char *error, "
        "size_t error_size) {\n"
     << "  static const " << kNs
     << "Tables tables = {kNames, sizeof(kNames) / sizeof(kNames[0]), "
        "kLocationFiles, kLocationLines, kLocationOps, "
        "sizeof(kLocationOps) / sizeof(kLocationOps[0]), kSlots};\n"
     << "  return " << kNs
     << "produce(sink, tables, blocks, flags, limits, error, error_size, "
        "[&]("
     << kNs << "Context &ctx) {\n"
     << "    size_t at = 0;\n"
     << binds << "    " << kNs << "checkArgumentCount(num_args, at);\n"
     << run << "  });\n}\n";
}

/// Stage one of a producer: `patterns` turn the ops of `Dialect` into
/// calls, while functions, calls, returns and `scf` ops take the types
/// `types` gives what they carry.
template <typename Dialect>
mlir::LogicalResult lowerOpsToCalls(mlir::ModuleOp module,
                                    mlir::TypeConverter &types,
                                    mlir::RewritePatternSet &&patterns) {
  mlir::MLIRContext *context = module.getContext();
  mlir::ConversionTarget target(*context);
  mlir::populateFunctionOpInterfaceTypeConversionPattern<mlir::func::FuncOp>(
      patterns, types);
  mlir::populateCallOpTypeConversionPattern(patterns, types);
  mlir::populateReturnOpTypeConversionPattern(patterns, types);
  mlir::scf::populateSCFStructuralTypeConversionsAndLegality(types, patterns,
                                                             target);
  target.addLegalDialect<emitc::EmitCDialect, mlir::arith::ArithDialect>();
  target.addIllegalDialect<Dialect>();
  target.addDynamicallyLegalOp<mlir::func::FuncOp>(
      [&](mlir::func::FuncOp func) {
        return types.isSignatureLegal(func.getFunctionType());
      });
  target.addDynamicallyLegalOp<mlir::func::CallOp, mlir::func::ReturnOp>(
      [&](Operation *op) { return types.isLegal(op); });
  return mlir::applyPartialConversion(module, target, std::move(patterns));
}

/// The C++ of the lowered module's functions, tidied: common values
/// shared, cast pairs and unused values gone.
inline mlir::LogicalResult printFunctions(mlir::ModuleOp module,
                                          std::string &text) {
  mlir::PassManager pm(module.getContext());
  pm.addPass(mlir::createCSEPass());
  if (mlir::failed(pm.run(module)))
    return mlir::failure();
  foldIndexCasts(module);
  removeUnusedEmitCValues(module);
  llvm::raw_string_ostream os(text);
  return emitc::translateToCpp(module, os);
}

} // namespace tilekit::producer

#endif // TILEKIT_LIB_CONVERSION_PRODUCEREMISSION_H
