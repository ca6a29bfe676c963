//===- BuildCache.h - Emitted C++ built into cached shared objects -*- C++
//-*-===//
//
// `tilekit run --compiled` (kernels against the CPU runtime) and `tilekit
// sim --producer=compiled` (trace producers) build emitted C++ with
// clang++-22 into shared objects kept in a cache keyed by everything that
// goes into one: the source, the compiler (its binary, size and time), the
// flags and every runtime file. An object is built under a unique name and
// renamed into place, so concurrent builds never see half a file.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_TOOLS_TILEKIT_BUILDCACHE_H
#define TILEKIT_TOOLS_TILEKIT_BUILDCACHE_H

#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"

#include <string>
#include <vector>

namespace tilekit::driver {

/// share/tilekit/runtime beside the binary's bin/ directory (the build
/// tree's and an installation's layout; runtime/CMakeLists.txt fills it).
std::string runtimeRoot();

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
};

/// The shared object of `request`, built now or found in the cache; a
/// failure is reported at `where`.
mlir::FailureOr<std::string> buildSharedObject(mlir::Operation *where,
                                               const BuildRequest &request);

/// The emitted C++ a cached object was built from (kept beside it, so
/// that reports can name its lines).
std::string sourceOf(llvm::StringRef object);

} // namespace tilekit::driver

#endif // TILEKIT_TOOLS_TILEKIT_BUILDCACHE_H
