//===- CheckCommand.cpp - `tilekit check` ---------------------------------===//
//
// Parses and verifies a kernel, then lists its functions with their kinds
// and, for groups, the cube/vector pairing, split and lane count. Errors are
// reported with their source locations; `--json` gives the same as JSON.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"
#include "KernelFile.h"

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

namespace {
/// One function of the kernel, as `check` reports it.
struct FunctionSummary {
  std::string name;
  std::string kind;
  int64_t numOps = 0;
  std::optional<pto::GroupInfo> group;
};
} // namespace

static std::string symbolName(Operation *func) {
  return cast<func::FuncOp>(func).getSymName().str();
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
      diagnostics.push_back(llvm::json::Object{
          {"severity",
           diag.getSeverity() == DiagnosticSeverity::Error ? "error" : "note"},
          {"location", locationText(diag.getLocation())},
          {"message", diag.str()}});
      return success();
    });
  else
    textHandler.emplace(kernel.getSourceMgr(), &context);

  if (failed(kernel.load(inputFile))) {
    if (emitJson)
      llvm::outs() << llvm::formatv(
          "{0:2}\n", llvm::json::Value(llvm::json::Object{
                         {"file", inputFile},
                         {"ok", false},
                         {"diagnostics", std::move(diagnostics)}}));
    return 1;
  }
  std::vector<FunctionSummary> summaries = summarize(kernel.getModule());
  if (emitJson)
    llvm::outs() << llvm::formatv("{0:2}\n", toJson(summaries));
  else
    printText(llvm::outs(), summaries);
  return 0;
}
