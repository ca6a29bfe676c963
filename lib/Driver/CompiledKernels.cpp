//===- CompiledKernels.cpp - Compiled AscendC kernels as C++ calls --------===//
//
// The calls of compiled AscendC kernels under `tilekit run --compiled`, as
// their emitted C++: the module's kernels (`translateAscendCToCpp`) and an
// entry calling one in its ABI (`emitCpuEntry`), built with clang-22
// against runtime/ascendc-cpu into a shared object in a cache keyed by
// everything that goes into it (written under a unique name and renamed,
// so a concurrent build never sees half a file), loaded once per kernel,
// and called on the bytes of the arguments, which then go back into the
// GM tensors. The executor runs everything else (host functions).
//
//===----------------------------------------------------------------------===//

#include "tilekit/Driver/CompiledKernels.h"
#include "tilekit/Driver/BuildCache.h"
#include "tilekit/Support/CheckedSize.h"

#include "tilekit/Conversion/AscendCToEmitC.h"
#include "tilekit/Dialect/AscendC/IR/AscendCDialect.h"
#include "tilekit/Dialect/AscendC/Transforms/TensorAccesses.h"
#include "tilekit/Interp/Binding.h"
#include "tilekit/Interp/BytePool.h"
#include "tilekit/Interp/Interpreter.h"
#include "tilekit/Interp/TensorIO.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SHA256.h"

#include <dlfcn.h>

using namespace mlir;
using namespace tilekit;
using namespace tilekit::interp;

namespace {

/// The flags a kernel object is built with: no contracted multiply-add, as
/// the executor's vector math (lib/Support/CMakeLists.txt); the x86 f16
/// conversions and the cube's fused multiply-adds (std::fma) in hardware
/// where this CPU has them (exact, as the software ones: the numbers do not
/// change, the key does).
std::vector<std::string> buildFlags() {
  std::vector<std::string> flags = {
      "-std=c++17", "-O2",    "-ffp-contract=off", "-fPIC", "-shared",
      "-Wall",      "-Werror"};
#if defined(__x86_64__)
  if (__builtin_cpu_supports("f16c"))
    flags.push_back("-mf16c");
  if (__builtin_cpu_supports("fma"))
    flags.push_back("-mfma");
#endif
  return flags;
}

std::string runtimeDir() { return driver::runtimeRoot() + "/ascendc-cpu"; }

/// The shared object of a kernel's C++, against the CPU runtime.
FailureOr<std::string> buildObject(Operation *where, StringRef option,
                                   const std::string &source) {
  if (!llvm::sys::fs::exists(runtimeDir() + "/kernel_operator.h"))
    return where->emitError()
           << option << ": the CPU runtime is not at " << driver::runtimeRoot()
           << " (share/tilekit/runtime beside the tilekit binary's directory, "
              "as the build and `cmake --install` lay it out)";
  driver::BuildRequest request;
  request.option = option.str();
  request.prefix = "kernel";
  request.symbol = "tilekit_entry";
  request.source = source;
  request.flags = buildFlags();
  // The architecture, as the device compiler states it: the stand-in sizes
  // the API's scratch by it.
  auto module = isa<ModuleOp>(where) ? cast<ModuleOp>(where)
                                     : where->getParentOfType<ModuleOp>();
  auto arch = module ? module->getAttrOfType<StringAttr>(
                           ascendc::AscendCDialect::kArchAttrName)
                     : StringAttr();
  if (arch)
    request.flags.push_back("-D__NPU_ARCH__=" +
                            std::to_string(arch.getValue() == "c310"
                                               ? machine::kNpuArchC310
                                               : machine::kNpuArchC220));
  request.includeDirs = {"ascendc-cpu", "include"};
  request.extraSources = {"src/VectorMath.cpp"};
  return driver::buildSharedObject(where, request);
}

/// Why `kernel` cannot run as emitted C++, or null.
Operation *unsupported(func::FuncOp kernel, StringRef option,
                       std::string &why) {
  Operation *found = nullptr;
  kernel.walk([&](ascendc::LocalTensorAutoOp op) {
    found = op;
    why = "has no address yet: " + option.str() +
          " runs a kernel compiled by `tilekit compile --arch=...`";
    return WalkResult::interrupt();
  });
  return found;
}

} // namespace

/// The executor's own bytes of a tensor's elements (floats or int64s).
static ArrayRef<uint8_t> rawElements(const ArrayData &data) {
  if (isFloatKind(data.kind))
    return {reinterpret_cast<const uint8_t *>(data.floats.data()),
            data.floats.size() * sizeof(float)};
  return {reinterpret_cast<const uint8_t *>(data.ints.data()),
          data.ints.size() * sizeof(int64_t)};
}

