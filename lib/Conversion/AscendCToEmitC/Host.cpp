//===- Host.cpp - The host side of a compiled launch ----------------------===//
//
// `tilekit compile --emit=host` and `--emit=cmake`: for each host function
// that is one `ascendc.launch`, a tiling struct (the extents and scalars
// the kernel takes), the workspace size, the block count and a launch
// function in Ascend C's kernel-launch form (ACLRT_LAUNCH_KERNEL on the
// device, ICPU_RUN_KF on the CPU); and a CMake file that builds the kernel
// file with the CANN toolkit's `ascendc.cmake`. The kernel ABI is the one
// KernelLowering emits (docs/emit-cpp.md): this file follows its order.
//
//===----------------------------------------------------------------------===//

#include "Emit.h"

#include "tilekit/Conversion/AscendCToEmitC.h"
#include "tilekit/Dialect/AscendC/Transforms/CoreGroups.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using namespace tilekit;
using namespace tilekit::emit;

namespace {

/// One host function's launch, as the host code needs it.
struct HostLaunch {
  func::FuncOp host, kernel;
  int64_t blocks;
};

/// A C identifier from a kernel's argument name.
std::string identifier(StringRef name) {
  std::string id;
  for (char c : name)
    id += llvm::isAlnum(c) || c == '_' ? c : '_';
  if (id.empty() || llvm::isDigit(id[0]))
    id = "a" + id;
  return id;
}

std::string argumentName(func::FuncOp kernel, unsigned index) {
  if (auto name = kernel.getArgAttrOfType<StringAttr>(index, "tilekit.name"))
    return identifier(name.getValue());
  return "arg" + std::to_string(index);
}

/// Whether each scalar argument of `kernel` has a C type on the host
/// (half and bfloat16_t exist only in the kernel's headers).
bool hostTypesKnown(func::FuncOp kernel) {
  return llvm::all_of(kernel.getArgumentTypes(), [](Type type) {
    return isa<ascendc::GlobalTensorType>(type) || type.isIndex() ||
           (!elementName(type).empty() &&
            (!isa<FloatType>(type) || type.isF32()));
  });
}

/// The launches of the module's host functions, each host's in order, or
/// an error at the first host function that launches nothing.
FailureOr<SmallVector<HostLaunch>> collectLaunches(ModuleOp module) {
  SmallVector<HostLaunch> launches;
  for (auto host : module.getOps<func::FuncOp>()) {
    if (!host->hasAttr(ascendc::AscendCDialect::kHostAttrName))
      continue;
    auto ops = host.getOps<ascendc::LaunchOp>();
    bool calls = host.walk([](func::CallOp) { return WalkResult::interrupt(); })
                     .wasInterrupted();
    if (ops.empty() || calls)
      return host.emitOpError()
             << "is not a sequence of kernel launches, so it has no host "
                "code: compile it whole (ascendc-form-launch) or launch its "
                "kernels yourself";
    for (ascendc::LaunchOp launch : ops) {
      APInt blocks;
      if (!matchPattern(launch.getBlocks(), m_ConstantInt(&blocks)))
        return launch.emitOpError() << "launches a number of blocks the host "
                                       "code cannot know before it runs";
      auto kernel = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
          launch, launch.getCalleeAttr());
      if (!hostTypesKnown(kernel))
        return kernel.emitOpError()
               << "takes a scalar argument the host code has no C type for "
                  "(index, integers and f32 have one)";
      if (getKernelWorkspace(kernel).runtimeRegions &&
          failed(workspaceBytesInAbi(kernel, "blocks")))
        return failure();
      launches.push_back({host, kernel, blocks.getSExtValue()});
    }
  }
  return launches;
}

