//===- AscendCOps.cpp - AscendC IR as the machine runs it -----------------===//
//
// A local tensor is an address in its buffer's byte pool (a placeholder
// gets a fresh, aligned range the first time it runs), so tensors whose
// ranges overlap alias, as after the reuse passes; GM tensors are the
// executor's tensors. A vector op computes over the elements its count
// (L2) or its mask, repeats and strides (L0) select, with the scalar
// semantics of the tile ops (ScalarFunctions.h), so both levels compute the
// same bits.
//
// Every instruction runs on its pipe in the happens-before model of the
// core pair (HappensBefore.h): an access that no flag, barrier or buffer id
// orders after a conflicting access of another pipe or core is an error
// naming both ops and the storage, and a wait that no earlier set satisfies
// is a deadlock. `if_aic` code runs on the cube and `if_aiv` code on the
// vector core (sub-block 0); a kernel with both runs on two threads that
// take turns at cross-core waits (MixedKernel.h).
//
// Under --undefined=check every byte of a buffer (and every element of a
// workspace) carries a flag while no op has written it. The flags travel
// with the data as Valgrind's definedness bits do: a lane computed from an
// unwritten lane is unwritten, a reduction or product from any unwritten
// input is unwritten. Computing on them is no error (vector ops often run
// over a tile's padding); writing them to a kernel argument is, at the op
// that writes them, so `compile --verify-each` names the pass after which
// the kernel first lets undefined data out, not a later pass that only
// changes what those bytes hold.
//
//===----------------------------------------------------------------------===//

#include "AscendCMachine.h"
#include "ExecContext.h"
#include "Folding.h"
#include "MixedKernel.h"
#include "ScalarFunctions.h"

#include "tilekit/Dialect/AscendC/IR/AscendCDialect.h"
#include "tilekit/Dialect/AscendC/Transforms/AllocationSize.h"
#include "tilekit/Dialect/AscendC/Transforms/CoreGroups.h"
#include "tilekit/Dialect/AscendC/Transforms/HappensBefore.h"
#include "tilekit/Dialect/AscendC/Transforms/VectorRepeat.h"
#include "tilekit/Interp/BytePool.h"
#include "tilekit/Machine/Machine.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/MathExtras.h"

#include <cstdio>
#include <cstring>
#include <mutex>
#include <numeric>

using namespace mlir;
using namespace tilekit;
using namespace tilekit::interp;
using namespace tilekit::ascendc;

AscendCMachine &interp::machineOf(ExecContext &context) {
  if (!context.ascendc)
    context.ascendc = currentMixedMachine();
  if (!context.ascendc)
    context.ascendc = std::make_shared<AscendCMachine>(
        context.getInterpreter().getOptions().checkRaces,
        context.getInterpreter().getOptions().undefined);
  return *context.ascendc;
}

unsigned interp::coreOf(AscendCMachine &machine, Operation *op) {
  if (Operation *group = getCoreGroup(op))
    return isCubeGroup(group) ? 0 : 1;
  if (std::optional<unsigned> core = currentMixedCore())
    return *core;
  auto func = op->getParentOfType<FunctionOpInterface>();
  auto [it, fresh] = machine.kernelCores.try_emplace(func, 1u);
  if (fresh)
    it->second = isCubeKernel(func) ? 0 : 1;
  return it->second;
}

Local interp::localOf(ExecContext &context, Value tensor) {
  auto type = cast<LocalTensorType>(tensor.getType());
  ElementKind kind = kindOf(type.getElementType());
  int64_t handle = context.index(tensor);
  unsigned pool = static_cast<unsigned>(handle >> kBufferShift);
  // The inverse of getStoragePool.
  return Local{static_cast<Buffer>(pool & 0xFF),
               handle & ((int64_t(1) << kBufferShift) - 1),
               kind,
               type.getNumElements(),
               getByteSize(kind),
               pool >> 8};
}

