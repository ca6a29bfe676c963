//===- ExecContext.h - One function invocation of the executor ---*- C++
//-*-===//
//
// The values of one invocation, its byte pools, and the helpers op handlers
// share. Internal to the executor.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_LIB_INTERP_EXECCONTEXT_H
#define TILEKIT_LIB_INTERP_EXECCONTEXT_H

#include "tilekit/Interp/BytePool.h"
#include "tilekit/Interp/Interpreter.h"

#include "mlir/IR/Operation.h"

namespace tilekit::interp {

class TaskScheduler;
struct AscendCMachine;

class ExecContext {
public:
  ExecContext(Interpreter &interpreter, const CoreState &state)
      : interpreter(interpreter), state(state),
        pools(interpreter.getOptions().undefined) {}

  Interpreter &getInterpreter() { return interpreter; }
  /// Where this invocation's in-core calls run when they may run at once
  /// (an orchestration entry under --threads); null: inline.
  TaskScheduler *getScheduler() const { return scheduler; }
  void setScheduler(TaskScheduler *tasks) { scheduler = tasks; }
  /// Where this invocation runs (launch block, traced work item).
  CoreState &getCoreState() { return state; }
  /// The work item records belong to (0 outside one).
  uint32_t getWorkItem() const { return state.workItem.value_or(0); }
  /// Trace output of this invocation (TraceEmitter.cpp): `record` gets the
  /// core and lane it runs on, and goes to the core's stream or the sink.
  void emit(trace::Record record);
  uint16_t intern(llvm::StringRef name);
  uint32_t locationOf(mlir::Operation *op);

  /// A copy: binding values may move the map's entries, so a reference
  /// held across an op (a loop bound across its body) would dangle.
  Scalar scalar(mlir::Value value) const {
    return std::get<Scalar>(values.find(value)->second);
  }
  int64_t index(mlir::Value value) const { return scalar(value).i; }
  llvm::SmallVector<int64_t, 4> indices(mlir::ValueRange range) const;
  /// The tile `value` holds; addressed tiles are read from the byte pool, so
  /// that they see writes through aliasing tiles.
  TileValue tile(mlir::Value value);
  TensorValue &tensor(mlir::Value value) {
    return std::get<TensorValue>(values.find(value)->second);
  }
  const RuntimeValue &get(mlir::Value value) const {
    return values.find(value)->second;
  }
  bool isBound(mlir::Value value) const { return values.contains(value); }
  void unbind(mlir::Value value) { values.erase(value); }

  /// Binds `value`; an addressed tile's elements are written to its pool
  /// unless `writeBytes` is false (pto.tile.create allocates without
  /// writing: it reads whatever the bytes hold).
  void set(mlir::Value value, RuntimeValue runtimeValue, bool writeBytes = true,
           uint64_t writeId = 0);
  /// Binds tiles one instruction wrote (a register scope's results): one
  /// write id for all, so that tiles whose bytes overlap each still call
  /// the shared bytes their own under --undefined=check.
  void
  setWrittenTogether(llvm::ArrayRef<std::pair<mlir::Value, TileValue>> tiles);
  /// Elements of the tile `value` that `user` may update in place: the
  /// stored ones when `user` is their last reader (the only use of
  /// `value`, in the block that binds it, of a tile that is not addressed
  /// and shares its storage with no other value), a copy otherwise.
  std::shared_ptr<ArrayData> dataForUpdate(mlir::Value value,
                                           mlir::Operation *user);
  /// The tile bound to `value` as stored (metadata, for in-place updates).
  TileValue &storedTile(mlir::Value value) {
    return std::get<TileValue>(values.find(value)->second);
  }

  /// Runs the single block of `region` with `args` moved into its arguments
  /// and returns the operands of its terminator.
  mlir::FailureOr<llvm::SmallVector<RuntimeValue>>
  runRegion(mlir::Region &region, llvm::MutableArrayRef<RuntimeValue> args);

