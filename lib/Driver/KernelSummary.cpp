//===- KernelSummary.cpp - What `tilekit check` reports of a kernel -------===//

#include "tilekit/Driver/KernelSummary.h"
#include "tilekit/Driver/KernelFile.h"

#include "tilekit/Machine/Machine.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace tilekit;
using namespace tilekit::driver;

static std::string typeText(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << type;
  return text;
}

static std::string symbolName(Operation *func) {
  return cast<func::FuncOp>(func).getSymName().str();
}

std::string driver::getLocationText(Location loc) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (auto fileLoc = dyn_cast<FileLineColLoc>(loc))
    os << fileLoc.getFilename().getValue() << ":" << fileLoc.getLine() << ":"
       << fileLoc.getColumn();
  else
    loc.print(os);
  return text;
}

llvm::json::Object driver::getDiagnosticJson(Diagnostic &diag) {
  StringRef severity = diag.getSeverity() == DiagnosticSeverity::Error ? "error"
                       : diag.getSeverity() == DiagnosticSeverity::Warning
                           ? "warning"
                           : "note";
  llvm::json::Object entry{{"severity", severity},
                           {"location", getLocationText(diag.getLocation())},
                           {"message", diag.str()}};
  llvm::json::Array notes;
  for (Diagnostic &note : diag.getNotes())
    notes.push_back(getDiagnosticJson(note));
  if (!notes.empty())
    entry["notes"] = std::move(notes);
  return entry;
}

std::vector<FunctionSummary> driver::summarizeKernel(KernelFile &kernel) {
  std::vector<FunctionSummary> summaries;
  for (auto func : kernel.getModule().getOps<func::FuncOp>()) {
    FunctionSummary summary;
    summary.name = func.getSymName().str();
    std::optional<pto::FunctionKind> kind = pto::getFunctionKind(func);
    summary.kind = kind ? pto::stringifyFunctionKind(*kind).str() : "none";
    if (!func.isExternal())
      for (BlockArgument arg : func.getArguments())
        summary.arguments.push_back(kernel.getArgumentName(arg));
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

static std::vector<BufferUse> describe(const pto::MemoryPlan &plan,
                                       KernelFile &kernel) {
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
           plan.reservedBytes(tile), getLocationText(tile.getLoc())});
    uses.push_back(std::move(use));
  }
  return uses;
}

void driver::addPlans(std::vector<FunctionSummary> &summaries,
                      ArrayRef<FunctionPlan> plans, KernelFile &kernel) {
  for (const FunctionPlan &plan : plans)
    for (FunctionSummary &summary : summaries)
      if (FunctionOpInterface(plan.func).getName() == summary.name) {
        summary.memory = describe(plan.plan, kernel);
        summary.copies = plan.plan.copies;
        summary.doubleBufferedLoops = plan.plan.doubleBufferedLoops;
      }
}

llvm::json::Object driver::toJson(ArrayRef<FunctionSummary> summaries) {
  llvm::json::Array functions;
  for (const FunctionSummary &summary : summaries) {
    llvm::json::Object entry{
        {"name", summary.name},
        {"kind", summary.kind},
        {"arguments", llvm::json::Array(summary.arguments)},
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
  return llvm::json::Object{{"functions", std::move(functions)}};
}
