//===- BufferCapacities.h - The passes' buffer capacity options -*- C++ -*-===//
//
// Passes that check what fits in the local buffers take each buffer's
// capacity as an option (`ub-bytes`, `l1-bytes`, `l0a-bytes`, `l0b-bytes`,
// `l0c-bytes`, `bt-bytes`): a pass reads them by buffer, a pipeline sets
// them all from one table.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_DIALECT_ASCENDC_TRANSFORMS_BUFFERCAPACITIES_H
#define TILEKIT_DIALECT_ASCENDC_TRANSFORMS_BUFFERCAPACITIES_H

#include "tilekit/Machine/Machine.h"

#include "llvm/Support/ErrorHandling.h"

#include <array>

namespace tilekit::ascendc {

/// Which of a pass's capacity options (passed in this order) is
/// `buffer`'s.
inline int64_t selectCapacity(machine::Buffer buffer, int64_t ubBytes,
                              int64_t l1Bytes, int64_t l0aBytes,
                              int64_t l0bBytes, int64_t l0cBytes,
                              int64_t btBytes) {
  switch (buffer) {
  case machine::Buffer::UB:
    return ubBytes;
  case machine::Buffer::L1:
    return l1Bytes;
  case machine::Buffer::L0A:
    return l0aBytes;
  case machine::Buffer::L0B:
    return l0bBytes;
  case machine::Buffer::L0C:
    return l0cBytes;
  case machine::Buffer::Bias:
    return btBytes;
  case machine::Buffer::GM:
    break;
  }
  llvm_unreachable("every local buffer has a capacity");
}

/// Sets every capacity option of `options` from `capacities` (indexed by
/// buffer).
template <typename Options>
void setCapacityOptions(
    Options &options,
    const std::array<int64_t, machine::kNumBuffers> &capacities) {
  auto bytes = [&](machine::Buffer buffer) {
    return capacities[static_cast<unsigned>(buffer)];
  };
  options.ubBytes = bytes(machine::Buffer::UB);
  options.l1Bytes = bytes(machine::Buffer::L1);
  options.l0aBytes = bytes(machine::Buffer::L0A);
  options.l0bBytes = bytes(machine::Buffer::L0B);
  options.l0cBytes = bytes(machine::Buffer::L0C);
  options.btBytes = bytes(machine::Buffer::Bias);
}

} // namespace tilekit::ascendc

#endif // TILEKIT_DIALECT_ASCENDC_TRANSFORMS_BUFFERCAPACITIES_H
