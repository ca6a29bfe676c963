//===- GemmCalibration.cpp - The timing model against measured GEMMs ------===//
//
// Predicts the double-buffered GEMM of HARDWARE.md (24 cores, f16 in, f32
// out, tile 128 x 256 x 64) at the published sizes and prints predicted
// against published time, TFLOPS, and cube and load busy ratios.
//
//   build/benchmarks/tilekit-gemm-calibration [CONFIG] [--check PERCENT]
//
// With --check it exits 1 when a predicted time is off by more than PERCENT
// (test/Timing/gemm-calibration.test runs it in CI).
//
//===----------------------------------------------------------------------===//

#include "GemmTrace.h"

#include "tilekit/Timing/Simulator.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace tilekit;

namespace {
/// Published results (HARDWARE.md, pto-isa
/// kernels/manual/a2a3/gemm_performance).
struct Measurement {
  uint32_t size;
  double ms, tflops;
  double cubeBusy, loadBusy; // percent, negative when not published
};
constexpr Measurement kPublished[] = {{1536, 0.0388, 187, 54.5, 72},
                                      {3072, 0.2067, 281, -1, -1},
                                      {6144, 1.506, 308, 86.7, 95},
                                      {7680, 3.168, 286, 80.6, 98.4}};
} // namespace

int main(int argc, char **argv) {
  std::string path = TILEKIT_DEFAULT_CONFIG;
  double limit = -1;
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef arg = argv[i];
    if (arg == "--check" && i + 1 < argc) {
      if (llvm::StringRef(argv[++i]).getAsDouble(limit) || limit < 0) {
        llvm::errs() << "--check: expected a percentage, not '" << argv[i]
                     << "'\n";
        return 2;
      }
    } else {
      path = arg.str();
    }
  }
  auto config = timing::loadMachineConfig(path);
  if (!config) {
    llvm::errs() << toString(config.takeError()) << "\n";
    return 1;
  }
  llvm::outs() << "GEMM f16 -> f32, tile 128x256x64, double-buffered, "
               << config->cubeCores << " cores (" << config->name << ")\n";
  llvm::outs() << llvm::format("%6s %10s %10s %7s %8s %8s %7s %7s %7s %7s\n",
                               "M=K=N", "pred ms", "pub ms", "error", "pred TF",
                               "pub TF", "cube%", "pub", "load%", "pub");
  double worst = 0;
  for (const Measurement &m : kPublished) {
    trace::Trace trace = bench::gemmTrace(m.size, m.size, m.size);
    auto result = timing::simulate(trace, *config);
    if (!result) {
      llvm::errs() << toString(result.takeError()) << "\n";
      return 1;
    }
    double ms = result->seconds * 1e3;
    double tflops = 2.0 * m.size * m.size * m.size / result->seconds / 1e12;
    double cube = 0, load = 0;
    for (const timing::CoreStats &core : result->cores) {
      cube += core.busy[0][static_cast<unsigned>(trace::Pipe::M)];
      load += core.busy[0][static_cast<unsigned>(trace::Pipe::MTE2)];
    }
    cube = 100.0 * cube / result->cores.size() / result->cycles;
    load = 100.0 * load / result->cores.size() / result->cycles;
    double error = 100.0 * (ms - m.ms) / m.ms;
    worst = std::max(worst, std::fabs(error));
    auto published = [](double value) {
      return value < 0 ? std::string("-")
                       : llvm::formatv("{0:F1}", value).str();
    };
    llvm::outs() << llvm::format(
        "%6u %10.4f %10.4f %+6.1f%% %8.1f %8.1f %7.1f %7s %7.1f %7s\n", m.size,
        ms, m.ms, error, tflops, m.tflops, cube, published(m.cubeBusy).c_str(),
        load, published(m.loadBusy).c_str());
  }
  llvm::outs() << llvm::format("worst time error %.1f%% (goal 15%%)\n", worst);
  if (limit >= 0 && worst > limit) {
    llvm::errs() << llvm::format(
        "tilekit-gemm-calibration: a prediction is off by %.1f%%, more than "
        "--check %.1f%%\n",
        worst, limit);
    return 1;
  }
  return 0;
}
