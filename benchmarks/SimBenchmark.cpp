//===- SimBenchmark.cpp - Speed of the timing model -----------------------===//
//
// Trace records simulated per second on GEMM traces of growing length, one
// thread; the rate staying flat as the trace grows shows the cost is linear.
//
//===----------------------------------------------------------------------===//

#include "GemmTrace.h"

#include "tilekit/Timing/Simulator.h"

#include <benchmark/benchmark.h>

using namespace tilekit;

namespace {

void BM_SimulateGemm(benchmark::State &state) {
  uint32_t size = static_cast<uint32_t>(state.range(0));
  trace::Trace trace = bench::gemmTrace(size, size, size);
  auto config = timing::loadMachineConfig(TILEKIT_DEFAULT_CONFIG);
  if (!config)
    std::abort();
  for (auto _ : state) {
    auto result = timing::simulate(trace, *config);
    if (!result)
      std::abort();
    benchmark::DoNotOptimize(result->cycles);
  }
  state.counters["records"] = static_cast<double>(trace.records.size());
  state.counters["records_per_s"] = benchmark::Counter(
      static_cast<double>(trace.records.size()) * state.iterations(),
      benchmark::Counter::kIsRate);
}
BENCHMARK(BM_SimulateGemm)
    ->Arg(1536)
    ->Arg(3072)
    ->Arg(6144)
    ->Arg(7680)
    ->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
