//===- Interpreter.h - The PTO executor ---------------------------*- C++
//-*-===//
//
// Runs PTO programs on the CPU with the machine's semantics: valid shapes,
// f16/bf16 rounding after every op, f32 accumulation, accumulator init,
// addressed tiles aliasing through per-invocation byte pools, and
// simultaneous loop-carried updates. Runtime errors are reported as MLIR
// diagnostics on the op that failed.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_INTERP_INTERPRETER_H
#define TILEKIT_INTERP_INTERPRETER_H

#include "tilekit/Interp/Values.h"
#include "tilekit/Trace/Trace.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>

namespace tilekit::interp {

class ExecContext;
class TaskScheduler;

/// Executes one op; reports errors on the op.
using OpHandler = mlir::LogicalResult (*)(ExecContext &, mlir::Operation *);

/// What the executor puts where the machine leaves data undefined: the
/// contents of pto.tile.create and the padding of loaded tiles.
enum class UndefinedData {
  /// Zeros, as the reference script does.
  Zero,
  /// NaN for floats, the pattern 0x5A5A... for integers; addressed tiles
  /// read never-written bytes as 0xFF.
  NaN,
  /// Tracks which elements are defined and fails at the first op that
  /// reads an undefined one into its result's valid region.
  Check,
};

/// A GM workspace region of an AscendC kernel, and its unwritten flags
/// under --undefined=check (else null).
struct WorkspaceRegion {
  TensorValue tensor;
  std::shared_ptr<std::vector<uint8_t>> unwritten;
};

class Interpreter;

/// Calls that run outside the executor (`tilekit run --compiled`: kernels
/// as their emitted C++).
class ExternalCalls {
public:
  virtual ~ExternalCalls() = default;
  /// Whether calls of `callee` run here.
  virtual bool handles(mlir::FunctionOpInterface callee) = 0;
  /// Runs one call of `callee` on `args` (its GM tensors updated in place)
  /// as block `block` of `blocks` for `caller`, within its step limit and
  /// timeout; returns its results, or fails after a diagnostic (noting a
  /// stall on `caller` when it stalled).
  virtual mlir::FailureOr<llvm::SmallVector<RuntimeValue>>
  call(mlir::FunctionOpInterface callee,
       llvm::SmallVectorImpl<RuntimeValue> &args, int64_t block, int64_t blocks,
       Interpreter &caller) = 0;
  /// Runs all `blocks` blocks of a launch of `callee` at once, or nothing
  /// to have them run one `call` per block.
  virtual std::optional<mlir::FailureOr<llvm::SmallVector<RuntimeValue>>>
  launchAll(mlir::FunctionOpInterface callee,
            llvm::SmallVectorImpl<RuntimeValue> &args, int64_t blocks,
            Interpreter &caller) {
    return std::nullopt;
  }
};

struct InterpreterOptions {
  UndefinedData undefined = UndefinedData::Zero;
  /// When set, the calls it handles run there instead of in the executor
  /// (one at a time: set threads to 1).
  ExternalCalls *external = nullptr;
  /// Called after each op has run, with its results. Group launches run
  /// their cores on several threads, so it must be thread-safe.
  std::function<void(mlir::Operation *, llvm::ArrayRef<RuntimeValue>)>
      observeOp;
  /// How long a cross-core pop may wait before the group is stopped (a
  /// safety net: deadlocks are detected at once).
  std::chrono::milliseconds popTimeout{10000};
  /// How long a whole group launch may run.
  std::chrono::milliseconds groupTimeout{30000};
  /// Stops the run with an error naming the op about to execute after this
  /// many ops (0: no limit), or once this much time has passed (0: none),
  /// so that a kernel that never ends can be stopped.
  uint64_t maxSteps = 0;
  std::chrono::milliseconds timeout{0};
  /// Counts every op run (for a progress display), when set.
  std::atomic<uint64_t> *opsRun = nullptr;
  /// Where trace records go (none when null): one work item per call of an
  /// incore or group function, and inside it a record per data movement,
  /// compute op, flag and barrier.
  trace::TraceSink *trace = nullptr;
  /// Cross-core pushes never block, whatever slot counts the pipes were
  /// initialized with (the reference runtime's unbounded queues).
  bool unboundedPipes = false;
  /// AscendC kernels: report accesses of different pipes or cores that no
  /// flag, barrier or buffer id orders (races).
  bool checkRaces = true;
  /// Worker threads for the in-core calls of an orchestration entry (and
  /// the blocks of an in-core launch) whose GM accesses do not conflict;
  /// 1 runs everything in order on the calling thread. Results are
  /// bit-identical either way. Tracing, maxSteps and observeOp need one
  /// thread (their output follows the order ops run in).
  unsigned threads = 1;
};

/// Where a function invocation runs: the block of its launch (0 of 1 by
/// default), while tracing the work item its records belong to, and in a
/// group call the core. Each
/// invocation carries its own (group threads get a copy), so no thread-local
/// state is involved.
/// A core left waiting when a run stalled, and the op it waits in.
struct StalledWait {
  std::string core;
  mlir::Operation *op;
};

struct CoreIdentity;
struct CoreState {
  int64_t blockIndex = 0;
  int64_t blockCount = 1;
  std::optional<uint32_t> workItem;
  /// Inside a group call: which core (cube, or a vector lane) runs it.
  const CoreIdentity *core = nullptr;
};

class Interpreter {
public:
  explicit Interpreter(mlir::ModuleOp module, InterpreterOptions options = {});
  ~Interpreter();

