//===- TuneCommand.cpp - `tilekit tune` -----------------------------------===//
//
// Tuning builds kernels from Python (tilekit.lang) and times them in
// parallel: the command runs the Python package's tuner
// (python/tilekit/tuning.py) with Debian's Python, the package found next
// to this binary as the build tree and an installation lay it out.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

using namespace llvm;

/// The directory holding the `tilekit` package: build/python in the build
/// tree, PREFIX/lib/python3/dist-packages when installed.
static std::string packageDirectory() {
  static int anchor;
  std::string executable = sys::fs::getMainExecutable(nullptr, &anchor);
  SmallString<256> prefix(
      sys::path::parent_path(sys::path::parent_path(executable)));
  for (StringRef relative : {"python", "lib/python3/dist-packages"}) {
    SmallString<256> dir(prefix);
    sys::path::append(dir, relative);
    SmallString<256> tuner(dir);
    sys::path::append(tuner, "tilekit", "tuning.py");
    if (sys::fs::exists(tuner))
      return std::string(dir);
  }
  return "";
}

int tilekit::driver::runTune(int argc, char **argv) {
  std::string package = packageDirectory();
  if (package.empty()) {
    errs() << "tilekit tune: the tilekit Python package is not next to this "
              "binary (build it with the Python module, docs/python.md)\n";
    return kExitBadInput;
  }
  std::string path = package;
  if (const char *existing = std::getenv("PYTHONPATH"); existing && *existing)
    path += std::string(":") + existing;
  ::setenv("PYTHONPATH", path.c_str(), /*overwrite=*/1);
  std::vector<char *> args = {const_cast<char *>("python3"),
                              const_cast<char *>("-m"),
                              const_cast<char *>("tilekit.tuning")};
  for (int i = 0; i < argc; ++i)
    args.push_back(argv[i]);
  args.push_back(nullptr);
  // Debian's Python, which has the packages the module needs.
  ::execv("/usr/bin/python3", args.data());
  errs() << "tilekit tune: cannot run /usr/bin/python3: "
         << std::strerror(errno) << "\n";
  return kExitBadInput;
}
