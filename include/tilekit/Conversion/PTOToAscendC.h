//===- PTOToAscendC.h - Lowering PTO kernels to AscendC ---------*- C++ -*-===//
//
// `convert-pto-to-ascendc`: GM tensors become global tensors, tiles
// positioned local tensors, tile transfers data copies, load_data and
// fixpipes, vector tile ops the AscendC vector ops at the simple (L2)
// level, matmuls mmad; a group, or an in-core function mixing the cube and
// the vector unit, becomes one kernel of if_aic / if_aiv groups. `scf` and
// `arith` stay. A PTO op without a lowering is an error naming it; the
// table is in docs/compile.md. The cores' paths differ between machines:
// the lowering targets the module's `ascendc.arch` (c220 without one).
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