  /// Runs `func` on `args` (scalars, tiles or tensors, one per argument) and
  /// returns its results. On a runtime error a diagnostic has been emitted.
  mlir::FailureOr<llvm::SmallVector<RuntimeValue>>
  call(mlir::FunctionOpInterface func, llvm::ArrayRef<RuntimeValue> args,
       const CoreState &state = {});

  /// Runs `func` as a launch of `blocks` blocks: block i sees
  /// get_block_idx = i and get_block_num = blocks, and each block is a work
  /// item of the trace. Blocks and in-core calls run on
  /// InterpreterOptions::threads threads where their GM accesses allow,
  /// with the results of a run in order. Returns the last block's results.
  mlir::FailureOr<llvm::SmallVector<RuntimeValue>>
  launch(mlir::FunctionOpInterface func, llvm::ArrayRef<RuntimeValue> args,
         unsigned blocks);

  /// The function named `name` in the module, if any.
  mlir::FunctionOpInterface lookupFunction(llvm::StringRef name) const;

  const InterpreterOptions &getOptions() const { return options; }
  OpHandler getHandler(mlir::Operation *op) const;
  /// Whether ops named `name` can run.
  bool supports(mlir::OperationName name) const {
    return handlers.contains(name.getTypeID());
  }

  /// Checks, once per block, that every value the block defines has a type
  /// the executor can hold.
  mlir::LogicalResult checkBlockTypes(mlir::Block &block);

