//===- CheckedSize.h - Sizes a user controls, checked -------------*- C++
//-*-===//
//
// Element counts and byte sizes computed from shapes a user wrote (an .npy
// header, a zeros:/rand: spec, a dynamic tensor size) with overflow checks,
// and a check that an allocation fits this machine's memory, so that a huge
// shape is an error naming the bytes rather than an abort.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_SUPPORT_CHECKEDSIZE_H
#define TILEKIT_SUPPORT_CHECKEDSIZE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

#include <cstdint>

namespace tilekit {

/// The bytes of `shape` at `elementBytes` each; an error naming `what` when
/// an extent is negative or the size does not fit 64 bits.
llvm::Expected<uint64_t> checkedBytes(llvm::ArrayRef<int64_t> shape,
                                      uint64_t elementBytes,
                                      const llvm::Twine &what);

/// Success when `bytes` can be allocated on this machine (at most its
/// physical memory); otherwise an error naming `what`, the bytes it needs
/// and the memory there is.
llvm::Error checkAllocatable(uint64_t bytes, const llvm::Twine &what);

} // namespace tilekit

#endif // TILEKIT_SUPPORT_CHECKEDSIZE_H
