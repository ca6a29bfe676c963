//===- Durations.h - Time limits given in seconds ---------------*- C++ -*-===//
//
// One rule for every time limit a user gives (`tilekit run --timeout`,
// `--pop-timeout`, `--group-timeout`, Python's `timeout=`): a finite number
// of seconds, not negative, at most a year; 0 means no limit where the
// option allows it. NaN, infinities and negative values are errors rather
// than limits that never fire or fire at once.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_DRIVER_DURATIONS_H
#define TILEKIT_DRIVER_DURATIONS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <chrono>
#include <cstdint>

namespace tilekit::driver {

/// The limits of one run (`--max-steps`, `--timeout`; 0: none).
struct RunLimits {
  uint64_t maxSteps = 0;
  std::chrono::milliseconds timeout{0};
};

/// `seconds` as milliseconds (a positive value below a millisecond rounds
/// up to one), or an error naming `option` ("--timeout", "timeout=").
llvm::Expected<std::chrono::milliseconds>
parseSeconds(llvm::StringRef option, double seconds, bool zeroAllowed);

} // namespace tilekit::driver

#endif // TILEKIT_DRIVER_DURATIONS_H
