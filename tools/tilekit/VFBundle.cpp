//===- VFBundle.cpp - tilekit compile --emit=vf-bundle --------------------===//
//
// Writes a kernel's vf-bundle into a new directory: the manifest, the
// helpers' and the caller's C++, their objects (clang++-22), the image
// they link into (ld.lld-22, kernel_entry first), its validated `.text`,
// and build-result.json saying what was run, with which toolchain, and
// whether the binaries came from the cache. The cache keys on every byte
// that goes into the binaries (sources, runtime header, flags, tools), not
// on where anything lives, so a moved kernel or output directory still
// hits it. The directory appears whole or not at all.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"
#include "MemoryPlanning.h"
#include "tilekit/Driver/BuildCache.h"
#include "tilekit/Driver/KernelFile.h"

#include "tilekit/Conversion/PTOToVFBundle.h"
#include "tilekit/VF/DeviceImage.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SHA256.h"

#include <chrono>

using namespace mlir;
using namespace tilekit;
using namespace tilekit::driver;
namespace cl = llvm::cl;

static cl::opt<bool> omitBarriers(
    "test-vf-omit-barriers",
    cl::desc("(testing) outline register scopes without the barriers they "
             "need, to see admission reject the helpers"),
    cl::Hidden, cl::sub(driver::compileCommand()));

namespace {

/// Flags of every object: position-independent code that needs no data,
/// no unwind tables and no library (tilekit_vf.h is inline code).
const char *const kCompileFlags[] = {"-x",
                                     "c++",
                                     "-std=c++17",
                                     "-O2",
                                     "-fPIC",
                                     "-ffreestanding",
                                     "-fno-builtin",
                                     "-fno-vectorize",
                                     "-fno-slp-vectorize",
                                     "-fno-jump-tables",
                                     "-fno-asynchronous-unwind-tables",
                                     "-fno-unwind-tables",
                                     "-fno-exceptions",
                                     "-fno-rtti",
                                     "-fno-stack-protector",
                                     "-fno-plt",
                                     "-fvisibility=hidden",
                                     "-ffunction-sections",
                                     "-fdata-sections",
                                     "-c"};
/// kernel_entry first, then the rest of the code, in one `.text`.
constexpr llvm::StringLiteral kLinkScript =
    "SECTIONS {\n"
    "  .text : { KEEP(*(.text.kernel_entry)) *(.text .text.*) }\n"
    "}\n";
const char *const kLinkFlags[] = {
    "-static", "-nostdlib", "--no-dynamic-linker", "-e", "kernel_entry",
    "-T",      "link.ld"};

double millisecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now() - start)
      .count();
}

std::string readFile(StringRef path) {
  auto text = llvm::MemoryBuffer::getFile(path);
  return text ? (*text)->getBuffer().str() : std::string();
}

llvm::Error writeFile(StringRef path, StringRef contents) {
  if (std::error_code error =
          llvm::sys::fs::create_directories(llvm::sys::path::parent_path(path)))
    return llvm::createStringError(error,
                                   "cannot create the directory of " + path);
  std::error_code error;
  llvm::raw_fd_ostream os(path, error);
  if (error)
    return llvm::createStringError(error, "cannot write " + path);
  os << contents;
  return llvm::Error::success();
}

/// The first line of `program --version`.
std::string versionOf(StringRef program) {
  std::string output;
  runProgram(program, {"--version"}, output);
  return StringRef(output).split('\n').first.trim().str();
}

struct Toolchain {
  std::string clang, lld;
};

/// The bundle's sources by their path in the output directory.
using Sources = std::vector<std::pair<std::string, std::string>>;

class BundleBuild {
public:
  BundleBuild(Operation *where, const Toolchain &tools, const Sources &sources)
      : where(where), tools(tools), sources(sources) {}

  /// Builds into (or finds in) the cache; the directory holding objects/,
  /// image.elf and image.text.
  FailureOr<std::string> run();

  llvm::json::Array commands;
  bool hit = false;
  std::string key;
  double compileMs = 0, linkMs = 0;

private:
  LogicalResult fail(const Twine &message) {
    return where->emitError() << "--emit=vf-bundle: " << message;
  }
  LogicalResult exec(StringRef program, ArrayRef<std::string> args,
                     StringRef buildDir, StringRef what);

  Operation *where;
  const Toolchain &tools;
  const Sources &sources;
};

} // namespace

LogicalResult BundleBuild::exec(StringRef program, ArrayRef<std::string> args,
                                StringRef buildDir, StringRef what) {
  SmallVector<StringRef> argv(args.begin(), args.end());
  llvm::json::Array recorded{llvm::sys::path::filename(program)};
  // Recorded relative to the build directory and the runtime, which live
  // wherever the cache and the installation are.
  std::string root = runtimeRoot();
  for (StringRef arg : argv) {
    std::string text = arg.str();
    if (StringRef(text).starts_with(buildDir))
      text = "." + text.substr(buildDir.size());
    size_t at = text.find(root);
    if (at != std::string::npos)
      text.replace(at, root.size(), "$TILEKIT_RUNTIME");
    recorded.push_back(text);
  }
  commands.push_back(std::move(recorded));
  std::string output;
  if (!runProgram(program, argv, output))
    return fail(what + " failed:\n" + output);
  return success();
}

