//===- HtmlReport.cpp - A simulation as one self-contained HTML page ------===//
//
// `tilekit sim --report FILE.html`: the summary, each core's pipes busy over
// time, bytes per path, and the kernel's text with a heat column of cycles
// per line. Plain HTML and SVG written here, with a few lines of script
// that only check the page: nothing is fetched when it is viewed.
//
//===----------------------------------------------------------------------===//

#include "tilekit/Timing/Simulator.h"

#include "tilekit/Support/AtomicFile.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <map>
#include <set>

using namespace llvm;
using namespace tilekit;
using namespace tilekit::timing;
using namespace tilekit::trace;

namespace {

/// Columns of the utilisation chart, and the most cores it draws.
constexpr unsigned kBuckets = 120;
constexpr unsigned kMaxCoresDrawn = 8;

/// One colour per pipe, the same in every chart.
const char *pipeColor(unsigned pipe) {
  static const char *colors[] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2",
                                 "#59a14f", "#edc948", "#b07aa1", "#ff9da7",
                                 "#9c755f", "#bab0ac"};
  return colors[pipe % std::size(colors)];
}

std::string escape(StringRef text) {
  std::string out;
  for (char c : text) {
    switch (c) {
    case '<':
      out += "&lt;";
      break;
    case '>':
      out += "&gt;";
      break;
    case '&':
      out += "&amp;";
      break;
    case '"':
      out += "&quot;";
      break;
    default:
      out += c;
    }
  }
  return out;
}

/// Busy fraction of each (core, subcore, pipe) per time bucket.
using Row = std::array<double, kBuckets>;
struct RowKey {
  unsigned core, subcore, pipe;
  bool isLaunch() const { return pipe == ~0u; }
  bool operator<(const RowKey &other) const {
    return std::tuple(!isLaunch(), core, subcore, pipe) <
           std::tuple(!other.isLaunch(), other.core, other.subcore, other.pipe);
  }
};

/// The launch's row, drawn above every core's.
constexpr RowKey kLaunchRow{0, 0, ~0u};

std::map<RowKey, Row> bucketize(const SimResult &result) {
  std::map<RowKey, Row> rows;
  double width = std::max<double>(1.0, double(result.cycles) / kBuckets);
  auto add = [&](RowKey key, double start, double end) {
    auto [it, inserted] = rows.try_emplace(key);
    if (inserted)
      it->second.fill(0);
    for (unsigned b = std::min<unsigned>(start / width, kBuckets - 1);
         b < kBuckets && b * width < end; ++b) {
      double from = std::max<double>(start, b * width);
      double to = std::min<double>(end, (b + 1) * width);
      if (to > from)
        it->second[b] += (to - from) / width;
    }
  };
  // The launch first, on a row of its own; the cores start after it (as in
  // the Chrome timeline).
  if (result.launchCycles)
    add(kLaunchRow, 0, result.launchCycles);
  for (const TimelineEvent &event : result.timeline)
    if (event.core < kMaxCoresDrawn && event.end > event.start)
      add(RowKey{event.core, event.subcore, event.pipe},
          double(result.launchCycles + event.start),
          double(result.launchCycles + event.end));
  return rows;
}

void writeUtilisation(raw_ostream &os, const SimResult &result) {
  std::map<RowKey, Row> rows = bucketize(result);
  os << "<h2>Pipes busy over time</h2>\n";
  if (rows.empty()) {
    os << "<p>No timed records.</p>\n";
    return;
  }
  constexpr unsigned kLabel = 150, kCell = 6, kHeight = 14;
  unsigned height = rows.size() * kHeight + 24;
  os << "<svg id=\"utilisation\" width=\"" << kLabel + kBuckets * kCell + 10
     << "\" height=\"" << height << "\" role=\"img\">\n";
  unsigned y = 0;
  for (const auto &[key, row] : rows) {
    os << "<text x=\"0\" y=\"" << y + 11 << "\">";
    if (key.isLaunch())
      os << "launch";
    else
      os << "core " << key.core << " " << getSubcoreName(key.subcore) << " "
         << getName(static_cast<Pipe>(key.pipe));
    os << "</text>\n";
    const char *color = key.isLaunch() ? "#888888" : pipeColor(key.pipe);
    for (unsigned b = 0; b < kBuckets; ++b) {
      double busy = std::min(1.0, row[b]);
      if (busy <= 0)
        continue;
      os << "<rect x=\"" << kLabel + b * kCell << "\" y=\"" << y
         << "\" width=\"" << kCell << "\" height=\"" << kHeight - 2
         << "\" fill=\"" << color << "\" fill-opacity=\""
         << format("%.2f", 0.15 + 0.85 * busy) << "\"><title>"
         << format("%.0f%% busy, cycles %.0f-%.0f", 100 * busy,
                   b * double(result.cycles) / kBuckets,
                   (b + 1) * double(result.cycles) / kBuckets)
         << "</title></rect>\n";
    }
    y += kHeight;
  }
  os << "<text x=\"" << kLabel << "\" y=\"" << y + 16 << "\">0</text>"
     << "<text text-anchor=\"end\" x=\"" << kLabel + kBuckets * kCell
     << "\" y=\"" << y + 16 << "\">" << result.cycles
     << " cycles</text>\n</svg>\n";
  if (result.cores.size() > kMaxCoresDrawn)
    os << "<p>The first " << kMaxCoresDrawn << " of " << result.cores.size()
       << " cores.</p>\n";
}

