//===- Report.cpp - Summaries and timelines of a simulation ---------------===//

#include "tilekit/Timing/Simulator.h"

#include "tilekit/Support/AtomicFile.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
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

/// The use of `pipe` of one core kind: the cube core (subcore 0), or the
/// vector cores (subcores 1 and 2, counted each).
static PipeUse pipeUse(const SimResult &result, unsigned subcore, Pipe pipe) {
  PipeUse use;
  unsigned count = 0;
  for (const CoreStats &core : result.cores)
    for (unsigned s = 0; s < kNumSubcores; ++s) {
      if ((subcore == 0) != (s == 0))
        continue;
      uint64_t busy = core.busy[s][static_cast<unsigned>(pipe)];
      use.mean += busy;
      use.max = std::max(use.max, busy);
      ++count;
    }
  if (count)
    use.mean /= count;
  return use;
}

/// The report's rows: each core kind's pipes.
static constexpr unsigned kCubeRow = 0, kVectorRow = 1;
static StringRef rowName(unsigned row) {
  return row == kCubeRow ? "cube" : "vector";
}

static double percent(double part, uint64_t whole) {
  return whole ? 100.0 * part / whole : 0.0;
}

std::string timing::classifyBound(const SimResult &result) {
  uint64_t work =
      std::max({result.coreCycles, result.hbmCycles, result.l2Cycles});
  if (result.cycles == 0 || work == 0)
    return result.launchCycles ? "launch-bound" : "idle";
  // The launch is not a pipe's work: it bounds the kernel only when it
  // outlasts everything the cores and memories do.
  if (result.launchCycles >= work)
    return "launch-bound";
  if (result.hbmCycles >= result.coreCycles &&
      result.hbmCycles >= result.l2Cycles)
    return "memory-bound (HBM)";
  if (result.l2Cycles >= result.coreCycles)
    return "memory-bound (L2)";
  Pipe busiest = Pipe::S;
  uint64_t most = 0;
  for (unsigned row : {kCubeRow, kVectorRow})
    for (unsigned p = 0; p < kNumPipes; ++p) {
      uint64_t busy = pipeUse(result, row, static_cast<Pipe>(p)).max;
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

std::string timing::describePlacement(const SimResult &result) {
  uint64_t items = 0;
  for (const CoreStats &core : result.cores)
    items += core.items;
  if (result.vectorItems && result.vectorItems == items)
    return formatv("{0} of {1} vector cores", result.vectorCoresUsed,
                   2 * result.availableCores);
  return formatv("{0} of {1} AI cores", result.activeCores,
                 result.availableCores);
}

void timing::printReport(raw_ostream &os, const SimResult &result,
                         const MachineConfig &config) {
  os << format("cycles: %llu (%.3f us at %.2f GHz) on %s, %s\n",
               static_cast<unsigned long long>(result.cycles),
               result.seconds * 1e6, config.clockGHz,
               describePlacement(result).c_str(),
               classifyBound(result).c_str());
  os << format("  launch %llu cycles, then slowest core %llu, HBM bound %llu",
               static_cast<unsigned long long>(result.launchCycles),
               static_cast<unsigned long long>(result.coreCycles),
               static_cast<unsigned long long>(result.hbmCycles));
  if (config.l2Bytes)
    os << format(", L2 bound %llu",
                 static_cast<unsigned long long>(result.l2Cycles));
  os << "\n";
  os << "pipe busy (mean / busiest core):\n";
  for (unsigned row : {kCubeRow, kVectorRow})
    for (unsigned p = 0; p < kNumPipes; ++p) {
      PipeUse use = pipeUse(result, row, static_cast<Pipe>(p));
      if (use.max == 0)
        continue;
      os << format("  %-6s %-5s %6.1f%% / %6.1f%%\n", rowName(row).data(),
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
  os << format(
      "cube utilization %.1f%%, vector utilization %.1f%%\n",
      percent(pipeUse(result, kCubeRow, Pipe::M).mean, result.cycles),
      percent(pipeUse(result, kVectorRow, Pipe::V).mean, result.cycles));
  if (result.gmDependencies)
    os << result.gmDependencies
       << " work item(s) waited for earlier items through GM\n";
  if (result.idealCycles)
    os << format("ideal (the PTO schedule): %llu cycles; compiled: %+.1f%%\n",
                 static_cast<unsigned long long>(result.idealCycles),
                 100.0 *
                     (static_cast<double>(result.cycles) -
                      static_cast<double>(result.idealCycles)) /
                     static_cast<double>(result.idealCycles));
  Roofline roof = computeRoofline(result, config);
  if (roof.hasCubeWork())
    os << format("roofline: %.1f TFLOP/s achieved of %.1f attainable at %.1f "
                 "FLOP per HBM byte (cube peak %.1f TFLOP/s, HBM %.0f GB/s)\n",
                 roof.achievedFlops / 1e12, roof.attainableFlops / 1e12,
                 roof.intensity, roof.peakFlops / 1e12,
                 roof.hbmBytesPerSecond / 1e9);
  if (!rankWaits(result.waits).empty()) {
    os << "pipes waited on (cycles, all cores):";
    for (auto [reason, cycles] : rankWaits(result.waits))
      os << " " << getName(reason) << " " << cycles;
    os << "\n";
  }
  if (uint64_t waits = llvm::sum_of(result.sync.count)) {
    os << format("synchronization: %llu waits held pipes %llu cycles",
                 static_cast<unsigned long long>(waits),
                 static_cast<unsigned long long>(result.sync.totalCycles()));
    const char *separator = " (";
    for (unsigned k = 0; k < kNumSyncKinds; ++k) {
      if (!result.sync.count[k])
        continue;
      os << separator << getName(static_cast<SyncKind>(k)) << " "
         << result.sync.count[k] << " / " << result.sync.cycles[k];
      separator = ", ";
    }
    os << ")\n";
  }
  if (!result.defaultCostOps.empty()) {
    os << "timed with the default vector cost (no figure in the config): ";
    interleave(result.defaultCostOps, os, ", ");
    os << "\n";
  }
}

/// The source lines, busiest first (ties by location).
static std::vector<std::pair<uint32_t, const LineCost *>>
sortedLines(const SimResult &result) {
  std::vector<std::pair<uint32_t, const LineCost *>> lines;
  for (auto [loc, cost] : llvm::enumerate(result.lines))
    if (cost.total())
      lines.push_back({static_cast<uint32_t>(loc), &cost});
  // Busy time first: the work a line does, not the time it waits.
  llvm::stable_sort(lines, [](const auto &a, const auto &b) {
    return std::make_pair(a.second->busyTotal(), a.second->stalledTotal()) >
           std::make_pair(b.second->busyTotal(), b.second->stalledTotal());
  });
  return lines;
}

Roofline timing::computeRoofline(const SimResult &result,
                                 const MachineConfig &config) {
  Roofline roof;
  // The cube's steady rate: a large f16 product amortizes the head.
  constexpr uint64_t kLarge = 4096;
  double macsPerCycle =
      double(kLarge * kLarge * kLarge) /
      double(std::max<uint64_t>(
          1, config.cubeCycles(kLarge, kLarge, kLarge, "f16", 2)));
  double hz = config.clockGHz * 1e9;
  unsigned cores =
      result.availableCores ? result.availableCores : config.cubeCores;
  roof.peakFlops = 2 * macsPerCycle * cores * hz;
  roof.hbmBytesPerSecond = config.hbmBytesPerCycle * hz;
  if (result.seconds > 0 && result.cubeMacs) {
    roof.achievedFlops = 2.0 * result.cubeMacs / result.seconds;
    roof.intensity =
        2.0 * result.cubeMacs / std::max<double>(1, result.hbmBytes);
    roof.attainableFlops =
        std::min(roof.peakFlops, roof.intensity * roof.hbmBytesPerSecond);
  }
  return roof;
}

std::vector<std::pair<WaitReason, uint64_t>>
timing::rankWaits(const std::array<uint64_t, kNumWaitReasons> &waits) {
  std::vector<std::pair<WaitReason, uint64_t>> ranked;
  for (unsigned r = 0; r < kNumWaitReasons; ++r)
    if (waits[r])
      ranked.push_back({static_cast<WaitReason>(r), waits[r]});
  llvm::stable_sort(
      ranked, [](const auto &a, const auto &b) { return a.second > b.second; });
  return ranked;
}

std::vector<std::pair<uint32_t, uint64_t>>
timing::rankWaitedFor(const LineCost &cost, size_t limit) {
  std::vector<std::pair<uint32_t, uint64_t>> ranked(cost.waitedFor.begin(),
                                                    cost.waitedFor.end());
  llvm::stable_sort(
      ranked, [](const auto &a, const auto &b) { return a.second > b.second; });
  if (ranked.size() > limit)
    ranked.resize(limit);
  return ranked;
}

/// The text of line `line` of `file`, trimmed, if the file can be read.
static std::string
sourceLine(StringRef file, uint32_t line,
           std::map<std::string, std::unique_ptr<MemoryBuffer>> &files) {
  auto [it, inserted] = files.try_emplace(file.str());
  if (inserted) {
    ErrorOr<std::unique_ptr<MemoryBuffer>> buffer =
        MemoryBuffer::getFile(file, /*IsText=*/true);
    if (buffer)
      it->second = std::move(*buffer);
  }
  if (!it->second || line == 0)
    return "";
  StringRef text = it->second->getBuffer();
  for (uint32_t n = 1; n < line && !text.empty(); ++n)
    text = text.split('\n').second;
  return text.split('\n').first.trim().str();
}

void timing::printLineReport(raw_ostream &os, const SimResult &result,
                             const TraceTables &tables) {
  os << "cycles per source line, busiest first (busy: running its ops; "
        "waiting: its pipe idle until they could start):\n";
  std::map<std::string, std::unique_ptr<MemoryBuffer>> files;
  for (const auto &[loc, cost] : sortedLines(result)) {
    os << format("  busy %10llu  waiting %10llu  %s\n",
                 static_cast<unsigned long long>(cost->busyTotal()),
                 static_cast<unsigned long long>(cost->stalledTotal()),
                 loc ? tables.describeLocation(loc).c_str() : "(no location)");
    if (const SourceLocation *where = tables.location(loc)) {
      std::string text =
          sourceLine(tables.name(where->file), where->line, files);
      if (!text.empty())
        os << "              | " << text << "\n";
    }
    for (unsigned p = 0; p < kNumPipes; ++p)
      if (cost->busy[p] || cost->stalled[p])
        os << format("              %-5s busy %10llu  waiting %10llu\n",
                     getName(static_cast<Pipe>(p)).str().c_str(),
                     static_cast<unsigned long long>(cost->busy[p]),
                     static_cast<unsigned long long>(cost->stalled[p]));
    if (cost->stalledTotal()) {
      os << "              waits on:";
      for (auto [reason, cycles] : rankWaits(cost->waits))
        os << " " << getName(reason) << " " << cycles;
      for (auto [from, cycles] : rankWaitedFor(*cost, 3))
        os << "; " << cycles << " for " << tables.describeLocation(from);
      os << "\n";
    }
  }
}

void timing::printJsonReport(raw_ostream &os, const SimResult &result,
                             const MachineConfig &config,
                             const TraceTables *tables) {
  json::Object pipes;
  for (unsigned row : {kCubeRow, kVectorRow}) {
    json::Object rowPipes;
    for (unsigned p = 0; p < kNumPipes; ++p) {
      PipeUse use = pipeUse(result, row, static_cast<Pipe>(p));
      if (use.max == 0)
        continue;
      rowPipes[getName(static_cast<Pipe>(p))] =
          json::Object{{"busy_mean_pct", percent(use.mean, result.cycles)},
                       {"busy_max_pct", percent(use.max, result.cycles)}};
    }
    pipes[rowName(row)] = std::move(rowPipes);
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
    for (unsigned s = 0; s < kNumSubcores; ++s) {
      json::Object subcore;
      for (unsigned p = 0; p < kNumPipes; ++p)
        if (core.busy[s][p])
          subcore[getName(static_cast<Pipe>(p))] =
              static_cast<int64_t>(core.busy[s][p]);
      busy[getSubcoreName(s)] = std::move(subcore);
    }
    cores.push_back(json::Object{{"finish", static_cast<int64_t>(core.finish)},
                                 {"items", static_cast<int64_t>(core.items)},
                                 {"busy_cycles", std::move(busy)}});
  }
  json::Array lines;
  if (tables)
    for (const auto &[loc, cost] : sortedLines(result)) {
      json::Object pipeCosts;
      for (unsigned p = 0; p < kNumPipes; ++p)
        if (cost->busy[p] || cost->stalled[p])
          pipeCosts[getName(static_cast<Pipe>(p))] =
              json::Object{{"busy", static_cast<int64_t>(cost->busy[p])},
                           {"waiting", static_cast<int64_t>(cost->stalled[p])}};
      json::Object waitsOn;
      for (auto [reason, cycles] : rankWaits(cost->waits))
        waitsOn[getName(reason)] = static_cast<int64_t>(cycles);
      json::Array waitedFor;
      for (auto [from, cycles] : rankWaitedFor(*cost, 3))
        waitedFor.push_back(
            json::Object{{"location", tables->describeLocation(from)},
                         {"cycles", static_cast<int64_t>(cycles)}});
      json::Object line{{"cycles", static_cast<int64_t>(cost->total())},
                        {"busy", static_cast<int64_t>(cost->busyTotal())},
                        {"waiting", static_cast<int64_t>(cost->stalledTotal())},
                        {"waits_on", std::move(waitsOn)},
                        {"waited_for", std::move(waitedFor)},
                        {"pipes", std::move(pipeCosts)}};
      if (const SourceLocation *where = tables->location(loc)) {
        line["file"] = tables->name(where->file);
        line["line"] = static_cast<int64_t>(where->line);
        line["column"] = static_cast<int64_t>(where->column);
      }
      lines.push_back(std::move(line));
    }
  json::Array defaults;
  for (const std::string &op : result.defaultCostOps)
    defaults.push_back(op);
  Roofline roof = computeRoofline(result, config);
  json::Object waitsOn;
  for (unsigned r = 0; r < kNumWaitReasons; ++r)
    waitsOn[getName(static_cast<WaitReason>(r))] =
        static_cast<int64_t>(result.waits[r]);
  json::Object sync;
  for (unsigned k = 0; k < kNumSyncKinds; ++k)
    sync[getName(static_cast<SyncKind>(k))] =
        json::Object{{"waits", static_cast<int64_t>(result.sync.count[k])},
                     {"cycles", static_cast<int64_t>(result.sync.cycles[k])}};
  json::Object root{
      {"machine", config.name},
      {"cycles", static_cast<int64_t>(result.cycles)},
      {"seconds", result.seconds},
      {"launch_cycles", static_cast<int64_t>(result.launchCycles)},
      {"records", static_cast<int64_t>(result.records)},
      {"gm_dependent_items", static_cast<int64_t>(result.gmDependencies)},
      {"default_cost_ops", std::move(defaults)},
      {"core_cycles", static_cast<int64_t>(result.coreCycles)},
      {"hbm_cycles", static_cast<int64_t>(result.hbmCycles)},
      {"l2_cycles", static_cast<int64_t>(result.l2Cycles)},
      {"active_cores", static_cast<int64_t>(result.activeCores)},
      {"available_cores", static_cast<int64_t>(result.availableCores)},
      {"vector_items", static_cast<int64_t>(result.vectorItems)},
      {"vector_cores_used", static_cast<int64_t>(result.vectorCoresUsed)},
      {"placement", describePlacement(result)},
      {"sync", std::move(sync)},
      {"waits_on", std::move(waitsOn)},
      {"roofline", json::Object{{"peak_flops", roof.peakFlops},
                                {"hbm_bytes_per_s", roof.hbmBytesPerSecond},
                                {"achieved_flops", roof.achievedFlops},
                                {"intensity_flop_per_byte", roof.intensity},
                                {"attainable_flops", roof.attainableFlops}}},
      {"ideal_cycles", result.idealCycles ? json::Value(static_cast<int64_t>(
                                                result.idealCycles))
                                          : json::Value(nullptr)},
      {"bound", classifyBound(result)},
      {"cube_utilization_pct",
       percent(pipeUse(result, kCubeRow, Pipe::M).mean, result.cycles)},
      {"vector_utilization_pct",
       percent(pipeUse(result, kVectorRow, Pipe::V).mean, result.cycles)},
      {"gm_bytes", static_cast<int64_t>(result.gmBytes)},
      {"hbm_bytes", static_cast<int64_t>(result.hbmBytes)},
      {"cube_macs", static_cast<int64_t>(result.cubeMacs)},
      {"pipes", std::move(pipes)},
      {"paths", std::move(paths)},
      {"cores", std::move(cores)}};
  if (tables)
    root["lines"] = std::move(lines);
  os << formatv("{0:2}\n", json::Value(std::move(root)));
}

/// The thread of a timeline slice: a core of the AI core and a pipe; the
/// last one holds the work items.
static unsigned threadOf(unsigned subcore, unsigned pipe) {
  return subcore * kNumPipes + pipe;
}
static constexpr unsigned kItemThread = kNumSubcores * kNumPipes;

Error timing::writeTimeline(StringRef path, const SimResult &result,
                            const TraceTables &tables,
                            const MachineConfig &config) {
  // Microseconds per cycle; the cores start after the launch.
  double scale = 1.0 / (config.clockGHz * 1e3);
  uint64_t offset = result.launchCycles;
  std::string text;
  raw_string_ostream os(text);
  json::OStream out(os);
  auto name = [&](int64_t pid, int64_t tid, StringRef what, StringRef label) {
    out.object([&] {
      out.attribute("ph", "M");
      out.attribute("name", what);
      out.attribute("pid", pid);
      if (tid >= 0)
        out.attribute("tid", tid);
      out.attributeObject("args", [&] { out.attribute("name", label); });
    });
  };
  out.object([&] {
    out.attribute("displayTimeUnit", "ns");
    out.attributeArray("traceEvents", [&] {
      // The launch, on a device track of its own.
      int64_t device = static_cast<int64_t>(result.cores.size());
      name(device, -1, "process_name", "device");
      out.object([&] {
        out.attribute("name", "launch");
        out.attribute("ph", "X");
        out.attribute("pid", device);
        out.attribute("tid", 0);
        out.attribute("ts", 0.0);
        out.attribute("dur", offset * scale);
      });
      for (unsigned core = 0; core < result.cores.size(); ++core) {
        name(core, -1, "process_name", "AI core " + std::to_string(core));
        for (unsigned s = 0; s < kNumSubcores; ++s)
          for (unsigned p = 0; p < kNumPipes; ++p)
            name(core, threadOf(s, p), "thread_name",
                 (getSubcoreName(s) + " " +
                  getName(static_cast<Pipe>(p)).upper())
                     .str());
        name(core, kItemThread, "thread_name", "work items");
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
          out.attribute("tid", kItemThread);
          out.attribute("ts", (offset + span.first) * scale);
          out.attribute("dur", (span.second - span.first) * scale);
        });
      }
      for (const TimelineEvent &event : result.timeline) {
        out.object([&] {
          bool compute = event.kind == TILEKIT_TRACE_COMPUTE;
          std::string label =
              compute ? tables.name(event.op).str()
                      : getName(static_cast<DmaPath>(event.path)).str();
          if (event.kind == TILEKIT_TRACE_PUSH)
            label = "push " + label;
          out.attribute("name", label);
          out.attribute("cat", "item " + std::to_string(event.item));
          out.attribute("ph", "X");
          out.attribute("pid", event.core);
          out.attribute("tid", threadOf(event.subcore, event.pipe));
          out.attribute("ts", (offset + event.start) * scale);
          out.attribute("dur", (event.end - event.start) * scale);
          out.attributeObject("args", [&] {
            out.attribute("item", static_cast<int64_t>(event.item));
            if (event.loc)
              out.attribute("loc", tables.describeLocation(event.loc));
          });
        });
      }
    });
  });
  os.flush();
  return writeFileAtomically(path, text);
}
