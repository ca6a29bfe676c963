//===- CheckCommand.cpp - `tilekit check` ---------------------------------===//
//
// Parses and verifies a kernel, then lists its functions with their kinds
// and, for groups, the cube/vector pairing, split and lane count, and plans
// the memory of each in-core function against the machine config: its
// footprint per buffer, and an error where it cannot fit. Errors are
// reported with their source locations; `--json` gives the same as JSON.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"
#include "MemoryPlanning.h"
#include "tilekit/Driver/KernelFile.h"

#include "tilekit/Dialect/PTO/IR/PTODialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace tilekit;
namespace cl = llvm::cl;

cl::SubCommand &driver::checkCommand() {
  static cl::SubCommand command(
      "check", "Parse and verify a PTO kernel and list its functions");
  return command;
}

static cl::opt<std::string> inputFile(cl::Positional, cl::Required,
                                      cl::desc("<kernel.mlir>"),
                                      cl::sub(driver::checkCommand()),
                                      cl::cat(driver::optionCategory()));
static cl::opt<bool> emitJson("json",
                              cl::desc("Print the result (and any errors) as "
                                       "JSON on stdout"),
                              cl::sub(driver::checkCommand()),
                              cl::cat(driver::optionCategory()));
static cl::opt<bool> verbose("verbose",
                             cl::desc("Also list the tiles live at each "
                                      "buffer's peak"),
                             cl::sub(driver::checkCommand()),
                             cl::cat(driver::optionCategory()));

namespace {
/// A tile live at a buffer's peak.
struct PeakTile {
  std::string name;
  std::string type;
  int64_t bytes;
  std::string location;
};

/// A buffer of a planned function.
struct BufferUse {
  std::string buffer;
  int64_t bytes, capacity, peakLive;
  std::vector<PeakTile> liveAtPeak;
};

/// One function of the kernel, as `check` reports it.
struct FunctionSummary {
  std::string name;
  std::string kind;
  int64_t numOps = 0;
  std::optional<pto::GroupInfo> group;
  /// In-core functions: the planned footprint per buffer.
  std::optional<std::vector<BufferUse>> memory;
  unsigned copies = 0, doubleBufferedLoops = 0;
};
} // namespace

static std::string symbolName(Operation *func) {
  return cast<func::FuncOp>(func).getSymName().str();
}

static std::string locationText(Location loc);

static std::string typeText(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << type;
  return text;
}

static std::vector<BufferUse> describe(const pto::MemoryPlan &plan,
                                       const driver::KernelFile &kernel) {
  std::vector<BufferUse> uses;
  for (const pto::BufferFootprint &footprint : plan.footprints) {
    BufferUse use{machine::getName(footprint.buffer).str(),
                  footprint.highWater,
                  footprint.capacity,
                  footprint.peakLive,
                  {}};
    for (Value tile : footprint.liveAtPeak)
      use.liveAtPeak.push_back(
          {kernel.getValueName(tile).value_or("?"), typeText(tile.getType()),
           plan.reservedBytes(tile), locationText(tile.getLoc())});
    uses.push_back(std::move(use));
  }
  return uses;
}

static std::vector<FunctionSummary> summarize(ModuleOp module) {
  std::vector<FunctionSummary> summaries;
  for (auto func : module.getOps<func::FuncOp>()) {
    FunctionSummary summary;
    summary.name = func.getSymName().str();
    std::optional<pto::FunctionKind> kind = pto::getFunctionKind(func);
    summary.kind = kind ? pto::stringifyFunctionKind(*kind).str() : "none";
    func.walk([&](Operation *op) {
      if (op != func.getOperation())
        ++summary.numOps;
    });
    if (kind == pto::FunctionKind::Group)
      summary.group = pto::resolveGroup(func);
    summaries.push_back(std::move(summary));
  }
  return summaries;
}

/// Adds each planned function's footprint to its summary.
static void addPlans(std::vector<FunctionSummary> &summaries,
                     ArrayRef<driver::FunctionPlan> plans,
                     const driver::KernelFile &kernel) {
  for (const driver::FunctionPlan &plan : plans)
    for (FunctionSummary &summary : summaries)
      if (FunctionOpInterface(plan.func).getName() == summary.name) {
        summary.memory = describe(plan.plan, kernel);
        summary.copies = plan.plan.copies;
        summary.doubleBufferedLoops = plan.plan.doubleBufferedLoops;
      }
}

static void printText(llvm::raw_ostream &os,
                      ArrayRef<FunctionSummary> summaries) {
  os << inputFile << ": ok, " << summaries.size() << " function(s)\n";
  for (const FunctionSummary &summary : summaries) {
    os << "  @" << summary.name << "  " << summary.kind << ", "
       << summary.numOps << " op(s)";
    if (summary.group)
      os << "; runs @" << symbolName(summary.group->aic) << " with @"
         << symbolName(summary.group->aiv) << " on "
         << summary.group->numLanes() << " lane(s), split "
         << summary.group->split;
    os << "\n";
    if (!summary.memory)
      continue;
    os << "      memory:";
    for (const BufferUse &use : *summary.memory)
      os << llvm::formatv(" {0} {1} of {2} B ({3}%, peak {4} B live);",
                          use.buffer, use.bytes, use.capacity,
                          use.capacity ? 100 * use.bytes / use.capacity : 0,
                          use.peakLive);
    if (summary.copies)
      os << " " << summary.copies << " tile copy(ies) added by planning;";
    if (summary.doubleBufferedLoops)
      os << " " << summary.doubleBufferedLoops << " loop(s) double-buffered;";
    os << "\n";
    if (!verbose)
      continue;
    for (const BufferUse &use : *summary.memory)
      for (const PeakTile &tile : use.liveAtPeak)
        os << "        " << use.buffer << " at peak: %" << tile.name << " "
           << tile.type << ", " << tile.bytes << " B (" << tile.location
           << ")\n";
  }
}

