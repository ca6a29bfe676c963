//===- AtomicFile.cpp - Files written completely or not at all ------------===//

#include "tilekit/Support/AtomicFile.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

/// Writes `contents` to a fresh temporary file next to `path`.
static Expected<sys::fs::TempFile> stage(StringRef path, StringRef contents) {
  auto fail = [&](const Twine &why) {
    return createStringError(inconvertibleErrorCode(),
                             "cannot write '" + path + "': " + why);
  };
  Expected<sys::fs::TempFile> temp =
      sys::fs::TempFile::create(path + ".tmp-%%%%%%");
  if (!temp)
    return fail(toString(temp.takeError()));
  raw_fd_ostream out(temp->FD, /*shouldClose=*/false);
  out << contents;
  out.flush();
  if (out.has_error()) {
    std::string message = out.error().message();
    out.clear_error();
    consumeError(temp->discard());
    return fail(message);
  }
  return std::move(*temp);
}

Error tilekit::writeFileAtomically(StringRef path, StringRef contents) {
  AtomicFileSet files;
  if (Error error = files.add(path, contents))
    return error;
  return files.commit();
}

tilekit::AtomicFileSet::~AtomicFileSet() {
  for (auto &[path, temp] : staged)
    consumeError(temp.discard());
}

Error tilekit::AtomicFileSet::add(StringRef path, StringRef contents) {
  // The same file under two spellings (a.npy, ./a.npy) is one file.
  auto normalized = [](StringRef file) {
    SmallString<256> full(file);
    sys::fs::make_absolute(full);
    sys::path::remove_dots(full, /*remove_dot_dot=*/true);
    return std::string(full);
  };
  for (auto &[other, temp] : staged)
    if (normalized(other) == normalized(path))
      return createStringError(inconvertibleErrorCode(),
                               "cannot write '" + path + "' twice in one run");
  Expected<sys::fs::TempFile> temp = stage(path, contents);
  if (!temp)
    return temp.takeError();
  staged.emplace_back(path.str(), std::move(*temp));
  return Error::success();
}

Error tilekit::AtomicFileSet::commit() {
  Error result = Error::success();
  for (auto &[path, temp] : staged)
    if (Error error = temp.keep(path))
      result = joinErrors(std::move(result),
                          createStringError(inconvertibleErrorCode(),
                                            "cannot write '" + path + "': " +
                                                toString(std::move(error))));
  staged.clear();
  return result;
}
