//===- PTOAttrs.cpp - PTO enums and attributes ----------------------------===//

#include "tilekit/Dialect/PTO/IR/PTODialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace tilekit::pto;

#include "tilekit/Dialect/PTO/IR/PTOEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "tilekit/Dialect/PTO/IR/PTOAttrs.cpp.inc"

void PTODialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "tilekit/Dialect/PTO/IR/PTOAttrs.cpp.inc"
      >();
}
