//===- KernelFile.h - Loading a kernel for the tools ----------*- C++ -*-===//
//
// Parses and verifies a `.mlir` kernel with diagnostics on the source, and
// remembers the source names of function arguments (`%x`), so that commands
// can take inputs by name.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_DRIVER_KERNELFILE_H
#define TILEKIT_DRIVER_KERNELFILE_H

#include "mlir/AsmParser/AsmParserState.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/SourceMgr.h"

#include <memory>
#include <string>
#include <vector>

namespace tilekit::driver {

/// The argument attribute that carries a function argument's source name
/// into a compiled kernel, whose printed arguments are %arg0, %arg1, ...
inline constexpr llvm::StringLiteral kArgumentNameAttr = "tilekit.name";

class KernelFile {
public:
  /// Creates a context with every dialect a kernel may use.
  KernelFile();

  /// Reads, parses and verifies `path`; diagnostics go through the handler
  /// the caller installed on getContext() (or to stderr by default). A file
  /// that cannot be read is reported as `reader`'s error.
  mlir::LogicalResult load(llvm::StringRef path, llvm::StringRef reader);
  /// Parses and verifies kernel text; diagnostics name `bufferName`.
  mlir::LogicalResult loadText(llvm::StringRef text,
                               llvm::StringRef bufferName);

  mlir::MLIRContext &getContext() { return context; }
  llvm::SourceMgr &getSourceMgr() { return sourceMgr; }
  mlir::ModuleOp getModule() { return *module; }

  /// The name of an argument: its kArgumentNameAttr, its source name (`x`
  /// for `%x`), or `arg<N>`.
  std::string getArgumentName(mlir::BlockArgument argument) const;
  /// The arguments of `func` by name: each argument's name, and `arg<N>`
  /// unless a name took it. `names` gets the arguments' names in order.
  llvm::StringMap<unsigned>
  getArgumentIndex(mlir::FunctionOpInterface func,
                   std::vector<std::string> &names) const;
  /// Stamps each argument's source name on it (kArgumentNameAttr), so that
  /// what is compiled from the kernel takes the same names.
  void stampArgumentNames();
  /// Wraps the location of each value the source names (`%row`, a loop's
  /// `%i`, an argument) in a NameLoc holding the name, which the lowering
  /// carries to what implements it and the C++ emitter names variables by.
  void nameLocations();
  /// The source name of any value: `x` for `%x`, `r_1` for `%r#1`.
  std::optional<std::string> getValueName(mlir::Value value) const;

private:
  /// Parses and verifies the buffer just added to the source manager.
  mlir::LogicalResult parseBuffer(llvm::StringRef name);

  mlir::MLIRContext context;
  llvm::SourceMgr sourceMgr;
  mlir::AsmParserState asmState;
  mlir::OwningOpRef<mlir::ModuleOp> module;
};

/// The function a run starts at: the one named `name` when given, else the
/// only orchestration function, else the only public function with a body
/// (a private one is a helper). Null
/// when there is none, with `why` saying which name is missing or listing
/// the candidates ("candidates: @a @b").
mlir::FunctionOpInterface findEntry(mlir::ModuleOp module, llvm::StringRef name,
                                    std::string &why);

} // namespace tilekit::driver

#endif // TILEKIT_DRIVER_KERNELFILE_H
