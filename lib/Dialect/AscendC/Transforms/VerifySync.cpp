//===- VerifySync.cpp - Every cross-pipe and cross-core hazard ordered ----===//
//
// An analysis independent of the passes that insert synchronization: it
// runs the kernel abstractly and proves, with vector clocks, that every two
// accesses to one storage from different pipes or cores (one of them a
// write) are ordered by a flag, a barrier or a buffer id.
//
// The model:
// * Each core (cube: `if_aic` code; vector: `if_aiv` code, sub-block 0; a
//   kernel without groups is one core of the kind its ops need) issues its
//   ops in program order. Each pipe of a core is a stream that executes its
//   ops in order; streams of one core are concurrent unless synchronized.
// * Several runs, each a scenario: every `scf.if` takes its then arm and
//   every loop runs twice (a loop-carried hazard shows in the second trip);
//   every `scf.if` takes its else arm; loops whose trip count is not a
//   constant run zero times; and, for each `scf.if`, that one alone takes
//   its else arm. Both cores see one scenario (a branch condition is the
//   same on both), so a flag set in a branch the other core waits for
//   outside it is a hang in the scenario that skips the branch.
// * set_flag(src -> dst, event) orders what `src` executed before it before
//   what `dst` executes after the matching wait_flag (FIFO per event);
//   the scalar pipe issues every op, so what it executes precedes what any
//   pipe executes after it;
//   pipe_barrier(all) orders everything before it before everything after;
//   rls_buf / get_buf of one buffer id order the releasing pipe's accesses
//   before the acquiring pipe's; cross_core_set_flag / _wait_flag do the
//   same across cores (the cube's flag id + 16 addresses vector sub-block
//   1, not modelled here, so setting it is reported as never waited). A set
//   of a cross-core flag still pending from a set on another pipe, not
//   ordered before it, is reported: the two may land in either order, so a
//   wait cannot tell which one it takes (a flag id reused while live).
// * Storage: a planned local tensor is its byte range in its buffer; a
//   placeholder, its root; a GM tensor, its root argument (whole).
//
//===----------------------------------------------------------------------===//

#include "tilekit/Dialect/AscendC/Transforms/CoreGroups.h"
#include "tilekit/Dialect/AscendC/Transforms/HappensBefore.h"
#include "tilekit/Dialect/AscendC/Transforms/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "llvm/ADT/DenseSet.h"

namespace tilekit::ascendc {
#define GEN_PASS_DEF_VERIFYSYNC
#include "tilekit/Dialect/AscendC/Transforms/Passes.h.inc"
} // namespace tilekit::ascendc

using namespace mlir;
using namespace tilekit::ascendc;

namespace {

/// The trip count of `loop` when its bounds and step are constants.
std::optional<int64_t> constantTripCount(scf::ForOp loop) {
  std::optional<int64_t> lower = getConstantIntValue(loop.getLowerBound());
  std::optional<int64_t> upper = getConstantIntValue(loop.getUpperBound());
  std::optional<int64_t> step = getConstantIntValue(loop.getStep());
  if (!lower || !upper || !step || *step <= 0)
    return std::nullopt;
  return *upper <= *lower ? 0 : (*upper - *lower + *step - 1) / *step;
}

/// Which way the branches and loops of one run go.
struct Scenario {
  bool elseArms = false;
  bool zeroTrips = false;
  Operation *flipped = nullptr; // the one scf.if that goes the other way

  /// How a report names the scenario (empty for the first one).
  std::string describe() const {
    if (flipped) {
      std::string text;
      llvm::raw_string_ostream os(text);
      os << " (when the scf.if at " << flipped->getLoc()
         << " takes its else branch)";
      return text;
    }
    if (elseArms)
      return " (when every scf.if takes its else branch)";
    if (zeroTrips)
      return " (when the loops run zero times)";
    return "";
  }
};

/// What earlier runs reported, so that a later one does not repeat it.
struct Reported {
  llvm::DenseSet<std::pair<Operation *, Operation *>> pairs;
  llvm::DenseSet<Operation *> ops;
};

class SyncChecker {
public:
  /// `quiet`: findings are recorded (races into `races`), not reported.
  SyncChecker(
      FunctionOpInterface func, const Scenario &scenario, Reported &reported,
      bool quiet = false,
      SmallVectorImpl<std::pair<HappensBefore::Access, HappensBefore::Access>>
          *races = nullptr)
      : func(func), scenario(scenario), reported(reported), quiet(quiet),
        races(races),
        model([this](Operation *later, const HappensBefore::Access &earlier,
                     const HappensBefore::Access &now) {
          report(later, earlier, now);
        }) {}

