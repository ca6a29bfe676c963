//===- InterpBenchmark.cpp - Executor throughput --------------------------===//
//
// The executor's fixed cost per op, elementwise bandwidth, matmul GFLOP/s
// next to OpenBLAS's own sgemm, and one example end to end.
//
//===----------------------------------------------------------------------===//

#include "tilekit/Dialect/PTO/IR/PTODialect.h"
#include "tilekit/Interp/Interpreter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"

#include <benchmark/benchmark.h>
#include <cblas.h>

#include <string>
#include <vector>

using namespace mlir;
using namespace tilekit;
using namespace tilekit::interp;

namespace {

/// A parsed kernel and an interpreter over it.
struct Kernel {
  explicit Kernel(const std::string &source) {
    context.loadDialect<pto::PTODialect, arith::ArithDialect, func::FuncDialect,
                        scf::SCFDialect>();
    module = parseSourceString<ModuleOp>(source, &context);
    if (!module)
      std::abort();
    interpreter = std::make_unique<Interpreter>(*module);
  }
  /// Parses a file.
  static std::string readFile(const std::string &path) {
    FILE *file = std::fopen(path.c_str(), "rb");
    if (!file)
      std::abort();
    std::string text;
    char buffer[4096];
    size_t count;
    while ((count = std::fread(buffer, 1, sizeof(buffer), file)) > 0)
      text.append(buffer, count);
    std::fclose(file);
    return text;
  }
  void run(StringRef name, ArrayRef<RuntimeValue> args) {
    auto results = interpreter->call(interpreter->lookupFunction(name), args);
    if (failed(results))
      std::abort();
    benchmark::DoNotOptimize(results->size());
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  std::unique_ptr<Interpreter> interpreter;
};

// The fixed cost of an op: a loop of `n` iterations, each one add of two
// 1x8 tiles and the loop's own bookkeeping (the yield), on a tiny tile.
void BM_OpOverhead(benchmark::State &state) {
  Kernel kernel(R"mlir(
    func.func @f(%n: index) -> !pto.tile<1x8xf32, vec> {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %one = arith.constant 1.0 : f32
      %t = pto.tile.full %one : f32 -> !pto.tile<1x8xf32, vec>
      %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %t) -> (!pto.tile<1x8xf32, vec>) {
        %s = pto.tile.add %acc, %t : !pto.tile<1x8xf32, vec>
        scf.yield %s : !pto.tile<1x8xf32, vec>
      }
      return %r : !pto.tile<1x8xf32, vec>
    })mlir");
  int64_t n = state.range(0);
  SmallVector<RuntimeValue> args{Scalar::ofInt(ElementKind::Index, n)};
  for (auto _ : state)
    kernel.run("f", args);
  // One tile op per iteration.
  state.counters["ns_per_op"] = benchmark::Counter(
      static_cast<double>(n) * state.iterations(),
      benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_OpOverhead)->Arg(10000)->Unit(benchmark::kMicrosecond);

// Elementwise add of two 64x128 f32 tiles: bytes read and written per op.
void BM_ElementwiseAdd64x128(benchmark::State &state) {
  Kernel kernel(R"mlir(
    func.func @f(%n: index) -> !pto.tile<64x128xf32, vec> {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %one = arith.constant 1.0 : f32
      %t = pto.tile.full %one : f32 -> !pto.tile<64x128xf32, vec>
      %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %t) -> (!pto.tile<64x128xf32, vec>) {
        %s = pto.tile.add %acc, %t : !pto.tile<64x128xf32, vec>
        scf.yield %s : !pto.tile<64x128xf32, vec>
      }
      return %r : !pto.tile<64x128xf32, vec>
    })mlir");
  int64_t n = 100;
  SmallVector<RuntimeValue> args{Scalar::ofInt(ElementKind::Index, n)};
  for (auto _ : state)
    kernel.run("f", args);
  state.SetBytesProcessed(state.iterations() * n * 3 * 64 * 128 * 4);
}
BENCHMARK(BM_ElementwiseAdd64x128)->Unit(benchmark::kMicrosecond);

std::string matmulKernel(int64_t size) {
  std::string s = std::to_string(size);
  std::string f16 = s + "x" + s + "xf16";
  return R"mlir(
    func.func @f() -> !pto.tile<)mlir" +
         s + "x" + s + R"mlir(xf32, acc> {
      %one = arith.constant 1.0 : f16
      %a = pto.tile.full %one : f16 -> !pto.tile<)mlir" +
         f16 + R"mlir(, left>
      %b = pto.tile.full %one : f16 -> !pto.tile<)mlir" +
         f16 + R"mlir(, right>
      %c = pto.tile.matmul %a, %b : !pto.tile<)mlir" +
         f16 + R"mlir(, left>, !pto.tile<)mlir" + f16 +
         R"mlir(, right> -> !pto.tile<)mlir" + s + "x" + s + R"mlir(xf32, acc>
      return %c : !pto.tile<)mlir" +
         s + "x" + s + R"mlir(xf32, acc>
    })mlir";
}

