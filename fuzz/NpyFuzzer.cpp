//===- NpyFuzzer.cpp - The .npy reader ------------------------------------===//
//
// Whatever the reader accepts must encode back and read as the same array.

#include "tilekit/Support/Npy.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef bytes(reinterpret_cast<const char *>(data), size);
  llvm::Expected<tilekit::NpyArray> array =
      tilekit::parseNpy(bytes, "fuzz.npy");
  if (!array) {
    llvm::consumeError(array.takeError());
    return 0;
  }
  llvm::Expected<std::string> encoded = tilekit::encodeNpy(*array);
  if (!encoded) {
    llvm::consumeError(encoded.takeError());
    return 0;
  }
  llvm::Expected<tilekit::NpyArray> again =
      tilekit::parseNpy(*encoded, "again.npy");
  if (!again || again->shape != array->shape || again->descr != array->descr ||
      again->data != array->data) {
    llvm::errs() << "an accepted .npy does not survive encode + parse\n";
    abort();
  }
  return 0;
}
