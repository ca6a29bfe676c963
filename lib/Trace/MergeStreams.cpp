//===- MergeStreams.cpp - One order for the streams of an AI core ---------===//
//
// The cube core and the vector cores of a group each write their records in
// program order, on their own threads. The merged order must not depend on
// how those threads interleaved, and the timing model, which reads records
// in order, must see each pop after the push it takes and each push after
// the pop that freed its slot. Round robin over the streams, taking from
// one until its next record would break that, gives such an order from the
// streams' contents alone.
//
//===----------------------------------------------------------------------===//

#include "tilekit/Trace/Trace.h"

#include <map>

using namespace llvm;
using namespace tilekit;
using namespace tilekit::trace;

namespace {
/// A lane queue of a cross-core pipe: direction (the pushing core), pipe id
/// and lane.
using QueueKey = std::tuple<uint8_t, uint16_t, unsigned>;

struct QueueCount {
  uint64_t pushed = 0, popped = 0;
};

class Merger {
public:
  /// Whether `record` can be taken now.
  bool ready(const Record &record) {
    bool isPush = record.getKind() == RecordKind::Push;
    bool isPop = record.getKind() == RecordKind::Pop;
    if (!isPush && !isPop)
      return true;
    for (unsigned lane = 0; lane < 2; ++lane) {
      if (!(record.laneMask() >> lane & 1))
        continue;
      QueueCount &count = queues[key(record, lane)];
      if (isPop && count.pushed <= count.popped)
        return false;
      if (isPush && record.tag_slot &&
          count.pushed - count.popped >= record.tag_slot)
        return false;
    }
    return true;
  }

  void take(const Record &record) {
    bool isPush = record.getKind() == RecordKind::Push;
    if (!isPush && record.getKind() != RecordKind::Pop)
      return;
    for (unsigned lane = 0; lane < 2; ++lane)
      if (record.laneMask() >> lane & 1)
        ++(isPush ? queues[key(record, lane)].pushed
                  : queues[key(record, lane)].popped);
  }

private:
  /// A push and the pops that take it share a key: the pushing side, the
  /// pipe id and the lane.
  static QueueKey key(const Record &record, unsigned lane) {
    return {record.isFromCube() ? 1 : 0, record.op, lane};
  }

  std::map<QueueKey, QueueCount> queues;
};
} // namespace

std::vector<Record>
trace::mergeCoreStreams(ArrayRef<std::vector<Record>> streams) {
  std::vector<Record> merged;
  size_t total = 0;
  for (const std::vector<Record> &stream : streams)
    total += stream.size();
  merged.reserve(total);
  std::vector<size_t> next(streams.size(), 0);
  Merger merger;
  size_t current = 0, idle = 0;
  while (merged.size() < total && idle < streams.size()) {
    const std::vector<Record> &stream = streams[current];
    bool progressed = false;
    while (next[current] < stream.size() &&
           merger.ready(stream[next[current]])) {
      const Record &record = stream[next[current]++];
      merger.take(record);
      merged.push_back(record);
      progressed = true;
    }
    idle = progressed ? 0 : idle + 1;
    current = (current + 1) % streams.size();
  }
  // Streams that block each other: the rest in stream order, for the
  // timing model to report.
  for (auto [stream, from] : llvm::zip(streams, next))
    merged.insert(merged.end(), stream.begin() + from, stream.end());
  return merged;
}