void writePaths(raw_ostream &os, const SimResult &result) {
  os << "<h2>Bytes per path</h2>\n";
  uint64_t most = 0;
  for (uint64_t bytes : result.pathBytes)
    most = std::max(most, bytes);
  if (!most) {
    os << "<p>No data moved.</p>\n";
    return;
  }
  constexpr unsigned kLabel = 110, kBar = 500, kHeight = 18;
  unsigned count = 0;
  for (uint64_t bytes : result.pathBytes)
    count += bytes != 0;
  os << "<svg id=\"paths\" width=\"" << kLabel + kBar + 260 << "\" height=\""
     << count * kHeight << "\" role=\"img\">\n";
  unsigned y = 0;
  for (unsigned p = 0; p < kNumDmaPaths; ++p) {
    uint64_t bytes = result.pathBytes[p];
    if (!bytes)
      continue;
    double gbs = result.seconds > 0 ? bytes / result.seconds / 1e9 : 0;
    unsigned width = std::max<unsigned>(1, kBar * double(bytes) / most);
    os << "<text x=\"0\" y=\"" << y + 13 << "\">"
       << escape(getName(static_cast<DmaPath>(p))) << "</text><rect x=\""
       << kLabel << "\" y=\"" << y + 2 << "\" width=\"" << width
       << "\" height=\"" << kHeight - 4 << "\" fill=\"#4e79a7\"/><text x=\""
       << kLabel + width + 6 << "\" y=\"" << y + 13 << "\">" << bytes << " B, "
       << format("%.1f", gbs) << " GB/s</text>\n";
    y += kHeight;
  }
  os << "</svg>\n";
}

/// The lines that do the most work, with what they wait on and for.
void writeBusiestLines(raw_ostream &os, const SimResult &result,
                       const TraceTables &tables) {
  os << "<h2>Busiest lines</h2>\n";
  std::vector<std::pair<uint32_t, const LineCost *>> ranked;
  for (auto [loc, cost] : llvm::enumerate(result.lines))
    if (cost.total())
      ranked.push_back({static_cast<uint32_t>(loc), &cost});
  llvm::stable_sort(ranked, [](const auto &a, const auto &b) {
    return a.second->busyTotal() > b.second->busyTotal();
  });
  if (ranked.empty()) {
    os << "<p>No timed records.</p>\n";
    return;
  }
  constexpr size_t kShown = 15;
  os << "<table id=\"busiest\" class=\"source\">\n<tr><th>busy</th>"
     << "<th>waiting</th><th class=\"code\">line</th>"
     << "<th class=\"code\">waits on</th><th class=\"code\">waits for</th>"
     << "</tr>\n";
  for (const auto &[loc, cost] : ArrayRef(ranked).take_front(kShown)) {
    os << "<tr><td>" << cost->busyTotal() << "</td><td>" << cost->stalledTotal()
       << "</td><td class=\"code\">"
       << escape(loc ? tables.describeLocation(loc) : "(no location)")
       << "</td><td class=\"code\">";
    for (auto [reason, cycles] : rankWaits(cost->waits))
      os << escape(getName(reason)) << " " << cycles << " ";
    os << "</td><td class=\"code\">";
    for (auto [from, cycles] : rankWaitedFor(*cost, 2))
      os << escape(tables.describeLocation(from)) << " (" << cycles << ") ";
    os << "</td></tr>\n";
  }
  os << "</table>\n";
}

