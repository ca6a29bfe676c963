//===- MemoryPlanning.cpp - Machine config and memory plans for the driver ===//

#include "MemoryPlanning.h"
#include "Commands.h"
#include "tilekit/Driver/CompilePipeline.h"
#include "tilekit/Driver/KernelFile.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using namespace tilekit;
namespace cl = llvm::cl;

static cl::opt<std::string> configPath(
    "config",
    cl::desc("Machine description: buffer capacities for memory planning "
             "and, in sim, the timing model (default: ascend910b.json in "
             "share/tilekit/configs beside the tilekit binary's directory; "
             "ascend950.json for sim --arch=c310)"),
    cl::value_desc("FILE.json"), cl::sub(driver::checkCommand()),
    cl::sub(driver::compileCommand()), cl::sub(driver::runCommand()),
    cl::sub(driver::simCommand()), cl::cat(driver::optionCategory()));

static cl::opt<cl::boolOrDefault> planMemoryOption(
    "plan-memory",
    cl::desc("Give every tile an address (pto-plan-memory) before running, "
             "and fail at once if a function does not fit the config's "
             "buffers (default: on for sim and compile --emit=trace-producer, "
             "off for run)"),
    cl::sub(driver::runCommand()), cl::sub(driver::simCommand()),
    cl::sub(driver::compileCommand()), cl::cat(driver::optionCategory()));

static cl::opt<bool> doubleBuffer(
    "double-buffer",
    cl::desc("When planning memory, double-buffer the loads of loops where "
             "the plan still fits (each such loop is unrolled by two)"),
    cl::sub(driver::checkCommand()), cl::sub(driver::runCommand()),
    cl::sub(driver::simCommand()), cl::sub(driver::compileCommand()),
    cl::cat(driver::optionCategory()));

static cl::opt<bool> noCapacityCheck(
    "no-capacity-check",
    cl::desc("Run a PTO kernel even if its work items do not fit the "
             "config's buffers (by default run refuses it with the error "
             "check and compile give)"),
    cl::sub(driver::runCommand()), cl::cat(driver::optionCategory()));

/// The config a command reads without --config: the 910B's, unless an
/// architecture says otherwise.
static const char *defaultConfigName = "ascend910b.json";

void driver::setDefaultConfigForArch(ascendc::Arch arch) {
  defaultConfigName =
      arch == ascendc::Arch::C310 ? "ascend950.json" : "ascend910b.json";
}

/// share/tilekit/configs/<default> next to the binary's bin/ directory:
/// the layout of both the build tree and an installation.
static std::string defaultConfigPath() {
  static int anchor;
  std::string executable = llvm::sys::fs::getMainExecutable(nullptr, &anchor);
  llvm::SmallString<256> path(
      llvm::sys::path::parent_path(llvm::sys::path::parent_path(executable)));
  llvm::sys::path::append(path, "share", "tilekit", "configs",
                          defaultConfigName);
  return std::string(path);
}

llvm::Expected<timing::MachineConfig> driver::loadConfig() {
  return timing::loadMachineConfig(
      configPath.empty() ? defaultConfigPath() : std::string(configPath));
}

pto::PlanOptions driver::planOptions() {
  pto::PlanOptions options;
  options.doubleBuffer = doubleBuffer;
  return options;
}

bool driver::shouldCheckCapacity() { return !noCapacityCheck; }

bool driver::shouldPlanMemory() {
  if (planMemoryOption == cl::BOU_UNSET)
    return getCommandName() == "sim" || getCommandName() == "compile";
  return planMemoryOption == cl::BOU_TRUE;
}

LogicalResult driver::planAsSimPlans(KernelFile &kernel) {
  // sim plans the kernels compile writes for the orchestration's data ops
  // with the rest (RunCommand.cpp): they are written first, so that their
  // tiles get addresses and share storage as the plan puts them.
  if (holdsPTO(kernel.getModule()) &&
      failed(outlineTensorCompute(kernel.getModule())))
    return failure();
  if (!shouldPlanMemory())
    return success();
  auto config = loadConfig();
  if (!config) {
    fail(toString(config.takeError()));
    return failure();
  }
  return planModule(kernel.getModule(), getCapacities(*config),
                    /*apply=*/true, planOptions());
}