/// A GM tensor's elements as the machine stores them.
static std::vector<uint8_t> machineBytes(const TensorValue &tensor) {
  ElementKind kind = tensor.kind();
  unsigned size = getByteSize(kind);
  const ArrayData &data = tensor.storage->data;
  std::vector<uint8_t> bytes(data.size() * size);
  for (size_t i = 0, e = data.size(); i < e; ++i)
    encodeElement(kind, data, i, &bytes[i * size]);
  return bytes;
}

/// An AscendC kernel (it takes GM tensors or runs AscendC ops), not a host
/// function.
static bool isCompiledKernel(FunctionOpInterface function) {
  auto kernel = dyn_cast<func::FuncOp>(function.getOperation());
  if (!kernel || kernel->hasAttr(ascendc::AscendCDialect::kHostAttrName))
    return false;
  return llvm::any_of(kernel.getArgumentTypes(),
                      llvm::IsaPred<ascendc::GlobalTensorType>) ||
         kernel
             ->walk([](Operation *op) {
               return isa<ascendc::AscendCDialect>(op->getDialect())
                          ? WalkResult::interrupt()
                          : WalkResult::advance();
             })
             .wasInterrupted();
}

driver::CompiledKernels::CompiledKernels(ModuleOp module, StringRef option)
    : module(module), option(option) {}

driver::CompiledKernels::Mirror &
driver::CompiledKernels::mirrorFor(const TensorStorage *storage) {
  std::lock_guard<std::mutex> lock(mirrorsMutex);
  std::unique_ptr<Mirror> &mirror = mirrors[storage];
  if (!mirror)
    mirror = std::make_unique<Mirror>();
  return *mirror;
}

std::shared_ptr<std::vector<uint8_t>>
driver::CompiledKernels::mirrorOf(const TensorValue &tensor) {
  Mirror &mirror = mirrorFor(tensor.storage.get());
  std::lock_guard<std::mutex> lock(mirror.mutex);
  ArrayRef<uint8_t> raw = rawElements(tensor.storage->data);
  // Encoded again only when the executor's elements changed since (into a
  // new vector: calls still reading the old one keep it).
  if (!mirror.bytes || mirror.kind != tensor.kind() ||
      ArrayRef<uint8_t>(mirror.raw) != raw) {
    mirror.kind = tensor.kind();
    mirror.raw.assign(raw.begin(), raw.end());
    mirror.bytes = std::make_shared<std::vector<uint8_t>>(machineBytes(tensor));
  }
  return mirror.bytes;
}

void driver::CompiledKernels::takeBack(TensorValue &tensor,
                                       ArrayRef<uint8_t> after,
                                       ArrayRef<uint8_t> before) {
  Mirror &mirror = mirrorFor(tensor.storage.get());
  std::lock_guard<std::mutex> lock(mirror.mutex);
  ElementKind kind = tensor.kind();
  unsigned size = getByteSize(kind);
  ArrayData &data = tensor.storage->data;
  bool mirrored = mirror.bytes && mirror.bytes->size() == after.size();
  for (size_t i = 0, e = after.size() / size; i < e; ++i) {
    if (!std::memcmp(&after[i * size], &before[i * size], size))
      continue;
    decodeElement(kind, &after[i * size], data, i);
    if (mirrored)
      std::memcpy(&(*mirror.bytes)[i * size], &after[i * size], size);
  }
  ArrayRef<uint8_t> raw = rawElements(data);
  mirror.raw.assign(raw.begin(), raw.end());
}

bool driver::CompiledKernels::handles(FunctionOpInterface callee) {
  return isCompiledKernel(callee);
}

/// The MLIR location a runtime report names ("file:line:col"), or the
/// kernel's.
static Location originLoc(func::FuncOp kernel, StringRef origin) {
  auto [rest, column] = origin.rsplit(':');
  auto [file, line] = rest.rsplit(':');
  unsigned lineNumber, columnNumber;
  if (file.empty() || line.getAsInteger(10, lineNumber) ||
      column.getAsInteger(10, columnNumber))
    return kernel.getLoc();
  return FileLineColLoc::get(kernel.getContext(), file, lineNumber,
                             columnNumber);
}

