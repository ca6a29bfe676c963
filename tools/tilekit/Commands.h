//===- Commands.h - Subcommands of the tilekit driver -------------*- C++
//-*-===//

#ifndef TILEKIT_TOOLS_TILEKIT_COMMANDS_H
#define TILEKIT_TOOLS_TILEKIT_COMMANDS_H

#include "llvm/Support/CommandLine.h"

namespace tilekit::driver {

/// The category of every tilekit option; `--help` hides LLVM's own.
extern llvm::cl::OptionCategory optionCategory;

/// `tilekit check`: parse and verify a kernel, summarize its functions.
extern llvm::cl::SubCommand checkCommand;
int runCheck();

/// `tilekit run`: execute a kernel on the CPU, write and check its outputs.
extern llvm::cl::SubCommand runCommand;
int runRun();

} // namespace tilekit::driver

#endif // TILEKIT_TOOLS_TILEKIT_COMMANDS_H
