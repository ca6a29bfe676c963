//===- Commands.h - Subcommands of the tilekit driver -------------*- C++ -*-===//

#ifndef TILEKIT_TOOLS_TILEKIT_COMMANDS_H
#define TILEKIT_TOOLS_TILEKIT_COMMANDS_H

#include "llvm/Support/CommandLine.h"

namespace tilekit::driver {

/// `tilekit check`: parse and verify a kernel, summarize its functions.
extern llvm::cl::SubCommand checkCommand;
int runCheck();

} // namespace tilekit::driver

#endif // TILEKIT_TOOLS_TILEKIT_COMMANDS_H