  /// Trace output. A core of a group launch (`core` not null) writes to its
  /// own stream, merged when the group ends; elsewhere records go to the
  /// sink.
  bool isTracing() const { return options.trace != nullptr; }
  void emit(const trace::Record &record, const CoreIdentity *core);
  uint16_t intern(llvm::StringRef name, const CoreIdentity *core);
  /// The trace's index of `loc`'s file position (0 when it has none).
  uint32_t internLocation(mlir::Location loc, const CoreIdentity *core);
  /// Appends the streams of a finished group launch to the sink in their
  /// deterministic merged order (trace::mergeCoreStreams); buffer ids
  /// allocated from `firstBuffer` on are renumbered in order of first
  /// appearance, so the trace does not depend on how the cores' threads
  /// interleaved.
  void emitGroupStreams(llvm::ArrayRef<const CoreIdentity *> cores,
                        uint64_t firstBuffer);
  /// A fresh work item number.
  uint32_t newWorkItem() { return nextWorkItem++; }
  /// The static buffer that tiles `value` allocates in work item `item`
  /// on `core` (null outside groups) live in: a loop rewrites the same
  /// buffer, and tiles at one address of one memory space share one.
  uint64_t getStaticBuffer(mlir::Value value, uint32_t item,
                           const CoreIdentity *core);
  /// Counts one op about to run on any thread; an error on `op` once
  /// maxSteps or the timeout is reached.
  mlir::LogicalResult countStep(mlir::Operation *op);
  /// Whether a run stopped because it stalled: a deadlock, a timeout or
  /// --max-steps (not a wrong kernel or input); set where it is reported.
  bool hasStalled() const { return stalled.load(); }
  /// Notes a stall and the cores it left waiting (none for a timeout or the
  /// step limit), for callers that report them as data.
  void noteStalled(llvm::ArrayRef<StalledWait> waits = {});
  /// The waits of every stall noted, in the order noted.
  std::vector<StalledWait> getStalledWaits() const;
  /// For external calls, which count their own steps: the steps taken so
  /// far (counted only under a step limit or timeout), adding theirs, and
  /// when the run started (its timeout's origin).
  uint64_t getStepsTaken() const { return steps.load(); }

  /// The region of `type` at byte `offset` of the workspace that the
  /// launches of `host` share (ascendc.launched_by): made by `make` on its
  /// first use, then the same for every block and launch of the run.
  WorkspaceRegion sharedWorkspace(llvm::StringRef host, int64_t offset,
                                  mlir::Type type,
                                  llvm::function_ref<WorkspaceRegion()> make);
  /// The unwritten flags of the shared region whose storage is `storage`
  /// (under --undefined=check), or null: a kernel a launch calls may run on
  /// a machine of its own, which did not make the region.
  std::shared_ptr<std::vector<uint8_t>>
  sharedUnwritten(const TensorStorage *storage);
  void addSteps(uint64_t count) { steps += count; }
  std::chrono::steady_clock::time_point getStartTime() const { return started; }

private:
  /// Whether launches run tasks on several threads.
  bool runsTasks() const;
  mlir::FailureOr<llvm::SmallVector<RuntimeValue>>
  launchTasks(mlir::FunctionOpInterface func, llvm::ArrayRef<RuntimeValue> args,
              unsigned blocks);
  /// `call` with `tasks` taking the in-core calls of `func`.
  mlir::FailureOr<llvm::SmallVector<RuntimeValue>>
  invoke(mlir::FunctionOpInterface func, llvm::ArrayRef<RuntimeValue> args,
         const CoreState &state, TaskScheduler *tasks);

  mlir::ModuleOp module;
  InterpreterOptions options;
  llvm::DenseMap<mlir::TypeID, OpHandler> handlers;
  llvm::DenseSet<mlir::Block *> checkedBlocks;
  std::mutex checkedBlocksMutex;
  std::mutex traceMutex;
  std::atomic<uint32_t> nextWorkItem{0};
  std::atomic<uint64_t> steps{0};
  std::atomic<bool> stalled{false};
  mutable std::mutex stalledWaitsMutex;
  std::vector<StalledWait> stalledWaits;
  std::chrono::steady_clock::time_point started =
      std::chrono::steady_clock::now();

  std::mutex sharedWorkspacesMutex;
  std::map<std::tuple<std::string, int64_t, const void *>, WorkspaceRegion>
      sharedWorkspaces;

  std::mutex staticBuffersMutex;
  llvm::DenseMap<std::pair<void *, uint64_t>, uint64_t> staticBuffers;
  llvm::DenseMap<std::tuple<unsigned, int64_t, uint64_t>, uint64_t>
      storageBuffers;
};

/// The process-wide settings the executor wants, in one call that tools
/// make once at startup (a library embedding the executor decides for
/// itself): the allocator keeping large freed buffers, since every op
/// allocates its result tiles and glibc would otherwise map and unmap them
/// on each op (page faults dominate a 512x512 matmul).
void initializeProcess();

} // namespace tilekit::interp

#endif // TILEKIT_INTERP_INTERPRETER_H
