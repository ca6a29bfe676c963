//===- MachineConfig.cpp - Figures of the modelled machine ----------------===//

#include "tilekit/Timing/MachineConfig.h"

#include "tilekit/Support/InputFile.h"

#include <cstdio>
#include <limits>

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>
#include <cmath>
#include <type_traits>

using namespace llvm;
using namespace tilekit;
using namespace tilekit::timing;
using trace::DmaPath;
using trace::Space;

/// Whole cycles of a figure, rounded up; a config's extreme figures (a
/// bandwidth of 1e-300) saturate rather than overflow the conversion.
static uint64_t toCycles(double cycles) {
  constexpr double kMax = 9.0e18; // below 2^63: sums of a few stay exact
  if (!(cycles > 0))
    return 0;
  return cycles >= kMax ? static_cast<uint64_t>(kMax)
                        : static_cast<uint64_t>(std::ceil(cycles));
}

uint64_t MachineConfig::dmaCycles(uint64_t bytes, double bytesPerCycle) const {
  return dmaLatency +
         toCycles(static_cast<double>(bytes) / std::max(bytesPerCycle, 1e-9));
}

uint64_t MachineConfig::cubeCycles(uint64_t m, uint64_t k, uint64_t n,
                                   StringRef dtype, unsigned size) const {
  uint64_t k0 = std::max<uint64_t>(1, cubeK0Bytes / std::max(size, 1u));
  uint64_t steps = ((m + 15) / 16) * ((k + k0 - 1) / k0) * ((n + 15) / 16);
  auto it = cubeCyclesPerStep.find(dtype);
  double perStep = it == cubeCyclesPerStep.end() ? 1.0 : it->second;
  return cubeHeadCycles + toCycles(static_cast<double>(steps) * perStep);
}

bool MachineConfig::hasVectorCost(StringRef op, StringRef dtype) const {
  auto byOp = vectorOps.find(op);
  if (byOp == vectorOps.end())
    return false;
  const VectorOpCost &cost = byOp->second;
  if (cost.perRepeat || cost.byType.contains(dtype) ||
      cost.byTypeRows.contains(dtype))
    return true;
  if (cost.composedOf.empty())
    return false;
  return llvm::all_of(cost.composedOf, [&](const std::string &part) {
    return hasVectorCost(part, dtype);
  });
}

uint64_t MachineConfig::vectorCycles(StringRef op, StringRef dtype,
                                     unsigned size, uint64_t elements,
                                     std::array<uint64_t, 2> shape) const {
  size = std::max(size, 1u);
  auto byOp = vectorOps.find(op);
  if (byOp != vectorOps.end()) {
    const VectorOpCost &cost = byOp->second;
    auto byRows = cost.byTypeRows.find(dtype);
    if (byRows != cost.byTypeRows.end() && elements) {
      uint64_t rows = cost.columnAxis
                          ? elements / std::max<uint64_t>(shape[1], 1)
                          : shape[0];
      rows = std::clamp<uint64_t>(rows, 1, elements);
      double columns = static_cast<double>(elements) / rows;
      const RowCost &fit = byRows->second;
      return toCycles(static_cast<double>(rows) *
                          (fit.perRow + fit.perColumn * columns) +
                      fit.bias + fit.biasPerColumn * columns);
    }
    auto byType = cost.byType.find(dtype);
    if (byType != cost.byType.end())
      return toCycles(byType->second.slope * static_cast<double>(elements) +
                      byType->second.bias);
    if (cost.perRepeat) {
      double repeats =
          std::ceil(static_cast<double>(elements) * size / vectorRepeatBytes);
      return toCycles(*cost.head + *cost.perRepeat * repeats + *cost.tail);
    }
    if (!cost.composedOf.empty()) {
      uint64_t cycles = 0;
      for (const std::string &part : cost.composedOf)
        cycles = std::min<uint64_t>(
            cycles + vectorCycles(part, dtype, size, elements, shape),
            toCycles(1e300));
      return cycles;
    }
  }
  VectorCost cost = vectorDefault;
  cost.slope *= static_cast<double>(size) / 4.0;
  return toCycles(cost.slope * static_cast<double>(elements) + cost.bias);
}