/// The kernel-type mark the CPU runtime takes (SetKernelMode).
StringRef kernelMode(func::FuncOp kernel) {
  switch (ascendc::getKernelCores(kernel)) {
  case ascendc::KernelCores::Cube:
    return "AIC_MODE";
  case ascendc::KernelCores::Vector:
    return "AIV_MODE";
  case ascendc::KernelCores::Mixed:
  case ascendc::KernelCores::MixedOneToTwo:
    return "MIX_MODE";
  }
  llvm_unreachable("the three kinds of kernel");
}

/// The host code of one host function's launches (all of one host, in
/// order; its kernels take the host's arguments, ascendc-form-launch).
void printHost(ArrayRef<HostLaunch> given, raw_ostream &os) {
  // Ops are handles: a copy names the same functions.
  SmallVector<HostLaunch> launches(given);
  func::FuncOp kernel = launches.front().kernel;
  std::string host = identifier(launches.front().host.getName());
  bool several = launches.size() > 1;
  // Each launch's names: the host's, numbered when it has several.
  auto suffix = [&](size_t index) {
    return several ? "_" + std::to_string(index) : std::string();
  };
  // The tiling struct: the extents, then the scalars.
  SmallVector<std::string> fields, gm, kernelArgs, declared;
  os << "/// The shapes and scalars of "
     << (several ? "the launches of " + host
                 : "one launch of " + kernel.getName().str())
     << ": what the host knows before it launches.\n"
     << "struct " << host << "_tiling {\n";
  for (auto [index, type] : llvm::enumerate(kernel.getArgumentTypes())) {
    std::string arg = argumentName(kernel, index);
    if (isa<ascendc::GlobalTensorType>(type)) {
      gm.push_back(arg);
      kernelArgs.push_back(arg);
      declared.push_back("GM_ADDR " + arg);
      continue;
    }
    std::string ctype = type.isIndex() ? "int64_t" : elementName(type);
    os << "  " << ctype << " " << arg << ";\n";
    kernelArgs.push_back("tiling." + arg);
    declared.push_back((type.isIndex() ? "ptrdiff_t" : ctype) + " " + arg);
  }
  for (auto [index, type] : llvm::enumerate(kernel.getArgumentTypes()))
    if (auto tensor = dyn_cast<ascendc::GlobalTensorType>(type))
      for (auto [dim, size] : llvm::enumerate(tensor.getShape()))
        if (ShapedType::isDynamic(size)) {
          std::string field =
              argumentName(kernel, index) + "_dim" + std::to_string(dim);
          os << "  int64_t " << field << "; // extent " << dim << " of "
             << argumentName(kernel, index) << "\n";
          kernelArgs.push_back("tiling." + field);
          declared.push_back("ptrdiff_t " + field);
        }
  os << "};\n\n";
  bool anyWorkspace = false;
  for (auto [index, launch] : llvm::enumerate(launches)) {
    bool vector =
        ascendc::getKernelCores(launch.kernel) == ascendc::KernelCores::Vector;
    os << "/// The cores a launch of " << launch.kernel.getName() << " runs on"
       << (launch.blocks == 1 ? " (one: its work items may depend on each "
                                "other through GM, see the compile warning)"
           : vector           ? ": the machine's vector cores, two per AI core"
                              : ": the machine's AI cores")
       << ".\nconstexpr uint32_t " << host << "_block_dim" << suffix(index)
       << " = " << launch.blocks << ";\n\n";
    anyWorkspace |= !getKernelWorkspace(launch.kernel).empty();
  }
  // One workspace serves every launch (they run one after another): the
  // largest any takes. Regions of run-time size are sized from the tiling.
  bool runtimeSized = llvm::any_of(launches, [](HostLaunch &launch) {
    return getKernelWorkspace(launch.kernel).runtimeRegions != 0;
  });
  if (runtimeSized)
    os << "/// The GM workspace bytes a launch on `blockDim` cores of these "
          "shapes takes,\n/// zeroed by the caller before it.\ninline "
          "uint64_t "
       << host << "_workspace_bytes(uint32_t blockDim, const " << host
       << "_tiling &tiling) {\n";
  else
    os << "/// The GM workspace bytes a launch on `blockDim` cores takes, "
          "zeroed by\n/// the caller before it.\nconstexpr uint64_t "
       << host << "_workspace_bytes(uint32_t blockDim) {\n";
  auto need = [&](func::FuncOp launched) {
    KernelWorkspace workspace = getKernelWorkspace(launched);
    if (!runtimeSized)
      return std::to_string(workspace.shared) + "u + uint64_t(blockDim) * " +
             std::to_string(workspace.perBlock) + "u";
    // collectLaunches has checked that it prints.
    return workspaceBytesExpression(
               launched, "blockDim",
               [&](unsigned index) {
                 return "tiling." + argumentName(launched, index);
               },
               [&](unsigned index, unsigned dim) {
                 return "tiling." + argumentName(launched, index) + "_dim" +
                        std::to_string(dim);
               })
        .value_or("0");
  };
  // Launches that need the same bytes are asked once.
  SmallVector<std::string> needs;
  for (HostLaunch &launch : launches)
    if (std::string bytes = need(launch.kernel);
        !llvm::is_contained(needs, bytes))
      needs.push_back(bytes);
  // Run-time sizes are summed in 128 bits: extents whose bytes 64 bits do
  // not hold give UINT64_MAX, which no allocation takes.
  StringRef wide = runtimeSized ? "__int128" : "uint64_t";
  if (!runtimeSized && needs.size() == 1) {
    os << "  return " << needs.front() << ";\n}\n\n";
  } else if (needs.size() > 1) {
    os << "  " << wide << " bytes = 0, need = 0;\n";
    for (const std::string &bytes : needs)
      os << "  need = " << bytes
         << ";\n  bytes = need > bytes ? need : bytes;\n";
  } else {
    os << "  " << wide << " bytes = " << needs.front() << ";\n";
  }
  if (runtimeSized)
    os << "  return bytes < 0 || bytes > __int128(UINT64_MAX) ? UINT64_MAX : "
          "uint64_t(bytes);\n}\n\n";
  else if (needs.size() > 1)
    os << "  return bytes;\n}\n\n";
  std::string params = "void *stream";
  for (const std::string &arg : gm)
    params += ", uint8_t *" + arg;
  params += ", const " + host + "_tiling &tiling";
  if (anyWorkspace)
    params += ", uint8_t *workspace";
  os << "#ifdef ASCENDC_CPU_DEBUG\n";
  for (HostLaunch &launch : launches) {
    SmallVector<std::string> own(declared);
    if (!getKernelWorkspace(launch.kernel).empty())
      own.push_back("GM_ADDR workspace");
    os << "extern \"C\" __global__ __aicore__ void " << launch.kernel.getName()
       << "(" << llvm::join(own, ", ") << ");\n";
  }
  os << "#endif\n\n";
  os << "/// Launches "
     << (several ? "the kernels of " + host + ", in order,"
                 : kernel.getName().str())
     << " on " << host << "_block_dim" << (several ? "_<n>" : "")
     << " cores of `stream`; the GM\n/// tensors are device "
        "addresses.\ninline void "
     << host << "_launch(" << params << ") {\n";
  for (auto [index, launch] : llvm::enumerate(launches)) {
    std::string args;
    for (const std::string &arg : kernelArgs)
      args += ", " + arg;
    if (!getKernelWorkspace(launch.kernel).empty())
      args += ", workspace";
    std::string name = launch.kernel.getName().str();
    std::string dim = host + "_block_dim" + suffix(index);
    os << "#ifdef ASCENDC_CPU_DEBUG\n"
       << (index ? "" : "  (void)stream;\n")
       << "  AscendC::SetKernelMode(KernelMode::" << kernelMode(launch.kernel)
       << ");\n"
       << "  ICPU_RUN_KF(" << name << ", " << dim << args << ");\n#else\n"
       << "  ACLRT_LAUNCH_KERNEL(" << name << ")(" << dim << ", stream" << args
       << ");\n#endif\n";
  }
  os << "}\n\n";
}