FailureOr<std::string> BundleBuild::run() {
  // The key: every input of the binaries, none of their locations.
  llvm::SHA256 hash;
  auto add = [&](StringRef part) {
    hash.update(part);
    hash.update(StringRef("\0", 1));
  };
  for (const auto &[path, text] : sources) {
    add(path);
    add(text);
  }
  add(kLinkScript);
  add(readFile(runtimeRoot() + "/vf/tilekit_vf.h"));
  for (const char *flag : kCompileFlags)
    add(flag);
  for (const char *flag : kLinkFlags)
    add(flag);
  std::optional<std::string> clangId = toolIdentity(tools.clang),
                             lldId = toolIdentity(tools.lld);
  if (!clangId || !lldId)
    return fail("cannot inspect " + tools.clang + " or " + tools.lld);
  add(*clangId);
  add(*lldId);
  key = llvm::toHex(hash.final(), /*LowerCase=*/true).substr(0, 32);
  std::string cache = buildCacheDir();
  std::string cached = cache + "/vf-" + key;
  if (llvm::sys::fs::exists(cached + "/image.text")) {
    hit = true;
    return cached;
  }
  if (std::error_code error = llvm::sys::fs::create_directories(cache))
    return fail("cannot create the cache " + cache + ": " + error.message());
  llvm::SmallString<128> build;
  if (llvm::sys::fs::createUniqueDirectory(cache + "/vf-build", build))
    return fail("cannot write into " + cache);
  std::string buildDir(build);
  llvm::scope_exit cleanup(
      [&] { llvm::sys::fs::remove_directories(buildDir); });
  std::vector<std::string> objects;
  auto start = std::chrono::steady_clock::now();
  for (const auto &[path, text] : sources) {
    std::string source = buildDir + "/" + path;
    if (llvm::Error error = writeFile(source, text))
      return fail(toString(std::move(error)));
    std::string object =
        buildDir + "/objects/" + llvm::sys::path::stem(path).str() + ".o";
    if (llvm::Error error = writeFile(object, ""))
      return fail(toString(std::move(error)));
    std::vector<std::string> args(std::begin(kCompileFlags),
                                  std::end(kCompileFlags));
    args.insert(args.end(), {"-I" + runtimeRoot(), source, "-o", object});
    if (failed(exec(tools.clang, args, buildDir, "clang++-22 on " + path)))
      return failure();
    objects.push_back(object);
  }
  compileMs = millisecondsSince(start);
  start = std::chrono::steady_clock::now();
  if (llvm::Error error = writeFile(buildDir + "/link.ld", kLinkScript))
    return fail(toString(std::move(error)));
  std::vector<std::string> args(std::begin(kLinkFlags), std::end(kLinkFlags));
  args.back() = buildDir + "/link.ld";
  args.insert(args.end(), {"-o", buildDir + "/image.elf"});
  args.insert(args.end(), objects.begin(), objects.end());
  if (failed(exec(tools.lld, args, buildDir, "ld.lld-22")))
    return failure();
  linkMs = millisecondsSince(start);
  auto image = llvm::MemoryBuffer::getFile(buildDir + "/image.elf");
  if (!image)
    return fail("cannot read the linked image");
  llvm::Expected<std::string> text = vf::extractText(**image);
  if (!text)
    return fail(toString(text.takeError()));
  if (llvm::Error error = writeFile(buildDir + "/image.text", *text))
    return fail(toString(std::move(error)));
  // Into place; a concurrent build of the same key may have won.
  if (llvm::sys::fs::rename(buildDir, cached) &&
      !llvm::sys::fs::exists(cached + "/image.text"))
    return fail("cannot move the build into the cache " + cached);
  return cached;
}