/// A number as a person would write it in a config (1e+20, 0, 1.85).
static std::string formatNumber(double value) {
  char text[32];
  std::snprintf(text, sizeof(text), "%g", value);
  return text;
}

namespace {
/// Reads one JSON object, rejecting keys it was not asked for.
class ObjectReader {
public:
  ObjectReader(const json::Object *object, std::string path)
      : object(object), path(std::move(path)) {}

  Error fail(const Twine &why) const {
    return createStringError(inconvertibleErrorCode(), path + ": " + why);
  }

  template <typename T>
  Error number(StringRef key, T &out, bool required = true) {
    seen.insert(key);
    const json::Value *value = object->get(key);
    if (!value)
      return required ? fail("missing '" + key + "'") : Error::success();
    std::optional<double> number = value->getAsNumber();
    if (!number || !std::isfinite(*number) || *number < 0)
      return fail("'" + key + "' must be a non-negative number");
    // The field's type bounds it (a core count is an unsigned, ...).
    if (*number > static_cast<double>(std::numeric_limits<T>::max()))
      return fail("'" + key + "' = " + formatNumber(*number) +
                  " is out of range (at most " +
                  formatNumber(std::numeric_limits<T>::max()) + ")");
    // A count (cores, slots, bytes) is whole: 2.5 cores is a mistake, not 2.
    if (std::is_integral_v<T> && *number != std::floor(*number))
      return fail("'" + key + "' = " + formatNumber(*number) +
                  " must be a whole number");
    out = static_cast<T>(*number);
    return Error::success();
  }

  /// Reads a number that must lie in (0, max]: a size, a rate, a clock.
  template <typename T>
  Error positive(StringRef key, T &out, double max, bool required = true) {
    bool present = object && object->get(key);
    if (Error error = number(key, out, required))
      return error;
    if (present && (out <= 0 || static_cast<double>(out) > max))
      return fail("'" + key + "' = " + formatNumber(out) +
                  " is out of range (expected more than 0, at most " +
                  formatNumber(max) + ")");
    return Error::success();
  }

  Error string(StringRef key, std::string &out) {
    seen.insert(key);
    std::optional<StringRef> value = object->getString(key);
    if (!value)
      return fail("missing string '" + key + "'");
    out = value->str();
    return Error::success();
  }

  Expected<ObjectReader> child(StringRef key, bool required = true) {
    seen.insert(key);
    const json::Value *value = object->get(key);
    if (!value) {
      if (required)
        return fail("missing '" + key + "'");
      return ObjectReader(nullptr, path + "." + key.str());
    }
    const json::Object *child = value->getAsObject();
    if (!child)
      return fail("'" + key + "' must be an object");
    return ObjectReader(child, path + "." + key.str());
  }

  /// Fails on keys nobody asked for ("source" cites figures anywhere).
  Error finish() const {
    if (!object)
      return Error::success();
    for (const auto &entry : *object) {
      StringRef key = entry.first;
      if (key == "source" || seen.contains(key))
        continue;
      return fail("unknown key '" + key + "'");
    }
    return Error::success();
  }

  /// Marks `key` as read (a value the caller reads itself).
  void consume(StringRef key) { seen.insert(key); }

  bool present() const { return object != nullptr; }
  const json::Object *get() const { return object; }
  const std::string &getPath() const { return path; }

private:
  const json::Object *object;
  std::string path;
  StringSet<> seen;
};
} // namespace

/// GiB/s at the core clock into bytes per cycle.
static double gibPerSecond(double gib, double clockGHz) {
  return gib * 1073741824.0 / (clockGHz * 1e9);
}

