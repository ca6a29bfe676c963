//===- tilekit-vf-image.cpp - Check a linked vf image, extract its .text --===//
//
// The check `tilekit compile --emit=vf-bundle` applies to the image it
// links, for images linked some other way: exits 0 and writes the `.text`
// bytes (with -o) when the worker can run the image, else prints which
// rule it breaks and exits 1.
//
//===----------------------------------------------------------------------===//

#include "tilekit/VF/DeviceImage.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include "tilekit/Support/AtomicFile.h"

namespace cl = llvm::cl;

static cl::opt<std::string> imagePath(cl::Positional, cl::Required,
                                      cl::desc("<image.elf>"));
static cl::opt<std::string>
    textPath("o", cl::desc("Write the image's .text bytes here"),
             cl::value_desc("FILE"));

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::ParseCommandLineOptions(
      argc, argv,
      "checks a linked vector-function image against the rules the "
      "worker relies on (docs/vector-functions.md) and extracts its .text\n");
  auto buffer = llvm::MemoryBuffer::getFile(imagePath);
  if (!buffer) {
    llvm::WithColor::error()
        << imagePath << ": " << buffer.getError().message() << "\n";
    return 1;
  }
  llvm::Expected<std::string> text = tilekit::vf::extractText(**buffer);
  if (!text) {
    llvm::WithColor::error()
        << imagePath << ": " << llvm::toString(text.takeError()) << "\n";
    return 1;
  }
  if (!textPath.empty())
    if (llvm::Error error = tilekit::writeFileAtomically(textPath, *text)) {
      llvm::WithColor::error() << llvm::toString(std::move(error)) << "\n";
      return 1;
    }
  llvm::outs() << imagePath << ": runnable, " << text->size()
               << " bytes of .text starting at kernel_entry\n";
  return 0;
}
