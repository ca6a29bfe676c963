//===- BuildCache.cpp - Emitted C++ built into cached shared objects ------===//

#include "tilekit/Driver/BuildCache.h"

#include "tilekit/Support/SharedObject.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace tilekit;

static std::string &runtimeRootOverride() {
  static std::string root;
  return root;
}

void driver::setRuntimeRoot(StringRef root) {
  runtimeRootOverride() = root.str();
}

std::string driver::runtimeRoot() {
  if (!runtimeRootOverride().empty())
    return runtimeRootOverride();
  static int anchor;
  std::string executable = llvm::sys::fs::getMainExecutable(nullptr, &anchor);
  llvm::SmallString<256> path(
      llvm::sys::path::parent_path(llvm::sys::path::parent_path(executable)));
  llvm::sys::path::append(path, "share", "tilekit", "runtime");
  return std::string(path);
}

/// Every file of the runtime, in a fixed order.
static std::vector<std::string> runtimeFiles() {
  std::vector<std::string> files;
  std::error_code error;
  for (llvm::sys::fs::recursive_directory_iterator
           it(driver::runtimeRoot(), error),
       end;
       it != end && !error; it.increment(error))
    if (it->type() == llvm::sys::fs::file_type::regular_file)
      files.push_back(it->path());
  llvm::sort(files);
  return files;
}

static std::function<void(const driver::BuildRequest &)> &buildNotice() {
  static std::function<void(const driver::BuildRequest &)> notice;
  return notice;
}

void driver::setBuildNotice(std::function<void(const BuildRequest &)> notice) {
  buildNotice() = std::move(notice);
}

std::string driver::buildCacheDir() {
  if (std::optional<std::string> dir =
          llvm::sys::Process::GetEnv("TILEKIT_CACHE_DIR"))
    return *dir;
  llvm::SmallString<128> dir;
  if (std::optional<std::string> xdg =
          llvm::sys::Process::GetEnv("XDG_CACHE_HOME"))
    dir = *xdg;
  else if (std::optional<std::string> home = llvm::sys::Process::GetEnv("HOME"))
    llvm::sys::path::append(dir, *home, ".cache");
  else
    dir = "/tmp";
  llvm::sys::path::append(dir, "tilekit");
  return std::string(dir);
}

bool driver::runProgram(StringRef program, ArrayRef<StringRef> args,
                        std::string &output) {
  llvm::SmallString<128> log;
  if (llvm::sys::fs::createTemporaryFile("tilekit-build", "log", log))
    return false;
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(log),
                                          StringRef(log)};
  SmallVector<StringRef> argv{program};
  argv.append(args.begin(), args.end());
  int status =
      llvm::sys::ExecuteAndWait(program, argv, std::nullopt, redirects);
  if (auto text = llvm::MemoryBuffer::getFile(log))
    output = (*text)->getBuffer().str();
  llvm::sys::fs::remove(log);
  return status == 0;
}

static std::string readFile(StringRef path) {
  auto text = llvm::MemoryBuffer::getFile(path);
  return text ? (*text)->getBuffer().str() : std::string();
}

std::optional<std::string> driver::toolIdentity(StringRef program) {
  // Its binary (symlinks resolved), size and modification time, which an
  // upgrade changes (cheaper than asking it for --version in every
  // process).
  llvm::SmallString<128> binary;
  llvm::sys::fs::file_status status;
  if (llvm::sys::fs::real_path(program, binary) ||
      llvm::sys::fs::status(binary, status))
    return std::nullopt;
  return (binary + " " + llvm::Twine(status.getSize()) + " " +
          llvm::Twine(
              status.getLastModificationTime().time_since_epoch().count()))
      .str();
}

std::string driver::sourceOf(StringRef object) {
  return (object.drop_back(StringRef(".so").size()) + ".cpp").str();
}

FailureOr<std::string> driver::buildSharedObject(Operation *where,
                                                 const BuildRequest &request) {
  const std::string &option = request.option;
  llvm::ErrorOr<std::string> compiler =
      llvm::sys::findProgramByName("clang++-22");
  if (!compiler)
    return where->emitError()
           << option
           << " builds the emitted C++ with clang++-22, which is not on "
              "PATH (Debian's clang-22; scripts/install-deps.sh installs it)";
  std::optional<std::string> identity = toolIdentity(*compiler);
  if (!identity)
    return where->emitError() << option << ": cannot inspect " << *compiler;
  // The key: everything that goes into the object.
  llvm::SHA256 hash;
  auto add = [&](StringRef part) {
    hash.update(part);
    hash.update(StringRef("\0", 1));
  };
  add(request.source);
  add(*identity);
  for (const std::string &file : runtimeFiles())
    add(readFile(file));
  for (const std::vector<std::string> *list :
       {&request.flags, &request.includeDirs, &request.extraSources})
    for (const std::string &item : *list)
      add(item);
  std::string key = llvm::toHex(hash.final(), /*LowerCase=*/true).substr(0, 32);
  std::string dir = buildCacheDir();
  if (std::error_code error = llvm::sys::fs::create_directories(dir))
    return where->emitError() << option << ": cannot create the cache " << dir
                              << ": " << error.message();
  std::string object = dir + "/" + request.prefix + "-" + key + ".so";
  if (llvm::sys::fs::exists(object)) {
    // A damaged entry (a full disk, a crash, a hand edit) is built again
    // rather than crash the loader.
    llvm::Error damaged = checkSharedObject(object, request.symbol);
    if (!damaged)
      return object;
    llvm::consumeError(std::move(damaged));
    llvm::sys::fs::remove(object);
  }
  if (buildNotice())
    buildNotice()(request);
  // Built under a unique name, then renamed into place.
  llvm::SmallString<128> cpp, temporary;
  if (llvm::sys::fs::createUniqueFile(dir + "/build-%%%%%%%%.cpp", cpp) ||
      llvm::sys::fs::createUniqueFile(dir + "/build-%%%%%%%%.so", temporary))
    return where->emitError() << option << ": cannot write into " << dir;
  {
    std::error_code error;
    llvm::raw_fd_ostream os(cpp, error);
    os << request.source;
  }
  std::string root = runtimeRoot();
  std::vector<std::string> owned;
  for (const std::string &include : request.includeDirs)
    owned.push_back("-I" + root + "/" + include);
  owned.push_back(std::string(cpp));
  for (const std::string &extra : request.extraSources)
    owned.push_back(root + "/" + extra);
  SmallVector<StringRef> args(request.flags.begin(), request.flags.end());
  args.append(owned.begin(), owned.end());
  args.append({"-o", temporary});
  std::string output;
  if (!runProgram(*compiler, args, output)) {
    llvm::sys::fs::remove(cpp);
    llvm::sys::fs::remove(temporary);
    return where->emitError() << option
                              << ": clang++-22 failed to build the emitted "
                                 "C++:\n"
                              << output;
  }
  if (llvm::Error bad = checkSharedObject(temporary, request.symbol)) {
    llvm::sys::fs::remove(cpp);
    llvm::sys::fs::remove(temporary);
    return where->emitError()
           << option << ": clang++-22 built an object "
           << "that cannot be loaded: " << llvm::toString(std::move(bad));
  }
  if (std::error_code error = llvm::sys::fs::rename(cpp, sourceOf(object)))
    return where->emitError() << option << ": " << error.message();
  if (std::error_code error = llvm::sys::fs::rename(temporary, object))
    return where->emitError() << option << ": " << error.message();
  return object;
}