namespace {

/// Under --undefined=check, one flag per element an op reads or writes,
/// non-zero where the element holds bytes no op wrote; empty otherwise
/// (and where every element is written).
using Unwritten = std::vector<uint8_t>;

/// `into[i] |= from[i]` (either may be empty: all written).
void mergeUnwritten(Unwritten &into, const Unwritten &from) {
  if (from.empty())
    return;
  if (into.empty()) {
    into = from;
    return;
  }
  for (size_t i = 0; i < into.size(); ++i)
    into[i] |= from[i];
}

bool isUnwritten(const Unwritten &flags, size_t i) {
  return !flags.empty() && flags[i];
}

/// Runs `op`'s accesses through the happens-before model on its pipe.
LogicalResult recordAccess(ExecContext &context, Operation *op) {
  AscendCMachine &machine = machineOf(context);
  if (!machine.checkRaces)
    return success();
  if (std::optional<Pipe> pipe = getOpPipe(op))
    machine.model.access(op, coreOf(machine, op), *pipe);
  return failure(machine.raced);
}

//===----------------------------------------------------------------------===//
// Tensors and copies
//===----------------------------------------------------------------------===//

/// The most lanes one vector instruction may touch per operand (far more
/// than any buffer holds: a repeat count is 8 bits on the machine).
constexpr int64_t kMaxLanes = int64_t(1) << 22;

/// How many capacities of a buffer the placeholders of an unplanned kernel
/// may take together (their plan makes them share).
constexpr int64_t kUnplannedCapacities = 64;

/// A tensor of `bytes` bytes at `address` must fit its buffer on some
/// machine: the pools only grow as far as that, whatever a kernel says.
LogicalResult checkFits(Operation *op, Buffer buffer, int64_t address,
                        int64_t bytes) {
  int64_t limit = machine::getCapacityLimit(buffer);
  int64_t end;
  // A kernel's address and size may be anything: their sum may overflow.
  bool overflows = __builtin_add_overflow(address, bytes, &end);
  if (!overflows && end <= limit)
    return success();
  return op->emitOpError() << "occupies bytes [" << address << ", "
                           << (overflows ? std::string("2^63 and beyond")
                                         : std::to_string(end))
                           << ") of " << machine::getName(buffer)
                           << ", past the " << limit
                           << " bytes it has on any machine";
}

LogicalResult runLocalTensor(ExecContext &context, Operation *op) {
  auto tensor = cast<LocalTensorOp>(op);
  Buffer buffer = getBuffer(tensor.getPosition());
  if (failed(checkFits(op, buffer, tensor.getAddr(), tensor.getSize())))
    return failure();
  // A lane's UB tensor is in its own vector core's UB.
  context.set(tensor.getResult(),
              localHandle(buffer, tensor.getAddr(),
                          getTensorOwner(tensor.getResult())));
  return success();
}

LogicalResult runLocalTensorAuto(ExecContext &context, Operation *op) {
  auto tensor = cast<LocalTensorAutoOp>(op);
  AscendCMachine &machine = machineOf(context);
  auto [it, fresh] = machine.placeholders.try_emplace(op, 0);
  if (fresh) {
    Position position = tensor.getPosition();
    // Sized as allocate-tensor sizes it, so placeholders sit as it would
    // place them. Before planning, all of them together may exceed the
    // buffer (planning makes them share); each alone may not.
    int64_t bytes = getAllocationBytes(tensor.getType(), position);
    if (failed(checkFits(op, getBuffer(position), 0, bytes))) {
      machine.placeholders.erase(op);
      return failure();
    }
    unsigned pool = static_cast<unsigned>(getBuffer(position));
    int64_t &next = machine.nextFree[pool];
    // Unplanned, the placeholders of a kernel lie one after another; a sum
    // far past what any plan could share is a kernel to plan first.
    int64_t limit = machine::getCapacityLimit(getBuffer(position));
    if (next + bytes > kUnplannedCapacities * limit) {
      machine.placeholders.erase(op);
      return op->emitOpError()
             << "brings the unplanned tensors of "
             << machine::getName(getBuffer(position)) << " to " << next + bytes
             << " bytes, more than " << kUnplannedCapacities
             << " times its capacity; plan the kernel's memory first";
    }
    it->second = next;
    next += bytes;
  }
  context.set(tensor.getResult(),
              localHandle(getBuffer(tensor.getPosition()), it->second));
  return success();
}

/// A view shares its tensor's storage from an element offset on. The offset
/// travels with the value (each core's thread has its own values).
LogicalResult runSubIndex(ExecContext &context, Operation *op) {
  auto view = cast<GlobalSubIndexOp>(op);
  TensorValue tensor = context.tensor(view.getSource());
  tensor.offset += context.index(view.getOffset());
  context.set(view.getResult(), std::move(tensor));
  return success();
}

/// A reshape keeps the storage and the offset; only the extents change.
LogicalResult runGlobalReshape(ExecContext &context, Operation *op) {
  auto reshape = cast<GlobalReshapeOp>(op);
  TensorValue tensor = context.tensor(reshape.getSource());
  auto type = cast<GlobalTensorType>(reshape.getResult().getType());
  SmallVector<int64_t, 4> shape;
  auto sizes = reshape.getSizes().begin();
  for (int64_t extent : type.getShape())
    shape.push_back(ShapedType::isDynamic(extent) ? context.index(*sizes++)
                                                  : extent);
  if (product(shape) != tensor.numElements())
    return op->emitOpError() << "views " << tensor.numElements()
                             << " elements as " << formatShape(shape);
  tensor.shape = shape;
  tensor.valid = shape;
  context.set(reshape.getResult(), std::move(tensor));
  return success();
}

/// The host's read of one element, after the launches before it.
LogicalResult runGlobalRead(ExecContext &context, Operation *op) {
  auto read = cast<GlobalReadOp>(op);
  return readElement(context, op, read.getSource(), read.getIndices(),
                     read.getResult());
}

LogicalResult runGlobalDim(ExecContext &context, Operation *op) {
  auto dim = cast<GlobalDimOp>(op);
  TensorValue &tensor = context.tensor(dim.getSource());
  context.set(dim.getResult(),
              Scalar::ofInt(ElementKind::Index, tensor.shape[dim.getDim()]));
  return success();
}

/// A fresh workspace region of `shape`: the machine does not clear one.
static WorkspaceRegion makeRegion(AscendCMachine &machine, Type element,
                                  ArrayRef<int64_t> shape) {
  WorkspaceRegion region;
  region.tensor = makeTensor(kindOf(element), shape);
  ArrayData &data = region.tensor.storage->data;
  if (machine.undefined == UndefinedData::NaN)
    fillUndefined(data);
  if (machine.checking())
    region.unwritten = std::make_shared<std::vector<uint8_t>>(data.size(), 1);
  return region;
}

LogicalResult runWorkspace(ExecContext &context, Operation *op) {
  AscendCMachine &machine = machineOf(context);
  auto workspace = cast<WorkspaceOp>(op);
  auto type = cast<GlobalTensorType>(workspace.getType());
  // The extents, those known at run time from the sizes.
  SmallVector<int64_t, 4> shape;
  auto sizes = workspace.getSizes().begin();
  for (int64_t size : type.getShape()) {
    shape.push_back(ShapedType::isDynamic(size) ? context.index(*sizes++)
                                                : size);
  }
  if (failed(checkTensorSize(op, shape, kindOf(type.getElementType()))))
    return failure();
  auto kernel = op->getParentOfType<FunctionOpInterface>();
  auto host = kernel->getAttrOfType<FlatSymbolRefAttr>(
      AscendCDialect::kLaunchedByAttrName);
  auto make = [&] { return makeRegion(machine, type.getElementType(), shape); };
  WorkspaceRegion region;
  if (host && op->getParentOp() == kernel.getOperation()) {
    // A launch kernel's region: its host's at the same place (every launch
    // of a host lays the regions out alike), shared by the blocks and the
    // launches, as the host's one workspace is on the machine. A run-time
    // region is the n-th of its kind after the static ones.
    int64_t place =
        workspace.isDynamic()
            ? -1 - int64_t(workspace.getDynamicRegionsBefore().size())
            : workspace.getStaticOffset();
    auto exact =
        GlobalTensorType::get(op->getContext(), shape, type.getElementType());
    region = context.getInterpreter().sharedWorkspace(host.getValue(), place,
                                                      exact, make);
  } else {
    auto [it, fresh] = machine.workspaces.try_emplace(op);
    if (fresh ||
        ArrayRef<int64_t>(it->second.tensor.shape) != ArrayRef<int64_t>(shape))
      it->second = make();
    region = it->second;
  }
  if (region.unwritten)
    machine.unwrittenWorkspace[region.tensor.storage.get()] = region.unwritten;
  context.set(op->getResult(0), region.tensor);
  return success();
}

/// The same storage, from an element offset on when the cast has one.
LogicalResult runReinterpretCast(ExecContext &context, Operation *op) {
  auto view = cast<ReinterpretCastOp>(op);
  if (!view.getOffset()) {
    context.set(view.getResult(), context.scalar(view.getSource()));
    return success();
  }
  Local source = localOf(context, view.getSource());
  int64_t offset = context.index(view.getOffset());
  int64_t elements = view.getType().getNumElements();
  int64_t viewBytes =
      elements * getByteSize(kindOf(view.getType().getElementType()));
  if (offset < 0 || offset * source.elementBytes + viewBytes >
                        source.elements * source.elementBytes)
    return op->emitOpError()
           << "views " << elements << " elements from element " << offset
           << " of a " << source.elements << "-element tensor";
  context.set(view.getResult(),
              localHandle(source.buffer,
                          source.address + offset * source.elementBytes,
                          source.owner));
  return success();
}

/// The elements of a tensor an access touches: `rows` runs of `cols`
/// elements, `stride` apart (one run for a contiguous access).
struct Window {
  int64_t rows, cols, stride;
  static Window contiguous(int64_t count) { return {1, count, count}; }
  int64_t size() const { return rows * cols; }
  /// One past the last element touched.
  int64_t end() const { return size() == 0 ? 0 : (rows - 1) * stride + cols; }
  int64_t offset(int64_t i) const { return i / cols * stride + i % cols; }
};

/// Checks a window against a tensor of `elements` elements at `offset`. An
/// empty window touches nothing, wherever it starts (a lane's part of a
/// ragged tile may hold no rows, its view past the tensor's end).
LogicalResult checkWindow(Operation *op, StringRef verb, const Window &window,
                          int64_t offset, int64_t elements) {
  if (window.rows >= 0 && window.cols >= 0 && window.stride >= window.cols &&
      (window.size() == 0 ||
       (offset >= 0 && offset + window.end() <= elements)))
    return success();
  return op->emitOpError() << verb << " " << window.rows << " x " << window.cols
                           << " elements " << window.stride
                           << " apart at element " << offset << " of a "
                           << elements << "-element tensor";
}

/// The elements of a local or GM tensor operand (from a GM view's offset)
/// in `window`; under --undefined=check, which of them are unwritten into
/// `unwritten` when given.
/// Under --undefined=check, the unwritten flags of the workspace region
/// `gm` views, or null for other GM. A region of a launch kernel is its
/// host's, shared by every machine of the run: a kernel it calls may run
/// on a machine of its own, which did not make the region.
std::vector<uint8_t> *unwrittenMask(ExecContext &context,
                                    const TensorValue &gm) {
  AscendCMachine &machine = machineOf(context);
  const interp::TensorStorage *storage = gm.storage.get();
  auto known = machine.unwrittenWorkspace.find(storage);
  if (known != machine.unwrittenWorkspace.end())
    return known->second.get();
  // Asked once per storage and machine (null for other GM): reads and
  // writes of GM ask on every instruction.
  std::shared_ptr<std::vector<uint8_t>> shared =
      context.getInterpreter().sharedUnwritten(storage);
  machine.unwrittenWorkspace[storage] = shared;
  return shared.get();
}

FailureOr<ArrayData> readElements(ExecContext &context, Operation *op,
                                  Value tensor, const Window &window,
                                  Unwritten *unwritten = nullptr) {
  AscendCMachine &machine = machineOf(context);
  int64_t count = window.size();
  bool track = unwritten && machine.checking();
  if (unwritten)
    unwritten->assign(track ? count : 0, 0);
  if (isa<LocalTensorType>(tensor.getType())) {
    Local local = localOf(context, tensor);
    if (failed(checkWindow(op, "reads", window, 0, local.elements)))
      return failure();
    ArrayData data(local.kind, count);
    const uint8_t *bytes = machine.bytes(local.pool(), local.address,
                                         window.end() * local.elementBytes);
    for (int64_t i = 0; i < count; ++i) {
      int64_t at = window.offset(i) * local.elementBytes;
      decodeElement(local.kind, bytes + at, data, i);
      if (track)
        (*unwritten)[i] = machine.isUnwritten(local.pool(), local.address + at,
                                              local.elementBytes);
    }
    return data;
  }
  TensorValue &gm = context.tensor(tensor);
  int64_t offset = gm.offset;
  if (failed(checkWindow(op, "reads", window, offset, gm.numElements())))
    return failure();
  ArrayData data(gm.kind(), count);
  for (int64_t i = 0; i < count; ++i)
    data.setScalar(i, gm.storage->data.scalarAt(offset + window.offset(i)));
  if (track)
    if (std::vector<uint8_t> *mask = unwrittenMask(context, gm))
      for (int64_t i = 0; i < count; ++i)
        (*unwritten)[i] = (*mask)[offset + window.offset(i)];
  return data;
}

FailureOr<ArrayData> readElements(ExecContext &context, Operation *op,
                                  Value tensor, int64_t count,
                                  Unwritten *unwritten = nullptr) {
  return readElements(context, op, tensor, Window::contiguous(count),
                      unwritten);
}

/// Writes `data` over the elements of a local or GM tensor operand in
/// `window`, converted to its element type (rounded to nearest even,
/// wrapped), or with `accumulate` (an atomic add into GM) adds it to them,
/// rounding the sum once as pto.tile.store's atomic_add does. Under
/// --undefined=check the elements `unwritten` flags stay unwritten in a
/// buffer or workspace, and are an error in any other GM.
LogicalResult writeElements(ExecContext &context, Operation *op, Value tensor,
                            const ArrayData &data, const Window &window,
                            const Unwritten &unwritten = {},
                            bool accumulate = false) {
  AscendCMachine &machine = machineOf(context);
  bool track = machine.checking();
  int64_t count = data.size();
  ElementKind kind =
      kindOf(cast<ShapedType>(tensor.getType()).getElementType());
  ArrayData converted(kind, kind == data.kind ? 0 : count);
  if (kind != data.kind)
    for (int64_t i = 0; i < count; ++i)
      converted.setScalar(i, data.scalarAt(i));
  const ArrayData &elements = kind == data.kind ? data : converted;
  if (isa<LocalTensorType>(tensor.getType())) {
    Local local = localOf(context, tensor);
    if (failed(checkWindow(op, "writes", window, 0, local.elements)))
      return failure();
    uint8_t *bytes = machine.bytes(local.pool(), local.address,
                                   window.end() * local.elementBytes);
    for (int64_t i = 0; i < count; ++i) {
      int64_t at = window.offset(i) * local.elementBytes;
      encodeElement(kind, elements, i, bytes + at);
      if (track)
        machine.setUnwritten(local.pool(), local.address + at,
                             local.elementBytes, isUnwritten(unwritten, i));
    }
    return success();
  }
  TensorValue &gm = context.tensor(tensor);
  int64_t offset = gm.offset;
  if (failed(checkWindow(op, "writes", window, offset, gm.numElements())))
    return failure();
  std::vector<uint8_t> *mask = track ? unwrittenMask(context, gm) : nullptr;
  if (track && !mask)
    for (int64_t i = 0; i < count; ++i)
      if (isUnwritten(unwritten, i))
        return op->emitOpError()
               << "writes undefined data to GM: element "
               << offset + window.offset(i)
               << " of the destination would hold bytes that no op wrote ("
               << llvm::count(unwritten, 1) << " of the " << count
               << " elements it writes)";
  ArrayData &stored = gm.storage->data;
  for (int64_t i = 0; i < count; ++i) {
    int64_t at = offset + window.offset(i);
    if (accumulate)
      stored.accumulate(at, elements, i);
    else
      stored.setScalar(at, elements.scalarAt(i));
    if (mask)
      (*mask)[at] = isUnwritten(unwritten, i) || (accumulate && (*mask)[at]);
  }
  return success();
}

LogicalResult writeElements(ExecContext &context, Operation *op, Value tensor,
                            const ArrayData &data,
                            const Unwritten &unwritten = {}) {
  return writeElements(context, op, tensor, data,
                       Window::contiguous(data.size()), unwritten);
}

/// Moves the `window [rows, cols] strides [src, dst]` of a data_copy or
/// fixpipe: row i from element i * src of `src` to element i * dst of
/// `dst`, converted to the destination's element type.
LogicalResult copyWindow(ExecContext &context, Operation *op, Value dst,
                         Value src, ValueRange window, ValueRange strides,
                         bool accumulate) {
  int64_t rows = context.index(window[0]), cols = context.index(window[1]);
  Unwritten unwritten;
  FailureOr<ArrayData> data =
      readElements(context, op, src,
                   Window{rows, cols, context.index(strides[0])}, &unwritten);
  if (failed(data))
    return failure();
  return writeElements(context, op, dst, *data,
                       Window{rows, cols, context.index(strides[1])}, unwritten,
                       accumulate);
}

/// Elements a copy moves: `count` when given, else all of the local
/// operand (the destination when both are local).
int64_t elementsMoved(ExecContext &context, Value dst, Value src, Value count) {
  if (count)
    return context.index(count);
  Value local = isa<LocalTensorType>(dst.getType()) ? dst : src;
  return cast<LocalTensorType>(local.getType()).getNumElements();
}

LogicalResult runDataCopy(ExecContext &context, Operation *op) {
  auto copy = cast<DataCopyOp>(op);
  if (failed(recordAccess(context, op)))
    return failure();
  if (!copy.getWindow().empty())
    return copyWindow(context, op, copy.getDst(), copy.getSrc(),
                      copy.getWindow(), copy.getStrides(), copy.getAtomicAdd());
  int64_t count =
      elementsMoved(context, copy.getDst(), copy.getSrc(), copy.getCount());
  if (count < 0)
    return op->emitOpError() << "copies " << count << " elements";
  Unwritten unwritten;
  FailureOr<ArrayData> data =
      readElements(context, op, copy.getSrc(), count, &unwritten);
  if (failed(data))
    return failure();
  return writeElements(context, op, copy.getDst(), *data,
                       Window::contiguous(count), unwritten,
                       copy.getAtomicAdd());
}

//===----------------------------------------------------------------------===//
// The cube. The IR does not spell out fractal layouts, so a cube tensor
// holds its elements in row-major order in its bytes; load_data and
// fixpipe move elements (transposing, converting), mmad multiplies them.
//===----------------------------------------------------------------------===//

LogicalResult runLoadData(ExecContext &context, Operation *op) {
  auto load = cast<LoadDataOp>(op);
  if (failed(recordAccess(context, op)))
    return failure();
  auto dstType = cast<LocalTensorType>(load.getDst().getType());
  auto srcType = cast<LocalTensorType>(load.getSrc().getType());
  int64_t count = std::min(dstType.getNumElements(), srcType.getNumElements());
  Unwritten unwritten;
  FailureOr<ArrayData> data =
      readElements(context, op, load.getSrc(), count, &unwritten);
  if (failed(data))
    return failure();
  if (!load.getTranspose())
    return writeElements(context, op, load.getDst(), *data, unwritten);
  if (srcType.getRank() != 2)
    return op->emitOpError()
           << "transposes a tensor of rank " << srcType.getRank();
  int64_t rows = srcType.getShape()[0], cols = srcType.getShape()[1];
  ArrayData transposed(data->kind, count);
  Unwritten transposedUnwritten(unwritten.size(), 0);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols && r * cols + c < count; ++c)
      if (c * rows + r < count) {
        transposed.setScalar(c * rows + r, data->scalarAt(r * cols + c));
        if (!unwritten.empty())
          transposedUnwritten[c * rows + r] = unwritten[r * cols + c];
      }
  return writeElements(context, op, load.getDst(), transposed,
                       transposedUnwritten);
}

