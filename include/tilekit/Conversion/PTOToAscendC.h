//===- PTOToAscendC.h - Lowering PTO kernels to AscendC ---------*- C++ -*-===//
//
// `convert-pto-to-ascendc`: GM tensors become global tensors, vector tiles
// local tensors, tile loads and stores data copies, elementwise tile ops
// the AscendC vector ops at the simple (L2) level; `scf` and `arith` stay.
// A PTO op without a lowering is an error naming it.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_CONVERSION_PTOTOASCENDC_H
#define TILEKIT_CONVERSION_PTOTOASCENDC_H

#include "mlir/Pass/Pass.h"

namespace tilekit {

std::unique_ptr<mlir::Pass> createConvertPTOToAscendCPass();
void registerConvertPTOToAscendCPass();

} // namespace tilekit

#endif // TILEKIT_CONVERSION_PTOTOASCENDC_H
