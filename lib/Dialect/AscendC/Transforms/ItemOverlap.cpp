//===- ItemOverlap.cpp - Consecutive work items of a core, overlapped -----===//

#include "tilekit/Dialect/AscendC/Transforms/ItemOverlap.h"

#include "tilekit/Dialect/AscendC/Transforms/AllocationSize.h"
#include "tilekit/Dialect/AscendC/Transforms/CoreGroups.h"
#include "tilekit/Machine/Machine.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/SymbolTable.h"

#include <array>
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

/// Per local buffer, the first byte past `func`'s tensors in it.
std::map<Buffer, int64_t> bufferEnds(func::FuncOp func) {
  std::map<Buffer, int64_t> ends;
  func.walk([&](LocalTensorOp tensor) {
    int64_t &end = ends[getBuffer(tensor.getPosition())];
    end = std::max<int64_t>(end, tensor.getAddr() + tensor.getSize());
  });
  return ends;
}

/// The bytes of `func`'s GM scratch (its workspace regions).
int64_t scratchBytes(func::FuncOp func) {
  int64_t bytes = 0;
  for (auto region : func.getOps<WorkspaceOp>())
    bytes += region.getRegionBytes();
  return bytes;
}

/// Whether `op` runs on the cube: in an `if_aic`, or outside groups in a
/// cube kernel.
bool onCube(Operation *op, bool cubeKernel) {
  Operation *group = getCoreGroup(op);
  return group ? isCubeGroup(group) : cubeKernel;
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

/// `func`'s copy, named `<name>_pong`, whose local tensors sit `offsets`
/// bytes higher in each buffer, whose GM scratch sits `scratchOffset` bytes
/// higher in the item's workspace slice, whose buffer ids are `idOffset`
/// higher and whose events are `events`.
func::FuncOp
makeCopy(ModuleOp module, func::FuncOp func,
         const std::map<Buffer, int64_t> &offsets, int64_t scratchOffset,
         int64_t idOffset,
         const std::map<PipePair, std::map<int64_t, int64_t>> &events) {
  auto copy = cast<func::FuncOp>(func->clone());
  copy.setName((func.getName() + "_pong").str());
  SymbolTable(module).insert(copy, std::next(func->getIterator()));
  OpBuilder builder(module.getContext());
  // A workspace region sits past the regions before it in its function:
  // one unused region as large as the originals' scratch moves the copy's
  // above theirs (and the item's slice grows to hold both).
  if (auto regions = copy.getOps<WorkspaceOp>(); !regions.empty()) {
    builder.setInsertionPoint(*regions.begin());
    WorkspaceOp::create(builder, copy.getLoc(),
                        GlobalTensorType::get(module.getContext(),
                                              {scratchOffset},
                                              builder.getI8Type()));
  }
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
    if (auto tensor = dyn_cast<LocalTensorOp>(op)) {
      auto offset = offsets.find(getBuffer(tensor.getPosition()));
      if (offset != offsets.end())
        tensor.setAddr(tensor.getAddr() + offset->second);
    }
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

/// The lowest event in [0, reserved) that `taken` does not hold.
std::optional<int64_t> freeEvent(llvm::function_ref<bool(int64_t)> taken) {
  for (int64_t id = 0; id < machine::kFirstReservedEventId; ++id)
    if (!taken(id))
      return id;
  return std::nullopt;
}

} // namespace

std::optional<ItemOverlap>
ItemOverlap::plan(ModuleOp module, ArrayRef<func::FuncOp> callees,
                  llvm::function_ref<int64_t(Buffer)> capacity,
                  std::string &why) {
  ItemOverlap overlap;
  // The pipes each core runs the items on (the vector core's, the cube's).
  std::array<llvm::SmallSetVector<Pipe, 6>, 2> pipes;
  // Where the copies start in each buffer, in GM scratch and in buffer
  // ids: past every original.
  std::map<Buffer, int64_t> halves, largestEnds;
  std::map<Buffer, func::FuncOp> largest;
  int64_t scratchHalf = 0, idHalf = 0;
  bool mixed = false;
  for (func::FuncOp callee : callees) {
    KernelCores kind = getKernelCores(callee);
    mixed |= isMixed(kind);
    size_t regions = 0;
    callee.walk([&](WorkspaceOp) { ++regions; });
    if (regions != llvm::range_size(callee.getOps<WorkspaceOp>())) {
      why = "'@" + callee.getName().str() +
            "' makes GM scratch inside a loop or branch";
      return std::nullopt;
    }
    scratchHalf = std::max(scratchHalf, scratchBytes(callee));
    for (auto [buffer, end] : bufferEnds(callee)) {
      if (end > largestEnds[buffer]) {
        largestEnds[buffer] = end;
        largest[buffer] = callee;
      }
      int64_t alignment = std::max<int64_t>(kBlockBytes, getAlignment(buffer));
      halves[buffer] =
          std::max<int64_t>(halves[buffer], llvm::alignTo(end, alignment));
    }
    idHalf = std::max(idHalf, bufIdEnd(callee));
    bool cubeKernel = kind == KernelCores::Cube;
    WalkResult outside = callee.walk([&](Operation *op) {
      std::optional<Pipe> pipe = getOpPipe(op);
      if (!pipe || *pipe == Pipe::S || *pipe == Pipe::All)
        return WalkResult::advance();
      if (isMixed(kind) && !getCoreGroup(op))
        return WalkResult::interrupt();
      pipes[onCube(op, cubeKernel)].insert(*pipe);
      return WalkResult::advance();
    });
    if (outside.wasInterrupted()) {
      why = "'@" + callee.getName().str() +
            "' runs a pipe's instruction outside its core groups";
      return std::nullopt;
    }
  }
  for (auto [buffer, half] : halves)
    if (!machine::fitsTwice(buffer, largestEnds[buffer], capacity(buffer))) {
      why = "'@" + largest[buffer].getName().str() + "' uses " +
            std::to_string(largestEnds[buffer]) + " bytes of " +
            getBufferName(buffer) + ", which do not fit twice in " +
            std::to_string(capacity(buffer));
      return std::nullopt;
    }
  // The cores of a mixed kernel hand each item over with two cross-core
  // flags none of the items uses.
  if (mixed) {
    SmallVector<Operation *> kernels(callees.begin(), callees.end());
    overlap.handshake = findFreeFlags(kernels);
    if (!overlap.handshake) {
      why = "the item kernels leave no two cross-core flags free";
      return std::nullopt;
    }
  }
  // A pipe with no event to the scalar pipe hands over through one that
  // has and comes after it in the data path (MTE1 through M), with events
  // both ways: that pipe waits for it first. Pipes in data-path order:
  const Pipe order[] = {Pipe::MTE2, Pipe::MTE1, Pipe::M,
                        Pipe::FIX,  Pipe::V,    Pipe::MTE3};
  auto rank = [&](Pipe pipe) { return llvm::find(order, pipe) - order; };
  for (bool cube : {false, true}) {
    if (pipes[cube].empty())
      continue;
    Core &core = overlap.cores.emplace_back();
    core.cube = cube;
    for (Pipe pipe : pipes[cube]) {
      if (machine::hasHardEvent(machinePipe(pipe), machine::Pipe::S)) {
        core.pipes.push_back(pipe);
        continue;
      }
      auto via = llvm::find_if(pipes[cube], [&](Pipe other) {
        return rank(other) > rank(pipe) &&
               machine::hasHardEvent(machinePipe(pipe), machinePipe(other)) &&
               machine::hasHardEvent(machinePipe(other), machinePipe(pipe)) &&
               machine::hasHardEvent(machinePipe(other), machine::Pipe::S);
      });
      if (via == pipes[cube].end()) {
        why = std::string("no event orders the ") + stringifyPipe(pipe).str() +
              " pipe before the scalar pipe";
        return std::nullopt;
      }
      core.chains.push_back({pipe, *via, -1, -1});
    }
  }
  // The token: the lowest event no original sets from those pipes to S.
  SmallVector<Pipe> tokenPipes;
  for (const Core &core : overlap.cores)
    llvm::append_range(tokenPipes, core.pipes);
  Events events = eventsOf(callees);
  auto setBy = [&](const Events &sets, Pipe src, Pipe dst, int64_t id) {
    auto ids = sets.find({unsigned(src), unsigned(dst)});
    return ids != sets.end() && ids->second.count(id);
  };
  std::optional<int64_t> token = freeEvent([&](int64_t id) {
    return llvm::any_of(tokenPipes, [&](Pipe pipe) {
      return setBy(events, pipe, Pipe::S, id);
    });
  });
  if (!token) {
    why = "every event from the items' pipes to the scalar pipe is in use";
    return std::nullopt;
  }
  overlap.event = *token;
  auto renumbered = renumberEvents(events, tokenPipes, *token);
  if (!renumbered) {
    why = "the item kernels leave too few events free for a second item at "
          "once";
    return std::nullopt;
  }
  // A chain's events, there and back: ones neither half sets between its
  // pipes.
  for (Core &core : overlap.cores)
    for (Chain &chain : core.chains) {
      for (auto [event, src, dst] :
           {std::tie(chain.there, chain.from, chain.via),
            std::tie(chain.back, chain.via, chain.from)}) {
        auto copies = renumbered->find({unsigned(src), unsigned(dst)});
        std::optional<int64_t> free = freeEvent([&](int64_t id) {
          return setBy(events, src, dst, id) ||
                 (copies != renumbered->end() &&
                  llvm::any_of(copies->second, [&](auto renamed) {
                    return renamed.second == id;
                  }));
        });
        if (!free) {
          why = std::string("every event from the ") +
                stringifyPipe(src).str() + " pipe to the " +
                stringifyPipe(dst).str() + " pipe is in use";
          return std::nullopt;
        }
        event = *free;
      }
    }
  // Sharing a buffer id only orders more (each instruction locks around
  // itself): the copies take ids of their own where they remain.
  int64_t idOffset = 2 * idHalf <= machine::kMutexIds ? idHalf : 0;
  for (func::FuncOp callee : callees) {
    func::FuncOp copy =
        makeCopy(module, callee, halves, scratchHalf, idOffset, *renumbered);
    overlap.copies[callee.getSymNameAttr()] = copy;
    for (func::FuncOp half : {callee, copy})
      half->setAttr(AscendCDialect::kOverlappedAttrName,
                    UnitAttr::get(module.getContext()));
  }
  return overlap;
}

void ItemOverlap::handOver(OpBuilder &builder, Location loc, bool wait,
                           bool set) const {
  for (const Core &core : cores) {
    auto fill = [&](OpBuilder &inner) {
      // The cores of a mixed kernel, one item behind: each signals on the
      // pipe that ends its items' data path (as the handshake between
      // items that do not overlap) and, after item k, waits for the
      // other's signal of item k - 1 (one was set at the entry), so that
      // item k + 1, in item k - 1's scratch, writes it only once the other
      // core is done with it.
      if (handshake) {
        auto [done, next] = *handshake;
        Pipe pipe = core.cube ? Pipe::FIX : Pipe::MTE3;
        if (set)
          CrossCoreSetFlagOp::create(inner, loc, pipe, core.cube ? next : done);
        if (wait)
          CrossCoreWaitFlagOp::create(inner, loc, pipe,
                                      core.cube ? done : next);
      }
      // After an item, each chained pipe's work comes before its carrier's
      // token, and the carrier's wait before the chained pipe's next set.
      if (wait && set)
        for (const Chain &chain : core.chains) {
          SetFlagOp::create(inner, loc, chain.from, chain.via, chain.there);
          WaitFlagOp::create(inner, loc, chain.from, chain.via, chain.there);
          SetFlagOp::create(inner, loc, chain.via, chain.from, chain.back);
          WaitFlagOp::create(inner, loc, chain.via, chain.from, chain.back);
        }
      for (Pipe pipe : core.pipes) {
        if (wait)
          WaitFlagOp::create(inner, loc, pipe, Pipe::S, event);
        if (set)
          SetFlagOp::create(inner, loc, pipe, Pipe::S, event);
      }
    };
    if (handshake)
      createGroup(builder, loc, core.cube, fill);
    else
      fill(builder);
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