int driver::emitVFBundle(KernelFile &kernel, FunctionOpInterface entry,
                         StringRef outputDir) {
  auto started = std::chrono::steady_clock::now();
  auto func = dyn_cast<func::FuncOp>(entry.getOperation());
  if (!func)
    return fail("--emit=vf-bundle compiles a func.func kernel");
  if (outputDir == "-" || outputDir.empty())
    return fail("--emit=vf-bundle writes a directory: give it with -o DIR");
  if (llvm::sys::fs::exists(outputDir))
    return fail("-o " + outputDir +
                ": exists; a vf-bundle goes into a new directory, so that "
                "nothing of an earlier build is mistaken for this one's");
  llvm::ErrorOr<std::string> clang = llvm::sys::findProgramByName("clang++-22");
  llvm::ErrorOr<std::string> lld = llvm::sys::findProgramByName("ld.lld-22");
  if (!clang || !lld)
    return fail("--emit=vf-bundle builds with clang++-22 and ld.lld-22 "
                "(Debian's clang-22 and lld-22; scripts/install-deps.sh "
                "installs them), and " +
                std::string(!clang ? "clang++-22" : "ld.lld-22") +
                " is not on PATH");
  Toolchain tools{*clang, *lld};

  // The bundle, its helpers admitted.
  auto config = loadConfig();
  if (!config)
    return fail(toString(config.takeError()));
  if (failed(planModule(kernel.getModule(), getCapacities(*config),
                        /*apply=*/true, planOptions())))
    return kExitBadInput;
  // Planning rewrites types; what it leaves must still verify.
  if (failed(mlir::verify(kernel.getModule()))) {
    fail("memory planning left the kernel invalid (an internal error)");
    return kExitInternal;
  }
  vf::BundleOptions options;
  options.insertBarriers = !omitBarriers;
  options.argumentName = [&](BlockArgument arg) {
    return kernel.getArgumentName(arg);
  };
  FailureOr<vf::Bundle> bundle = vf::buildBundle(func, options);
  if (failed(bundle))
    return kExitBadInput;
  double bundleMs = millisecondsSince(started);
  Sources sources{{"kernel.cpp", bundle->callerSource}};
  for (const vf::Helper &helper : bundle->helpers)
    sources.push_back({"helpers/" + helper.symbol + ".cpp", helper.source});

  BundleBuild build(func, tools, sources);
  FailureOr<std::string> binaries = build.run();
  if (failed(binaries))
    return kExitBadInput;

  // Everything into a staging directory next to the output, then renamed.
  llvm::SmallString<128> staging;
  if (llvm::sys::fs::createUniqueDirectory(outputDir + ".partial", staging))
    return fail("-o " + outputDir + ": cannot write next to it");
  std::string stage(staging);
  llvm::scope_exit cleanup([&] { llvm::sys::fs::remove_directories(stage); });
  std::string manifest;
  llvm::raw_string_ostream(manifest)
      << llvm::formatv("{0:2}", vf::manifestOf(*bundle)) << "\n";
  std::vector<std::pair<std::string, std::string>> files(sources.begin(),
                                                         sources.end());
  files.push_back({"manifest.json", manifest});
  files.push_back({"link.ld", kLinkScript.str()});
  for (StringRef name : {"image.elf", "image.text"})
    files.push_back({name.str(), readFile((*binaries + "/" + name).str())});
  std::error_code error;
  for (llvm::sys::fs::directory_iterator it(*binaries + "/objects", error), end;
       it != end && !error; it.increment(error))
    files.push_back({"objects/" + llvm::sys::path::filename(it->path()).str(),
                     readFile(it->path())});
  llvm::sort(files);

  std::string text = files[0].second;
  for (const auto &[name, contents] : files)
    if (name == "image.text")
      text = contents;
  llvm::SHA256 textHash;
  textHash.update(text);
  llvm::json::Array fileNames;
  for (const auto &[name, contents] : files)
    fileNames.push_back(name);
  llvm::json::Object result{
      {"kernel", bundle->kernel},
      {"tilekit", TILEKIT_VERSION},
      {"toolchain", llvm::json::Object{{"clang", versionOf(tools.clang)},
                                       {"ld.lld", versionOf(tools.lld)}}},
      {"cache", llvm::json::Object{{"hit", build.hit}, {"key", build.key}}},
      {"commands", std::move(build.commands)},
      {"timings_ms", llvm::json::Object{{"bundle", bundleMs},
                                        {"compile", build.compileMs},
                                        {"link", build.linkMs},
                                        {"total", millisecondsSince(started)}}},
      {"image",
       llvm::json::Object{{"text_bytes", static_cast<int64_t>(text.size())},
                          {"text_sha256", llvm::toHex(textHash.final(), true)},
                          {"ub_bytes", bundle->ubBytes}}},
      {"helpers", static_cast<int64_t>(bundle->helpers.size())},
      {"files", std::move(fileNames)}};
  std::string resultText;
  llvm::raw_string_ostream(resultText)
      << llvm::formatv("{0:2}", llvm::json::Value(std::move(result))) << "\n";
  files.push_back({"build-result.json", resultText});
  for (const auto &[name, contents] : files)
    if (llvm::Error error = writeFile(stage + "/" + name, contents))
      return fail(toString(std::move(error)));
  if (std::error_code error = llvm::sys::fs::rename(stage, outputDir))
    return fail("-o " + outputDir + ": " + error.message());
  llvm::errs() << "vf-bundle: " << outputDir << ": @" << bundle->kernel << ", "
               << bundle->helpers.size() << " helper(s), " << text.size()
               << " bytes of code, cache " << (build.hit ? "hit" : "miss")
               << "\n";
  return 0;
}
