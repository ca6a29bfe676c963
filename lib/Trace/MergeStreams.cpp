//===- MergeStreams.cpp - One order for the streams of an AI core ---------===//
//
// The executor's streams merged by the algorithm compiled producers use too
// (include/tilekit/Trace/MergeOrder.h).
//
//===----------------------------------------------------------------------===//

#include "tilekit/Trace/MergeOrder.h"
#include "tilekit/Trace/Trace.h"

using namespace tilekit;
using namespace tilekit::trace;

std::vector<Record>
trace::mergeCoreStreams(llvm::ArrayRef<std::vector<Record>> streams) {
  return merge::mergeStreams(streams.data(), streams.size(),
                             [](const Record &r) { return r.isFromCube(); });
}