  /// Runs the kernel abstractly; false when a hazard or a flag mismatch
  /// was reported.
  bool run();
  /// Whether the run hung or left flags unmatched.
  bool sawSyncMismatch() const { return mismatch; }

private:
  void linearize(Block &block, unsigned core,
                 SmallVectorImpl<Operation *> &out);
  /// Executes ops of `core` from its cursor until it blocks or ends; true
  /// when it made progress.
  bool advance(unsigned core);
  void report(Operation *later, const HappensBefore::Access &earlier,
              const HappensBefore::Access &now);

  /// Reports `message` at `op` once over all runs.
  void reportAt(Operation *op, const Twine &message);

  FunctionOpInterface func;
  const Scenario &scenario;
  Reported &reported;
  bool quiet;
  SmallVectorImpl<std::pair<HappensBefore::Access, HappensBefore::Access>>
      *races;
  static constexpr unsigned kCores = HappensBefore::kCores;
  std::array<SmallVector<Operation *>, kCores> programs;
  std::array<size_t, kCores> cursor{};
  HappensBefore model;
  bool clean = true;
  bool mismatch = false;
};

void SyncChecker::linearize(Block &block, unsigned core,
                            SmallVectorImpl<Operation *> &out) {
  for (Operation &op : block) {
    if (isa<IfAicOp>(op) && core != 0)
      continue;
    if (isa<IfAivOp>(op) && core != 1)
      continue;
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      // Twice: a hazard carried from one trip to the next shows.
      int64_t trips = scenario.zeroTrips ? 0 : 2;
      if (std::optional<int64_t> count = constantTripCount(loop))
        trips = std::min<int64_t>(*count, 2);
      for (int64_t trip = 0; trip < trips; ++trip)
        linearize(*loop.getBody(), core, out);
      continue;
    }
    if (auto loop = dyn_cast<scf::WhileOp>(op)) {
      for (int trip = 0; trip < (scenario.zeroTrips ? 0 : 2); ++trip) {
        linearize(loop.getBefore().front(), core, out);
        linearize(loop.getAfter().front(), core, out);
      }
      linearize(loop.getBefore().front(), core, out);
      continue;
    }
    if (auto branch = dyn_cast<scf::IfOp>(op)) {
      bool takeElse = scenario.elseArms != (scenario.flipped == &op);
      Region &arm = takeElse ? branch.getElseRegion() : branch.getThenRegion();
      if (!arm.empty())
        linearize(arm.front(), core, out);
      continue;
    }
    if (op.getNumRegions() != 0) {
      for (Region &region : op.getRegions())
        for (Block &nested : region)
          linearize(nested, core, out);
      continue;
    }
    out.push_back(&op);
  }
}

void SyncChecker::reportAt(Operation *op, const Twine &message) {
  clean = false;
  mismatch = true;
  if (reported.ops.insert(op).second && !quiet)
    op->emitError(message + scenario.describe());
}

void SyncChecker::report(Operation *later, const HappensBefore::Access &earlier,
                         const HappensBefore::Access &now) {
  if (races)
    races->push_back({earlier, now});
  if (!reported.pairs.insert({earlier.payload.op, later}).second)
    return;
  clean = false;
  if (quiet)
    return;
  InFlightDiagnostic diag = later->emitError()
                            << HappensBefore::describeRace(earlier, now)
                            << scenario.describe();
  diag.attachNote(earlier.payload.op->getLoc()) << "the unordered access";
}