// A tile matmul through the executor (including building its operands).
void BM_TileMatmul(benchmark::State &state) {
  int64_t size = state.range(0);
  Kernel kernel(matmulKernel(size));
  for (auto _ : state)
    kernel.run("f", {});
  state.counters["GFLOPs"] =
      benchmark::Counter(2.0 * size * size * size * state.iterations() / 1e9,
                         benchmark::Counter::kIsRate);
}
BENCHMARK(BM_TileMatmul)->Arg(128)->Arg(512)->Unit(benchmark::kMicrosecond);

// The baseline: OpenBLAS's own sgemm on the same sizes.
void BM_OpenBLASSgemm(benchmark::State &state) {
  int64_t size = state.range(0);
  openblas_set_num_threads(1);
  std::vector<float> a(size * size, 1.0f), b(size * size, 1.0f), c(size * size);
  for (auto _ : state) {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, size, size, size,
                1.0f, a.data(), size, b.data(), size, 0.0f, c.data(), size);
    benchmark::DoNotOptimize(c.data());
  }
  state.counters["GFLOPs"] =
      benchmark::Counter(2.0 * size * size * size * state.iterations() / 1e9,
                         benchmark::Counter::kIsRate);
}
BENCHMARK(BM_OpenBLASSgemm)->Arg(128)->Arg(512)->Unit(benchmark::kMicrosecond);

// The softmax example end to end on 1024 x 128 (64 tiles).
void BM_SoftmaxExample(benchmark::State &state) {
  Kernel kernel(Kernel::readFile(TILEKIT_EXAMPLES_DIR "/softmax.mlir"));
  SmallVector<RuntimeValue> args{makeTensor(ElementKind::F32, {1024, 128}),
                                 makeTensor(ElementKind::F32, {1024, 128})};
  for (auto _ : state)
    kernel.run("softmax", args);
}
BENCHMARK(BM_SoftmaxExample)->Unit(benchmark::kMicrosecond);

// The flash-attention example end to end at sequence length 512.
void BM_FlashAttentionExample(benchmark::State &state) {
  Kernel kernel(Kernel::readFile(TILEKIT_EXAMPLES_DIR "/flash_attention.mlir"));
  SmallVector<RuntimeValue> args{makeTensor(ElementKind::F16, {512, 64}),
                                 makeTensor(ElementKind::F16, {64, 512}),
                                 makeTensor(ElementKind::F16, {512, 64}),
                                 makeTensor(ElementKind::F32, {512, 64})};
  for (auto _ : state)
    kernel.run("attention", args);
}
BENCHMARK(BM_FlashAttentionExample)->Unit(benchmark::kMillisecond);

// The mixed cube+vector example on 1024 x 64: 16 group launches, each
// running a cube thread and two lane threads.
void BM_MixedExample(benchmark::State &state) {
  Kernel kernel(
      Kernel::readFile(TILEKIT_EXAMPLES_DIR "/mixed_scaled_matmul.mlir"));
  SmallVector<RuntimeValue> args{makeTensor(ElementKind::F32, {1024, 64}),
                                 makeTensor(ElementKind::F16, {64, 64}),
                                 makeTensor(ElementKind::F32, {1024, 64})};
  for (auto _ : state)
    kernel.run("main", args);
  state.counters["launches_per_s"] = benchmark::Counter(
      16.0 * state.iterations(), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_MixedExample)->Unit(benchmark::kMicrosecond);

} // namespace

int main(int argc, char **argv) {
  // As the tilekit driver does: freed tile buffers kept.
  initializeProcess();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv))
    return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