  /// The buffers and pipe ordering of an AscendC kernel (AscendCOps.cpp),
  /// made when its first op runs.
  std::shared_ptr<AscendCMachine> ascendc;

private:
  Interpreter &interpreter;
  CoreState state;
  TaskScheduler *scheduler = nullptr;
  llvm::DenseMap<mlir::Value, RuntimeValue> values;
  BytePools pools;
};

/// Handler registration, one function per family of ops.
using HandlerMap = llvm::DenseMap<mlir::TypeID, OpHandler>;
void registerControlFlowHandlers(HandlerMap &map);
void registerArithHandlers(HandlerMap &map);
void registerTileDataHandlers(HandlerMap &map);
void registerElementwiseHandlers(HandlerMap &map);
void registerReductionHandlers(HandlerMap &map);
void registerMatmulHandlers(HandlerMap &map);
void registerTensorHandlers(HandlerMap &map);
void registerCrossCoreHandlers(HandlerMap &map);
void registerIndexHandlers(HandlerMap &map);
void registerAscendCHandlers(HandlerMap &map);
void registerMemRefHandlers(HandlerMap &map);
void registerRegScopeHandlers(HandlerMap &map);

/// The launch's block index (Count false) or block count (true), for the
/// PTO and AscendC block queries alike (see Interpreter::launch).
template <bool Count>
mlir::LogicalResult runBlockQuery(ExecContext &context, mlir::Operation *op);

/// Fails at `op` unless a tensor or memref of `shape` can be allocated:
/// no negative extent, a size within 64 bits and this machine's memory (the
/// executor keeps floats as f32, integers as i64).
mlir::LogicalResult checkTensorSize(mlir::Operation *op,
                                    llvm::ArrayRef<int64_t> shape,
                                    ElementKind kind);
/// Fails at `op` when `index` lies outside `shape` (element reads and
/// writes of tensors and memrefs).
mlir::LogicalResult checkIndex(mlir::Operation *op,
                               llvm::ArrayRef<int64_t> index,
                               llvm::ArrayRef<int64_t> shape);
/// Sets `result` to the element of GM tensor `tensor` at `indices` (the
/// orchestration's read, the host's), or fails at `op` when it lies outside.
mlir::LogicalResult readElement(ExecContext &context, mlir::Operation *op,
                                mlir::Value tensor, mlir::ValueRange indices,
                                mlir::Value result);
/// Fails, naming each, when an AscendC kernel returns with flags set and
/// never waited (the next kernel on the core would take them).
mlir::LogicalResult checkFlagsWaited(AscendCMachine &machine,
                                     mlir::FunctionOpInterface func);

/// Undefined data (UndefinedData.cpp): the --undefined=nan fill, and the
/// --undefined=check tracking of which tile elements are defined.
struct TileOperand {
  unsigned index;
  TileValue tile;
};
/// Fills the elements of `tile` outside the leading `defined` region (all
/// of them when `defined` is empty) with NaN (integers with 0x5A bytes).
void fillUndefined(TileValue &tile, llvm::ArrayRef<int64_t> defined);
/// Fills every element of `data` so.
void fillUndefined(ArrayData &data);
/// A mask of `shape` marking everything outside the leading `defined`
/// region (everything when `defined` is empty) undefined.
std::shared_ptr<std::vector<uint8_t>>
undefinedOutside(llvm::ArrayRef<int64_t> shape,
                 llvm::ArrayRef<int64_t> defined);
/// Marks in `into` the undefined elements of `from` too (same sizes).
void mergeUndefined(std::shared_ptr<std::vector<uint8_t>> &into,
                    const std::shared_ptr<std::vector<uint8_t>> &from);
/// Fails with a diagnostic when `op` reads an undefined element of one of
/// its tile operands (read before the op ran).
mlir::LogicalResult checkUndefinedReads(ExecContext &context,
                                        mlir::Operation *op,
                                        llvm::ArrayRef<TileOperand> operands);
/// Marks the undefined elements of the tile results of `op`, which has run.
void propagateUndefined(ExecContext &context, mlir::Operation *op,
                        llvm::ArrayRef<TileOperand> operands);

/// Trace emission (TraceEmitter.cpp): the records of an op that has run.
/// An op without a pipe (PipeOpInterface), or on a pipe the emitter has no
/// record for, is an error naming it.
mlir::LogicalResult emitTraceRecords(ExecContext &context, mlir::Operation *op);
/// The records of a cross-core transfer: the producer's push of `tile`
/// (into the lane queues of `laneMask`, with `slots` slots, 0 unbounded)
/// and the consumer's pop into `tile`.
void emitPush(ExecContext &context, mlir::Operation *op, const TileValue &tile,
              unsigned laneMask, int64_t slots);
void emitPop(ExecContext &context, mlir::Operation *op, const TileValue &tile,
             unsigned laneMask);
/// A block of a compiled kernel's launch, as its WORK_BEGIN says: its own
/// flags order it (TILEKIT_TRACE_EXPLICIT_SYNC), the launch's blocks, and
/// whether it runs on one vector core.
struct CompiledBlock {
  uint64_t blocks;
  bool oneVectorCore;
};

/// Makes the invocation of `context` a fresh work item (WORK_BEGIN now,
/// WORK_END when destroyed) unless it already runs in one or nothing is
/// traced.
class TracedWorkItem {
public:
  explicit TracedWorkItem(Interpreter &interpreter, CoreState &state,
                          std::optional<CompiledBlock> block = std::nullopt);
  ~TracedWorkItem();

private:
  Interpreter &interpreter;
  CoreState &state;
  bool began = false;
};

/// The error on `call` after its callee failed: the callee has reported
/// why, this says from where it was called.
mlir::LogicalResult reportFailedCall(mlir::Operation *call,
                                     mlir::FunctionOpInterface callee);

/// Runs a call of a group function (see CrossCoreOps.cpp).
mlir::LogicalResult runGroupCall(ExecContext &context, mlir::Operation *call,
                                 mlir::FunctionOpInterface group,
                                 const pto::GroupInfo &info,
                                 llvm::ArrayRef<RuntimeValue> args,
                                 llvm::SmallVectorImpl<RuntimeValue> &results);

template <typename OpTy> void addHandler(HandlerMap &map, OpHandler handler) {
  map[mlir::TypeID::get<OpTy>()] = handler;
}

/// Checks a runtime valid shape against a box: 0 <= valid[d] <= box[d].
mlir::LogicalResult checkValidShape(mlir::Operation *op,
                                    llvm::ArrayRef<int64_t> valid,
                                    llvm::ArrayRef<int64_t> box);

/// out[p] = a[p] @ b[p] (or += with `accumulate`) for `batch` row-major
/// products of m x k by k x n; `aTrans`/`bTrans` read the operand stored
/// transposed. Float kinds accumulate in f32, each element's products in K
/// order (orderedGemm); integers in int64 wrapped to the output kind.
/// `kUsed` (default k) sums only the first kUsed of the k products (a
/// tile's valid K); it needs untransposed operands.
mlir::LogicalResult matmulInto(mlir::Operation *op, const ArrayData &a,
                               const ArrayData &b, ArrayData &out,
                               int64_t batch, int64_t m, int64_t k, int64_t n,
                               bool accumulate, bool aTrans, bool bTrans,
                               int64_t kUsed = -1);

} // namespace tilekit::interp

#endif // TILEKIT_LIB_INTERP_EXECCONTEXT_H