LogicalResult runMmad(ExecContext &context, Operation *op) {
  auto mmad = cast<MmadOp>(op);
  if (failed(recordAccess(context, op)))
    return failure();
  int64_t m = context.index(mmad.getM()), n = context.index(mmad.getN()),
          k = context.index(mmad.getK());
  auto shapeOf = [](Value tensor) {
    return cast<LocalTensorType>(tensor.getType()).getShape();
  };
  ArrayRef<int64_t> c = shapeOf(mmad.getDst()), a = shapeOf(mmad.getA()),
                    b = shapeOf(mmad.getB());
  if (c.size() != 2 || a.size() != 2 || b.size() != 2 || m < 0 || n < 0 ||
      k < 0 || m > c[0] || n > c[1] || m > a[0] || k > a[1] || k > b[0] ||
      n > b[1])
    return op->emitOpError() << "multiplies " << m << "x" << k << " by " << k
                             << "x" << n << " beyond its tensors' shapes";
  bool init = !mmad.getInit() || context.scalar(mmad.getInit()).i != 0;
  // The products of the m x k corner of a by the k x n corner of b, into
  // the m x n corner of dst.
  int64_t depth = a[1] == b[0] ? a[1] : k;
  Window aWindow{m, depth, a[1]}, bWindow{depth, n, b[1]}, cWindow{m, n, c[1]};
  Unwritten lhsUnwritten, rhsUnwritten, accUnwritten;
  FailureOr<ArrayData> lhs =
      readElements(context, op, mmad.getA(), aWindow, &lhsUnwritten);
  FailureOr<ArrayData> rhs =
      readElements(context, op, mmad.getB(), bWindow, &rhsUnwritten);
  FailureOr<ArrayData> acc =
      readElements(context, op, mmad.getDst(), cWindow, &accUnwritten);
  if (failed(lhs) || failed(rhs) || failed(acc))
    return failure();
  if (m == 0 || n == 0)
    return success();
  // Fresh sums start from zero or, with a bias, from the bias row, as the
  // tile matmul's do; then the products add in K order (matmulInto).
  Unwritten biasUnwritten;
  bool fromBias = mmad.getBias() && init;
  if (fromBias) {
    FailureOr<ArrayData> bias =
        readElements(context, op, mmad.getBias(), n, &biasUnwritten);
    if (failed(bias))
      return failure();
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j)
        acc->setScalar(i * n + j, bias->scalarAt(j));
  } else if (init) {
    acc->fill(0.0);
  }
  if (failed(matmulInto(op, *lhs, *rhs, *acc, /*batch=*/1, m, depth, n,
                        /*accumulate=*/true, /*aTrans=*/false,
                        /*bTrans=*/false, /*kUsed=*/k)))
    return failure();
  // A product is unwritten when any of the k terms it sums, the sum it
  // adds to or its bias is.
  Unwritten unwritten;
  if (machineOf(context).checking()) {
    unwritten.assign(m * n, 0);
    std::vector<uint8_t> rowUnwritten(m, 0), colUnwritten(n, 0);
    for (int64_t i = 0; i < m; ++i)
      for (int64_t kk = 0; kk < k; ++kk)
        rowUnwritten[i] |= lhsUnwritten[i * depth + kk];
    for (int64_t kk = 0; kk < k; ++kk)
      for (int64_t j = 0; j < n; ++j)
        colUnwritten[j] |= rhsUnwritten[kk * n + j];
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j)
        unwritten[i * n + j] = rowUnwritten[i] | colUnwritten[j] |
                               (!init && accUnwritten[i * n + j]) |
                               isUnwritten(biasUnwritten, j);
  }
  return writeElements(context, op, mmad.getDst(), *acc, cWindow, unwritten);
}

LogicalResult runFixpipe(ExecContext &context, Operation *op) {
  auto fixpipe = cast<FixpipeOp>(op);
  if (failed(recordAccess(context, op)))
    return failure();
  if (!fixpipe.getWindow().empty())
    return copyWindow(context, op, fixpipe.getDst(), fixpipe.getSrc(),
                      fixpipe.getWindow(), fixpipe.getStrides(),
                      fixpipe.getAtomicAdd());
  auto src = cast<LocalTensorType>(fixpipe.getSrc().getType());
  int64_t count = src.getNumElements();
  if (auto dst = dyn_cast<LocalTensorType>(fixpipe.getDst().getType()))
    count = std::min(count, dst.getNumElements());
  Unwritten unwritten;
  FailureOr<ArrayData> data =
      readElements(context, op, fixpipe.getSrc(), count, &unwritten);
  if (failed(data))
    return failure();
  return writeElements(context, op, fixpipe.getDst(), *data,
                       Window::contiguous(count), unwritten,
                       fixpipe.getAtomicAdd());
}

