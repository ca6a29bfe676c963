//===- GemmCalibration.cpp - The timing model against measured GEMMs ------===//
//
// Predicts the double-buffered GEMM of HARDWARE.md (24 cores, f16 in, f32
// out, tile 128 x 256 x 64) at the published sizes and prints predicted
// against published time, TFLOPS, and cube and load busy ratios. Then the
// same kernel against a public measurement of torch.matmul on a 910B2
// (1K to 10K), whose kernel's tiling is not published: each size also at
// the fastest of a few output tilings, the tile a library would pick.
//
//   build/benchmarks/tilekit-gemm-calibration [CONFIG] [--check PERCENT]
//       [--torch [--check-torch PERCENT]]
//
// With --check it exits 1 when a pto-isa row's predicted time (at its
// kernel's tiling) is off by more than PERCENT, with --check-torch when a
// torch row's is (at the best tiling); test/Timing/gemm-calibration.test
// runs both in CI. The torch rows (about a minute: 10240^3 three times)
// are printed with --torch.
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

/// torch.matmul, f16, square, on an Ascend 910B2 (torch 2.5.1, torch_npu):
/// github.com/zzc0721/torch-performance-test-data issue 109 (2026-01-05).
struct TorchMeasurement {
  uint32_t size;
  double tflops;
};
constexpr TorchMeasurement kTorch910B2[] = {{1024, 98.08},
                                            {2048, 251.01},
                                            {4096, 314.52},
                                            {8192, 305.46},
                                            {10240, 274.76}};

/// Output tiles (M x N, K step 64) a GEMM library chooses among; each fits
/// L0C (f32) and, with K 64, L0A and L0B double-buffered.
struct Tiling {
  uint32_t bm, bn;
};
constexpr Tiling kTilings[] = {{128, 256}, {256, 128}, {128, 128}};

double tflopsOf(uint32_t size, double seconds) {
  return 2.0 * size * size * size / seconds / 1e12;
}
} // namespace

int main(int argc, char **argv) {
  std::string path = TILEKIT_DEFAULT_CONFIG;
  double limit = -1, torchLimit = -1;
  bool torch = false;
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef arg = argv[i];
    if ((arg == "--check" || arg == "--check-torch") && i + 1 < argc) {
      double &into = arg == "--check" ? limit : torchLimit;
      if (llvm::StringRef(argv[++i]).getAsDouble(into) || into < 0) {
        llvm::errs() << arg << ": expected a percentage, not '" << argv[i]
                     << "'\n";
        return 2;
      }
    } else if (arg == "--torch") {
      torch = true;
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
    double tflops = tflopsOf(m.size, result->seconds);
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
  if (!torch)
    return 0;

  llvm::outs() << "\ntorch.matmul f16 on a 910B2 (public; tiling unknown): "
                  "the same kernel at 128x256 tiles and at its fastest "
                  "tiling\n";
  llvm::outs() << llvm::format("%6s %10s %10s %8s %8s %8s %8s %7s\n", "M=K=N",
                               "pub ms", "pub TF", "128x256", "error", "best",
                               "TF", "error");
  double worstTorch = 0;
  for (const TorchMeasurement &m : kTorch910B2) {
    double published = 2.0 * m.size * m.size * m.size / (m.tflops * 1e12);
    double fixed = 0, best = 0;
    const Tiling *bestTiling = nullptr;
    for (const Tiling &tiling : kTilings) {
      trace::Trace trace =
          bench::gemmTrace(m.size, m.size, m.size, tiling.bm, tiling.bn, 64);
      auto result = timing::simulate(trace, *config);
      if (!result) {
        llvm::errs() << toString(result.takeError()) << "\n";
        return 1;
      }
      if (&tiling == &kTilings[0])
        fixed = result->seconds;
      if (!bestTiling || result->seconds < best) {
        best = result->seconds;
        bestTiling = &tiling;
      }
    }
    double fixedError = 100.0 * (fixed - published) / published;
    double bestError = 100.0 * (best - published) / published;
    worstTorch = std::max(worstTorch, std::fabs(bestError));
    std::string name =
        llvm::formatv("{0}x{1}", bestTiling->bm, bestTiling->bn).str();
    llvm::outs() << llvm::format(
        "%6u %10.4f %10.1f %+7.1f%% %8s %8.1f %+6.1f%%\n", m.size,
        published * 1e3, m.tflops, fixedError, name.c_str(),
        tflopsOf(m.size, best), bestError);
  }
  llvm::outs() << llvm::format(
      "worst time error at the best tiling %.1f%% (goal 10%%)\n", worstTorch);
  if (torchLimit >= 0 && worstTorch > torchLimit) {
    llvm::errs() << llvm::format(
        "tilekit-gemm-calibration: a torch.matmul prediction is off by "
        "%.1f%%, more than --check-torch %.1f%%\n",
        worstTorch, torchLimit);
    return 1;
  }
  return 0;
}
