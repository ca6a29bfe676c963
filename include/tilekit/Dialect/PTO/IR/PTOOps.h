//===- PTOOps.h - PTO operations ----------------------------------*- C++
//-*-===//

#ifndef TILEKIT_DIALECT_PTO_IR_PTOOPS_H
#define TILEKIT_DIALECT_PTO_IR_PTOOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "tilekit/Dialect/PTO/IR/PTODialect.h"
#include "tilekit/Dialect/PTO/IR/PTOTraits.h"
#include "tilekit/Interfaces/PipeOpInterface.h"

#include "tilekit/Dialect/PTO/IR/PTOInterfaces.h.inc"

#define GET_OP_CLASSES
#include "tilekit/Dialect/PTO/IR/PTOOps.h.inc"

#endif // TILEKIT_DIALECT_PTO_IR_PTOOPS_H