/// The kernel's point on the machine's roofline (log-log: FLOP per HBM
/// byte against cube FLOP/s).
void writeRoofline(raw_ostream &os, const SimResult &result,
                   const MachineConfig &config) {
  Roofline roof = computeRoofline(result, config);
  os << "<h2>Roofline</h2>\n";
  if (!roof.hasCubeWork()) {
    os << "<p>No cube work: the kernel is timed by its vector and data "
          "pipes.</p>\n";
    return;
  }
  constexpr double kWidth = 480, kHeight = 240, kLeft = 50, kBottom = 20;
  double ridge = roof.peakFlops / roof.hbmBytesPerSecond;
  double xMin = std::min(0.1, roof.intensity / 4),
         xMax = std::max(ridge * 16, roof.intensity * 4);
  double yMax = roof.peakFlops * 2,
         yMin = std::min(yMax / 1e5, std::max(roof.achievedFlops / 4, 1.0));
  auto x = [&](double v) {
    return kLeft + kWidth * (std::log10(v) - std::log10(xMin)) /
                       (std::log10(xMax) - std::log10(xMin));
  };
  auto y = [&](double v) {
    return kHeight * (1 - (std::log10(std::max(v, yMin)) - std::log10(yMin)) /
                              (std::log10(yMax) - std::log10(yMin)));
  };
  os << "<svg id=\"roofline\" width=\"" << kLeft + kWidth + 20 << "\" height=\""
     << kHeight + kBottom + 10 << "\" role=\"img\">\n";
  os << format("<polyline fill=\"none\" stroke=\"#4e79a7\" stroke-width="
               "\"2\" points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\"/>\n",
               x(xMin), y(xMin * roof.hbmBytesPerSecond), x(ridge),
               y(roof.peakFlops), x(xMax), y(roof.peakFlops));
  os << format("<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"#e15759\">"
               "<title>%.1f TFLOP/s at %.1f FLOP/B</title></circle>\n",
               x(roof.intensity), y(roof.achievedFlops),
               roof.achievedFlops / 1e12, roof.intensity);
  os << format("<text x=\"%.1f\" y=\"%.1f\">peak %.0f TFLOP/s</text>\n",
               x(ridge), y(roof.peakFlops) - 4, roof.peakFlops / 1e12);
  os << format("<text x=\"%.1f\" y=\"%.1f\">FLOP per HBM byte (log)"
               "</text>\n</svg>\n",
               kLeft, kHeight + kBottom);
  os << format("<p>%.1f TFLOP/s achieved of %.1f attainable at %.1f FLOP per "
               "HBM byte (cube peak %.1f TFLOP/s, HBM %.0f GB/s).</p>\n",
               roof.achievedFlops / 1e12, roof.attainableFlops / 1e12,
               roof.intensity, roof.peakFlops / 1e12,
               roof.hbmBytesPerSecond / 1e9);
}

/// Each source file with cycles, line by line, with a heat column.
void writeLines(raw_ostream &os, const SimResult &result,
                const TraceTables &tables) {
  os << "<h2>Cycles per source line</h2>\n";
  // file -> line -> cost
  std::map<std::string, std::map<uint32_t, LineCost>> files;
  uint64_t hottest = 0;
  std::set<unsigned> pipesUsed;
  for (auto [loc, cost] : llvm::enumerate(result.lines)) {
    const SourceLocation *where = tables.location(loc);
    if (!where || !cost.total())
      continue;
    LineCost &line = files[tables.name(where->file).str()][where->line];
    for (unsigned p = 0; p < kNumPipes; ++p) {
      line.busy[p] += cost.busy[p];
      line.stalled[p] += cost.stalled[p];
      if (cost.busy[p])
        pipesUsed.insert(p);
    }
    hottest = std::max(hottest, line.busyTotal());
  }
  if (files.empty()) {
    os << "<p>No records carry a source location.</p>\n";
    return;
  }
  for (const auto &[file, lines] : files) {
    os << "<h3>" << escape(file) << "</h3>\n<table class=\"source\">\n"
       << "<tr><th>line</th><th>busy</th><th>waiting</th>";
    for (unsigned p : pipesUsed)
      os << "<th>" << getName(static_cast<Pipe>(p)) << " busy</th>";
    os << "<th class=\"code\">source</th></tr>\n";
    ErrorOr<std::unique_ptr<MemoryBuffer>> buffer =
        MemoryBuffer::getFile(file, /*IsText=*/true);
    SmallVector<StringRef> text;
    // Without the file, the lines with cycles only.
    if (buffer)
      (*buffer)->getBuffer().split(text, '\n');
    uint32_t count = buffer ? text.size() : lines.rbegin()->first;
    for (uint32_t n = 1; n <= count; ++n) {
      auto it = lines.find(n);
      if (!buffer && it == lines.end())
        continue;
      uint64_t busy = it == lines.end() ? 0 : it->second.busyTotal();
      uint64_t waiting = it == lines.end() ? 0 : it->second.stalledTotal();
      double heat = hottest ? double(busy) / hottest : 0;
      os << "<tr><td>" << n << "</td><td class=\"heat\" style=\"background:"
         << "rgba(225,87,89," << format("%.2f", heat) << ")\">"
         << (busy ? std::to_string(busy) : "") << "</td><td>"
         << (waiting ? std::to_string(waiting) : "") << "</td>";
      for (unsigned p : pipesUsed) {
        uint64_t cycles = it == lines.end() ? 0 : it->second.busy[p];
        os << "<td>" << (cycles ? std::to_string(cycles) : "") << "</td>";
      }
      os << "<td class=\"code\">"
         << (buffer && n <= text.size() ? escape(text[n - 1]) : "")
         << "</td></tr>\n";
    }
    os << "</table>\n";
  }
}

} // namespace

