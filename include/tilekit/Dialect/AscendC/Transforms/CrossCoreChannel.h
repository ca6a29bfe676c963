//===- CrossCoreChannel.h - Flags that hand a storage between cores -*- C++
//-*-===//
//
// The protocol both cross-core synchronization passes insert. A storage that
// both cores of a mixed kernel access, one of them writing, belongs to one
// core at a time; it changes hands with a cross-core flag that the releasing
// core sets after its last access and the acquiring core waits for before
// its first one. Every path through the kernel sets each flag as often as it
// waits for it, so no core hangs and no flag stays set.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_DIALECT_ASCENDC_TRANSFORMS_CROSSCORECHANNEL_H
#define TILEKIT_DIALECT_ASCENDC_TRANSFORMS_CROSSCORECHANNEL_H

#include "mlir/IR/Value.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace tilekit::ascendc {

struct CrossCoreChannelOptions {
  /// Whether a wait right before an access waits on that access's pipe
  /// (on-chip transfers) rather than on the scalar pipe (GM).
  bool waitOnAccessPipe = true;
  /// The first flag id to try; ids are then taken in turn, wrapping at 16,
  /// skipping those of flags live at the same time.
  int64_t firstId = 0;
};

/// Hands each storage root in `storages` between the cores that access it.
/// Returns the id after the last one given, or failure after a located
/// error (more than 16 flags live at once, or an op that holds both cores'
/// accesses to a storage and is neither a `scf.for` nor a `scf.if`).
mlir::FailureOr<int64_t>
insertCrossCoreChannels(mlir::FunctionOpInterface func,
                        llvm::ArrayRef<mlir::Value> storages,
                        const CrossCoreChannelOptions &options);

} // namespace tilekit::ascendc

#endif // TILEKIT_DIALECT_ASCENDC_TRANSFORMS_CROSSCORECHANNEL_H
