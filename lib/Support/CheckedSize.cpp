//===- CheckedSize.cpp - Sizes a user controls, checked -------------------===//

#include "tilekit/Support/CheckedSize.h"

#include "llvm/Support/CheckedArithmetic.h"

#include <unistd.h>

using namespace llvm;

Expected<uint64_t> tilekit::checkedBytes(ArrayRef<int64_t> shape,
                                         uint64_t elementBytes,
                                         const Twine &what) {
  std::optional<uint64_t> bytes = elementBytes;
  for (int64_t extent : shape) {
    if (extent < 0)
      return createStringError(inconvertibleErrorCode(),
                               what + ": negative extent " + Twine(extent));
    bytes = bytes ? checkedMulUnsigned<uint64_t>(*bytes, extent) : bytes;
  }
  if (!bytes || *bytes > uint64_t(INT64_MAX))
    return createStringError(inconvertibleErrorCode(),
                             what + ": the size overflows 64 bits");
  return *bytes;
}

Error tilekit::checkAllocatable(uint64_t bytes, const Twine &what) {
  long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || pageSize <= 0)
    return Error::success();
  uint64_t memory = uint64_t(pages) * uint64_t(pageSize);
  if (bytes <= memory)
    return Error::success();
  return createStringError(inconvertibleErrorCode(),
                           what + " needs " + Twine(bytes) +
                               " bytes, more than this machine's " +
                               Twine(memory) + " bytes of memory");
}
