//===- Report.cpp - Summaries and timelines of a simulation ---------------===//

#include "tilekit/Timing/Simulator.h"

#include "tilekit/Support/AtomicFile.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <map>

using namespace llvm;
using namespace tilekit;
using namespace tilekit::timing;
using namespace tilekit::trace;

namespace {
/// Busy cycles of one pipe: the mean over active cores and the busiest.
struct PipeUse {
  double mean = 0;
  uint64_t max = 0;
};
} // namespace

static PipeUse pipeUse(const SimResult &result, Pipe pipe) {
  PipeUse use;
  for (const CoreStats &core : result.cores) {
    uint64_t busy = core.busy[static_cast<unsigned>(pipe)];
    use.mean += busy;
    use.max = std::max(use.max, busy);
  }
  if (!result.cores.empty())
    use.mean /= result.cores.size();
  return use;
}

static double percent(double part, uint64_t whole) {
  return whole ? 100.0 * part / whole : 0.0;
}

std::string timing::classifyBound(const SimResult &result) {
  if (result.cycles == 0)
    return "idle";
  if (result.hbmCycles >= result.coreCycles &&
      result.hbmCycles >= result.l2Cycles)
    return "memory-bound (HBM)";
  if (result.l2Cycles >= result.coreCycles)
    return "memory-bound (L2)";
  Pipe busiest = Pipe::S;
  uint64_t most = 0;
  for (unsigned p = 0; p < kNumPipes; ++p) {
    uint64_t busy = pipeUse(result, static_cast<Pipe>(p)).max;
    if (busy > most) {
      most = busy;
      busiest = static_cast<Pipe>(p);
    }
  }
  switch (busiest) {
  case Pipe::M:
    return "compute-bound (cube)";
  case Pipe::V:
    return "compute-bound (vector)";
  case Pipe::S:
    return "scalar-bound";
  default:
    return "memory-bound (" + getName(busiest).upper() + ")";
  }
}

void timing::printReport(raw_ostream &os, const SimResult &result,
                         const MachineConfig &config) {
  os << format("cycles: %llu (%.3f us at %.2f GHz) on %u of %u cores, %s\n",
               static_cast<unsigned long long>(result.cycles),
               result.seconds * 1e6, config.clockGHz, result.activeCores,
               config.cubeCores, classifyBound(result).c_str());
  os << format("  slowest core %llu cycles, HBM bound %llu",
               static_cast<unsigned long long>(result.coreCycles),
               static_cast<unsigned long long>(result.hbmCycles));
  if (config.l2Bytes)
    os << format(", L2 bound %llu",
                 static_cast<unsigned long long>(result.l2Cycles));
  os << "\n";
  os << "pipe busy (mean / busiest core):\n";
  for (unsigned p = 0; p < kNumPipes; ++p) {
    PipeUse use = pipeUse(result, static_cast<Pipe>(p));
    if (use.max == 0)
      continue;
    os << format("  %-5s %6.1f%% / %6.1f%%\n",
                 getName(static_cast<Pipe>(p)).str().c_str(),
                 percent(use.mean, result.cycles),
                 percent(use.max, result.cycles));
  }
  os << "bytes and bandwidth per path:\n";
  for (unsigned p = 0; p < kNumDmaPaths; ++p) {
    uint64_t bytes = result.pathBytes[p];
    if (!bytes)
      continue;
    os << format("  %-7s %12llu B  %9.2f GB/s\n",
                 getName(static_cast<DmaPath>(p)).str().c_str(),
                 static_cast<unsigned long long>(bytes),
                 result.seconds > 0 ? bytes / result.seconds / 1e9 : 0.0);
  }
  os << format("  GM total %llu B, from HBM %llu B\n",
               static_cast<unsigned long long>(result.gmBytes),
               static_cast<unsigned long long>(result.hbmBytes));
  os << format("cube utilization %.1f%%, vector utilization %.1f%%\n",
               percent(pipeUse(result, Pipe::M).mean, result.cycles),
               percent(pipeUse(result, Pipe::V).mean, result.cycles));
}

