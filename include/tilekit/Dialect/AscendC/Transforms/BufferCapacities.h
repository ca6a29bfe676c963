//===- BufferCapacities.h - The passes' buffer capacity options -*- C++ -*-===//
//
// Passes that check what fits in the local buffers take each buffer's
// capacity as an option (`ub-bytes`, `l1-bytes`, `l0a-bytes`, `l0b-bytes`,
// `l0c-bytes`, `bt-bytes`); a pipeline sets them all from one table.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_DIALECT_ASCENDC_TRANSFORMS_BUFFERCAPACITIES_H
#define TILEKIT_DIALECT_ASCENDC_TRANSFORMS_BUFFERCAPACITIES_H

#include "tilekit/Machine/Machine.h"

#include <array>

namespace tilekit::ascendc {

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
