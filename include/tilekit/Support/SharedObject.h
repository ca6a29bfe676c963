//===- SharedObject.h - A shared object checked before dlopen ---*- C++ -*-===//
//
// dlopen maps a shared object's segments as its program headers describe
// them: a truncated or damaged file (a half-written cache entry, a wrong
// --trace-so) kills the process with SIGBUS or SIGSEGV inside the loader
// instead of failing. These checks read the file first.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_SUPPORT_SHAREDOBJECT_H
#define TILEKIT_SUPPORT_SHAREDOBJECT_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace tilekit {

/// Success when `path` is a shared object this process can load: an ELF64
/// file of the host's byte order and machine, of type ET_DYN, whose program
/// and section headers and every segment's bytes lie inside the file, and
/// whose dynamic symbol table defines `symbol`. Otherwise an error saying
/// what is wrong ("it lacks SYMBOL", "truncated or damaged: ..."; the path
/// is the caller's to name).
llvm::Error checkSharedObject(llvm::StringRef path, llvm::StringRef symbol);

} // namespace tilekit

#endif // TILEKIT_SUPPORT_SHAREDOBJECT_H
