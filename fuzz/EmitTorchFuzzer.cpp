//===- EmitTorchFuzzer.cpp - The torch emitter on verified kernels --------===//

#include "KernelFuzzer.h"

#include "tilekit/Target/TorchEmitter.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  mlir::OwningOpRef<mlir::ModuleOp> module =
      tilekit::fuzz::parseKernel(data, size);
  if (!module)
    return 0;
  std::string script;
  llvm::raw_string_ostream os(script);
  tilekit::TorchEmitOptions options;
  options.checkShapes = size % 2 == 0;
  (void)tilekit::emitTorchScript(*module, os, options);
  return 0;
}
