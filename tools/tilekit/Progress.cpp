//===- Progress.cpp - A progress line on stderr for long runs -------------===//

#include "Progress.h"
#include "Commands.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>

using namespace tilekit;
namespace cl = llvm::cl;

static cl::opt<bool> quiet("quiet", cl::desc("Show no progress line on stderr"),
                           cl::sub(driver::runCommand()),
                           cl::sub(driver::simCommand()),
                           cl::sub(driver::compileCommand()),
                           cl::cat(driver::optionCategory()));
static cl::opt<std::string> progressMode(
    "progress",
    cl::desc("When to show the progress line: auto (on a terminal, the "
             "default), always, never"),
    cl::value_desc("auto|always|never"), cl::init("auto"), cl::Hidden,
    cl::sub(driver::runCommand()), cl::sub(driver::simCommand()),
    cl::sub(driver::compileCommand()));

bool driver::progressEnabled() {
  if (quiet || progressMode == "never")
    return false;
  return progressMode == "always" || llvm::errs().is_displayed();
}

driver::ProgressLine::ProgressLine(llvm::StringRef what,
                                   const std::atomic<uint64_t> &count)
    : what(what.str()), count(count) {
  if (progressEnabled())
    thread = std::thread([this] { run(); });
}

driver::ProgressLine::~ProgressLine() {
  if (!thread.joinable())
    return;
  {
    std::lock_guard<std::mutex> lock(mutex);
    stopping = true;
  }
  stop.notify_all();
  thread.join();
}

void driver::ProgressLine::run() {
  using namespace std::chrono;
  auto started = steady_clock::now();
  std::unique_lock<std::mutex> lock(mutex);
  // Nothing for runs shorter than a second.
  if (stop.wait_for(lock, seconds(1), [this] { return stopping; }))
    return;
  do {
    double elapsed = duration<double>(steady_clock::now() - started).count();
    llvm::errs() << "\r" << getCommandName() << ": "
                 << count.load(std::memory_order_relaxed) << " " << what
                 << llvm::format(" (%.1f s)", elapsed) << "\x1b[K";
    llvm::errs().flush();
    drawn = true;
  } while (
      !stop.wait_for(lock, milliseconds(250), [this] { return stopping; }));
  if (drawn) {
    llvm::errs() << "\r\x1b[K";
    llvm::errs().flush();
  }
}
