//===- Summary.h - One-line summaries of runtime values ----------*- C++
//-*-===//

#ifndef TILEKIT_INTERP_SUMMARY_H
#define TILEKIT_INTERP_SUMMARY_H

#include "tilekit/Interp/Values.h"

#include "llvm/Support/raw_ostream.h"

namespace tilekit::interp {

/// Prints e.g. "tile 16x128xf32 vec valid [16, 100] min -1 max 2.5 mean
/// 0.01", with statistics over the valid region only.
void printSummary(llvm::raw_ostream &os, const RuntimeValue &value);

} // namespace tilekit::interp

#endif // TILEKIT_INTERP_SUMMARY_H