Expected<MachineConfig> timing::parseMachineConfig(StringRef text,
                                                   StringRef name) {
  Expected<json::Value> parsed = json::parse(text);
  if (!parsed)
    return createStringError(
        inconvertibleErrorCode(),
        name + ": invalid JSON: " + toString(parsed.takeError()));
  const json::Object *root = parsed->getAsObject();
  if (!root)
    return createStringError(inconvertibleErrorCode(),
                             name + ": expected a JSON object");
  MachineConfig config;
  ObjectReader top(root, name.str());
#define TRY(EXPR)                                                              \
  if (Error error = (EXPR))                                                    \
    return std::move(error);

  TRY(top.string("name", config.name));
  TRY(top.positive("clock_ghz", config.clockGHz, 100));
  TRY(top.number("scalar_cycles", config.scalarCycles, false));
  TRY(top.number("launch_cycles", config.launchCycles, false));

  auto cores = top.child("cores");
  if (!cores)
    return cores.takeError();
  TRY(cores->positive("aic", config.cubeCores, 65536));
  TRY(cores->positive("aiv", config.vectorCores, 131072));
  TRY(cores->finish());
  if (config.cubeCores == 0)
    return cores->fail("'aic' must be at least 1");

  auto buffers = top.child("buffers_bytes");
  if (!buffers)
    return buffers.takeError();
  // Sizes a config leaves out are the machine description's (Machine.def).
  for (unsigned b = 0; b < trace::kNumSpaces; ++b) {
    auto space = static_cast<Space>(b);
    if (space == Space::GM)
      continue;
    config.capacity[b] = machine::getDefaultCapacity(space);
    TRY(buffers->positive(trace::getName(space), config.capacity[b],
                          double(uint64_t(1) << 40), false));
  }
  TRY(buffers->finish());

  auto dma = top.child("dma");
  if (!dma)
    return dma.takeError();
  TRY(dma->number("latency_cycles", config.dmaLatency));
  TRY(dma->number("max_outstanding", config.dmaMaxOutstanding));
  if (config.dmaMaxOutstanding == 0)
    return dma->fail("'max_outstanding' must be at least 1");
  auto paths = dma->child("bandwidth_gib_s");
  if (!paths)
    return paths.takeError();
  for (unsigned p = 0; p < trace::kNumDmaPaths; ++p) {
    double gib = 0;
    TRY(paths->positive(trace::getName(static_cast<DmaPath>(p)), gib, 1e12));
    config.pathBytesPerCycle[p] = gibPerSecond(gib, config.clockGHz);
  }
  TRY(paths->finish());
  TRY(dma->finish());

  auto hbm = top.child("hbm");
  if (!hbm)
    return hbm.takeError();
  double hbmGBs = 0;
  TRY(hbm->positive("bandwidth_gb_s", hbmGBs, 1e12));
  config.hbmBytesPerCycle = hbmGBs / config.clockGHz;
  TRY(hbm->finish());

  auto l2 = top.child("l2", /*required=*/false);
  if (!l2)
    return l2.takeError();
  if (l2->present()) {
    uint64_t bytes = 0;
    double gbs = 0;
    TRY(l2->number("bytes", bytes));
    TRY(l2->positive("bandwidth_gb_s", gbs, 1e12));
    config.l2Bytes = bytes;
    config.l2BytesPerCycle = gbs / config.clockGHz;
    TRY(l2->finish());
  }

  auto cube = top.child("cube");
  if (!cube)
    return cube.takeError();
  TRY(cube->number("head_cycles", config.cubeHeadCycles));
  TRY(cube->number("k0_bytes", config.cubeK0Bytes));
  TRY(cube->number("weight_slots", config.cubeWeightSlots));
  if (config.cubeWeightSlots == 0)
    return cube->fail("'weight_slots' must be at least 1");
  auto steps = cube->child("cycles_per_step");
  if (!steps)
    return steps.takeError();
  for (const auto &entry : *steps->get()) {
    if (entry.first == "source")
      continue;
    double cycles = 0;
    TRY(steps->number(entry.first, cycles));
    config.cubeCyclesPerStep[entry.first] = cycles;
  }
  TRY(steps->finish());
  TRY(cube->finish());

  auto vector = top.child("vector");
  if (!vector)
    return vector.takeError();
  auto readCost = [&](ObjectReader &reader, VectorCost &cost) -> Error {
    if (Error error = reader.number("slope", cost.slope))
      return error;
    if (Error error = reader.number("bias", cost.bias))
      return error;
    return reader.finish();
  };
  auto fallback = vector->child("default");
  if (!fallback)
    return fallback.takeError();
  TRY(readCost(*fallback, config.vectorDefault));
  TRY(vector->positive("repeat_bytes", config.vectorRepeatBytes, 65536,
                       /*required=*/false));
  // Every op names where its figure comes from; composed ops name ops of
  // the table, and no op is composed of itself.
  auto ops = vector->child("ops", /*required=*/false);
  if (!ops)
    return ops.takeError();
  if (ops->present()) {
    for (const auto &opEntry : *ops->get()) {
      if (opEntry.first == "source")
        continue;
      auto entry = ops->child(opEntry.first);
      if (!entry)
        return entry.takeError();
      VectorOpCost &cost = config.vectorOps[opEntry.first];
      TRY(entry->string("source", cost.source));
      if (cost.source.empty())
        return entry->fail("'source' must say where the figures come from");
      if (entry->get()->get("axis")) {
        std::string axis;
        TRY(entry->string("axis", axis));
        if (axis != "row" && axis != "col")
          return entry->fail("'axis' must be \"row\" or \"col\"");
        cost.columnAxis = axis == "col";
      }
      // An instruction's figures, or a composition, for every element
      // type; fitted lines for the types measured.
      if (entry->get()->get("per_repeat")) {
        double head = 0, perRepeat = 0, tail = 0;
        TRY(entry->number("head", head));
        TRY(entry->number("per_repeat", perRepeat));
        TRY(entry->number("tail", tail));
        cost.head = head, cost.perRepeat = perRepeat, cost.tail = tail;
      } else if (entry->get()->get("of")) {
        const json::Array *parts = entry->get()->getArray("of");
        if (!parts || parts->empty())
          return entry->fail("'of' must list the ops it is composed of");
        for (const json::Value &part : *parts) {
          std::optional<StringRef> name = part.getAsString();
          if (!name)
            return entry->fail("'of' must list op names");
          cost.composedOf.push_back(name->str());
        }
        entry->consume("of");
      }
      for (const auto &typeEntry : *entry->get()) {
        StringRef key = typeEntry.first;
        if (key == "source" || key == "head" || key == "per_repeat" ||
            key == "tail" || key == "of" || key == "axis")
          continue;
        auto costReader = entry->child(key);
        if (!costReader)
          return costReader.takeError();
        if (costReader->get()->get("per_row")) {
          RowCost rows;
          TRY(costReader->number("per_row", rows.perRow));
          TRY(costReader->number("per_column", rows.perColumn));
          TRY(costReader->number("bias", rows.bias));
          TRY(costReader->number("bias_per_column", rows.biasPerColumn));
          TRY(costReader->finish());
          cost.byTypeRows[key] = rows;
          continue;
        }
        VectorCost typed;
        TRY(readCost(*costReader, typed));
        cost.byType[key] = typed;
      }
      TRY(entry->finish());
    }
    TRY(ops->finish());
    for (const auto &[name, cost] : config.vectorOps)
      for (const std::string &part : cost.composedOf) {
        if (!config.vectorOps.contains(part))
          return ops->fail("'" + name.str() + "' is composed of '" + part +
                           "', which the table does not have");
        if (!config.vectorOps.find(part)->second.composedOf.empty())
          return ops->fail("'" + name.str() + "' is composed of '" + part +
                           "', itself composed: compose of instructions");
      }
  }
  TRY(vector->finish());

  // How a cross-core push reaches the other core: through a GM workspace
  // (the producer stores, the consumer loads), or on the direct
  // L0C -> UB / UB -> L1 paths.
  auto crossCore = top.child("cross_core", /*required=*/false);
  if (!crossCore)
    return crossCore.takeError();
  if (crossCore->present()) {
    std::string via;
    TRY(crossCore->string("via", via));
    if (via != "gm" && via != "direct")
      return crossCore->fail("'via' must be \"gm\" or \"direct\", got \"" +
                             via + "\"");
    config.crossCoreViaGm = via == "gm";
    TRY(crossCore->finish());
  }
  TRY(top.finish());
#undef TRY
  return config;
}

Expected<MachineConfig> timing::loadMachineConfig(StringRef path) {
  Expected<std::unique_ptr<MemoryBuffer>> buffer = readInputFile(path);
  if (!buffer)
    return buffer.takeError();
  return parseMachineConfig((*buffer)->getBuffer(), path);
}
