//===- MixedKernel.h - The cube and the vector core of one kernel -*- C++
//-*-===//
//
// A mixed AscendC kernel (one with both `if_aic` and `if_aiv` groups) runs
// on two cores: each runs the whole function on its own thread, its scalar
// code and its own groups, skipping the other's. The threads take turns,
// one running at a time: groups run in program order (an unsynchronized
// kernel computes what its text says), except that a core whose
// cross-core wait finds no flag set hands over to the other, and a core
// goes ahead of program order when the other is stuck at such a wait. When both
// wait and no flag was set since the parked one looked, the kernel deadlocks;
// the report names both waits. Switching only there
// makes every run interleave the cores the same way, so the outputs and
// the race reports do not change from run to run. Internal to the executor.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_LIB_INTERP_MIXEDKERNEL_H
#define TILEKIT_LIB_INTERP_MIXEDKERNEL_H

#include "tilekit/Interp/Interpreter.h"

#include "mlir/Interfaces/FunctionInterfaces.h"

namespace tilekit::interp {

struct AscendCMachine;

/// The core the current thread runs of a mixed kernel (0 the cube, 1 the
/// vector core), or none outside one.
std::optional<unsigned> currentMixedCore();
/// The machine of the mixed kernel the current thread runs (null outside).
std::shared_ptr<AscendCMachine> currentMixedMachine();

/// Whether `func` holds both cube and vector groups.
bool isMixedKernel(mlir::FunctionOpInterface func);

/// Runs mixed kernel `func` on its two cores; the results are the vector
/// core's. Fails when either core fails, the cores deadlock, or a flag is
/// left set.
mlir::FailureOr<llvm::SmallVector<RuntimeValue>>
runMixedKernel(Interpreter &interpreter, mlir::FunctionOpInterface func,
               llvm::ArrayRef<RuntimeValue> args, const CoreState &state);

/// What a core does when its cross-core wait at `op` finds no flag:
/// `Retry` once the other core has run; `Deadlock` when the other core
/// waits too or has finished (`other` is its wait, or null); `Stopped` when
/// the run has already failed (nothing more to report).
enum class HandOver { Retry, Deadlock, Stopped };
HandOver handOverAt(mlir::Operation *op, mlir::Operation *&other);
/// The current core meets a core group (`own`: one it runs): its number in
/// the order both cores meet groups, once the groups before it have run
/// (or cannot: see MixedKernel.cpp); none when the run has stopped.
std::optional<uint64_t> enterCoreGroup(bool own);
/// The current core has run group `index`.
void leaveCoreGroup(uint64_t index);
/// A cross-core flag was set: a parked core's wait may now succeed.
void noteCrossCoreSet();

} // namespace tilekit::interp

#endif // TILEKIT_LIB_INTERP_MIXEDKERNEL_H