//===----------------------------------------------------------------------===//
// Vector ops
//===----------------------------------------------------------------------===//

/// The byte address of each element an instruction touches in each of its
/// local tensor operands, in the order the instruction computes them.
struct Lanes {
  SmallVector<Local> tensors;
  SmallVector<SmallVector<int64_t>> addresses; // per tensor operand
};

FailureOr<Lanes> lanesOf(ExecContext &context, Operation *op) {
  Lanes lanes;
  for (Value operand : op->getOperands())
    if (isa<LocalTensorType>(operand.getType()))
      lanes.tensors.push_back(localOf(context, operand));
  lanes.addresses.resize(lanes.tensors.size());
  if (auto l2 = dyn_cast<VectorL2OpInterface>(op)) {
    int64_t count = lanes.tensors.front().elements;
    if (Value given = l2.getCount())
      count = context.index(given);
    for (auto [tensor, addresses] : llvm::zip(lanes.tensors, lanes.addresses)) {
      if (count < 0 || count > tensor.elements)
        return op->emitOpError() << "counts " << count << " elements of a "
                                 << tensor.elements << "-element tensor";
      for (int64_t i = 0; i < count; ++i)
        addresses.push_back(tensor.address + i * tensor.elementBytes);
    }
    return lanes;
  }
  // Absent operands mean what fill-asc-operands would make them.
  auto l0 = cast<VectorL0OpInterface>(op);
  L0Operands defaults = getDefaultL0Operands(op);
  int64_t mask = l0.getMask() ? context.index(l0.getMask()) : defaults.mask;
  int64_t repeat =
      l0.getRepeat() ? context.index(l0.getRepeat()) : defaults.repeat;
  ArrayRef<int64_t> strides = l0.getStridesAttr()
                                  ? l0.getStridesAttr().asArrayRef()
                                  : ArrayRef<int64_t>(defaults.strides);
  size_t operands = lanes.tensors.size();
  if (strides.size() != 2 * operands)
    return op->emitOpError() << "has " << strides.size() << " strides for "
                             << operands << " tensor operands";
  int64_t perRepeat = getVectorExtent(op).perRepeat;
  if (mask < 0 || mask > perRepeat || repeat < 0)
    return op->emitOpError() << "has mask " << mask << " and repeat " << repeat
                             << "; a repeat holds " << perRepeat << " elements";
  // Ascend C's repeatTimes is a uint8_t: the machine would wrap the count.
  if (repeat > kMaxRepeats)
    return op->emitOpError()
           << "repeats " << repeat
           << " times, which does not fit Ascend C's uint8_t repeatTimes "
              "(at most "
           << kMaxRepeats << ")";
  // The lanes of one repeat: the first `mask`, or those whose bit is set.
  SmallVector<int64_t> active;
  if (l0.getMaskHigh()) {
    uint64_t words[2] = {
        static_cast<uint64_t>(context.index(l0.getMaskLow())),
        static_cast<uint64_t>(context.index(l0.getMaskHigh()))};
    for (int64_t e = 0; e < perRepeat; ++e)
      if (words[e / 64] >> (e % 64) & 1)
        active.push_back(e);
  } else {
    for (int64_t e = 0; e < mask; ++e)
      active.push_back(e);
  }
  for (size_t i = 0; i < operands; ++i) {
    const Local &tensor = lanes.tensors[i];
    int64_t perBlock = kBlockBytes / tensor.elementBytes;
    // The strides may carry a lane anywhere in the buffer, but not past it
    // (nor may the lanes outnumber the bytes of every buffer many times).
    if (repeat > 0 && !active.empty()) {
      // Unplanned placeholders lie one after another, past the capacity
      // (runLocalTensorAuto): the buffer then reaches as far as they do.
      int64_t limit =
          std::max(machine::getCapacityLimit(tensor.buffer),
                   machineOf(context).nextFree.lookup(unsigned(tensor.buffer)));
      bool overflow = strides[operands + i] < 0 || strides[i] < 0 ||
                      repeat > kMaxLanes / static_cast<int64_t>(active.size());
      uint64_t blocks = 0;
      if (!overflow)
        blocks = llvm::SaturatingMultiplyAdd<uint64_t>(
            repeat - 1, strides[operands + i],
            llvm::SaturatingMultiply<uint64_t>((perRepeat - 1) / perBlock,
                                               strides[i]));
      if (overflow || blocks > static_cast<uint64_t>(limit / kBlockBytes) ||
          tensor.address + (static_cast<int64_t>(blocks) + 1) * kBlockBytes >
              limit)
        return op->emitOpError()
               << "reaches past the " << limit << " bytes of "
               << machine::getName(tensor.buffer) << " with repeat " << repeat
               << " and strides [" << strides[i] << ", "
               << strides[operands + i] << "] (in 32-byte blocks) on operand "
               << i;
    }
    for (int64_t r = 0; r < repeat; ++r)
      for (int64_t e : active)
        lanes.addresses[i].push_back(
            tensor.address +
            (r * strides[operands + i] + e / perBlock * strides[i]) *
                kBlockBytes +
            e % perBlock * tensor.elementBytes);
  }
  return lanes;
}

/// The lanes of vector op `op`, its accesses recorded on its pipe.
FailureOr<Lanes> startVectorOp(ExecContext &context, Operation *op) {
  FailureOr<Lanes> lanes = lanesOf(context, op);
  if (failed(lanes) || failed(recordAccess(context, op)))
    return failure();
  return lanes;
}

/// The elements at `addresses` of `tensor`.
ArrayData gather(AscendCMachine &machine, const Local &tensor,
                 ArrayRef<int64_t> addresses) {
  ArrayData data(tensor.kind, addresses.size());
  for (auto [i, address] : llvm::enumerate(addresses))
    decodeElement(tensor.kind,
                  machine.bytes(tensor.pool(), address, tensor.elementBytes),
                  data, i);
  return data;
}

/// Under --undefined=check, which elements at `addresses` of `tensor` are
/// unwritten; empty otherwise.
Unwritten gatherUnwritten(AscendCMachine &machine, const Local &tensor,
                          ArrayRef<int64_t> addresses) {
  Unwritten unwritten;
  if (!machine.checking())
    return unwritten;
  unwritten.reserve(addresses.size());
  for (int64_t address : addresses)
    unwritten.push_back(
        machine.isUnwritten(tensor.pool(), address, tensor.elementBytes));
  return unwritten;
}

/// Stores `data` at `addresses` of `tensor`, the elements `unwritten`
/// flags unwritten.
void scatter(AscendCMachine &machine, const Local &tensor,
             ArrayRef<int64_t> addresses, const ArrayData &data,
             const Unwritten &unwritten) {
  for (auto [i, address] : llvm::enumerate(addresses)) {
    encodeElement(tensor.kind, data, i,
                  machine.bytes(tensor.pool(), address, tensor.elementBytes));
    if (machine.checking())
      machine.setUnwritten(tensor.pool(), address, tensor.elementBytes,
                           isUnwritten(unwritten, i));
  }
}

/// out = fn(lhs, rhs(i)) over the lanes, rounded or wrapped to the kind.
/// An unwritten lane may divide by zero: its result is unwritten anyway.
template <typename Rhs>
LogicalResult combine(Operation *op, const BinaryFn &fn, const ArrayData &lhs,
                      ArrayData &out, const Unwritten &unwritten, Rhs rhs) {
  for (size_t i = 0; i < out.size(); ++i) {
    if (isFloatKind(out.kind)) {
      out.floats[i] =
          roundFloat(out.kind, fn.onFloat(lhs.floats[i], rhs(i).first));
      continue;
    }
    int64_t value;
    if (!fn.onInt(lhs.ints[i], rhs(i).second, out.kind, value)) {
      if (!isUnwritten(unwritten, i))
        return op->emitOpError() << "divides by zero at lane " << i;
      value = 0;
    }
    out.ints[i] = wrapInt(out.kind, value);
  }
  return success();
}

template <const UnaryFn &Fn>
LogicalResult runUnaryVector(ExecContext &context, Operation *op) {
  FailureOr<Lanes> lanes = startVectorOp(context, op);
  if (failed(lanes))
    return failure();
  AscendCMachine &machine = machineOf(context);
  ArrayData in = gather(machine, lanes->tensors[1], lanes->addresses[1]);
  ArrayData out(lanes->tensors[0].kind, in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    if (isFloatKind(out.kind))
      out.floats[i] = roundFloat(out.kind, Fn.onFloat(in.floats[i]));
    else
      out.ints[i] = wrapInt(out.kind, Fn.onInt(in.ints[i], out.kind));
  }
  scatter(machine, lanes->tensors[0], lanes->addresses[0], out,
          gatherUnwritten(machine, lanes->tensors[1], lanes->addresses[1]));
  return success();
}

template <const BinaryFn &Fn>
LogicalResult runBinaryVector(ExecContext &context, Operation *op) {
  FailureOr<Lanes> lanes = startVectorOp(context, op);
  if (failed(lanes))
    return failure();
  AscendCMachine &machine = machineOf(context);
  ArrayData lhs = gather(machine, lanes->tensors[1], lanes->addresses[1]);
  ArrayData rhs = gather(machine, lanes->tensors[2], lanes->addresses[2]);
  ArrayData out(lanes->tensors[0].kind, lhs.size());
  Unwritten unwritten =
      gatherUnwritten(machine, lanes->tensors[1], lanes->addresses[1]);
  mergeUnwritten(unwritten, gatherUnwritten(machine, lanes->tensors[2],
                                            lanes->addresses[2]));
  if (failed(combine(op, Fn, lhs, out, unwritten, [&](size_t i) {
        return std::make_pair(isFloatKind(rhs.kind) ? rhs.floats[i] : 0.0f,
                              isFloatKind(rhs.kind) ? int64_t(0) : rhs.ints[i]);
      })))
    return failure();
  scatter(machine, lanes->tensors[0], lanes->addresses[0], out, unwritten);
  return success();
}

