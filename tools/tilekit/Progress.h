//===- Progress.h - A progress line on stderr for long runs -------*- C++
//-*-===//
//
// `tilekit run` and `sim` show how far a long run is (ops executed, trace
// records simulated) on one line of stderr, redrawn four times a second
// once the run has taken a second. Only on a terminal, and never with
// --quiet; --progress=always forces it (for tests).
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_TOOLS_TILEKIT_PROGRESS_H
#define TILEKIT_TOOLS_TILEKIT_PROGRESS_H

#include "tilekit/Trace/Trace.h"

#include "llvm/ADT/StringRef.h"

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace tilekit::driver {

/// Whether this command shows progress (--quiet, --progress, a terminal).
bool progressEnabled();

/// Shows `count` as "LABEL: N what" on stderr from a thread of its own
/// while it lives (when progressEnabled()); clears the line at the end.
class ProgressLine {
public:
  ProgressLine(llvm::StringRef what, const std::atomic<uint64_t> &count);
  ~ProgressLine();

private:
  void run();

  std::string what;
  const std::atomic<uint64_t> &count;
  std::mutex mutex;
  std::condition_variable stop;
  bool stopping = false;
  bool drawn = false;
  std::thread thread;
};

/// Forwards records to `sink`, counting them.
class CountingSink : public trace::TraceSink {
public:
  explicit CountingSink(trace::TraceSink &sink) : sink(sink) {}
  void emit(const trace::Record &record) override {
    sink.emit(record);
    count.fetch_add(1, std::memory_order_relaxed);
  }
  trace::TraceTables &getTables() override { return sink.getTables(); }
  std::atomic<uint64_t> count{0};

private:
  trace::TraceSink &sink;
};

} // namespace tilekit::driver

#endif // TILEKIT_TOOLS_TILEKIT_PROGRESS_H
