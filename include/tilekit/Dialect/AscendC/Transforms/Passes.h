//===- Passes.h - AscendC passes --------------------------------*- C++ -*-===//

#ifndef TILEKIT_DIALECT_ASCENDC_TRANSFORMS_PASSES_H
#define TILEKIT_DIALECT_ASCENDC_TRANSFORMS_PASSES_H

#include "tilekit/Dialect/AscendC/IR/AscendCDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace tilekit::ascendc {

#define GEN_PASS_DECL
#include "tilekit/Dialect/AscendC/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tilekit/Dialect/AscendC/Transforms/Passes.h.inc"

} // namespace tilekit::ascendc

#endif // TILEKIT_DIALECT_ASCENDC_TRANSFORMS_PASSES_H