/// A fault of the C++ run (CpuEntryABI.h's form) as an error at the
/// instruction, with a note at the earlier access of a race (or the other
/// core's wait); a stall is noted on `caller` as the executor notes one.
static LogicalResult reportFault(func::FuncOp kernel, StringRef fault,
                                 int64_t block, int64_t blocks,
                                 StringRef source, Interpreter &caller) {
  SmallVector<StringRef, 6> parts;
  fault.split(parts, '\t', /*MaxSplit=*/5);
  if (parts.size() != 6)
    return kernel.emitError() << "the emitted C++ stopped: " << fault;
  if (parts[4] == "stall")
    caller.noteStalled();
  parts.erase(parts.begin() + 4);
  auto line = [&](StringRef text) {
    return text == "0"
               ? " (the emitted C++ is " + source.str() + ")"
               : " (emitted line " + text.str() + " of " + source.str() + ")";
  };
  InFlightDiagnostic diag = emitError(originLoc(kernel, parts[0]))
                            << parts[4] << "; block " << block << " of "
                            << blocks << " of @" << kernel.getName()
                            << " as C++" << line(parts[1]);
  if (!parts[2].empty())
    diag.attachNote(originLoc(kernel, parts[2]))
        << "the other instruction" << line(parts[3]);
  return diag;
}

/// The GM arguments of `kernel` that any instruction writes (through views
/// too), or that a work item's kernel it calls writes (a launch kernel).
static std::vector<bool> writtenArguments(func::FuncOp kernel) {
  std::vector<bool> writes(kernel.getNumArguments(), false);
  kernel.walk([&](Operation *op) {
    if (auto call = dyn_cast<func::CallOp>(op)) {
      auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
          call, call.getCalleeAttr());
      auto launchArgs = call->getAttrOfType<DenseI64ArrayAttr>(
          ascendc::AscendCDialect::kLaunchArgsAttrName);
      if (!callee || !launchArgs)
        return;
      std::vector<bool> inner = writtenArguments(callee);
      for (auto [index, arg] : llvm::enumerate(launchArgs.asArrayRef()))
        if (arg >= 0 && index < inner.size() && inner[index])
          writes[arg] = true;
      return;
    }
    for (const ascendc::TensorAccess &access : ascendc::getTensorAccesses(op))
      if (access.writes)
        if (auto arg =
                dyn_cast<BlockArgument>(ascendc::getStorage(access.tensor));
            arg && arg.getOwner()->getParentOp() == kernel)
          writes[arg.getArgNumber()] = true;
  });
  return writes;
}

FailureOr<driver::CompiledKernels::Built>
driver::CompiledKernels::entryFor(func::FuncOp kernel) {
  // Calls run on the executor's threads; the first builds, the others wait.
  std::lock_guard<std::mutex> lock(entriesMutex);
  auto it = entries.find(kernel.getName());
  if (it != entries.end())
    return it->second;
  std::string why;
  if (Operation *op = unsupported(kernel, option, why))
    return op->emitOpError() << why;
  if (source.empty()) {
    llvm::raw_string_ostream os(source);
    if (failed(translateAscendCToCpp(module, os, /*withOrigins=*/true)))
      return failure();
  }
  FailureOr<std::string> object = buildObject(
      kernel, option,
      source + emitCpuEntry(kernel) + emitCpuLaunchEntry(kernel).value_or(""));
  if (failed(object))
    return failure();
  void *library = dlopen(object->c_str(), RTLD_NOW | RTLD_LOCAL);
  auto entry = library
                   ? reinterpret_cast<Entry>(dlsym(library, "tilekit_entry"))
                   : nullptr;
  if (!entry)
    return kernel.emitError()
           << option << ": cannot load " << *object << ": " << dlerror();
  auto launch = reinterpret_cast<Launch>(dlsym(library, "tilekit_launch"));
  auto workspaceBytes = reinterpret_cast<WorkspaceBytes>(
      dlsym(library, "tilekit_workspace_bytes"));
  entries[kernel.getName()] = {entry, launch, driver::sourceOf(*object),
                               writtenArguments(kernel), workspaceBytes};
  return entries[kernel.getName()];
}

void driver::CompiledKernels::verifyPerItem(Interpreter &executor,
                                            std::optional<double> relative,
                                            std::optional<double> absolute) {
  reference = &executor;
  rtol = relative;
  atol = absolute;
}