template <const BinaryFn &Fn>
LogicalResult runScalarVector(ExecContext &context, Operation *op) {
  FailureOr<Lanes> lanes = startVectorOp(context, op);
  if (failed(lanes))
    return failure();
  AscendCMachine &machine = machineOf(context);
  ArrayData src = gather(machine, lanes->tensors[1], lanes->addresses[1]);
  ArrayData out(lanes->tensors[0].kind, src.size());
  std::pair<float, int64_t> rhs =
      convertScalar(context.scalar(op->getOperand(2)), out.kind);
  Unwritten unwritten =
      gatherUnwritten(machine, lanes->tensors[1], lanes->addresses[1]);
  if (failed(combine(op, Fn, src, out, unwritten, [&](size_t) { return rhs; })))
    return failure();
  scatter(machine, lanes->tensors[0], lanes->addresses[0], out, unwritten);
  return success();
}

template <typename CastOp>
LogicalResult runCastVector(ExecContext &context, Operation *op) {
  FailureOr<Lanes> lanes = startVectorOp(context, op);
  if (failed(lanes))
    return failure();
  AscendCMachine &machine = machineOf(context);
  ArrayData src = gather(machine, lanes->tensors[1], lanes->addresses[1]);
  // AscendC's round modes are numbered as PTO's (EnumAgreement.cpp).
  auto mode = static_cast<pto::RoundMode>(cast<CastOp>(op).getRound());
  ArrayData out = castElements(src, lanes->tensors[0].kind, mode);
  scatter(machine, lanes->tensors[0], lanes->addresses[0], out,
          gatherUnwritten(machine, lanes->tensors[1], lanes->addresses[1]));
  return success();
}

/// compare_l2: bit i of dst (byte i / 8, the lowest bit first) is
/// `lhs[i] <mode> rhs[i]` for the first `count` elements; the bits of the
/// last byte past `count` are zero. (The low level's mask layout is not
/// modelled: compare_l0 is refused at the op.)
LogicalResult runCompareL2(ExecContext &context, Operation *op) {
  auto compare = cast<CompareL2Op>(op);
  auto lhsType = cast<LocalTensorType>(compare.getLhs().getType());
  auto dstType = cast<LocalTensorType>(compare.getDst().getType());
  if (getElementBytes(dstType.getElementType()) != 1)
    return op->emitOpError()
           << "writes its bit mask into a tensor of "
           << dstType.getElementType() << "; it takes 8-bit elements";
  int64_t count = compare.getCount() ? context.index(compare.getCount())
                                     : lhsType.getNumElements();
  if (count < 0)
    return op->emitOpError() << "compares " << count << " elements";
  if (failed(recordAccess(context, op)))
    return failure();
  Unwritten unwritten, rhsUnwritten;
  FailureOr<ArrayData> lhs =
      readElements(context, op, compare.getLhs(), count, &unwritten);
  FailureOr<ArrayData> rhs =
      readElements(context, op, compare.getRhs(), count, &rhsUnwritten);
  if (failed(lhs) || failed(rhs))
    return failure();
  mergeUnwritten(unwritten, rhsUnwritten);
  ArrayData bits(kindOf(dstType.getElementType()), (count + 7) / 8);
  // A byte of the mask is unwritten when any comparison in it is.
  Unwritten bytesUnwritten(unwritten.empty() ? 0 : bits.size(), 0);
  for (size_t i = 0; i < unwritten.size(); ++i)
    bytesUnwritten[i / 8] |= unwritten[i];
  for (int64_t i = 0; i < count; ++i) {
    double a = lhs->get(i), b = rhs->get(i);
    bool holds = false;
    switch (compare.getMode()) {
    case CmpMode::LT:
      holds = a < b;
      break;
    case CmpMode::GT:
      holds = a > b;
      break;
    case CmpMode::EQ:
      holds = a == b;
      break;
    case CmpMode::LE:
      holds = a <= b;
      break;
    case CmpMode::GE:
      holds = a >= b;
      break;
    case CmpMode::NE:
      holds = a != b;
      break;
    }
    if (holds)
      bits.set(i / 8, bits.get(i / 8) + (1 << (i % 8)));
  }
  return writeElements(context, op, compare.getDst(), bits, bytesUnwritten);
}

/// select_l2 / select_scalar_l2: element i of dst is lhs[i] where bit i of
/// the mask (byte i / 8, the lowest bit first, as compare_l2 writes it) is
/// set, else rhs[i] or the scalar (converted to the element type, rounded
/// to nearest), for the first `count` elements. A result is unwritten when
/// its mask byte or the element it takes is.
LogicalResult runSelectL2(ExecContext &context, Operation *op) {
  auto vector = cast<VectorL2OpInterface>(op);
  Value dst = op->getOperand(0), mask = op->getOperand(1),
        lhs = op->getOperand(2), rhs = op->getOperand(3);
  bool scalar = !isa<LocalTensorType>(rhs.getType());
  int64_t count = vector.getCount()
                      ? context.index(vector.getCount())
                      : cast<LocalTensorType>(dst.getType()).getNumElements();
  if (count < 0)
    return op->emitOpError() << "selects " << count << " elements";
  if (failed(recordAccess(context, op)))
    return failure();
  Unwritten maskUnwritten, lhsUnwritten, rhsUnwritten;
  FailureOr<ArrayData> bits =
      readElements(context, op, mask, (count + 7) / 8, &maskUnwritten);
  FailureOr<ArrayData> taken =
      readElements(context, op, lhs, count, &lhsUnwritten);
  if (failed(bits) || failed(taken))
    return failure();
  std::optional<ArrayData> others;
  if (!scalar) {
    FailureOr<ArrayData> read =
        readElements(context, op, rhs, count, &rhsUnwritten);
    if (failed(read))
      return failure();
    others = std::move(*read);
  }
  ArrayData out = *taken;
  Unwritten unwritten(lhsUnwritten.empty() ? 0 : count, 0);
  for (int64_t i = 0; i < count; ++i) {
    bool set = (static_cast<int64_t>(bits->get(i / 8)) >> (i % 8)) & 1;
    if (!set) {
      if (scalar)
        out.setScalar(i, context.scalar(rhs));
      else
        out.setScalar(i, others->scalarAt(i));
    }
    if (!unwritten.empty())
      unwritten[i] = isUnwritten(maskUnwritten, i / 8) ||
                     (set ? isUnwritten(lhsUnwritten, i)
                          : !scalar && isUnwritten(rhsUnwritten, i));
  }
  return writeElements(context, op, dst, out, unwritten);
}

LogicalResult refuseCompareL0(ExecContext &, Operation *op) {
  return op->emitOpError() << "is not executed: the layout of its bit mask "
                              "per repeat is not modelled; use compare_l2";
}

/// dst[i] = src[i with the axis coordinate 0]: src has extent 1 along the
/// axis and dst's extents elsewhere.
LogicalResult runBroadcast(ExecContext &context, Operation *op) {
  auto broadcast = cast<BroadcastOp>(op);
  if (failed(recordAccess(context, op)))
    return failure();
  auto dstType = cast<LocalTensorType>(broadcast.getDst().getType());
  auto srcType = cast<LocalTensorType>(broadcast.getSrc().getType());
  ArrayRef<int64_t> dst = dstType.getShape(), src = srcType.getShape();
  int64_t axis = broadcast.getAxis();
  Unwritten inUnwritten;
  FailureOr<ArrayData> in = readElements(
      context, op, broadcast.getSrc(), srcType.getNumElements(), &inUnwritten);
  if (failed(in))
    return failure();
  ArrayData out(in->kind, dstType.getNumElements());
  Unwritten unwritten(inUnwritten.empty() ? 0 : out.size(), 0);
  SmallVector<int64_t> index(dst.size(), 0);
  for (int64_t i = 0, e = out.size(); i < e; ++i) {
    int64_t rest = i, from = 0;
    for (int64_t d = static_cast<int64_t>(dst.size()) - 1; d >= 0; --d) {
      index[d] = rest % dst[d];
      rest /= dst[d];
    }
    for (size_t d = 0; d < src.size(); ++d)
      from = from * src[d] + (static_cast<int64_t>(d) == axis ? 0 : index[d]);
    out.setScalar(i, in->scalarAt(from));
    if (!unwritten.empty())
      unwritten[i] = inUnwritten[from];
  }
  return writeElements(context, op, broadcast.getDst(), out, unwritten);
}

