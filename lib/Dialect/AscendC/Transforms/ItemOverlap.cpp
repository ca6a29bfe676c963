//===- ItemOverlap.cpp - Consecutive work items of a core, overlapped -----===//

#include "tilekit/Dialect/AscendC/Transforms/ItemOverlap.h"

#include "tilekit/Dialect/AscendC/Transforms/CoreGroups.h"
#include "tilekit/Machine/Machine.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/SymbolTable.h"

#include <map>
#include <set>

using namespace mlir;
using namespace tilekit;
using namespace tilekit::ascendc;

namespace {

/// The machine's pipe of an AscendC one (the enums agree,
/// EnumAgreement.cpp).
machine::Pipe machinePipe(Pipe pipe) {
  return static_cast<machine::Pipe>(pipe);
}

/// The first UB byte past `func`'s local tensors.
int64_t ubEnd(func::FuncOp func) {
  int64_t end = 0;
  func.walk([&](LocalTensorOp tensor) {
    if (getBuffer(tensor.getPosition()) == Buffer::UB)
      end = std::max<int64_t>(end, tensor.getAddr() + tensor.getSize());
  });
  return end;
}

/// The buffer ids (C310) `func` names, one past the largest.
int64_t bufIdEnd(func::FuncOp func) {
  int64_t end = 0;
  func.walk([&](Operation *op) {
    if (auto get = dyn_cast<GetBufOp>(op))
      end = std::max<int64_t>(end, get.getBufId() + 1);
    if (auto release = dyn_cast<RlsBufOp>(op))
      end = std::max<int64_t>(end, release.getBufId() + 1);
  });
  return end;
}

/// A pipe pair of set_flag / wait_flag.
using PipePair = std::pair<unsigned, unsigned>;

/// The events `func` sets, per pipe pair.
std::map<PipePair, std::set<int64_t>> eventsOf(func::FuncOp func) {
  std::map<PipePair, std::set<int64_t>> events;
  func.walk([&](SetFlagOp set) {
    events[{unsigned(set.getSrc()), unsigned(set.getDst())}].insert(
        set.getEvent());
  });
  return events;
}

/// For the copy of a function setting `events`: per pipe pair, an event
/// for each of the function's that the function does not use (nor
/// `token` from the pipes in `tokenPipes` to S): the two halves run at
/// once, and one event set by both before either's wait would be lost.
std::optional<std::map<PipePair, std::map<int64_t, int64_t>>>
renumberEvents(const std::map<PipePair, std::set<int64_t>> &events,
               ArrayRef<Pipe> tokenPipes, int64_t token) {
  std::map<PipePair, std::map<int64_t, int64_t>> renumbered;
  for (const auto &[pair, ids] : events) {
    bool tokenPair = pair.second == unsigned(Pipe::S) &&
                     llvm::is_contained(tokenPipes, Pipe(pair.first));
    int64_t next = 0;
    for (int64_t id : ids) {
      while (next < machine::kFirstReservedEventId &&
             (ids.count(next) || (tokenPair && next == token)))
        ++next;
      if (next == machine::kFirstReservedEventId)
        return std::nullopt;
      renumbered[pair][id] = next++;
    }
  }
  return renumbered;
}

/// `func`'s copy whose UB tensors sit `ubOffset` bytes higher, whose
/// buffer ids are `idOffset` higher and whose events are `events`, named
/// `<name>_pong`.
func::FuncOp
makeCopy(ModuleOp module, func::FuncOp func, int64_t ubOffset, int64_t idOffset,
         const std::map<PipePair, std::map<int64_t, int64_t>> &events) {
  auto copy = cast<func::FuncOp>(func->clone());
  copy.setName((func.getName() + "_pong").str());
  SymbolTable(module).insert(copy, std::next(func->getIterator()));
  Builder builder(module.getContext());
  copy.walk([&](Operation *op) {
    if (auto tensor = dyn_cast<LocalTensorOp>(op);
        tensor && getBuffer(tensor.getPosition()) == Buffer::UB)
      tensor.setAddr(tensor.getAddr() + ubOffset);
    if (auto set = dyn_cast<SetFlagOp>(op))
      set.setEvent(events.at({unsigned(set.getSrc()), unsigned(set.getDst())})
                       .at(set.getEvent()));
    if (auto wait = dyn_cast<WaitFlagOp>(op))
      wait.setEvent(
          events.at({unsigned(wait.getSrc()), unsigned(wait.getDst())})
              .at(wait.getEvent()));
    if (auto get = dyn_cast<GetBufOp>(op))
      get.setBufId(get.getBufId() + idOffset);
    if (auto release = dyn_cast<RlsBufOp>(op))
      release.setBufId(release.getBufId() + idOffset);
    if (auto id =
            op->getAttrOfType<IntegerAttr>(AscendCDialect::kBufIdAttrName))
      op->setAttr(AscendCDialect::kBufIdAttrName,
                  builder.getI64IntegerAttr(id.getInt() + idOffset));
    if (auto ids = op->getAttrOfType<DenseI64ArrayAttr>(
            AscendCDialect::kBufIdsAttrName)) {
      SmallVector<int64_t> shifted(ids.asArrayRef());
      for (int64_t &id : shifted)
        id += idOffset;
      op->setAttr(AscendCDialect::kBufIdsAttrName,
                  builder.getDenseI64ArrayAttr(shifted));
    }
  });
  return copy;
}

} // namespace

