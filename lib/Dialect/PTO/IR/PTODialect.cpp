//===- PTODialect.cpp - PTO dialect registration --------------------------===//

#include "tilekit/Dialect/PTO/IR/PTOOps.h"

using namespace mlir;
using namespace tilekit::pto;

#include "tilekit/Dialect/PTO/IR/PTODialect.cpp.inc"

void PTODialect::initialize() {
  registerTypes();
  registerAttributes();
  addOperations<
#define GET_OP_LIST
#include "tilekit/Dialect/PTO/IR/PTOOps.cpp.inc"
      >();
}
