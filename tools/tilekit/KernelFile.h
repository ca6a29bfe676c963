//===- KernelFile.h - Loading a kernel for the driver -------------*- C++
//-*-===//
//
// Parses and verifies a `.mlir` kernel with diagnostics on the source, and
// remembers the source names of function arguments (`%x`), so that commands
// can take inputs by name.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_TOOLS_TILEKIT_KERNELFILE_H
#define TILEKIT_TOOLS_TILEKIT_KERNELFILE_H

#include "mlir/AsmParser/AsmParserState.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/SourceMgr.h"

#include <memory>
#include <string>

namespace tilekit::driver {

/// The argument attribute that carries a function argument's source name
/// into a compiled kernel, whose printed arguments are %arg0, %arg1, ...
inline constexpr llvm::StringLiteral kArgumentNameAttr = "tilekit.name";

class KernelFile {
public:
  /// Creates a context with every dialect a kernel may use.
  KernelFile();

  /// Reads, parses and verifies `path`; diagnostics go through the handler
  /// the caller installed on getContext() (or to stderr by default).
  mlir::LogicalResult load(llvm::StringRef path);

  mlir::MLIRContext &getContext() { return context; }
  llvm::SourceMgr &getSourceMgr() { return sourceMgr; }
  mlir::ModuleOp getModule() { return *module; }

  /// The name of an argument: its kArgumentNameAttr, its source name (`x`
  /// for `%x`), or `arg<N>`.
  std::string getArgumentName(mlir::BlockArgument argument) const;
  /// The source name of any value: `x` for `%x`, `r_1` for `%r#1`.
  std::optional<std::string> getValueName(mlir::Value value) const;

private:
  mlir::MLIRContext context;
  llvm::SourceMgr sourceMgr;
  mlir::AsmParserState asmState;
  mlir::OwningOpRef<mlir::ModuleOp> module;
};

} // namespace tilekit::driver

#endif // TILEKIT_TOOLS_TILEKIT_KERNELFILE_H
