//===- CompiledRun.cpp - tilekit run --compiled ---------------------------===//
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

#include "Commands.h"

#include "tilekit/Conversion/AscendCToEmitC.h"
#include "tilekit/Dialect/AscendC/IR/AscendCDialect.h"
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

/// The flags every kernel object is built with: no contracted multiply-add,
/// as the executor's vector math (lib/Support/CMakeLists.txt).
const char *const kFlags[] = {"-std=c++17", "-O2",     "-ffp-contract=off",
                              "-fPIC",      "-shared", "-Wall",
                              "-Werror"};

std::string runtimeDir() {
  return (llvm::Twine(TILEKIT_SOURCE_DIR) + "/runtime/ascendc-cpu").str();
}
std::string includeDir() {
  return (llvm::Twine(TILEKIT_SOURCE_DIR) + "/include").str();
}
std::string vectorMathSource() {
  return (llvm::Twine(TILEKIT_SOURCE_DIR) + "/lib/Support/VectorMath.cpp")
      .str();
}

/// Where built kernels are kept: $TILEKIT_CACHE_DIR, else
/// $XDG_CACHE_HOME/tilekit, else ~/.cache/tilekit.
std::string cacheDir() {
  if (std::optional<std::string> dir =
          llvm::sys::Process::GetEnv("TILEKIT_CACHE_DIR"))
    return *dir;
  llvm::SmallString<128> dir;
  if (std::optional<std::string> xdg =
          llvm::sys::Process::GetEnv("XDG_CACHE_HOME"))
    dir = *xdg;
  else if (std::optional<std::string> home = llvm::sys::Process::GetEnv("HOME"))
    llvm::sys::path::append(dir, *home, ".cache");
  else
    dir = "/tmp";
  llvm::sys::path::append(dir, "tilekit");
  return std::string(dir);
}

/// Runs `program` with `args`, its output in `output`; false when it fails.
bool runProgram(StringRef program, ArrayRef<StringRef> args,
                std::string &output) {
  llvm::SmallString<128> log;
  if (llvm::sys::fs::createTemporaryFile("tilekit-build", "log", log))
    return false;
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(log),
                                          StringRef(log)};
  SmallVector<StringRef> argv{program};
  argv.append(args.begin(), args.end());
  int status =
      llvm::sys::ExecuteAndWait(program, argv, std::nullopt, redirects);
  if (auto text = llvm::MemoryBuffer::getFile(log))
    output = (*text)->getBuffer().str();
  llvm::sys::fs::remove(log);
  return status == 0;
}

std::string readFile(StringRef path) {
  auto text = llvm::MemoryBuffer::getFile(path);
  return text ? (*text)->getBuffer().str() : std::string();
}

/// The shared object of `source`, built now or found in the cache.
FailureOr<std::string> buildObject(Operation *where,
                                   const std::string &source) {
  llvm::ErrorOr<std::string> compiler =
      llvm::sys::findProgramByName("clang++-22");
  if (!compiler)
    return where->emitError()
           << "--compiled builds the kernel with clang++-22, which is not on "
              "PATH (Debian's clang-22; scripts/install-deps.sh installs it)";
  std::string version;
  if (!runProgram(*compiler, {"--version"}, version))
    return where->emitError() << "clang++-22 --version failed: " << version;
  // The key: everything that goes into the object.
  llvm::SHA256 hash;
  for (const std::string &part :
       {source, version, readFile(runtimeDir() + "/kernel_operator.h"),
        readFile(vectorMathSource())})
    hash.update(part), hash.update(StringRef("\0", 1));
  for (const char *flag : kFlags)
    hash.update(StringRef(flag));
  std::string key = llvm::toHex(hash.final(), /*LowerCase=*/true).substr(0, 32);
  std::string dir = cacheDir();
  if (std::error_code error = llvm::sys::fs::create_directories(dir))
    return where->emitError() << "--compiled: cannot create the cache " << dir
                              << ": " << error.message();
  std::string object = dir + "/kernel-" + key + ".so";
  if (llvm::sys::fs::exists(object))
    return object;
  // Built under a unique name, then renamed into place.
  llvm::SmallString<128> cpp, temporary;
  if (llvm::sys::fs::createUniqueFile(dir + "/build-%%%%%%%%.cpp", cpp) ||
      llvm::sys::fs::createUniqueFile(dir + "/build-%%%%%%%%.so", temporary))
    return where->emitError() << "--compiled: cannot write into " << dir;
  {
    std::error_code error;
    llvm::raw_fd_ostream os(cpp, error);
    os << source;
  }
  std::string includeRuntime = "-I" + runtimeDir(),
              includeTilekit = "-I" + includeDir(),
              vectorMath = vectorMathSource();
  SmallVector<StringRef> args(std::begin(kFlags), std::end(kFlags));
  args.append(
      {includeRuntime, includeTilekit, cpp, vectorMath, "-o", temporary});
  std::string output;
  bool built = runProgram(*compiler, args, output);
  llvm::sys::fs::remove(cpp);
  if (!built) {
    llvm::sys::fs::remove(temporary);
    return where->emitError() << "--compiled: clang++-22 failed to build the "
                                 "emitted kernel:\n"
                              << output;
  }
  if (std::error_code error = llvm::sys::fs::rename(temporary, object))
    return where->emitError() << "--compiled: " << error.message();
  return object;
}

