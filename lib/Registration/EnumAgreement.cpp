//===- EnumAgreement.cpp - Numberings that must agree ---------------------===//
//
// The machine description (Machine.def) numbers the pipes; the PTO and
// AscendC dialects' pipe enums (attributes need their own) must number
// them alike, PTO's split-code attribute must number the machine's codes
// alike, and the dialects' rounding modes must agree with each other.
// Code converts between them by value, so this file fails to compile when
// one drifts. The trace format uses the machine's enums directly.
//
//===----------------------------------------------------------------------===//

#include "tilekit/Dialect/AscendC/IR/AscendCDialect.h"
#include "tilekit/Dialect/PTO/IR/PTODialect.h"
#include "tilekit/Machine/Machine.h"

namespace {
template <typename A, typename B> constexpr bool same(A a, B b) {
  return static_cast<int>(a) == static_cast<int>(b);
}
namespace pto = tilekit::pto;
namespace asc = tilekit::ascendc;
namespace machine = tilekit::machine;

#define TILEKIT_PIPE(NAME, SPELLING, WHAT)                                     \
  static_assert(same(pto::Pipe::NAME, machine::Pipe::NAME) &&                  \
                    same(asc::Pipe::NAME, machine::Pipe::NAME),                \
                "pipe " #NAME " is numbered differently");
#include "tilekit/Machine/Machine.def"

#define TILEKIT_SPLIT(NAME, CODE, SPELLING, AXIS, ODD)                         \
  static_assert(same(pto::SplitCode::NAME, machine::SplitCode::NAME) &&        \
                    static_cast<int>(pto::SplitCode::NAME) == CODE,            \
                "split code " #NAME " is numbered differently");
#include "tilekit/Machine/Machine.def"

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
