//===- ProducerLibrary.cpp - A compiled trace producer, loaded ------------===//

#include "tilekit/Trace/ProducerLibrary.h"

#include "tilekit/Support/SharedObject.h"
#include "tilekit/Trace/TraceABI.h"

#include "llvm/ADT/StringExtras.h"

#include <dlfcn.h>

using namespace llvm;
using namespace tilekit;
using namespace tilekit::trace;

extern "C" {
typedef uint32_t (*AbiFn)(void);
typedef const char *(*ParamsFn)(void);
typedef int (*ProduceFn)(const struct tilekit_trace_sink *, const int64_t *,
                         size_t, int64_t, uint32_t,
                         const struct tilekit_trace_limits *, char *, size_t);
}

char ProducerStopped::ID;

static Error failure(const Twine &message) {
  return createStringError(inconvertibleErrorCode(), message);
}

Expected<std::unique_ptr<ProducerLibrary>>
ProducerLibrary::open(StringRef path) {
  std::unique_ptr<ProducerLibrary> library(new ProducerLibrary());
  library->path = path.str();
  // Checked first: dlopen of a truncated file crashes instead of failing.
  if (Error bad = checkSharedObject(path, "tilekit_trace_produce"))
    return failure(path + ": not a trace producer (" +
                   toString(std::move(bad)) +
                   "; build one with tilekit compile --emit=trace-producer)");
  library->handle = dlopen(library->path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!library->handle)
    return failure(path + ": cannot load the trace producer: " + dlerror());
  auto abi = reinterpret_cast<AbiFn>(
      dlsym(library->handle, "tilekit_trace_producer_abi"));
  auto params = reinterpret_cast<ParamsFn>(
      dlsym(library->handle, "tilekit_trace_producer_params"));
  library->produceFn = dlsym(library->handle, "tilekit_trace_produce");
  if (!abi || !params || !library->produceFn)
    return failure(path +
                   ": not a trace producer (it lacks tilekit_trace_produce; "
                   "build one with tilekit compile --emit=trace-producer)");
  if (uint32_t version = abi(); version != TILEKIT_TRACE_ABI_VERSION)
    return failure(path + ": built for trace ABI version " + Twine(version) +
                   ", but this tilekit reads version " +
                   Twine(TILEKIT_TRACE_ABI_VERSION) +
                   "; build it again with this tilekit's compile "
                   "--emit=trace-producer");
  for (StringRef line : split(params(), '\n')) {
    SmallVector<StringRef> words;
    line.split(words, ' ', -1, /*KeepEmpty=*/false);
    if (words.empty())
      continue;
    ProducerParameter parameter;
    parameter.kind = words[0].str();
    parameter.name = words.size() > 1 ? words[1].str() : "";
    if (parameter.kind == "tensor" && words.size() > 2)
      for (StringRef extent : split(words[2], 'x')) {
        int64_t value = -1;
        if (extent != "?" && extent.getAsInteger(10, value))
          return failure(path + ": a malformed parameter line '" + line + "'");
        parameter.shape.push_back(value);
      }
    library->parameters.push_back(std::move(parameter));
  }
  return std::move(library);
}

ProducerLibrary::~ProducerLibrary() {
  if (handle)
    dlclose(handle);
}

namespace {
/// The C sink the producer writes to: names and locations into the
/// sink's tables, each record checked before it goes on.
struct Bridge {
  TraceSink &sink;
  std::string error; // the first record the format rejects
  uint64_t records = 0;
};
} // namespace

static uint16_t internName(void *context, const char *name) {
  return static_cast<Bridge *>(context)->sink.getTables().intern(name);
}

static uint32_t internLocation(void *context, const char *file, uint32_t line,
                               uint32_t column) {
  return static_cast<Bridge *>(context)->sink.getTables().internLocation(
      file, line, column);
}

static void emitRecord(void *context, const tilekit_trace_record *raw) {
  auto *bridge = static_cast<Bridge *>(context);
  if (!bridge->error.empty())
    return;
  Record record(Record::Uninitialized{});
  static_cast<tilekit_trace_record &>(record) = *raw;
  if (Error error = checkRecord(record, bridge->sink.getTables())) {
    bridge->error = toString(std::move(error));
    return;
  }
  bridge->sink.emit(record);
  ++bridge->records;
}

Expected<uint64_t>
ProducerLibrary::produce(TraceSink &sink, ArrayRef<int64_t> args,
                         int64_t blocks, uint32_t flags,
                         const tilekit_trace_limits &limits) {
  Bridge bridge{sink, {}, 0};
  tilekit_trace_sink cSink{&bridge, internName, internLocation, emitRecord};
  char message[1024] = {0};
  int status = reinterpret_cast<ProduceFn>(produceFn)(
      &cSink, args.data(), args.size(), blocks, flags, &limits, message,
      sizeof message);
  if (!bridge.error.empty())
    return failure(path +
                   ": the producer wrote a record the format "
                   "rejects: " +
                   bridge.error);
  if (status == TILEKIT_PRODUCE_STOPPED)
    return make_error<ProducerStopped>(message);
  if (status != TILEKIT_PRODUCE_OK)
    return failure(StringRef(message));
  return bridge.records;
}
