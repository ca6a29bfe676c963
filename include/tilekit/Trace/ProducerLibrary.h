//===- ProducerLibrary.h - A compiled trace producer, loaded -----*- C++
//-*-===//
//
// A shared object built from `tilekit compile --emit=trace-producer`,
// opened and run into a TraceSink: its ABI version checked against this
// build's, its parameters listed, every record it writes checked
// (checkRecord) before the sink sees it.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_TRACE_PRODUCERLIBRARY_H
#define TILEKIT_TRACE_PRODUCERLIBRARY_H

#include "tilekit/Trace/Trace.h"
#include "tilekit/Trace/TraceABI.h"

#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace tilekit::trace {

/// A parameter of a producer: a tensor (its shape, `?` for dynamic
/// extents) or a scalar of kind index, int or float.
struct ProducerParameter {
  std::string kind; // tensor, index, int, float
  std::string name;
  std::vector<int64_t> shape; // tensors: -1 for `?`
};

/// A run a limit stopped (tilekit_trace_limits): the driver's stall,
/// not a fault of the kernel.
class ProducerStopped : public llvm::ErrorInfo<ProducerStopped> {
public:
  static char ID;
  explicit ProducerStopped(std::string message) : message(std::move(message)) {}
  void log(llvm::raw_ostream &os) const override { os << message; }
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }

private:
  std::string message;
};

class ProducerLibrary {
public:
  /// Opens `path`; fails when it is not a producer or was built for
  /// another trace ABI version (the error names both).
  static llvm::Expected<std::unique_ptr<ProducerLibrary>>
  open(llvm::StringRef path);
  ~ProducerLibrary();

  const std::vector<ProducerParameter> &getParameters() const {
    return parameters;
  }
  /// Runs the kernel as `blocks` blocks on `args` (per parameter: a
  /// tensor's extents, a scalar's value; a float's bits) into `sink`, with
  /// `flags` (TILEKIT_PRODUCE_* of TraceProducer.h) within `limits`;
  /// returns the records written. A limit's stop is a ProducerStopped.
  llvm::Expected<uint64_t> produce(TraceSink &sink,
                                   llvm::ArrayRef<int64_t> args, int64_t blocks,
                                   uint32_t flags = 0,
                                   const tilekit_trace_limits &limits = {});

private:
  ProducerLibrary() = default;
  std::string path;
  void *handle = nullptr;
  void *produceFn = nullptr;
  std::vector<ProducerParameter> parameters;
};

} // namespace tilekit::trace

#endif // TILEKIT_TRACE_PRODUCERLIBRARY_H
