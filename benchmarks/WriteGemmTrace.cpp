//===- WriteGemmTrace.cpp - A GEMM trace file of any length ---------------===//
//
// Writes the trace of GemmTrace.h to a file, streaming, for end-to-end
// measurements of `tilekit sim --trace FILE` (benchmarks/README.md):
//
//   tilekit-write-gemm-trace M K N OUT.bin
//
//===----------------------------------------------------------------------===//

#include "GemmTrace.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

using namespace tilekit;

int main(int argc, char **argv) {
  uint32_t size[3];
  if (argc != 5 || llvm::StringRef(argv[1]).getAsInteger(10, size[0]) ||
      llvm::StringRef(argv[2]).getAsInteger(10, size[1]) ||
      llvm::StringRef(argv[3]).getAsInteger(10, size[2])) {
    llvm::errs() << "usage: tilekit-write-gemm-trace M K N OUT.bin\n";
    return 2;
  }
  trace::TraceTables tables;
  auto writer = trace::TraceFileWriter::create(argv[4], tables);
  if (!writer) {
    llvm::errs() << toString(writer.takeError()) << "\n";
    return 1;
  }
  bench::writeGemmTrace(**writer, size[0], size[1], size[2]);
  if (llvm::Error error = (*writer)->finish()) {
    llvm::errs() << toString(std::move(error)) << "\n";
    return 1;
  }
  return 0;
}
