//===- EnumAgreement.cpp - Numberings that must agree ---------------------===//
//
// The pipes and rounding modes are enumerated by the PTO and AscendC
// dialects and (pipes) by the trace format. Code converts between them by
// value (the trace emitter casts a PTO pipe to a trace pipe; a PTO to
// AscendC lowering will cast the others), so the numberings must agree:
// this file fails to compile when one drifts.
//
//===----------------------------------------------------------------------===//

#include "tilekit/Dialect/AscendC/IR/AscendCDialect.h"
#include "tilekit/Dialect/PTO/IR/PTODialect.h"
#include "tilekit/Trace/Trace.h"

namespace {
template <typename A, typename B> constexpr bool same(A a, B b) {
  return static_cast<int>(a) == static_cast<int>(b);
}
namespace pto = tilekit::pto;
namespace asc = tilekit::ascendc;
namespace trace = tilekit::trace;

#define PIPE_AGREES(NAME)                                                      \
  static_assert(same(pto::Pipe::NAME, asc::Pipe::NAME) &&                      \
                    same(pto::Pipe::NAME, trace::Pipe::NAME),                  \
                "pipe " #NAME " is numbered differently")
PIPE_AGREES(S);
PIPE_AGREES(V);
PIPE_AGREES(M);
PIPE_AGREES(MTE1);
PIPE_AGREES(MTE2);
PIPE_AGREES(MTE3);
PIPE_AGREES(FIX);
PIPE_AGREES(All);

#define ROUND_AGREES(NAME)                                                     \
  static_assert(same(pto::RoundMode::NAME, asc::RoundMode::NAME),              \
                "round mode " #NAME " is numbered differently")
ROUND_AGREES(None);
ROUND_AGREES(Rint);
ROUND_AGREES(Round);
ROUND_AGREES(Floor);
ROUND_AGREES(Ceil);
ROUND_AGREES(Trunc);
ROUND_AGREES(Odd);
} // namespace
