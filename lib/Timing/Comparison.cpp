//===- Comparison.cpp - Two timing reports side by side -------------------===//

#include "tilekit/Timing/Comparison.h"

#include "llvm/Support/FormatVariadic.h"

#include <map>

using namespace tilekit;
using namespace llvm;

namespace {
/// A line's cycles and where it is ("file:line:column").
struct LineCycles {
  int64_t cycles = 0;
  std::string where;
};
using LineKey = std::pair<int64_t, int64_t>; // line, column
} // namespace

/// {(core kind, pipe): mean busy %} of a report.
static std::map<std::pair<std::string, std::string>, double>
pipeBusy(const json::Object &report) {
  std::map<std::pair<std::string, std::string>, double> busy;
  if (const json::Object *kinds = report.getObject("pipes"))
    for (const auto &[kind, pipes] : *kinds)
      if (const json::Object *byPipe = pipes.getAsObject())
        for (const auto &[pipe, figures] : *byPipe)
          if (const json::Object *f = figures.getAsObject())
            busy[{kind.str(), pipe.str()}] =
                f->getNumber("busy_mean_pct").value_or(0);
  return busy;
}

/// The cycles of each source line of a by-line report, its pipes summed.
static std::map<LineKey, LineCycles> lineCycles(const json::Object &report) {
  std::map<LineKey, LineCycles> lines;
  if (const json::Array *entries = report.getArray("lines"))
    for (const json::Value &value : *entries) {
      const json::Object *entry = value.getAsObject();
      if (!entry || !entry->getInteger("line"))
        continue;
      LineKey key{*entry->getInteger("line"),
                  entry->getInteger("column").value_or(0)};
      LineCycles &line = lines[key];
      line.cycles += entry->getInteger("cycles").value_or(0);
      line.where = formatv("{0}:{1}:{2}", entry->getString("file").value_or(""),
                           key.first, key.second)
                       .str();
    }
  return lines;
}

static json::Object summary(const json::Object &report) {
  return json::Object{{"cycles", report.getInteger("cycles").value_or(0)},
                      {"bound", report.getString("bound").value_or("")},
                      {"seconds", report.getNumber("seconds").value_or(0)}};
}

json::Object timing::compareReports(const json::Object &a,
                                    const json::Object &b, unsigned top) {
  auto busyA = pipeBusy(a), busyB = pipeBusy(b);
  auto keys = busyA;
  keys.insert(busyB.begin(), busyB.end());
  json::Array pipes;
  for (const auto &[key, unused] : keys) {
    (void)unused;
    pipes.push_back(json::Object{{"core", key.first},
                                 {"pipe", key.second},
                                 {"a_busy_pct", busyA[key]},
                                 {"b_busy_pct", busyB[key]}});
  }
  auto linesA = lineCycles(a), linesB = lineCycles(b);
  struct Change {
    std::string where;
    int64_t a, b;
  };
  std::vector<Change> changes;
  auto all = linesA;
  all.insert(linesB.begin(), linesB.end());
  for (const auto &[key, unused] : all) {
    (void)unused;
    const LineCycles &lineA = linesA[key], &lineB = linesB[key];
    if (lineA.cycles != lineB.cycles)
      changes.push_back({lineB.where.empty() ? lineA.where : lineB.where,
                         lineA.cycles, lineB.cycles});
  }
  // Largest change first; ties in source order, so the result is stable.
  llvm::stable_sort(changes, [](const Change &x, const Change &y) {
    int64_t dx = std::abs(x.b - x.a), dy = std::abs(y.b - y.a);
    return dx != dy ? dx > dy : x.where < y.where;
  });
  if (changes.size() > top)
    changes.resize(top);
  json::Array lines;
  for (const Change &change : changes)
    lines.push_back(json::Object{{"location", change.where},
                                 {"a_cycles", change.a},
                                 {"b_cycles", change.b},
                                 {"change", change.b - change.a}});
  int64_t cyclesA = a.getInteger("cycles").value_or(0);
  int64_t cyclesB = b.getInteger("cycles").value_or(0);
  return json::Object{
      {"a", summary(a)},
      {"b", summary(b)},
      {"speedup", cyclesB ? json::Value(double(cyclesA) / double(cyclesB))
                          : json::Value(nullptr)},
      {"pipes", std::move(pipes)},
      {"lines", std::move(lines)}};
}

void timing::printComparison(raw_ostream &os, const json::Object &comparison) {
  const json::Object *a = comparison.getObject("a");
  const json::Object *b = comparison.getObject("b");
  os << formatv(
      "cycles: A {0} ({1}), B {2} ({3})", a->getInteger("cycles").value_or(0),
      a->getString("bound").value_or(""), b->getInteger("cycles").value_or(0),
      b->getString("bound").value_or(""));
  if (std::optional<double> speedup = comparison.getNumber("speedup"))
    os << formatv(", B is {0:F2}x as fast", *speedup);
  os << "\npipe busy, mean over cores (A -> B):\n";
  for (const json::Value &value : *comparison.getArray("pipes")) {
    const json::Object *pipe = value.getAsObject();
    os << formatv("  {0,-6} {1,-5} {2,6:F1}% -> {3,6:F1}%\n",
                  pipe->getString("core").value_or(""),
                  pipe->getString("pipe").value_or(""),
                  pipe->getNumber("a_busy_pct").value_or(0),
                  pipe->getNumber("b_busy_pct").value_or(0));
  }
  const json::Array *lines = comparison.getArray("lines");
  if (!lines || lines->empty())
    return;
  os << "lines whose cost changed most (cycles A -> B):\n";
  for (const json::Value &value : *lines) {
    const json::Object *line = value.getAsObject();
    int64_t change = line->getInteger("change").value_or(0);
    os << formatv("  {0}  {1} -> {2} ({3}{4})\n",
                  line->getString("location").value_or(""),
                  line->getInteger("a_cycles").value_or(0),
                  line->getInteger("b_cycles").value_or(0),
                  change >= 0 ? "+" : "", change);
  }
}