LogicalResult
driver::CompiledKernels::runInAbi(func::FuncOp kernel, const Built &built,
                                  SmallVectorImpl<RuntimeValue> &args,
                                  int64_t blocks, Interpreter &caller,
                                  RunInAbi run) {
  // The arguments in the kernel ABI: bytes of each GM tensor (an f32
  // tensor's own elements, the executor holding them as floats; another
  // the kernel only reads, its shared mirror; one it writes, a copy of the
  // mirror, compared after the call), each scalar in its C type, the
  // dynamic extents, the workspace.
  std::vector<std::vector<uint8_t>> slots;
  std::vector<void *> direct(args.size(), nullptr);
  std::vector<std::shared_ptr<std::vector<uint8_t>>> shared;
  for (auto [index, value] : llvm::enumerate(args)) {
    if (auto *tensor = std::get_if<TensorValue>(&value)) {
      if (tensor->offset != 0)
        return kernel.emitError() << option << ": a GM argument is a view";
      if (tensor->kind() == ElementKind::F32) {
        direct[index] = tensor->storage->data.floats.data();
        slots.emplace_back();
      } else if (!built.writes[index]) {
        shared.push_back(mirrorOf(*tensor));
        direct[index] = shared.back()->data();
        slots.emplace_back();
      } else {
        slots.push_back(*mirrorOf(*tensor));
      }
      continue;
    }
    const Scalar &scalar = std::get<Scalar>(value);
    if (scalar.kind == ElementKind::Index) {
      std::vector<uint8_t> bytes(sizeof(int64_t));
      std::memcpy(bytes.data(), &scalar.i, sizeof(int64_t));
      slots.push_back(bytes);
      continue;
    }
    TensorValue one{std::make_shared<TensorStorage>(scalar.kind, 1), {1}, {1}};
    one.storage->data.setScalar(0, scalar);
    slots.push_back(npyFromTensor(one).data);
  }
  for (auto [index, value] : llvm::enumerate(args))
    if (auto *tensor = std::get_if<TensorValue>(&value))
      for (auto [dim, size] : llvm::enumerate(
               cast<ShapedType>(kernel.getArgumentTypes()[index]).getShape()))
        if (ShapedType::isDynamic(size)) {
          std::vector<uint8_t> bytes(sizeof(int64_t));
          std::memcpy(bytes.data(), &tensor->shape[dim], sizeof(int64_t));
          slots.push_back(bytes);
        }
  KernelWorkspace workspace = getKernelWorkspace(kernel);
  if (!workspace.empty())
    slots.emplace_back();
  std::vector<void *> pointers;
  for (auto [index, slot] : llvm::enumerate(slots))
    pointers.push_back(index < direct.size() && direct[index] ? direct[index]
                                                              : slot.data());
  // The workspace: the host's, which its launches share, or the call's; of
  // the bytes the host code computes from the arguments when some region
  // has a run-time size.
  if (!workspace.empty()) {
    int64_t need = built.workspaceBytes
                       ? built.workspaceBytes(pointers.data(), blocks)
                       : workspace.bytes(blocks);
    if (need < 0)
      return kernel.emitError() << option
                                << ": the workspace of these extents takes "
                                   "more bytes than 64 bits hold";
    if (llvm::Error error =
            checkAllocatable(need, option + ": the workspace of these extents"))
      return kernel.emitError() << llvm::toString(std::move(error));
    auto host = kernel->getAttrOfType<FlatSymbolRefAttr>(
        ascendc::AscendCDialect::kLaunchedByAttrName);
    std::unique_lock<std::mutex> lock(workspacesMutex, std::defer_lock);
    std::vector<uint8_t> *bytes = &slots.back();
    if (host) {
      lock.lock();
      bytes = &hostWorkspaces[host.getValue()];
    }
    if (bytes->size() < size_t(need))
      bytes->resize(need, 0);
    pointers.back() = bytes->data();
  }
  // What the other GM tensors held, to take back only what changed.
  std::vector<std::vector<uint8_t>> before(slots.begin(),
                                           slots.begin() + args.size());
  // The caller's step limit and timeout bound the C++ too.
  const InterpreterOptions &options = caller.getOptions();
  uint64_t stepsBefore = caller.getStepsTaken();
  tilekit_cpu_limits limits{options.maxSteps, stepsBefore, 0};
  if (options.timeout.count())
    limits.deadline_ns =
        std::chrono::duration_cast<std::chrono::nanoseconds>(
            (caller.getStartTime() + options.timeout).time_since_epoch())
            .count();
  bool limited = options.maxSteps || options.timeout.count();
  char fault[2048] = "";
  int64_t failedBlock = 0;
  int status = run(pointers.data(), limited ? &limits : nullptr, fault,
                   sizeof(fault), failedBlock);
  caller.addSteps(limits.steps - stepsBefore);
  if (status)
    return reportFault(kernel, fault, failedBlock, blocks, built.source,
                       caller);

  // The elements the kernel wrote go back into their GM tensors (only
  // those: calls writing other parts of a tensor may run alongside).
  for (auto [index, value] : llvm::enumerate(args)) {
    auto *tensor = std::get_if<TensorValue>(&value);
    if (!tensor || direct[index])
      continue;
    if (slots[index] != before[index])
      takeBack(*tensor, slots[index], before[index]);
  }
  return success();
}

