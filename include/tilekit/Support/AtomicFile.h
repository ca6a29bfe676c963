//===- AtomicFile.h - Files written completely or not at all -----*- C++
//-*-===//

#ifndef TILEKIT_SUPPORT_ATOMICFILE_H
#define TILEKIT_SUPPORT_ATOMICFILE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"

#include <string>
#include <utility>
#include <vector>

namespace tilekit {

/// Writes `contents` to a temporary file next to `path` and renames it into
/// place, so readers see the old file, the new one, or none, never a part.
llvm::Error writeFileAtomically(llvm::StringRef path, llvm::StringRef contents);

/// Several files written as a set: each is staged in a temporary file next
/// to its path, and only when all were staged does commit() move them into
/// place. A set destroyed without commit() leaves nothing behind.
class AtomicFileSet {
public:
  AtomicFileSet() = default;
  AtomicFileSet(const AtomicFileSet &) = delete;
  ~AtomicFileSet();

  /// Stages `contents` for `path`; an error naming the path when it cannot
  /// be written (or is already in the set).
  llvm::Error add(llvm::StringRef path, llvm::StringRef contents);
  /// Moves every staged file into place.
  llvm::Error commit();

private:
  std::vector<std::pair<std::string, llvm::sys::fs::TempFile>> staged;
};

} // namespace tilekit

#endif // TILEKIT_SUPPORT_ATOMICFILE_H