std::optional<ItemOverlap> ItemOverlap::plan(ModuleOp module,
                                             ArrayRef<func::FuncOp> callees,
                                             int64_t ubBytes,
                                             std::string &why) {
  ItemOverlap overlap;
  llvm::SmallSetVector<Pipe, 4> pipes;
  // Per pipe pair, the events the items use themselves.
  llvm::DenseSet<std::tuple<unsigned, unsigned, int64_t>> used;
  for (func::FuncOp callee : callees) {
    if (getKernelCores(callee) != KernelCores::Vector) {
      why = "'@" + callee.getName().str() + "' is not a vector-only kernel";
      return std::nullopt;
    }
    if (!callee.getOps<WorkspaceOp>().empty()) {
      why = "'@" + callee.getName().str() +
            "' keeps scratch in GM, which a core's items share";
      return std::nullopt;
    }
    int64_t end = ubEnd(callee);
    int64_t above = (end + 31) / 32 * 32;
    if (above + end > ubBytes) {
      why = "'@" + callee.getName().str() + "' uses " + std::to_string(end) +
            " bytes of UB, which do not fit twice in " +
            std::to_string(ubBytes);
      return std::nullopt;
    }
    callee.walk([&](Operation *op) {
      if (std::optional<Pipe> pipe = getOpPipe(op);
          pipe && *pipe != Pipe::S && *pipe != Pipe::All)
        pipes.insert(*pipe);
      if (auto set = dyn_cast<SetFlagOp>(op))
        used.insert(
            {unsigned(set.getSrc()), unsigned(set.getDst()), set.getEvent()});
    });
  }
  for (Pipe pipe : pipes)
    if (!machine::hasHardEvent(machinePipe(pipe), machine::Pipe::S)) {
      why = std::string("no event orders the ") + stringifyPipe(pipe).str() +
            " pipe before the scalar pipe";
      return std::nullopt;
    }
  // The lowest event no item uses from any of those pipes to S.
  int64_t event = 0;
  auto taken = [&](int64_t id) {
    return llvm::any_of(pipes, [&](Pipe pipe) {
      return used.contains({unsigned(pipe), unsigned(Pipe::S), id});
    });
  };
  while (event < machine::kFirstReservedEventId && taken(event))
    ++event;
  if (event == machine::kFirstReservedEventId) {
    why = "every event from the items' pipes to the scalar pipe is in use";
    return std::nullopt;
  }
  overlap.pipes.assign(pipes.begin(), pipes.end());
  overlap.event = event;
  SmallVector<std::map<PipePair, std::map<int64_t, int64_t>>> renumbered;
  for (func::FuncOp callee : callees) {
    auto events = renumberEvents(eventsOf(callee), overlap.pipes, event);
    if (!events) {
      why = "'@" + callee.getName().str() +
            "' leaves too few events free for a second item at once";
      return std::nullopt;
    }
    renumbered.push_back(std::move(*events));
  }
  for (auto [index, events] : llvm::enumerate(renumbered)) {
    func::FuncOp callee = callees[index];
    int64_t ids = bufIdEnd(callee);
    // Sharing a buffer id only orders more (each instruction locks
    // around itself): the copy takes ids of its own where they remain.
    int64_t idOffset = 2 * ids <= machine::kMutexIds ? ids : 0;
    overlap.copies[callee.getSymNameAttr()] = makeCopy(
        module, callee, (ubEnd(callee) + 31) / 32 * 32, idOffset, events);
    for (func::FuncOp half : {callee, overlap.copies[callee.getSymNameAttr()]})
      half->setAttr(AscendCDialect::kOverlappedAttrName,
                    UnitAttr::get(module.getContext()));
  }
  return overlap;
}

void ItemOverlap::handOver(OpBuilder &builder, Location loc, bool wait,
                           bool set) const {
  for (Pipe pipe : pipes) {
    if (wait)
      WaitFlagOp::create(builder, loc, pipe, Pipe::S, event);
    if (set)
      SetFlagOp::create(builder, loc, pipe, Pipe::S, event);
  }
}

void ItemOverlap::atEntry(OpBuilder &builder, Location loc) const {
  handOver(builder, loc, /*wait=*/false, /*set=*/true);
}

void ItemOverlap::atExit(OpBuilder &builder, Location loc) const {
  handOver(builder, loc, /*wait=*/true, /*set=*/false);
}

void ItemOverlap::runItem(func::CallOp call, Value item, Value cores) const {
  OpBuilder builder(call);
  Location loc = call.getLoc();
  // The core's own items are every `cores`-th: this one is its k-th.
  Value k = arith::DivSIOp::create(builder, loc, item, cores);
  Value two = arith::ConstantIndexOp::create(builder, loc, 2);
  Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
  Value even =
      arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq,
                            arith::RemSIOp::create(builder, loc, k, two), zero);
  auto branch = scf::IfOp::create(builder, loc, even, /*else=*/true);
  OpBuilder odd = branch.getElseBodyBuilder();
  Operation *copy = odd.clone(*call);
  cast<func::CallOp>(copy).setCallee(
      copies.lookup(call.getCalleeAttr().getAttr()).getName());
  call->moveBefore(branch.thenBlock()->getTerminator());
  builder.setInsertionPointAfter(branch);
  handOver(builder, loc, /*wait=*/true, /*set=*/true);
}
