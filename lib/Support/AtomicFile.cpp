//===- AtomicFile.cpp - Files written completely or not at all ------------===//

#include "tilekit/Support/AtomicFile.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

Error tilekit::writeFileAtomically(StringRef path, StringRef contents) {
  auto fail = [&](const Twine &why) {
    return createStringError(inconvertibleErrorCode(),
                             "cannot write '" + path + "': " + why);
  };
  Expected<sys::fs::TempFile> temp =
      sys::fs::TempFile::create(path + ".tmp-%%%%%%");
  if (!temp)
    return fail(toString(temp.takeError()));
  {
    raw_fd_ostream out(temp->FD, /*shouldClose=*/false);
    out << contents;
    out.flush();
    if (out.has_error()) {
      std::string message = out.error().message();
      out.clear_error();
      consumeError(temp->discard());
      return fail(message);
    }
  }
  if (Error error = temp->keep(path))
    return fail(toString(std::move(error)));
  return Error::success();
}
