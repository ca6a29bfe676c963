//===- PTOToVFBundle.h - Register scopes as separately compiled helpers -*- C++
//-*-===//
//
// A planned vector kernel with pto.reg_scope regions as a vf-bundle
// (docs/vector-functions.md): each scope outlined into a helper that
// addresses its captured tiles from one common UB base at the planned
// displacements, with barriers between its overlapping accesses; the
// kernel's own code as `kernel_entry`, which moves tiles between GM and UB,
// calls the helpers and orders its pipes with flags; both as EmitC and then
// C++ against runtime/vf/tilekit_vf.h.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_CONVERSION_PTOTOVFBUNDLE_H
#define TILEKIT_CONVERSION_PTOTOVFBUNDLE_H

#include "mlir/IR/Value.h"
#include "mlir/Support/LLVM.h"
#include "llvm/Support/JSON.h"

#include <functional>
#include <string>
#include <vector>

namespace mlir {
class ModuleOp;
namespace func {
class FuncOp;
} // namespace func
namespace emitc {
class FuncOp;
} // namespace emitc
} // namespace mlir

namespace tilekit::vf {

/// What a helper does to a capture, for the caller's synchronization.
enum class Effect { None, Read, ReadWrite };
llvm::StringRef stringifyEffect(Effect effect);

struct Capture {
  unsigned index;
  std::string type;
  Effect effect;
  /// Tiles: the planned displacement from the common UB base and the size.
  int64_t displacement = 0, bytes = 0;
  /// Scalars: the helper parameter that carries it (the UB base is 0).
  int parameter = -1;
};

struct Helper {
  std::string symbol;
  /// Where the scope is, as `file:line:col` (the file's name only).
  std::string location;
  std::vector<std::string> parameterTypes;
  std::vector<Capture> captures;
  unsigned barriers = 0;
  /// The helper's C++.
  std::string source;
};

struct Argument {
  std::string name;
  /// "tensor", "int" or "float": which array of tk_vf_args holds it.
  std::string kind;
  unsigned slot;
  std::string type;
};

/// A flag the caller sets after one op and waits for before another.
struct CallerEvent {
  std::string setPipe, waitPipe;
  int event;
};

struct Bundle {
  std::string kernel;
  std::vector<Argument> arguments;
  int64_t ubBytes = 0;
  std::vector<Helper> helpers;
  std::vector<CallerEvent> events;
  /// kernel_entry's C++.
  std::string callerSource;
};

struct BundleOptions {
  /// The name of a kernel argument in the manifest (default `arg<N>`).
  std::function<std::string(mlir::BlockArgument)> argumentName;
  /// Insert the barriers helpers need (off only to show that admission
  /// rejects a helper without them).
  bool insertBarriers = true;
};

/// The bundle of `entry`, whose tiles must have planned addresses; each
/// construct outside the supported subset is reported at its op. Every
/// helper passes admitHelper before its C++ is written.
mlir::FailureOr<Bundle> buildBundle(mlir::func::FuncOp entry,
                                    const BundleOptions &options = {});

/// The admission check of one helper (an emitc.func as buildBundle makes
/// them): only the supported calls, every pointer the common UB base (the
/// first parameter) plus a constant, and a barrier between every two
/// overlapping accesses of which one writes, all 64 lanes counted. It
/// changes nothing; each violation is an error at its op.
mlir::LogicalResult admitHelper(mlir::emitc::FuncOp helper);

/// The manifest of `bundle`: symbols, parameter types, effects, offsets.
llvm::json::Value manifestOf(const Bundle &bundle);

/// Registers `tilekit-vf-admit` (admitHelper on every emitc.func marked
/// `tilekit.vf_helper`) for tilekit-opt.
void registerVFAdmitPass();

} // namespace tilekit::vf

#endif // TILEKIT_CONVERSION_PTOTOVFBUNDLE_H
