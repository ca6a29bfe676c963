//===- Emit.h - Shared pieces of the AscendC to EmitC conversion -*- C++
//-*-===//
//
// Internal to convert-ascendc-to-emitc: the type converter, the C++ names
// of element types, pipes and positions, and the builders the patterns
// share (an opaque call, an object whose fields are set one by one).
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_LIB_CONVERSION_ASCENDCTOEMITC_EMIT_H
#define TILEKIT_LIB_CONVERSION_ASCENDCTOEMITC_EMIT_H

#include "tilekit/Dialect/AscendC/IR/AscendCDialect.h"

#include "mlir/Dialect/EmitC/IR/EmitC.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Transforms/DialectConversion.h"

#include <string>

namespace tilekit::emit {

/// The C++ type of an element type (`float`, `half`, `int32_t`, ...), or
/// an empty string when it has none here.
std::string elementName(mlir::Type type);

/// The GM regions of `kernel`'s arguments for the CPU runtime's reports,
/// as C++ initializers over `void **args` in the kernel ABI (and `blocks`,
/// which sizes the workspace): `{args[0], "x", 0}, ...`.
std::string gmNames(mlir::func::FuncOp kernel);

/// The name `func` has in the emitted C++: its own, or with `_` appended
/// (until no other function of its module has it) when it is a C++ keyword
/// or `main`.
std::string cppFunctionName(mlir::func::FuncOp func);

/// Global tensors become `AscendC::GlobalTensor<T>`, local tensors
/// `AscendC::LocalTensor<T>`, index `ptrdiff_t` (signed, as the kernels'
/// index arithmetic clamps differences at zero); scalars stay.
class AscendCToEmitCTypes : public mlir::TypeConverter {
public:
  AscendCToEmitCTypes();
  /// Index as ptrdiff_t again, after MLIR's populate functions made it
  /// size_t.
  void useSignedIndex();
};

/// An opaque C++ type or value.
mlir::emitc::OpaqueType opaqueType(mlir::MLIRContext *context,
                                   llvm::StringRef text);
mlir::emitc::OpaqueAttr opaque(mlir::MLIRContext *context,
                               llvm::StringRef text);

/// `AscendC::PIPE_V` style names of a pipe; `MTE2_V` style hard events.
std::string pipeName(tilekit::ascendc::Pipe pipe);
std::string hardEventName(tilekit::ascendc::Pipe src,
                          tilekit::ascendc::Pipe dst);
/// `AscendC::TPosition::VECIN` style names of a position.
std::string positionName(tilekit::ascendc::Position position);

/// `callee<templateArgs>(args...)`: `args` holds operand indices (as index
/// attributes) and literals, as emitc.call_opaque's `args` does; none
/// passes the operands in order.
mlir::Value call(mlir::OpBuilder &builder, mlir::Location loc,
                 llvm::StringRef callee, mlir::TypeRange results,
                 mlir::ValueRange operands,
                 llvm::ArrayRef<mlir::Attribute> args = {},
                 llvm::ArrayRef<mlir::Attribute> templateArgs = {});

/// An index attribute naming operand `index` of a call.
mlir::Attribute operandRef(mlir::MLIRContext *context, unsigned index);
/// An integer literal of a call.
mlir::Attribute literal(mlir::MLIRContext *context, int64_t value);

/// `Type name; name.field = value; ...`: a parameter struct of the Ascend C
/// API built field by field (so the emitted code names each field); the
/// value to pass.
mlir::Value
paramStruct(mlir::OpBuilder &builder, mlir::Location loc, llvm::StringRef type,
            llvm::ArrayRef<std::pair<llvm::StringRef, mlir::Value>> fields);

/// An index (`ptrdiff_t`) constant.
mlir::Value indexConstant(mlir::OpBuilder &builder, mlir::Location loc,
                          int64_t value);
/// `lhs <op> rhs` over index values (op: + - * /).
mlir::Value indexArith(mlir::OpBuilder &builder, mlir::Location loc, char op,
                       mlir::Value lhs, mlir::Value rhs);

/// The patterns of each op family.
void populateTensorPatterns(AscendCToEmitCTypes &types,
                            mlir::RewritePatternSet &patterns);
void populateComputePatterns(AscendCToEmitCTypes &types,
                             mlir::RewritePatternSet &patterns);
void populateControlPatterns(AscendCToEmitCTypes &types,
                             mlir::RewritePatternSet &patterns);

} // namespace tilekit::emit

#endif // TILEKIT_LIB_CONVERSION_ASCENDCTOEMITC_EMIT_H