/// Why `kernel` cannot run as emitted C++, or null.
Operation *unsupported(func::FuncOp kernel, std::string &why) {
  Operation *found = nullptr;
  kernel.walk([&](ascendc::LocalTensorAutoOp op) {
    found = op;
    why = "has no address yet: --compiled runs a kernel compiled by "
          "`tilekit compile --arch=...`";
    return WalkResult::interrupt();
  });
  return found;
}

} // namespace

/// A compiled AscendC kernel: planned (its local tensors have addresses)
/// and not a host function.
static bool isCompiledKernel(FunctionOpInterface function) {
  auto kernel = dyn_cast<func::FuncOp>(function.getOperation());
  return kernel && !kernel->hasAttr(ascendc::AscendCDialect::kHostAttrName) &&
         kernel
             ->walk(
                 [](ascendc::LocalTensorOp) { return WalkResult::interrupt(); })
             .wasInterrupted();
}

driver::CompiledKernels::CompiledKernels(ModuleOp module) : module(module) {}

bool driver::CompiledKernels::handles(FunctionOpInterface callee) {
  return isCompiledKernel(callee);
}

FailureOr<driver::CompiledKernels::Entry>
driver::CompiledKernels::entryFor(func::FuncOp kernel) {
  auto it = entries.find(kernel.getName());
  if (it != entries.end())
    return it->second;
  std::string why;
  if (Operation *op = unsupported(kernel, why))
    return op->emitOpError() << why;
  if (source.empty()) {
    llvm::raw_string_ostream os(source);
    if (failed(translateAscendCToCpp(module, os)))
      return failure();
  }
  FailureOr<std::string> object =
      buildObject(kernel, source + emitCpuEntry(kernel));
  if (failed(object))
    return failure();
  void *library = dlopen(object->c_str(), RTLD_NOW | RTLD_LOCAL);
  auto entry = library
                   ? reinterpret_cast<Entry>(dlsym(library, "tilekit_entry"))
                   : nullptr;
  if (!entry)
    return kernel.emitError()
           << "--compiled: cannot load " << *object << ": " << dlerror();
  entries[kernel.getName()] = entry;
  return entry;
}

FailureOr<SmallVector<RuntimeValue>>
driver::CompiledKernels::call(FunctionOpInterface callee,
                              SmallVectorImpl<RuntimeValue> &args,
                              int64_t block, int64_t blocks) {
  auto kernel = cast<func::FuncOp>(callee.getOperation());
  FailureOr<Entry> entry = entryFor(kernel);
  if (failed(entry))
    return failure();

  // The arguments in the kernel ABI: bytes of each GM tensor, each scalar
  // in its C type, the dynamic extents, the workspace.
  std::vector<std::vector<uint8_t>> slots;
  for (RuntimeValue &value : args) {
    if (auto *tensor = std::get_if<TensorValue>(&value)) {
      if (tensor->offset != 0)
        return kernel.emitError() << "--compiled: a GM argument is a view";
      slots.push_back(npyFromTensor(*tensor).data);
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
  if (int64_t workspace = workspaceBytes(kernel))
    slots.push_back(std::vector<uint8_t>(workspace, 0));
  std::vector<void *> pointers;
  for (std::vector<uint8_t> &slot : slots)
    pointers.push_back(slot.data());
  char fault[1024] = "";
  if ((*entry)(pointers.data(), block, blocks, fault, sizeof(fault)))
    return kernel.emitError() << "block " << block << " of " << blocks
                              << " stopped in the emitted C++: " << fault;

  // The GM tensors take the bytes back.
  for (auto [index, value] : llvm::enumerate(args)) {
    auto *tensor = std::get_if<TensorValue>(&value);
    if (!tensor)
      continue;
    NpyArray array = npyFromTensor(*tensor);
    array.data = slots[index];
    llvm::Expected<TensorValue> back = tensorFromNpy(array, tensor->kind());
    if (!back)
      return kernel.emitError() << toString(back.takeError());
    tensor->storage->data = back->storage->data;
  }
  // A kernel returns GM tensors it was passed.
  SmallVector<RuntimeValue> results;
  auto ret = cast<func::ReturnOp>(kernel.getBody().front().getTerminator());
  for (Value result : ret.getOperands())
    results.push_back(args[cast<BlockArgument>(result).getArgNumber()]);
  return results;
}
