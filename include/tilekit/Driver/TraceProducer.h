//===- TraceProducer.h - Compiled trace producers for the tools -*- C++ -*-===//
//
// A kernel's compiled trace producer (PTOToTraceProducer) as `tilekit
// compile --emit=trace-producer` writes it, built into a cached shared
// object and given its arguments as `tilekit sim --producer=compiled` and
// `tilekit.sim(producer="compiled")` do: shapes per tensor, values per
// scalar, no data.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_DRIVER_TRACEPRODUCER_H
#define TILEKIT_DRIVER_TRACEPRODUCER_H

#include "tilekit/Trace/ProducerLibrary.h"

#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace tilekit::driver {

class KernelFile;

/// The trace producer of `entry` as C++; the caller plans memory first (as
/// sim does) so that both producers see the same buffers. Failures are
/// reported.
mlir::LogicalResult emitTraceProducer(KernelFile &kernel,
                                      mlir::FunctionOpInterface entry,
                                      llvm::StringRef sourceName,
                                      std::string &text);

/// emitTraceProducer built into a cached shared object (BuildCache.h);
/// `option` names what asked for it in messages.
mlir::FailureOr<std::string> buildTraceProducer(KernelFile &kernel,
                                                mlir::FunctionOpInterface entry,
                                                llvm::StringRef sourceName,
                                                llvm::StringRef option);

/// How the caller spells its options, for messages: the command line's
/// {"--producer=compiled", "--dims", "--scalar"} or Python's.
/// The MiB of trace records a compiled producer may have held at once (by
/// itself for group launches, by the timing model for an open work item)
/// unless told otherwise (`sim --memory-budget`; the Python module's sim).
/// The timing model takes about 2.4 times a record's 208 bytes for each.
constexpr uint64_t kDefaultProducerMemoryMiB = 2048;

struct ProducerOptionNames {
  llvm::StringRef producer, dims, scalar;
};

/// The producer's arguments in its parameters' order: each tensor's shape
/// from `dims` (name -> "8192x8192"; static extents may be left out), each
/// scalar's value from `scalars` (name -> its text).
llvm::Expected<std::vector<int64_t>>
bindProducerArguments(const std::vector<trace::ProducerParameter> &parameters,
                      const llvm::StringMap<std::string> &dims,
                      const llvm::StringMap<std::string> &scalars,
                      const ProducerOptionNames &names);

} // namespace tilekit::driver

#endif // TILEKIT_DRIVER_TRACEPRODUCER_H