/// dst = the fold of each row (axis 1) or column (axis 0) of the first
/// `rows` rows of src, in the order the tile reductions use (Folding.h); a
/// row fold with `cols` folds that many values of each row.
template <typename ReduceOp, Reduction R>
LogicalResult runReduce(ExecContext &context, Operation *op) {
  auto reduce = cast<ReduceOp>(op);
  if (failed(recordAccess(context, op)))
    return failure();
  auto srcType = cast<LocalTensorType>(reduce.getSrc().getType());
  int64_t rows = srcType.getDimSize(0), cols = srcType.getDimSize(1);
  int64_t dataRows = reduce.getRows() ? context.index(reduce.getRows()) : rows;
  if (dataRows < 1 || dataRows > rows)
    return op->emitOpError()
           << "folds " << dataRows << " rows of a tensor of " << rows;
  Unwritten inUnwritten;
  FailureOr<ArrayData> in =
      readElements(context, op, reduce.getSrc(), dataRows * cols, &inUnwritten);
  if (failed(in))
    return failure();
  bool isRow = reduce.getAxis() == 1;
  // A row fold of `count` values a row: the rows lie `count` rounded up to
  // whole 32-byte blocks apart (srcInnerPad).
  int64_t count = cols, pitch = cols;
  if (reduce.getCols()) {
    count = context.index(reduce.getCols());
    int64_t perBlock = 32 / getElementBytes(srcType.getElementType());
    pitch = llvm::divideCeil(count, perBlock) * perBlock;
    if (count < 1 || pitch > cols)
      return op->emitOpError()
             << "folds " << count << " values of each row of a tensor "
             << srcType << ", whose rows hold at most " << cols;
  }
  ArrayData out(in->kind, isRow ? dataRows : cols);
  Unwritten unwritten(inUnwritten.empty() ? 0 : out.size(), 0);
  std::vector<float> scratch;
  for (int64_t line = 0; line < static_cast<int64_t>(out.size()); ++line) {
    int64_t start = isRow ? line * pitch : line, step = isRow ? 1 : cols,
            length = isRow ? count : dataRows;
    foldLine(R, *in, start, step, length, out, line, scratch);
    for (int64_t i = 0; !unwritten.empty() && i < length; ++i)
      unwritten[line] |= inUnwritten[start + i * step];
  }
  return writeElements(context, op, reduce.getDst(), out, unwritten);
}

LogicalResult runDuplicate(ExecContext &context, Operation *op) {
  FailureOr<Lanes> lanes = startVectorOp(context, op);
  if (failed(lanes))
    return failure();
  ArrayData out(lanes->tensors[0].kind, lanes->addresses[0].size());
  out.fill(context.scalar(op->getOperand(1)));
  scatter(machineOf(context), lanes->tensors[0], lanes->addresses[0], out, {});
  return success();
}

/// create_vec_index_l2: element i of dst is `first + i`, as pto.tile.iota
/// defines its elements.
LogicalResult runCreateVecIndex(ExecContext &context, Operation *op) {
  FailureOr<Lanes> lanes = startVectorOp(context, op);
  if (failed(lanes))
    return failure();
  ArrayData out(lanes->tensors[0].kind, lanes->addresses[0].size());
  const Scalar &first = context.scalar(op->getOperand(1));
  for (size_t i = 0; i < out.size(); ++i)
    out.setIndex(i, first, static_cast<int64_t>(i));
  scatter(machineOf(context), lanes->tensors[0], lanes->addresses[0], out, {});
  return success();
}

//===----------------------------------------------------------------------===//
// The sorts, on 8-byte (score, index) pairs: the score's bytes first (an
// f16 score then two unused bytes), the index's last.
//===----------------------------------------------------------------------===//

/// Sorted pairs as the executor holds them while it moves them.
struct Pairs {
  ArrayData scores;
  std::vector<int32_t> indices;
  Unwritten unwritten; // per pair, under --undefined=check
};

/// The first `count` pairs of the pair tensor `tensor`.
FailureOr<Pairs> readPairs(ExecContext &context, Operation *op, Value tensor,
                           int64_t count) {
  AscendCMachine &machine = machineOf(context);
  Local local = localOf(context, tensor);
  if (count * 8 > local.elements * local.elementBytes)
    return op->emitOpError()
           << "reads " << count << " pairs of a "
           << local.elements * local.elementBytes << "-byte tensor";
  Pairs pairs{ArrayData(local.kind, count), std::vector<int32_t>(count),
              Unwritten(machine.checking() ? count : 0, 0)};
  const uint8_t *bytes = machine.bytes(local.pool(), local.address, count * 8);
  for (int64_t i = 0; i < count; ++i) {
    decodeElement(local.kind, bytes + 8 * i, pairs.scores, i);
    std::memcpy(&pairs.indices[i], bytes + 8 * i + 4, 4);
    if (machine.checking())
      pairs.unwritten[i] =
          machine.isUnwritten(local.pool(), local.address + 8 * i, 8);
  }
  return pairs;
}

/// Writes pair `order[k]` of `pairs` as pair k of `tensor`.
LogicalResult writePairs(ExecContext &context, Operation *op, Value tensor,
                         const Pairs &pairs, ArrayRef<int64_t> order) {
  AscendCMachine &machine = machineOf(context);
  Local local = localOf(context, tensor);
  int64_t count = order.size();
  if (count * 8 > local.elements * local.elementBytes)
    return op->emitOpError()
           << "writes " << count << " pairs to a "
           << local.elements * local.elementBytes << "-byte tensor";
  uint8_t *bytes = machine.bytes(local.pool(), local.address, count * 8);
  for (int64_t k = 0; k < count; ++k) {
    int64_t from = order[k];
    std::memset(bytes + 8 * k, 0, 8);
    encodeElement(local.kind, pairs.scores, from, bytes + 8 * k);
    std::memcpy(bytes + 8 * k + 4, &pairs.indices[from], 4);
    if (machine.checking())
      machine.setUnwritten(local.pool(), local.address + 8 * k, 8,
                           isUnwritten(pairs.unwritten, from));
  }
  return success();
}

/// sort32: each 32 scores, with their indices, sorted stably into pairs in
/// the vector unit's order (sortsBefore).
LogicalResult runSort32(ExecContext &context, Operation *op) {
  auto sort = cast<Sort32Op>(op);
  if (failed(recordAccess(context, op)))
    return failure();
  int64_t count = 32 * sort.getRepeat();
  Pairs pairs{ArrayData(ElementKind::F32, 0), {}, {}};
  Unwritten scoreUnwritten, indexUnwritten;
  FailureOr<ArrayData> scores =
      readElements(context, op, sort.getScores(), count, &scoreUnwritten);
  FailureOr<ArrayData> indices =
      readElements(context, op, sort.getIndices(), count, &indexUnwritten);
  if (failed(scores) || failed(indices))
    return failure();
  pairs.scores = std::move(*scores);
  for (int64_t i = 0; i < count; ++i)
    pairs.indices.push_back(static_cast<int32_t>(indices->ints[i]));
  mergeUnwritten(scoreUnwritten, indexUnwritten);
  pairs.unwritten = std::move(scoreUnwritten);
  std::vector<int64_t> order(count);
  std::iota(order.begin(), order.end(), 0);
  for (int64_t block = 0; block < count; block += 32)
    std::stable_sort(order.begin() + block, order.begin() + block + 32,
                     [&](int64_t a, int64_t b) {
                       return sortsBefore(pairs.scores.floats[a],
                                          pairs.scores.floats[b]);
                     });
  return writePairs(context, op, sort.getDst(), pairs, order);
}

/// mrg_sort: the two sorted lists merged, a tie taking the first's pair.
LogicalResult runMrgSort(ExecContext &context, Operation *op) {
  auto merge = cast<MrgSortOp>(op);
  if (failed(recordAccess(context, op)))
    return failure();
  int64_t count = merge.getCount();
  FailureOr<Pairs> first = readPairs(context, op, merge.getFirst(), count);
  FailureOr<Pairs> second = readPairs(context, op, merge.getSecond(), count);
  if (failed(first) || failed(second))
    return failure();
  // Both lists in one, the second's pairs after the first's.
  Pairs both{ArrayData(first->scores.kind, 2 * count), first->indices,
             first->unwritten};
  for (int64_t i = 0; i < count; ++i) {
    both.scores.floats[i] = first->scores.floats[i];
    both.scores.floats[count + i] = second->scores.floats[i];
  }
  llvm::append_range(both.indices, second->indices);
  llvm::append_range(both.unwritten, second->unwritten);
  std::vector<int64_t> order;
  int64_t i = 0, j = count;
  while (i < count || j < 2 * count) {
    bool right = j < 2 * count &&
                 (i == count ||
                  sortsBefore(both.scores.floats[j], both.scores.floats[i]));
    order.push_back(right ? j++ : i++);
  }
  return writePairs(context, op, merge.getDst(), both, order);
}

/// extract: the pairs' scores and indices apart.
LogicalResult runExtract(ExecContext &context, Operation *op) {
  auto extract = cast<ExtractOp>(op);
  if (failed(recordAccess(context, op)))
    return failure();
  int64_t count = 32 * extract.getRepeat();
  FailureOr<Pairs> pairs = readPairs(context, op, extract.getSorted(), count);
  if (failed(pairs))
    return failure();
  ArrayData indices(ElementKind::I32, count);
  for (int64_t i = 0; i < count; ++i)
    indices.ints[i] = pairs->indices[i];
  if (failed(writeElements(context, op, extract.getValues(), pairs->scores,
                           pairs->unwritten)))
    return failure();
  return writeElements(context, op, extract.getIndices(), indices,
                       pairs->unwritten);
}

/// get_value / set_value: one element, on the scalar unit. The address of
/// element `index` of `tensor`, or an error at `op` past its end.
FailureOr<std::pair<Local, int64_t>>
elementAt(ExecContext &context, Operation *op, Value tensor, int64_t index) {
  Local local = localOf(context, tensor);
  if (index < 0 || index >= local.elements)
    return op->emitOpError() << "accesses element " << index << " of a "
                             << local.elements << "-element tensor";
  return std::make_pair(local, local.address + index * local.elementBytes);
}

