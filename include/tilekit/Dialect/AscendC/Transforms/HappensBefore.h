//===- HappensBefore.h - Which accesses flags and barriers order -*- C++
//-*-===//
//
// The ordering model of an AI core pair (tilekit::StreamOrder, which the
// CPU runtime of emitted kernels shares) over AscendC ops: each op's
// tensor accesses (from its memory effects) and synchronization. The sync
// checker feeds it a symbolic run of the kernel; the AscendC executor
// feeds it the real one.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_DIALECT_ASCENDC_TRANSFORMS_HAPPENSBEFORE_H
#define TILEKIT_DIALECT_ASCENDC_TRANSFORMS_HAPPENSBEFORE_H

#include "tilekit/Dialect/AscendC/Transforms/TensorAccesses.h"
#include "tilekit/Support/StreamOrder.h"

#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/SetVector.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace tilekit::ascendc {

class HappensBefore {
public:
  /// What a report names of an access or a cross-core set.
  struct Origin {
    mlir::Operation *op;
    mlir::Value tensor; // describe() names its storage in a report
  };
  using Model = StreamOrder<kNumPipes, static_cast<unsigned>(Pipe::S), Origin>;
  static constexpr unsigned kCores = Model::kCores;
  /// One access to a storage (`payload.op` made it).
  using Access = Model::Access;

  /// Called for an access `now` by `later` that nothing orders after the
  /// conflicting `earlier` one.
  using RaceHandler = std::function<void(
      mlir::Operation *later, const Access &earlier, const Access &now)>;

  explicit HappensBefore(RaceHandler onRace) : onRace(std::move(onRace)) {}

  /// `op` (an instruction on `pipe`) reads and writes its tensor operands.
  void access(mlir::Operation *op, unsigned core, Pipe pipe);

  /// What a synchronization op did to the model.
  struct SyncOutcome {
    enum Kind {
      NotSync,     // not a synchronization op
      Done,        // applied
      NothingSet,  // a wait_flag with no set pending: it would wait forever
      Blocked,     // a cross-core wait with no set pending yet
      Overtakes,   // a cross-core set that may overtake `overtaken`
      SetWhileUp,  // a set_flag whose event may still be set (one bit)
      CounterFull, // a cross-core set past the sets its counter holds
    } kind = NotSync;
    mlir::Operation *overtaken = nullptr;
  };
  /// Applies `op` on `core` when it is a set/wait flag, barrier, buffer id
  /// or cross-core flag op (a blocked cross-core wait changes nothing).
  SyncOutcome synchronize(mlir::Operation *op, unsigned core);

  /// Flags set and never waited, when the run is over.
  struct PendingFlag {
    unsigned core, src, dst;
    int64_t event;
    size_t count;
  };
  std::vector<PendingFlag> pendingFlags() const;
  /// Cross-core sets never waited: (receiving core, flag, the set).
  std::vector<std::tuple<unsigned, int64_t, mlir::Operation *>>
  pendingCrossFlags() const;

  /// How reports name a core's pipe ("cube mte1").
  static std::string streamName(unsigned stream);
  /// How reports name the storage of `tensor`.
  static std::string describe(mlir::Value tensor);
  /// "writes X on the vector v pipe with nothing ordering it after the
  /// read on the vector mte3 pipe": what a race report says.
  static std::string describeRace(const Access &earlier, const Access &now);

private:
  RaceHandler onRace;
  Model model;
};

/// The storages (GM roots included) that `func`'s two cores access with
/// nothing ordering one access after the other, in any scenario of
/// `ascendc-verify-sync`; none when a scenario hangs or leaves flags
/// unmatched (the accesses are then not all known).
std::optional<llvm::SetVector<mlir::Value>>
findCrossCoreRaces(mlir::FunctionOpInterface func);

} // namespace tilekit::ascendc

#endif // TILEKIT_DIALECT_ASCENDC_TRANSFORMS_HAPPENSBEFORE_H
