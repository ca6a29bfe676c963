//===- TorchEmitter.h - PTO programs as PyTorch scripts ----------*- C++
//-*-===//
//
// Emits one standalone Python script: the runtime preamble (valid-shape
// helpers, the accumulator-init helper, the threaded cross-core runtime and
// the mixed-kernel scheduler), group metadata, and one Python function per
// function of the program. docs/torch-emitter.md describes the mapping.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_TARGET_TORCHEMITTER_H
#define TILEKIT_TARGET_TORCHEMITTER_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OperationSupport.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <optional>
#include <string>

namespace tilekit {

struct TorchEmitOptions {
  /// Check parameter dtypes and the dtype and static shape of every tile and
  /// tensor assignment.
  bool checkShapes = false;
  /// The source name of a value (`x` for `%x`), when known.
  std::function<std::optional<std::string>(mlir::Value)> sourceName;
  /// Shown in the script's header.
  std::string sourceFile;
};

/// Writes the script for `module`, or reports the first op it cannot map
/// (an error naming the op) and fails.
mlir::LogicalResult emitTorchScript(mlir::ModuleOp module,
                                    llvm::raw_ostream &os,
                                    const TorchEmitOptions &options);

/// Whether the emitter maps the op `name` (every PTO op must: a unit test
/// checks).
bool canEmitTorch(mlir::RegisteredOperationName name);

} // namespace tilekit

#endif // TILEKIT_TARGET_TORCHEMITTER_H