/// The includes of a host file for `launches`.
void printIncludes(ArrayRef<HostLaunch> launches, raw_ostream &os) {
  os << "#include <cstddef>\n#include <cstdint>\n"
        "#ifdef ASCENDC_CPU_DEBUG\n#include \"kernel_operator.h\"\n#else\n"
        "#include \"acl/acl.h\"\n";
  for (HostLaunch launch : launches)
    os << "#include \"aclrtlaunch_" << launch.kernel.getName() << ".h\"\n";
  os << "#endif\n\n";
}

} // namespace

std::optional<std::string> tilekit::emitCpuLaunchEntry(func::FuncOp kernel) {
  // The host function that launches `kernel`, if it is one launch.
  ModuleOp module = kernel->getParentOfType<ModuleOp>();
  std::optional<HostLaunch> found;
  for (auto host : module.getOps<func::FuncOp>()) {
    auto ops = host.getOps<ascendc::LaunchOp>();
    APInt blocks;
    if (!host->hasAttr(ascendc::AscendCDialect::kHostAttrName) || ops.empty() ||
        std::next(ops.begin()) != ops.end() ||
        (*ops.begin()).getCallee() != kernel.getName() ||
        !matchPattern((*ops.begin()).getBlocks(), m_ConstantInt(&blocks)))
      continue;
    found = HostLaunch{host, kernel, blocks.getSExtValue()};
  }
  if (!found || !hostTypesKnown(kernel))
    return std::nullopt;
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "#define ASCENDC_CPU_DEBUG 1\n";
  printIncludes({*found}, os);
  printHost({*found}, os);
  // The glue: args in the kernel ABI (tilekit_entry's), into the tiling
  // struct and the launch function's parameters.
  std::string host = identifier(found->host.getName());
  os << "extern \"C\" int tilekit_launch(void **args, int64_t *block, "
        "tilekit_cpu_limits *limits, char *error, size_t errorSize) {\n"
     << "  " << host << "_tiling tiling{};\n";
  std::string call = "nullptr";
  unsigned next = 0;
  for (auto [index, type] : llvm::enumerate(kernel.getArgumentTypes())) {
    std::string slot = "args[" + std::to_string(next++) + "]";
    if (isa<ascendc::GlobalTensorType>(type)) {
      call += ", (uint8_t *)" + slot;
      continue;
    }
    std::string ctype = type.isIndex() ? "ptrdiff_t" : elementName(type);
    os << "  tiling." << argumentName(kernel, index) << " = *(const " << ctype
       << " *)" << slot << ";\n";
  }
  for (auto [index, type] : llvm::enumerate(kernel.getArgumentTypes()))
    if (auto tensor = dyn_cast<ascendc::GlobalTensorType>(type))
      for (auto [dim, size] : llvm::enumerate(tensor.getShape()))
        if (ShapedType::isDynamic(size))
          os << "  tiling." << argumentName(kernel, index) << "_dim" << dim
             << " = *(const ptrdiff_t *)args[" << next++ << "];\n";
  call += ", tiling";
  if (!getKernelWorkspace(kernel).empty())
    call += ", (uint8_t *)args[" + std::to_string(next) + "]";
  os << "  [[maybe_unused]] int64_t blocks = " << found->blocks << ";\n"
     << "  AscendC::cpu::LaunchContext context{limits, error, errorSize, {"
     << gmNames(kernel)
     << "}};\n"
        "  AscendC::cpu::currentLaunch() = &context;\n"
     << "  " << host << "_launch(" << call << ");\n"
     << "  AscendC::cpu::currentLaunch() = nullptr;\n"
        "  *block = context.failedBlock;\n"
        "  return context.failedBlock < 0 ? 0 : 1;\n}\n";
  return text;
}

