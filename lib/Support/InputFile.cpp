//===- InputFile.cpp - Reading a user's input file, bounded ---------------===//

#include "tilekit/Support/InputFile.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Process.h"

using namespace llvm;

Expected<std::unique_ptr<MemoryBuffer>> tilekit::readInputFile(StringRef path) {
  auto fail = [&](std::error_code code, const Twine &why) {
    return createStringError(code, "cannot read '" + path + "': " + why);
  };
  sys::fs::file_status status;
  bool isStdin = path == "-";
  if (!isStdin) {
    if (std::error_code code = sys::fs::status(path, status))
      return fail(code, code.message());
    if (status.type() == sys::fs::file_type::regular_file) {
      ErrorOr<std::unique_ptr<MemoryBuffer>> buffer =
          MemoryBuffer::getFile(path, /*IsText=*/false);
      if (!buffer)
        return fail(buffer.getError(), buffer.getError().message());
      return std::move(*buffer);
    }
    if (status.type() == sys::fs::file_type::directory_file)
      return fail(std::make_error_code(std::errc::is_a_directory),
                  "it is a directory");
  }
  // A stream: read in chunks, at most the limit.
  Expected<sys::fs::file_t> file =
      isStdin ? Expected<sys::fs::file_t>(sys::fs::getStdinHandle())
              : sys::fs::openNativeFileForRead(path);
  if (!file)
    return file.takeError();
  SmallString<0> contents;
  while (true) {
    if (contents.size() > kStreamInputLimit) {
      if (!isStdin)
        sys::fs::closeFile(*file);
      return fail(std::make_error_code(std::errc::file_too_large),
                  "the stream holds more than " + Twine(kStreamInputLimit) +
                      " bytes; save it to a file");
    }
    size_t before = contents.size();
    contents.resize_for_overwrite(before + (1 << 20));
    Expected<size_t> read = sys::fs::readNativeFile(
        *file, MutableArrayRef<char>(contents.data() + before, 1 << 20));
    if (!read) {
      if (!isStdin)
        sys::fs::closeFile(*file);
      return read.takeError();
    }
    contents.truncate(before + *read);
    if (*read == 0)
      break;
  }
  if (!isStdin)
    sys::fs::closeFile(*file);
  return MemoryBuffer::getMemBufferCopy(contents, path);
}
