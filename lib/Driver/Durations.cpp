//===- Durations.cpp - Time limits given in seconds -----------------------===//

#include "tilekit/Driver/Durations.h"

#include <algorithm>
#include <cmath>
#include <string>

using namespace tilekit;

llvm::Expected<std::chrono::milliseconds>
driver::parseSeconds(llvm::StringRef option, double seconds, bool zeroAllowed) {
  constexpr double kYear = 365.0 * 24 * 3600;
  if (!std::isfinite(seconds) || seconds < 0 || seconds > kYear ||
      (!zeroAllowed && seconds == 0))
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        option + " " + std::to_string(seconds) + ": expected " +
            (zeroAllowed ? "0 or " : "") +
            "a positive number of seconds up to a year");
  return std::chrono::milliseconds(std::max<int64_t>(
      static_cast<int64_t>(seconds * 1000), seconds > 0 ? 1 : 0));
}
