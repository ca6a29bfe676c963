//===- CheckCommand.cpp - `tilekit check` ---------------------------------===//
//
// Parses and verifies a kernel, then lists its functions with their kinds
// and, for groups, the cube/vector pairing, split and lane count, and plans
// the memory of each in-core function against the machine config: its
// footprint per buffer, and an error where it cannot fit. Errors are
// reported with their source locations; `--json` gives the same as JSON.
//
// Then it runs compile's own checks on a copy: the group merge's static
// pipe and split checks always, and with `--arch` the whole compilation
// for that architecture and the C++ emission, so that every op that will
// not compile is listed (each at its location, with what to write
// instead) before `tilekit compile` is tried.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"
#include "MemoryPlanning.h"
#include "tilekit/Driver/KernelFile.h"
#include "tilekit/Driver/KernelSummary.h"

#include "tilekit/Conversion/AscendCToEmitC.h"
#include "tilekit/Conversion/PTOToAscendC.h"
#include "tilekit/Dialect/PTO/IR/PTODialect.h"
#include "tilekit/Dialect/PTO/Transforms/Passes.h"
#include "tilekit/Driver/CompilePipeline.h"

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

static cl::opt<std::string>
    archName("arch",
             cl::desc("Also compile a copy for this architecture, as "
                      "`tilekit compile` would, down to its C++: every op that "
                      "will not compile is an error at its location with what "
                      "to write instead (the default config is the arch's)"),
             cl::value_desc("c220|c310"), cl::sub(driver::checkCommand()),
             cl::cat(driver::optionCategory()));

using driver::BufferUse;
using driver::FunctionSummary;
using driver::PeakTile;

static std::string symbolName(Operation *func) {
  return cast<func::FuncOp>(func).getSymName().str();
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

/// Compile's checks on a copy of `module`: the group merge (pipe ids,
/// split codes, slot use) and, for `arch`, the whole compilation and the
/// C++ emission. Failures are reported as diagnostics.
static LogicalResult checkCompiles(ModuleOp module,
                                   std::optional<ascendc::Arch> arch,
                                   const pto::BufferCapacities &capacities) {
  OwningOpRef<ModuleOp> copy = module.clone();
  PassManager pm(module.getContext(), ModuleOp::getOperationName());
  if (!arch) {
    pm.addPass(createMergeGroups());
    return pm.run(*copy);
  }
  // First every op the lowering refuses (not only the first), each with
  // what to write instead; then, when it takes them all, the rest of the
  // compilation and the C++ emission.
  if (driver::holdsPTO(*copy)) {
    OwningOpRef<ModuleOp> listed = module.clone();
    driver::markArch(*listed, *arch);
    PassManager listing(module.getContext(), ModuleOp::getOperationName());
    listing.addPass(pto::createOutlineTensorCompute());
    listing.addPass(createMergeGroups());
    ConvertPTOToAscendCOptions every;
    every.everyRefusal = true;
    listing.addPass(createConvertPTOToAscendC(every));
    if (failed(listing.run(*listed)))
      return failure();
  }
  driver::buildCompilePipeline(pm, *copy, *arch, /*lowerToL0=*/false, "",
                               capacities, /*cores=*/0, driver::planOptions());
  if (failed(pm.run(*copy)))
    return failure();
  return translateAscendCToCpp(*copy, llvm::nulls());
}

int driver::runCheck() {
  std::optional<ascendc::Arch> arch;
  if (!archName.empty()) {
    arch = ascendc::parseArchName(archName);
    if (!arch)
      return driver::fail("--arch: expected c220 or c310, not '" + archName +
                          "'");
    setDefaultConfigForArch(*arch);
  }
  KernelFile kernel;
  MLIRContext &context = kernel.getContext();

  // With --json, diagnostics are collected instead of printed.
  llvm::json::Array diagnostics;
  std::optional<SourceMgrDiagnosticHandler> textHandler;
  std::optional<ScopedDiagnosticHandler> jsonHandler;
  if (emitJson)
    jsonHandler.emplace(&context, [&](Diagnostic &diag) {
      diagnostics.push_back(driver::getDiagnosticJson(diag));
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
                         {"status", static_cast<int>(kExitBadInput)},
                         {"diagnostics", std::move(diagnostics)}}));
    return kExitBadInput;
  };
  if (failed(kernel.load(inputFile, "tilekit " + getCommandName().str())))
    return printFailure();
  // Counted as written, before planning adds copies or unrolls loops.
  std::vector<FunctionSummary> summaries = driver::summarizeKernel(kernel);
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
  driver::addPlans(summaries, *plans, kernel);
  if (failed(checkCompiles(kernel.getModule(), arch,
                           driver::getCapacities(*config))))
    return printFailure();
  if (emitJson) {
    llvm::json::Object result = driver::toJson(summaries);
    result["file"] = inputFile;
    result["ok"] = true;
    if (arch)
      result["compiles_for"] = archName;
    if (!diagnostics.empty())
      result["diagnostics"] = std::move(diagnostics);
    llvm::outs() << llvm::formatv("{0:2}\n",
                                  llvm::json::Value(std::move(result)));
  } else {
    printText(llvm::outs(), summaries);
    if (arch)
      llvm::outs() << "  compiles for " << archName << "\n";
  }
  return 0;
}