LogicalResult runGetValue(ExecContext &context, Operation *op) {
  auto get = cast<GetValueOp>(op);
  if (failed(recordAccess(context, op)))
    return failure();
  int64_t index = context.index(get.getIndex());
  auto at = elementAt(context, op, get.getTensor(), index);
  if (failed(at))
    return failure();
  auto [local, address] = *at;
  AscendCMachine &machine = machineOf(context);
  if (machine.checking() &&
      machine.isUnwritten(local.pool(), address, local.elementBytes))
    return op->emitOpError() << "reads element " << index
                             << ", which no op wrote (undefined data)";
  ArrayData element(local.kind, 1);
  decodeElement(local.kind,
                machine.bytes(local.pool(), address, local.elementBytes),
                element, 0);
  context.set(get.getResult(), element.scalarAt(0));
  return success();
}

LogicalResult runSetValue(ExecContext &context, Operation *op) {
  auto set = cast<SetValueOp>(op);
  if (failed(recordAccess(context, op)))
    return failure();
  auto at =
      elementAt(context, op, set.getTensor(), context.index(set.getIndex()));
  if (failed(at))
    return failure();
  auto [local, address] = *at;
  AscendCMachine &machine = machineOf(context);
  ArrayData element(local.kind, 1);
  element.setScalar(0, context.scalar(set.getValue()));
  encodeElement(local.kind, element, 0,
                machine.bytes(local.pool(), address, local.elementBytes));
  if (machine.checking())
    machine.setUnwritten(local.pool(), address, local.elementBytes, false);
  return success();
}

/// transpose: element (r, c) of the 16 x 16 source to (c, r).
LogicalResult runTransposeBlock(ExecContext &context, Operation *op) {
  auto transpose = cast<TransposeOp>(op);
  if (failed(recordAccess(context, op)))
    return failure();
  Unwritten unwritten;
  FailureOr<ArrayData> src =
      readElements(context, op, transpose.getSrc(), 256, &unwritten);
  if (failed(src))
    return failure();
  ArrayData out(src->kind, 256);
  Unwritten moved(unwritten.empty() ? 0 : 256, 0);
  for (int64_t r = 0; r < 16; ++r)
    for (int64_t c = 0; c < 16; ++c) {
      out.setScalar(c * 16 + r, src->scalarAt(r * 16 + c));
      if (!moved.empty())
        moved[c * 16 + r] = unwritten[r * 16 + c];
    }
  return writeElements(context, op, transpose.getDst(), out, moved);
}

/// gather: element i of dst is the element of src at byte offsets[i].
LogicalResult runGatherVector(ExecContext &context, Operation *op) {
  auto gather = cast<GatherOp>(op);
  if (failed(recordAccess(context, op)))
    return failure();
  int64_t count = context.index(gather.getCount());
  Local src = localOf(context, gather.getSrc());
  Unwritten offsetUnwritten, srcUnwritten;
  FailureOr<ArrayData> offsets =
      readElements(context, op, gather.getOffsets(), count, &offsetUnwritten);
  FailureOr<ArrayData> elements =
      readElements(context, op, gather.getSrc(), src.elements, &srcUnwritten);
  if (failed(offsets) || failed(elements))
    return failure();
  ArrayData out(src.kind, count);
  Unwritten unwritten(machineOf(context).checking() ? count : 0, 0);
  for (int64_t i = 0; i < count; ++i) {
    int64_t byte = offsets->ints[i];
    if (byte < 0 || byte % src.elementBytes != 0 ||
        byte / src.elementBytes >= src.elements)
      return op->emitOpError()
             << "gathers from byte " << byte << " of a "
             << src.elements * src.elementBytes << "-byte source (element " << i
             << "): outside it, or not at an element";
    out.setScalar(i, elements->scalarAt(byte / src.elementBytes));
    if (!unwritten.empty())
      unwritten[i] = isUnwritten(offsetUnwritten, i) ||
                     isUnwritten(srcUnwritten, byte / src.elementBytes);
  }
  return writeElements(context, op, gather.getDst(), out, unwritten);
}

//===----------------------------------------------------------------------===//
// Synchronization and kernel structure
//===----------------------------------------------------------------------===//

LogicalResult deadlock(ExecContext &context, AscendCMachine &machine,
                       Operation *op, const Twine &what) {
  context.getInterpreter().noteStalled(
      {{coreOf(machine, op) == 0 ? "cube" : "vector", op}});
  return op->emitError() << "waits for " << what
                         << ", which no earlier op set: the "
                         << (coreOf(machine, op) == 0 ? "cube" : "vector")
                         << " core would wait forever (a deadlock)";
}

LogicalResult runSync(ExecContext &context, Operation *op) {
  using Kind = HappensBefore::SyncOutcome::Kind;
  AscendCMachine &machine = machineOf(context);
  unsigned core = coreOf(machine, op);
  HappensBefore::SyncOutcome outcome = machine.model.synchronize(op, core);
  if (isa<CrossCoreSetFlagOp>(op))
    noteCrossCoreSet();
  // In a mixed kernel the other core may still set the flag: let it run.
  while (outcome.kind == Kind::Blocked && currentMixedCore()) {
    Operation *other = nullptr;
    HandOver next = handOverAt(op, other);
    if (next == HandOver::Stopped)
      return failure();
    if (next == HandOver::Deadlock) {
      std::vector<StalledWait> waits{{core == 0 ? "cube" : "vector", op}};
      if (other)
        waits.push_back({core == 0 ? "vector" : "cube", other});
      context.getInterpreter().noteStalled(waits);
      InFlightDiagnostic diag = op->emitError()
                                << "waits for cross-core flag "
                                << cast<CrossCoreWaitFlagOp>(op).getFlag()
                                << ", which the "
                                << (core == 0 ? "vector" : "cube") << " core "
                                << (other ? "cannot set: it waits too"
                                          : "never sets: it has returned")
                                << " (a deadlock)";
      if (other)
        diag.attachNote(other->getLoc()) << "the other core's wait";
      return failure();
    }
    outcome = machine.model.synchronize(op, core);
  }
  if (outcome.kind == Kind::NothingSet) {
    auto wait = cast<WaitFlagOp>(op);
    return deadlock(context, machine, op,
                    "event " + Twine(wait.getEvent()) + " from " +
                        stringifyPipe(wait.getSrc()) + " to " +
                        stringifyPipe(wait.getDst()));
  }
  if (outcome.kind == Kind::Blocked)
    return deadlock(context, machine, op,
                    "cross-core flag " +
                        Twine(cast<CrossCoreWaitFlagOp>(op).getFlag()));
  if (outcome.kind == Kind::CounterFull)
    return op->emitError() << "sets cross-core flag "
                           << cast<CrossCoreSetFlagOp>(op).getFlag()
                           << " while " << machine::kCrossCoreFlagSets
                           << " sets of it may be pending: its counter holds "
                           << machine::kCrossCoreFlagSets;
  if (outcome.kind == Kind::SetWhileUp) {
    auto set = cast<SetFlagOp>(op);
    return op->emitError()
           << "sets event " << set.getEvent() << " from "
           << stringifyPipe(set.getSrc()) << " to "
           << stringifyPipe(set.getDst())
           << " while an earlier set of it may not have been waited for: "
              "the chip keeps one bit per event, so the second set is lost "
              "and a wait hangs";
  }
  if (outcome.kind == Kind::Overtakes) {
    InFlightDiagnostic diag =
        op->emitError() << "sets cross-core flag "
                        << cast<CrossCoreSetFlagOp>(op).getFlag()
                        << " while its earlier set on another pipe may still "
                           "be pending: a wait cannot tell which one it takes";
    diag.attachNote(outcome.overtaken->getLoc()) << "the earlier set";
    return failure();
  }
  return success();
}

/// A group runs on its core; in a mixed kernel the other core skips it.
LogicalResult runCoreGroup(ExecContext &context, Operation *op) {
  SmallVector<RuntimeValue> none;
  std::optional<unsigned> core = currentMixedCore();
  if (!core)
    return context.runRegion(op->getRegion(0), none);
  bool own = *core == (isCubeGroup(op) ? 0u : 1u);
  // A group inside another is seen by the core running the outer one
  // only: it takes no turn with the other core (which would wait forever).
  if (getCoreGroup(op)) {
    if (!own)
      return success();
    return context.runRegion(op->getRegion(0), none);
  }
  std::optional<uint64_t> index = enterCoreGroup(own);
  if (!index)
    return failure(); // the run has stopped; the cause is reported
  if (!own)
    return success();
  if (failed(context.runRegion(op->getRegion(0), none)))
    return failure();
  leaveCoreGroup(*index);
  return success();
}

/// A lane's ops (if_subblock). The executor's one vector core runs both
/// lanes in program order, the order the lowering merged them in.
LogicalResult runLane(ExecContext &context, Operation *op) {
  SmallVector<RuntimeValue> none;
  return context.runRegion(op->getRegion(0), none);
}

LogicalResult runSubBlockIdx(ExecContext &context, Operation *op) {
  context.set(op->getResult(0), Scalar::ofInt(ElementKind::Index, 0));
  return success();
}

LogicalResult runNothing(ExecContext &, Operation *) { return success(); }

//===----------------------------------------------------------------------===//
// Debug ops (the pipelines keep them with --debug)
//===----------------------------------------------------------------------===//

/// The cores of a mixed kernel print from two threads, a line at a time.
std::mutex &debugOutputMutex() {
  static std::mutex mutex;
  return mutex;
}

