//===- DeviceImage.h - The linked image a vector-function worker runs -*- C++
//-*-===//
//
// A vf-bundle links its caller and helpers into one ELF image, of which
// the worker loads only the `.text` bytes and starts at their first byte.
// That is sound only for an image that needs nothing else: these checks
// make each way it could need something its own error.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_VF_DEVICEIMAGE_H
#define TILEKIT_VF_DEVICEIMAGE_H

#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBufferRef.h"

#include <string>

namespace tilekit::vf {

/// The symbol the worker starts at: the first byte of `.text`.
inline constexpr llvm::StringLiteral kEntrySymbol = "kernel_entry";

/// The `.text` bytes of `image` once it passes every rule: an executable
/// little-endian ELF64 for the host's machine, a non-empty `.text` that
/// starts with kernel_entry, no undefined symbols, no relocations, and no
/// other allocated section with bytes (.rodata, .data, .bss, .got, ...).
/// Symbol and debug sections may remain: they are not loaded.
llvm::Expected<std::string> extractText(llvm::MemoryBufferRef image);

} // namespace tilekit::vf

#endif // TILEKIT_VF_DEVICEIMAGE_H
