//===- Passes.h - PTO passes ------------------------------------*- C++ -*-===//
#ifndef TILEKIT_DIALECT_PTO_TRANSFORMS_PASSES_H
#define TILEKIT_DIALECT_PTO_TRANSFORMS_PASSES_H

#include "tilekit/Machine/Machine.h"

#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Pass/Pass.h"

namespace tilekit::pto {

#define GEN_PASS_DECL
#include "tilekit/Dialect/PTO/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tilekit/Dialect/PTO/Transforms/Passes.h.inc"

} // namespace tilekit::pto

#endif // TILEKIT_DIALECT_PTO_TRANSFORMS_PASSES_H