bool SyncChecker::advance(unsigned core) {
  bool progressed = false;
  SmallVector<Operation *> &program = programs[core];
  while (cursor[core] < program.size()) {
    Operation *op = program[cursor[core]];
    using Kind = HappensBefore::SyncOutcome::Kind;
    HappensBefore::SyncOutcome outcome = model.synchronize(op, core);
    if (outcome.kind == Kind::Blocked)
      return progressed; // until the other core sets the flag
    if (outcome.kind == Kind::NothingSet)
      reportAt(op, "waits for an event no earlier set_flag sets");
    if (outcome.kind == Kind::SetWhileUp)
      reportAt(op, "sets an event whose earlier set may not have been "
                   "waited for yet: the machine keeps one bit per event");
    if (outcome.kind == Kind::CounterFull)
      reportAt(op, "sets cross-core flag " +
                       Twine(cast<CrossCoreSetFlagOp>(op).getFlag()) +
                       " while " + Twine(tilekit::machine::kCrossCoreFlagSets) +
                       " sets of it may be pending: its counter holds " +
                       Twine(tilekit::machine::kCrossCoreFlagSets));
    if (outcome.kind == Kind::Overtakes)
      reportAt(op, "sets cross-core flag " +
                       Twine(cast<CrossCoreSetFlagOp>(op).getFlag()) +
                       " while an earlier set of it on another pipe may "
                       "still be pending: a wait cannot tell which one it "
                       "takes");
    if (outcome.kind == Kind::NotSync)
      if (std::optional<Pipe> pipe = getOpPipe(op))
        model.access(op, core, *pipe);
    ++cursor[core];
    progressed = true;
  }
  return progressed;
}

bool SyncChecker::run() {
  Block &body = func.getFunctionBody().front();
  bool mixed = false;
  func.walk([&](Operation *op) { mixed |= isa<IfAicOp, IfAivOp>(op); });
  bool cube = !mixed && isCubeKernel(func);
  for (unsigned core = 0; core < kCores; ++core)
    if (mixed || (core == 0) == cube)
      linearize(body, core, programs[core]);
  // Run the cores until both end or neither can go on.
  while (advance(0) | advance(1)) {
  }
  for (unsigned core = 0; core < kCores; ++core)
    if (cursor[core] < programs[core].size())
      reportAt(programs[core][cursor[core]],
               Twine("waits for a cross-core flag that is never set (the ") +
                   (core == 0 ? "cube" : "vector") + " core would hang here)");
  for (auto [receiver, flag, set] : model.pendingCrossFlags())
    reportAt(set, "sets cross-core flag " + Twine(flag) + ", which the " +
                      (receiver == 0 ? "cube" : "vector") +
                      " core never waits for");
  for (const HappensBefore::PendingFlag &pending : model.pendingFlags())
    reportAt(func, "leaves " + Twine(pending.count) + " set_flag " +
                       stringifyPipe(static_cast<Pipe>(pending.src)) + " -> " +
                       stringifyPipe(static_cast<Pipe>(pending.dst)) +
                       " event " + Twine(pending.event) + " never waited");
  return clean;
}

/// Every scenario the checker runs `func` in.
SmallVector<Scenario> scenariosOf(FunctionOpInterface func) {
  SmallVector<Scenario> scenarios = {
      {}, {true, false, nullptr}, {false, true, nullptr}};
  func.walk([&](scf::IfOp branch) {
    scenarios.push_back({false, false, branch.getOperation()});
  });
  return scenarios;
}

struct VerifySyncPass : tilekit::ascendc::impl::VerifySyncBase<VerifySyncPass> {
  void runOnOperation() override {
    FunctionOpInterface func = getOperation();
    if (func.isExternal())
      return;
    Reported reported;
    bool clean = true;
    for (const Scenario &scenario : scenariosOf(func))
      clean &= SyncChecker(func, scenario, reported).run();
    if (!clean)
      signalPassFailure();
  }
};
} // namespace

std::optional<llvm::SetVector<Value>>
tilekit::ascendc::findCrossCoreRaces(FunctionOpInterface func) {
  Reported reported;
  SmallVector<std::pair<HappensBefore::Access, HappensBefore::Access>> races;
  llvm::SetVector<Value> storages;
  for (const Scenario &scenario : scenariosOf(func)) {
    races.clear();
    SyncChecker checker(func, scenario, reported, /*quiet=*/true, &races);
    checker.run();
    // A hang or a flag mismatch: the run did not show every access.
    if (checker.sawSyncMismatch())
      return std::nullopt;
    for (auto &[earlier, now] : races)
      if (earlier.stream / kNumPipes != now.stream / kNumPipes)
        storages.insert(getStorage(now.payload.tensor));
  }
  return storages;
}
