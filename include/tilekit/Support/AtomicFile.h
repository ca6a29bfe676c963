//===- AtomicFile.h - Files written completely or not at all -----*- C++
//-*-===//

#ifndef TILEKIT_SUPPORT_ATOMICFILE_H
#define TILEKIT_SUPPORT_ATOMICFILE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace tilekit {

/// Writes `contents` to a temporary file next to `path` and renames it into
/// place, so readers see the old file, the new one, or none, never a part.
llvm::Error writeFileAtomically(llvm::StringRef path, llvm::StringRef contents);

} // namespace tilekit

#endif // TILEKIT_SUPPORT_ATOMICFILE_H
