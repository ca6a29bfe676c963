//===- LocatedConversion.h - Dialect conversions that say why ---*- C++ -*-===//
//
// A DialectConversion that fails reports MLIR's bare "failed to legalize
// operation ... that was explicitly marked illegal", after whatever the
// refusing pattern said. tilekit's conversions run through
// `convertSayingWhy`: a pattern's own error stands alone, and where no
// pattern said anything the op is named with the conversion's sentence.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_CONVERSION_LOCATEDCONVERSION_H
#define TILEKIT_CONVERSION_LOCATEDCONVERSION_H

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>
#include <string>

namespace tilekit {

/// Runs `apply` (a dialect conversion of `root`). On failure, MLIR's
/// "failed to legalize" is dropped when an error was already reported;
/// otherwise the op it names gets "'NAME' op " followed by `unlowered`.
inline mlir::LogicalResult
convertSayingWhy(mlir::Operation *root, llvm::StringRef unlowered,
                 llvm::function_ref<mlir::LogicalResult()> apply) {
  bool reported = false;
  std::optional<mlir::Location> declinedAt;
  std::string declined;
  mlir::LogicalResult converted = mlir::success();
  {
    mlir::ScopedDiagnosticHandler handler(
        root->getContext(), [&](mlir::Diagnostic &diag) {
          if (diag.getSeverity() != mlir::DiagnosticSeverity::Error)
            return mlir::failure();
          std::string message = diag.str();
          llvm::StringRef text = message;
          if (!text.consume_front("failed to legalize operation '")) {
            reported = true;
            return mlir::failure(); // shown as it is
          }
          if (!declinedAt) {
            declinedAt = diag.getLocation();
            declined = text.take_until([](char c) { return c == '\''; }).str();
          }
          return mlir::success();
        });
    converted = apply();
  }
  if (mlir::succeeded(converted) || reported)
    return converted;
  mlir::InFlightDiagnostic error =
      declinedAt ? mlir::emitError(*declinedAt) : root->emitError();
  error << "'" << declined << "' op " << unlowered;
  return mlir::failure();
}

} // namespace tilekit

#endif // TILEKIT_CONVERSION_LOCATEDCONVERSION_H