static llvm::json::Value toJson(ArrayRef<FunctionSummary> summaries) {
  llvm::json::Array functions;
  for (const FunctionSummary &summary : summaries) {
    llvm::json::Object entry{{"name", summary.name},
                             {"kind", summary.kind},
                             {"ops", summary.numOps}};
    if (summary.group)
      entry["group"] = llvm::json::Object{
          {"aic", symbolName(summary.group->aic)},
          {"aiv", symbolName(summary.group->aiv)},
          {"split", summary.group->split},
          {"dual_aiv_dispatch", summary.group->dualAivDispatch},
          {"lanes", static_cast<int64_t>(summary.group->numLanes())}};
    if (summary.memory) {
      llvm::json::Array buffers;
      for (const BufferUse &use : *summary.memory) {
        llvm::json::Array peak;
        for (const PeakTile &tile : use.liveAtPeak)
          peak.push_back(llvm::json::Object{{"name", tile.name},
                                            {"type", tile.type},
                                            {"bytes", tile.bytes},
                                            {"location", tile.location}});
        buffers.push_back(
            llvm::json::Object{{"buffer", use.buffer},
                               {"bytes", use.bytes},
                               {"capacity", use.capacity},
                               {"peak_live", use.peakLive},
                               {"live_at_peak", std::move(peak)}});
      }
      entry["memory"] = llvm::json::Object{
          {"buffers", std::move(buffers)},
          {"copies", static_cast<int64_t>(summary.copies)},
          {"double_buffered_loops",
           static_cast<int64_t>(summary.doubleBufferedLoops)}};
    }
    functions.push_back(std::move(entry));
  }
  return llvm::json::Object{
      {"file", inputFile}, {"ok", true}, {"functions", std::move(functions)}};
}

static std::string locationText(Location loc) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (auto fileLoc = dyn_cast<FileLineColLoc>(loc))
    os << fileLoc.getFilename().getValue() << ":" << fileLoc.getLine() << ":"
       << fileLoc.getColumn();
  else
    loc.print(os);
  return text;
}

int driver::runCheck() {
  KernelFile kernel;
  MLIRContext &context = kernel.getContext();

  // With --json, diagnostics are collected instead of printed.
  llvm::json::Array diagnostics;
  std::optional<SourceMgrDiagnosticHandler> textHandler;
  std::optional<ScopedDiagnosticHandler> jsonHandler;
  if (emitJson)
    jsonHandler.emplace(&context, [&](Diagnostic &diag) {
      StringRef severity = "note";
      if (diag.getSeverity() == DiagnosticSeverity::Error)
        severity = "error";
      else if (diag.getSeverity() == DiagnosticSeverity::Warning)
        severity = "warning";
      diagnostics.push_back(
          llvm::json::Object{{"severity", severity},
                             {"location", locationText(diag.getLocation())},
                             {"message", diag.str()}});
      return success();
    });
  else
    textHandler.emplace(kernel.getSourceMgr(), &context);

  auto printFailure = [&] {
    if (emitJson)
      llvm::outs() << llvm::formatv(
          "{0:2}\n", llvm::json::Value(llvm::json::Object{
                         {"file", inputFile},
                         {"ok", false},
                         {"diagnostics", std::move(diagnostics)}}));
    return kExitBadInput;
  };
  if (failed(kernel.load(inputFile, "tilekit " + getCommandName().str())))
    return printFailure();
  // Counted as written, before planning adds copies or unrolls loops.
  std::vector<FunctionSummary> summaries = summarize(kernel.getModule());
  auto config = driver::loadConfig();
  if (!config)
    return driver::fail(toString(config.takeError()));
  // Planning may add copies to the module; `check` prints none of it.
  FailureOr<std::vector<driver::FunctionPlan>> plans =
      driver::planModule(kernel.getModule(), driver::getCapacities(*config),
                         /*apply=*/false, planOptions());
  if (failed(plans))
    return printFailure();
  for (const driver::FunctionPlan &plan : *plans)
    pto::warnHalfBuffers(plan.func, plan.plan);
  addPlans(summaries, *plans, kernel);
  if (emitJson) {
    llvm::json::Value result = toJson(summaries);
    if (!diagnostics.empty())
      (*result.getAsObject())["diagnostics"] = std::move(diagnostics);
    llvm::outs() << llvm::formatv("{0:2}\n", result);
  } else {
    printText(llvm::outs(), summaries);
  }
  return 0;
}