Error timing::writeHtmlReport(StringRef path, const SimResult &result,
                              const TraceTables &tables,
                              const MachineConfig &config) {
  std::string page;
  raw_string_ostream os(page);
  std::string json;
  raw_string_ostream jsonStream(json);
  printJsonReport(jsonStream, result, config, &tables);
  // A "</" inside the embedded JSON would end its script element.
  std::string embedded;
  for (size_t i = 0; i < json.size(); ++i)
    embedded +=
        json[i] == '<' ? std::string("\\u003c") : std::string(1, json[i]);

  os << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">"
     << "\n<title>tilekit sim: " << escape(config.name) << ", " << result.cycles
     << " cycles</title>\n<style>\n"
     << "body{font-family:sans-serif;margin:1.5em;color:#222}\n"
     << "svg text{font-size:11px;font-family:monospace}\n"
     << "table.source{border-collapse:collapse;font-size:12px}\n"
     << "table.source td,table.source th{padding:0 6px;text-align:right}\n"
     << "td.code,th.code{text-align:left!important;font-family:monospace;"
        "white-space:pre}\n"
     << "dl{display:grid;grid-template-columns:max-content auto;gap:2px 12px}"
     << "\n</style>\n</head>\n<body>\n";
  os << "<h1>" << result.cycles << " cycles on " << escape(config.name)
     << "</h1>\n<dl>\n<dt>time</dt><dd>"
     << format("%.3f us", result.seconds * 1e6) << "</dd>\n<dt>bound</dt><dd>"
     << escape(classifyBound(result)) << "</dd>\n<dt>waits</dt><dd>";
  for (auto [reason, cycles] : rankWaits(result.waits))
    os << escape(getName(reason)) << " " << cycles << " ";
  os << "</dd>\n<dt>launch</dt><dd>" << result.launchCycles
     << " cycles</dd>\n<dt>cores</dt><dd>" << escape(describePlacement(result))
     << "</dd>\n";
  if (result.idealCycles)
    os << "<dt>ideal</dt><dd>" << result.idealCycles
       << " cycles (the PTO schedule)</dd>\n";
  os << "<dt>records</dt><dd>" << result.records << "</dd>\n</dl>\n";
  writeUtilisation(os, result);
  writePaths(os, result);
  writeRoofline(os, result, config);
  writeBusiestLines(os, result, tables);
  writeLines(os, result, tables);
  os << "<script type=\"application/json\" id=\"report\">" << embedded
     << "</script>\n"
     << "<script>\n"
     // The browser test reads these: the report parses and the charts are
     // in the page.
     << "const report = JSON.parse(document.getElementById('report')"
        ".textContent);\n"
     << "document.documentElement.dataset.cycles = report.cycles;\n"
     << "document.documentElement.dataset.rendered = "
        "document.querySelectorAll('svg, table').length > 0 ? 'ok' : 'empty';\n"
     << "</script>\n</body>\n</html>\n";
  return writeFileAtomically(path, os.str());
}
