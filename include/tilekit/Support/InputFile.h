//===- InputFile.h - Reading a user's input file, bounded ---------*- C++
//-*-===//
//
// Inputs (kernels, .npy arrays, traces, machine configs) may name a pipe or
// a device; an endless one (/dev/zero) must not hang the tool. Regular files
// are mapped as they are; anything else is read up to a limit.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_SUPPORT_INPUTFILE_H
#define TILEKIT_SUPPORT_INPUTFILE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <memory>

namespace tilekit {

/// What is read at most from a stream (a pipe, a device, stdin).
inline constexpr uint64_t kStreamInputLimit = uint64_t(1) << 30;

/// The contents of `path` ("-" is stdin); an error naming `path` when it
/// cannot be read or a stream holds more than kStreamInputLimit bytes.
llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
readInputFile(llvm::StringRef path);

} // namespace tilekit

#endif // TILEKIT_SUPPORT_INPUTFILE_H