FailureOr<SmallVector<RuntimeValue>> driver::CompiledKernels::call(
    FunctionOpInterface callee, SmallVectorImpl<RuntimeValue> &args,
    int64_t block, int64_t blocks, Interpreter &caller) {
  auto kernel = cast<func::FuncOp>(callee.getOperation());
  FailureOr<Built> built = entryFor(kernel);
  if (failed(built))
    return failure();

  // --verify-per-item: the executor runs the same work item on copies.
  SmallVector<RuntimeValue> expected;
  if (reference) {
    for (const RuntimeValue &value : args) {
      const auto *tensor = std::get_if<TensorValue>(&value);
      if (!tensor) {
        expected.push_back(value);
        continue;
      }
      TensorValue copy = *tensor;
      copy.storage = std::make_shared<TensorStorage>(*tensor->storage);
      expected.push_back(std::move(copy));
    }
    if (failed(reference->call(kernel, expected,
                               CoreState{block, blocks, std::nullopt})))
      return kernel.emitError()
             << "--verify-per-item: the executor failed on work item "
             << verified.load() << " (block " << block << " of " << blocks
             << ")";
  }

  if (failed(runInAbi(kernel, *built, args, blocks, caller,
                      [&](void **pointers, tilekit_cpu_limits *limits,
                          char *fault, size_t size, int64_t &failed) {
                        failed = block;
                        return built->entry(pointers, block, blocks, limits,
                                            fault, size);
                      })))
    return failure();

  if (reference) {
    for (auto [index, value] : llvm::enumerate(args)) {
      const auto *tensor = std::get_if<TensorValue>(&value);
      if (!tensor)
        continue;
      ExpectationReport report = compareWithExpected(
          *tensor, npyFromTensor(std::get<TensorValue>(expected[index])),
          rtol.value_or(0.0), atol.value_or(0.0));
      if (report.ok)
        continue;
      auto name = kernel.getArgAttrOfType<StringAttr>(index, "tilekit.name");
      return kernel.emitError()
             << "--verify-per-item: work item " << verified.load() << " (block "
             << block << " of " << blocks << " of @" << kernel.getName()
             << ") leaves GM tensor '"
             << (name ? name.getValue().str() : "#" + std::to_string(index))
             << "' unlike the executor: " << report.text;
    }
    ++verified;
  }
  // A kernel returns GM tensors it was passed.
  SmallVector<RuntimeValue> results;
  auto ret = cast<func::ReturnOp>(kernel.getBody().front().getTerminator());
  for (Value result : ret.getOperands())
    results.push_back(args[cast<BlockArgument>(result).getArgNumber()]);
  return results;
}

std::optional<FailureOr<SmallVector<RuntimeValue>>>
driver::CompiledKernels::launchAll(FunctionOpInterface callee,
                                   SmallVectorImpl<RuntimeValue> &args,
                                   int64_t blocks, Interpreter &caller) {
  // --verify-per-item checks block by block.
  if (reference)
    return std::nullopt;
  auto kernel = cast<func::FuncOp>(callee.getOperation());
  FailureOr<Built> built = entryFor(kernel);
  if (failed(built))
    return FailureOr<SmallVector<RuntimeValue>>(failure());
  if (!built->launch)
    return std::nullopt;
  if (failed(runInAbi(kernel, *built, args, blocks, caller,
                      [&](void **pointers, tilekit_cpu_limits *limits,
                          char *fault, size_t size, int64_t &failed) {
                        return built->launch(pointers, &failed, limits, fault,
                                             size);
                      })))
    return FailureOr<SmallVector<RuntimeValue>>(failure());
  return FailureOr<SmallVector<RuntimeValue>>(SmallVector<RuntimeValue>());
}

FailureOr<SmallVector<RuntimeValue>> driver::CompiledKernels::launch(
    Interpreter &interpreter, FunctionOpInterface entry,
    SmallVectorImpl<RuntimeValue> &args, unsigned blocks) {
  if (handles(entry)) {
    FailureOr<SmallVector<RuntimeValue>> results = failure();
    for (unsigned block = 0; block < blocks; ++block) {
      results = call(entry, args, block, blocks, interpreter);
      if (failed(results))
        break;
    }
    return results;
  }
  if (!entry->hasAttr(ascendc::AscendCDialect::kHostAttrName))
    return entry->emitError()
           << option
           << " runs an AscendC kernel compiled by `tilekit compile "
              "--arch=...` (or a host function launching such kernels); @"
           << entry.getName() << " is neither";
  return interpreter.launch(entry, args, blocks);
}