/// printf: each conversion (%d %i %u %x %X %c for integers, %f %F %e %E %g
/// %G for floats, with flags, width and precision; length modifiers are
/// read and ignored) takes the next argument; %% is a percent sign.
LogicalResult runPrintf(ExecContext &context, Operation *op) {
  auto print = cast<PrintfOp>(op);
  StringRef format = print.getFormat();
  OperandRange args = print.getArgs();
  std::string text;
  size_t next = 0;
  for (size_t i = 0; i < format.size(); ++i) {
    if (format[i] != '%') {
      text += format[i];
      continue;
    }
    size_t end = format.find_first_of("diuxXcfFeEgGs%", i + 1);
    if (end == StringRef::npos)
      return op->emitOpError() << "has an unfinished conversion at offset " << i
                               << " of its format";
    char conversion = format[end];
    // Flags, width and precision only: '*' and '$' would read arguments
    // the call does not pass, 'n' would write through one.
    std::string spec = "%";
    for (char c : format.slice(i + 1, end)) {
      if (strchr("hlLjzt", c))
        continue;
      if (!strchr("-+ #0123456789.", c))
        return op->emitOpError()
               << "has an unsupported conversion '" << format.slice(i, end + 1)
               << "' in its format";
      spec += c;
    }
    i = end;
    if (conversion == '%') {
      text += '%';
      continue;
    }
    if (conversion == 's')
      return op->emitOpError() << "prints a string (%s), which a kernel "
                                  "argument cannot be";
    if (next >= args.size())
      return op->emitOpError()
             << "has more conversions than its " << args.size() << " arguments";
    Scalar value = context.scalar(args[next++]);
    char buffer[128];
    if (strchr("fFeEgG", conversion))
      std::snprintf(buffer, sizeof buffer, (spec + conversion).c_str(),
                    value.asDouble());
    else if (conversion == 'c')
      std::snprintf(buffer, sizeof buffer, (spec + 'c').c_str(),
                    static_cast<int>(value.i));
    else
      std::snprintf(buffer, sizeof buffer, (spec + "ll" + conversion).c_str(),
                    static_cast<long long>(isFloatKind(value.kind)
                                               ? static_cast<int64_t>(value.f)
                                               : value.i));
    text += buffer;
  }
  if (next != args.size())
    return op->emitOpError() << "has " << args.size() << " arguments for "
                             << next << " conversions";
  std::lock_guard<std::mutex> lock(debugOutputMutex());
  llvm::outs() << text;
  llvm::outs().flush();
  return success();
}

/// dump_tensor: `count` elements of the tensor, tagged with `desc`.
LogicalResult runDumpTensor(ExecContext &context, Operation *op) {
  auto dump = cast<DumpTensorOp>(op);
  int64_t count = context.index(dump.getCount());
  FailureOr<ArrayData> data =
      readElements(context, op, dump.getTensor(), count);
  if (failed(data))
    return failure();
  std::lock_guard<std::mutex> lock(debugOutputMutex());
  llvm::raw_ostream &os = llvm::outs();
  os << "dump_tensor desc " << dump.getDesc() << ", " << count
     << " elements: [";
  for (int64_t i = 0; i < count; ++i) {
    Scalar value = data->scalarAt(i);
    if (i)
      os << ", ";
    if (isFloatKind(value.kind))
      os << llvm::format("%g", value.f);
    else
      os << value.i;
  }
  os << "]\n";
  os.flush();
  return success();
}

/// assert: the kernel stops, at the op, when the condition is false.
LogicalResult runAssert(ExecContext &context, Operation *op) {
  auto check = cast<AssertOp>(op);
  if (context.scalar(check.getCondition()).i)
    return success();
  return op->emitOpError() << "failed: " << check.getMessage();
}

template <typename Op> void addHandler(HandlerMap &map, OpHandler handler) {
  map[TypeID::get<Op>()] = handler;
}

} // namespace

LogicalResult interp::checkFlagsWaited(AscendCMachine &machine,
                                       FunctionOpInterface func) {
  bool clean = true;
  for (const HappensBefore::PendingFlag &pending :
       machine.model.pendingFlags()) {
    clean = false;
    func->emitError() << "returns with " << pending.count << " set_flag "
                      << stringifyPipe(static_cast<Pipe>(pending.src)) << " -> "
                      << stringifyPipe(static_cast<Pipe>(pending.dst))
                      << " event " << pending.event << " never waited";
  }
  for (auto [receiver, flag, set] : machine.model.pendingCrossFlags()) {
    clean = false;
    set->emitError() << "sets cross-core flag " << flag << ", which the "
                     << (receiver == 0 ? "cube" : "vector")
                     << " core never waits for before the kernel returns";
  }
  return success(clean);
}

void interp::registerAscendCHandlers(HandlerMap &map) {
  addHandler<LocalTensorOp>(map, runLocalTensor);
  addHandler<LocalTensorAutoOp>(map, runLocalTensorAuto);
  addHandler<ReinterpretCastOp>(map, runReinterpretCast);
  addHandler<GlobalSubIndexOp>(map, runSubIndex);
  addHandler<GlobalDimOp>(map, runGlobalDim);
  addHandler<GlobalReshapeOp>(map, runGlobalReshape);
  addHandler<GlobalReadOp>(map, runGlobalRead);
  addHandler<WorkspaceOp>(map, runWorkspace);
  addHandler<DataCopyOp>(map, runDataCopy);
  addHandler<LoadDataOp>(map, runLoadData);
  addHandler<MmadOp>(map, runMmad);
  addHandler<FixpipeOp>(map, runFixpipe);
#define UNARY(NAME, FN)                                                        \
  addHandler<NAME##L2Op>(map, runUnaryVector<FN>);                             \
  addHandler<NAME##L0Op>(map, runUnaryVector<FN>)
  UNARY(Abs, kAbs);
  UNARY(Exp, kExp);
  UNARY(Ln, kLog);
  UNARY(Sqrt, kSqrt);
  UNARY(Rsqrt, kRsqrt);
  UNARY(Reciprocal, kRecip);
  UNARY(Relu, kRelu);
  UNARY(Not, kNot);
#undef UNARY
  addHandler<TanhL2Op>(map, runUnaryVector<kTanh>);
  addHandler<SigmoidL2Op>(map, runUnaryVector<kSigmoid>);
  addHandler<ErfL2Op>(map, runUnaryVector<kErf>);
#define BINARY(NAME, FN)                                                       \
  addHandler<NAME##L2Op>(map, runBinaryVector<FN>);                            \
  addHandler<NAME##L0Op>(map, runBinaryVector<FN>)
  BINARY(Add, kAdd);
  BINARY(Sub, kSub);
  BINARY(Mul, kMul);
  BINARY(Div, kDiv);
  BINARY(Max, kMax);
  BINARY(Min, kMin);
  BINARY(And, kAnd);
  BINARY(Or, kOr);
#undef BINARY
#define SCALAR(NAME, FN)                                                       \
  addHandler<NAME##L2Op>(map, runScalarVector<FN>);                            \
  addHandler<NAME##L0Op>(map, runScalarVector<FN>)
  SCALAR(Adds, kAdd);
  SCALAR(Muls, kMul);
  SCALAR(Maxs, kMax);
  SCALAR(Mins, kMin);
  SCALAR(ShiftLeft, kShl);
  SCALAR(ShiftRight, kShr);
#undef SCALAR
  addHandler<CreateVecIndexL2Op>(map, runCreateVecIndex);
  addHandler<Sort32Op>(map, runSort32);
  addHandler<MrgSortOp>(map, runMrgSort);
  addHandler<ExtractOp>(map, runExtract);
  addHandler<GatherOp>(map, runGatherVector);
  addHandler<TransposeOp>(map, runTransposeBlock);
  addHandler<GetValueOp>(map, runGetValue);
  addHandler<SetValueOp>(map, runSetValue);
  addHandler<CastL2Op>(map, runCastVector<CastL2Op>);
  addHandler<CompareL2Op>(map, runCompareL2);
  addHandler<CompareL0Op>(map, refuseCompareL0);
  addHandler<SelectL2Op>(map, runSelectL2);
  addHandler<SelectScalarL2Op>(map, runSelectL2);
  addHandler<CastL0Op>(map, runCastVector<CastL0Op>);
  addHandler<BroadcastOp>(map, runBroadcast);
  addHandler<ReduceSumOp>(map, runReduce<ReduceSumOp, Reduction::Sum>);
  addHandler<ReduceMaxOp>(map, runReduce<ReduceMaxOp, Reduction::Max>);
  addHandler<ReduceMinOp>(map, runReduce<ReduceMinOp, Reduction::Min>);
  addHandler<ReduceProdOp>(map, runReduce<ReduceProdOp, Reduction::Prod>);
  addHandler<DuplicateL2Op>(map, runDuplicate);
  addHandler<DuplicateL0Op>(map, runDuplicate);
  addHandler<SetFlagOp>(map, runSync);
  addHandler<WaitFlagOp>(map, runSync);
  addHandler<PipeBarrierOp>(map, runSync);
  addHandler<GetBufOp>(map, runSync);
  addHandler<RlsBufOp>(map, runSync);
  addHandler<CrossCoreSetFlagOp>(map, runSync);
  addHandler<CrossCoreWaitFlagOp>(map, runSync);
  addHandler<IfAicOp>(map, runCoreGroup);
  addHandler<IfAivOp>(map, runCoreGroup);
  addHandler<IfSubBlockOp>(map, runLane);
  addHandler<GetSubBlockIdxOp>(map, runSubBlockIdx);
  addHandler<GetBlockIdxOp>(map, runBlockQuery<false>);
  addHandler<GetBlockNumOp>(map, runBlockQuery<true>);
  addHandler<SubBlockGuardOp>(map, runNothing);
  addHandler<InitDumpOp>(map, runNothing);
  addHandler<PrintfOp>(map, runPrintf);
  addHandler<DumpTensorOp>(map, runDumpTensor);
  addHandler<AssertOp>(map, runAssert);
}