void timing::printJsonReport(raw_ostream &os, const SimResult &result,
                             const MachineConfig &config) {
  json::Object pipes;
  for (unsigned p = 0; p < kNumPipes; ++p) {
    PipeUse use = pipeUse(result, static_cast<Pipe>(p));
    pipes[getName(static_cast<Pipe>(p))] =
        json::Object{{"busy_mean_pct", percent(use.mean, result.cycles)},
                     {"busy_max_pct", percent(use.max, result.cycles)}};
  }
  json::Object paths;
  for (unsigned p = 0; p < kNumDmaPaths; ++p)
    if (result.pathBytes[p])
      paths[getName(static_cast<DmaPath>(p))] =
          json::Object{{"bytes", static_cast<int64_t>(result.pathBytes[p])},
                       {"gb_s", result.seconds > 0
                                    ? result.pathBytes[p] / result.seconds / 1e9
                                    : 0.0}};
  json::Array cores;
  for (const CoreStats &core : result.cores) {
    json::Object busy;
    for (unsigned p = 0; p < kNumPipes; ++p)
      busy[getName(static_cast<Pipe>(p))] = static_cast<int64_t>(core.busy[p]);
    cores.push_back(json::Object{{"finish", static_cast<int64_t>(core.finish)},
                                 {"items", static_cast<int64_t>(core.items)},
                                 {"busy_cycles", std::move(busy)}});
  }
  json::Object root{{"machine", config.name},
                    {"cycles", static_cast<int64_t>(result.cycles)},
                    {"seconds", result.seconds},
                    {"core_cycles", static_cast<int64_t>(result.coreCycles)},
                    {"hbm_cycles", static_cast<int64_t>(result.hbmCycles)},
                    {"l2_cycles", static_cast<int64_t>(result.l2Cycles)},
                    {"active_cores", static_cast<int64_t>(result.activeCores)},
                    {"bound", classifyBound(result)},
                    {"cube_utilization_pct",
                     percent(pipeUse(result, Pipe::M).mean, result.cycles)},
                    {"vector_utilization_pct",
                     percent(pipeUse(result, Pipe::V).mean, result.cycles)},
                    {"gm_bytes", static_cast<int64_t>(result.gmBytes)},
                    {"hbm_bytes", static_cast<int64_t>(result.hbmBytes)},
                    {"cube_macs", static_cast<int64_t>(result.cubeMacs)},
                    {"pipes", std::move(pipes)},
                    {"paths", std::move(paths)},
                    {"cores", std::move(cores)}};
  os << formatv("{0:2}\n", json::Value(std::move(root)));
}

/// The thread name of a timeline lane: a pipe, a DMA path, or the work
/// items.
static std::string laneName(unsigned lane) {
  if (lane < kNumPipes)
    return getName(static_cast<Pipe>(lane)).upper();
  if (lane < kNumPipes + kNumDmaPaths)
    return "DMA " + getName(static_cast<DmaPath>(lane - kNumPipes)).str();
  return "work items";
}

Error timing::writeTimeline(StringRef path, const SimResult &result,
                            const Trace &trace, const MachineConfig &config) {
  // Microseconds per cycle.
  double scale = 1.0 / (config.clockGHz * 1e3);
  std::string text;
  raw_string_ostream os(text);
  json::OStream out(os);
  out.object([&] {
    out.attribute("displayTimeUnit", "ns");
    out.attributeArray("traceEvents", [&] {
      for (unsigned core = 0; core < result.cores.size(); ++core) {
        out.object([&] {
          out.attribute("ph", "M");
          out.attribute("name", "process_name");
          out.attribute("pid", core);
          out.attributeObject("args", [&] {
            out.attribute("name", "core " + std::to_string(core));
          });
        });
        for (unsigned lane = 0; lane <= kNumPipes + kNumDmaPaths; ++lane) {
          out.object([&] {
            out.attribute("ph", "M");
            out.attribute("name", "thread_name");
            out.attribute("pid", core);
            out.attribute("tid", lane);
            out.attributeObject("args",
                                [&] { out.attribute("name", laneName(lane)); });
          });
        }
      }
      // One slice per work item on its core's "work items" lane, spanning
      // its records.
      std::map<std::pair<unsigned, uint32_t>, std::pair<uint64_t, uint64_t>>
          spans;
      for (const TimelineEvent &event : result.timeline) {
        auto [it, inserted] =
            spans.try_emplace({event.core, event.item}, event.start, event.end);
        if (!inserted) {
          it->second.first = std::min(it->second.first, event.start);
          it->second.second = std::max(it->second.second, event.end);
        }
      }
      for (const auto &[key, span] : spans) {
        out.object([&] {
          out.attribute("name", "item " + std::to_string(key.second));
          out.attribute("ph", "X");
          out.attribute("pid", key.first);
          out.attribute("tid", kNumPipes + kNumDmaPaths);
          out.attribute("ts", span.first * scale);
          out.attribute("dur", (span.second - span.first) * scale);
        });
      }
      for (const TimelineEvent &event : result.timeline) {
        const Record &record = trace.records[event.record];
        out.object([&] {
          std::string name = record.kind == RecordKind::Compute
                                 ? trace.name(record.op).str()
                                 : getName(record.path()).str();
          out.attribute("name", name);
          out.attribute("cat", "item " + std::to_string(event.item));
          out.attribute("ph", "X");
          out.attribute("pid", event.core);
          out.attribute("tid", event.lane);
          out.attribute("ts", event.start * scale);
          out.attribute("dur", (event.end - event.start) * scale);
          out.attributeObject("args", [&] {
            out.attribute("record", static_cast<int64_t>(event.record));
            out.attribute("item", static_cast<int64_t>(event.item));
          });
        });
      }
    });
  });
  os.flush();
  return writeFileAtomically(path, text);
}
