//===- ItemOverlap.cpp - Consecutive work items of a core, overlapped -----===//

#include "tilekit/Dialect/AscendC/Transforms/ItemOverlap.h"

#include "tilekit/Dialect/AscendC/Transforms/AllocationSize.h"
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

/// Per pipe pair, the events that any of `funcs` sets.
using Events = std::map<PipePair, std::set<int64_t>>;
Events eventsOf(ArrayRef<func::FuncOp> funcs) {
  Events events;
  for (func::FuncOp func : funcs)
    func.walk([&](SetFlagOp set) {
      events[{unsigned(set.getSrc()), unsigned(set.getDst())}].insert(
          set.getEvent());
    });
  return events;
}

/// For the copies: per pipe pair, an event for each that the originals
/// set, none of theirs (nor `token` from the pipes in `tokenPipes` to S).
/// An original's item and a copy's run at once, and one event set by both
/// before either's wait would be lost.
std::optional<std::map<PipePair, std::map<int64_t, int64_t>>>
renumberEvents(const Events &events, ArrayRef<Pipe> tokenPipes, int64_t token) {
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
  // Every event the copy uses is one the originals set (their waits take
  // their own sets).
  auto renamed = [&](Pipe src, Pipe dst, int64_t event) {
    auto pair = events.find({unsigned(src), unsigned(dst)});
    if (pair == events.end())
      return event;
    auto id = pair->second.find(event);
    return id == pair->second.end() ? event : id->second;
  };
  copy.walk([&](Operation *op) {
    if (auto tensor = dyn_cast<LocalTensorOp>(op);
        tensor && getBuffer(tensor.getPosition()) == Buffer::UB)
      tensor.setAddr(tensor.getAddr() + ubOffset);
    if (auto set = dyn_cast<SetFlagOp>(op))
      set.setEvent(renamed(set.getSrc(), set.getDst(), set.getEvent()));
    if (auto wait = dyn_cast<WaitFlagOp>(op))
      wait.setEvent(renamed(wait.getSrc(), wait.getDst(), wait.getEvent()));
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
  // Where the copies start in UB and in buffer ids: past every original.
  int64_t ubHalf = 0, idHalf = 0, largestEnd = 0;
  func::FuncOp largest;
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
    if (end > largestEnd) {
      largestEnd = end;
      largest = callee;
    }
    ubHalf = std::max<int64_t>(ubHalf, llvm::alignTo(end, kBlockBytes));
    idHalf = std::max(idHalf, bufIdEnd(callee));
    callee.walk([&](Operation *op) {
      if (std::optional<Pipe> pipe = getOpPipe(op);
          pipe && *pipe != Pipe::S && *pipe != Pipe::All)
        pipes.insert(*pipe);
    });
  }
  if (ubHalf + largestEnd > ubBytes) {
    why = "'@" + largest.getName().str() + "' uses " +
          std::to_string(largestEnd) +
          " bytes of UB, which do not fit twice in " + std::to_string(ubBytes);
    return std::nullopt;
  }
  for (Pipe pipe : pipes)
    if (!machine::hasHardEvent(machinePipe(pipe), machine::Pipe::S)) {
      why = std::string("no event orders the ") + stringifyPipe(pipe).str() +
            " pipe before the scalar pipe";
      return std::nullopt;
    }
  // The token: the lowest event no original sets from those pipes to S.
  Events events = eventsOf(callees);
  int64_t event = 0;
  auto taken = [&](int64_t id) {
    return llvm::any_of(pipes, [&](Pipe pipe) {
      auto ids = events.find({unsigned(pipe), unsigned(Pipe::S)});
      return ids != events.end() && ids->second.count(id);
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
  auto renumbered = renumberEvents(events, overlap.pipes, event);
  if (!renumbered) {
    why = "the item kernels leave too few events free for a second item at "
          "once";
    return std::nullopt;
  }
  // Sharing a buffer id only orders more (each instruction locks around
  // itself): the copies take ids of their own where they remain.
  int64_t idOffset = 2 * idHalf <= machine::kMutexIds ? idHalf : 0;
  for (func::FuncOp callee : callees) {
    func::FuncOp copy = makeCopy(module, callee, ubHalf, idOffset, *renumbered);
    overlap.copies[callee.getSymNameAttr()] = copy;
    for (func::FuncOp half : {callee, copy})
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