LogicalResult tilekit::translateHostCode(ModuleOp module, StringRef source,
                                         raw_ostream &os) {
  FailureOr<SmallVector<HostLaunch>> launches = collectLaunches(module);
  if (failed(launches))
    return failure();
  if (launches->empty())
    return module.emitError() << "has no host function, so no host code";
  os << "// The host side of the kernels of --emit=cpp (from " << source
     << "): for each launch,\n"
        "// its tiling struct, block count, workspace size and launch "
        "function. On the\n"
        "// device, link it into the host program with the kernel library "
        "that\n"
        "// --emit=cmake builds; on the CPU, build it and the kernels with "
        "-DASCENDC_CPU_DEBUG\n"
        "// against the Ascend C CPU runtime.\n";
  printIncludes(*launches, os);
  for (size_t first = 0; first < launches->size();) {
    size_t end = first + 1;
    while (end < launches->size() &&
           (*launches)[end].host == (*launches)[first].host)
      ++end;
    printHost(ArrayRef<HostLaunch>(*launches).slice(first, end - first), os);
    first = end;
  }
  return success();
}

LogicalResult tilekit::translateHostCMake(ModuleOp module, StringRef kernelFile,
                                          raw_ostream &os) {
  FailureOr<SmallVector<HostLaunch>> launches = collectLaunches(module);
  if (failed(launches))
    return failure();
  auto arch =
      module->getAttrOfType<StringAttr>(ascendc::AscendCDialect::kArchAttrName);
  std::string target =
      identifier(llvm::sys::path::stem(kernelFile)) + "_kernels";
  os << "# Builds " << kernelFile
     << " (tilekit compile --emit=cpp) for the device with the CANN\n"
        "# toolkit's Ascend C CMake support; the host program includes the "
        "--emit=host\n"
        "# file and links this library and ascendcl. Configure with\n"
        "#   cmake -B build -DSOC_VERSION=<chip> "
        "-DASCEND_CANN_PACKAGE_PATH=<CANN install>\n"
        "cmake_minimum_required(VERSION 3.16)\n"
        "project("
     << target << " LANGUAGES CXX)\n"
     << "set(SOC_VERSION \""
     << (arch && arch.getValue() == "c310" ? "" : "Ascend910B1")
     << "\" CACHE STRING \"the chip (npu-smi info); compiled for "
     << (arch ? arch.getValue() : "c220") << "\")\n"
     << "if(NOT SOC_VERSION)\n"
        "  message(FATAL_ERROR \"set -DSOC_VERSION to the chip\")\n"
        "endif()\n"
        "set(ASCEND_CANN_PACKAGE_PATH \"$ENV{ASCEND_HOME_PATH}\" CACHE PATH "
        "\"the CANN install\")\n"
        "if(EXISTS ${ASCEND_CANN_PACKAGE_PATH}/compiler/tikcpp/"
        "ascendc_kernel_cmake)\n"
        "  set(ASCENDC_CMAKE_DIR ${ASCEND_CANN_PACKAGE_PATH}/compiler/tikcpp/"
        "ascendc_kernel_cmake)\n"
        "elseif(EXISTS ${ASCEND_CANN_PACKAGE_PATH}/tools/tikcpp/"
        "ascendc_kernel_cmake)\n"
        "  set(ASCENDC_CMAKE_DIR ${ASCEND_CANN_PACKAGE_PATH}/tools/tikcpp/"
        "ascendc_kernel_cmake)\n"
        "else()\n"
        "  message(FATAL_ERROR \"no ascendc_kernel_cmake under "
        "${ASCEND_CANN_PACKAGE_PATH}\")\n"
        "endif()\n"
        "include(${ASCENDC_CMAKE_DIR}/ascendc.cmake)\n"
        "ascendc_library("
     << target << " STATIC " << kernelFile << ")\n";
  return success();
}
