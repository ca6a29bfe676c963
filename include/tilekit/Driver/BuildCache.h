//===- BuildCache.h - Emitted C++ built into shared objects -----*- C++ -*-===//
//
// `tilekit run --compiled` (kernels against the CPU runtime) and `tilekit
// sim --producer=compiled` (trace producers) build emitted C++ with
// clang++-22 into shared objects kept in a cache keyed by everything that
// goes into one: the source, the compiler (its binary, size and time), the
// flags and every runtime file. An object is built under a unique name and
// renamed into place, so concurrent builds never see half a file.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_DRIVER_BUILDCACHE_H
#define TILEKIT_DRIVER_BUILDCACHE_H

#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace tilekit::driver {

/// share/tilekit/runtime beside the binary's bin/ directory (the build
/// tree's and an installation's layout; runtime/CMakeLists.txt fills it),
/// or the directory setRuntimeRoot gave.
std::string runtimeRoot();
/// For processes whose executable is not tilekit's (the Python module).
void setRuntimeRoot(llvm::StringRef root);

struct BuildRequest {
  /// The option asking for the build, for messages (`--compiled`).
  std::string option;
  /// The cached file's name: PREFIX-KEY.so.
  std::string prefix;
  std::string source;
  std::vector<std::string> flags;
  /// Directories and further sources of the build, under runtimeRoot().
  std::vector<std::string> includeDirs;
  std::vector<std::string> extraSources;
  /// A symbol the object must define (its ABI entry point): a cached
  /// object that is damaged or lacks it is built again.
  std::string symbol;
};

/// Called before a shared object that is not in the cache is compiled
/// (the command line says so on stderr: a build takes seconds).
void setBuildNotice(std::function<void(const BuildRequest &)> notice);

/// The shared object of `request`, built now or found in the cache; a
/// failure is reported at `where`.
mlir::FailureOr<std::string> buildSharedObject(mlir::Operation *where,
                                               const BuildRequest &request);

/// Where built objects are kept: $TILEKIT_CACHE_DIR, else
/// $XDG_CACHE_HOME/tilekit, else ~/.cache/tilekit.
std::string buildCacheDir();

/// What identifies an installed tool in cache keys: its resolved binary,
/// size and modification time; none when it cannot be inspected.
std::optional<std::string> toolIdentity(llvm::StringRef program);

/// Runs `program` with `args`, its output and errors in `output`; false
/// when it fails.
bool runProgram(llvm::StringRef program, llvm::ArrayRef<llvm::StringRef> args,
                std::string &output);

/// The emitted C++ a cached object was built from (kept beside it, so
/// that reports can name its lines).
std::string sourceOf(llvm::StringRef object);

} // namespace tilekit::driver

#endif // TILEKIT_DRIVER_BUILDCACHE_H
