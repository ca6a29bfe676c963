//===- TraceProducer.h - What a compiled trace producer calls -----*- C++
//-*-===//
//
// The runtime of a compiled trace producer (`tilekit compile
// --emit=trace-producer`): the kernel's control flow and index arithmetic
// run as C++, and each op that the executor would trace calls one of the
// functions below, which writes the same record the executor writes
// (lib/Interp/TraceEmitter.cpp) through the sink of TraceABI.h. No tile
// data exists here: a tile is its buffer and its valid shape, a GM tensor
// its storage and its shape.
//
// The generated file holds, per op, a prototype record with everything
// the IR fixes (kind, core, path or unit, element size, space, written
// bytes, static shape, name and location indices into the file's own
// tables); the calls fill in what the run decides. Header-only, C++17,
// depending on TraceABI.h alone, so that a producer builds with nothing but
// a compiler. Docs: docs/trace-format.md ("Compiled producers").
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_TRACE_TRACEPRODUCER_H
#define TILEKIT_TRACE_TRACEPRODUCER_H

#include "tilekit/Trace/TraceABI.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace tilekit_producer {

/// A tile: the buffer it lives in and its valid shape (rank <= 3; unused
/// extents are 1).
struct Tile {
  uint64_t buffer = 0;
  int64_t valid[3] = {1, 1, 1};
};

/// A GM tensor: its storage and its shape (rank <= 4).
struct Tensor {
  uint64_t storage = 0;
  int rank = 0;
  int64_t shape[4] = {1, 1, 1, 1};
};

/// A fault of the kernel at these shapes (an offset outside a tensor, a
/// valid shape outside its box), with the op's location.
struct Fault : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// The file's name and location tables (the sink interns them on first
/// use) and the state of one run.
struct Context {
  const tilekit_trace_sink *sink = nullptr;
  const char *const *names = nullptr;
  const char *const *locationFiles = nullptr;
  const uint32_t *locationLines = nullptr;  // line, column pairs
  const char *const *locationOps = nullptr; // the op at each location
  std::vector<int32_t> nameIds, locationIds;
  int64_t blockIndex = 0, blockCount = 1;
  uint32_t nextItem = 0, item = 0;
  int depth = 0; // nested work items (the outermost one counts)
  uint64_t nextBuffer = 1;
  /// Per buffer slot of the file: the item it was last given a buffer in
  /// (+1, 0: never) and that buffer. A tile value keeps one buffer per
  /// work item, as the executor's static buffers do.
  std::vector<uint32_t> slotItem;
  std::vector<uint64_t> slotBuffer;
  uint64_t records = 0;
};

inline uint16_t nameId(Context &ctx, uint16_t index) {
  if (ctx.nameIds[index] < 0)
    ctx.nameIds[index] =
        ctx.sink->intern_name(ctx.sink->context, ctx.names[index]);
  return static_cast<uint16_t>(ctx.nameIds[index]);
}

inline uint32_t locationId(Context &ctx, uint32_t index) {
  if (index == 0)
    return 0;
  if (ctx.locationIds[index] < 0)
    ctx.locationIds[index] = static_cast<int32_t>(ctx.sink->intern_location(
        ctx.sink->context, ctx.locationFiles[index],
        ctx.locationLines[2 * index], ctx.locationLines[2 * index + 1]));
  return static_cast<uint32_t>(ctx.locationIds[index]);
}

[[noreturn]] inline void fail(Context &ctx, const tilekit_trace_record &proto,
                              const std::string &message) {
  std::string where = "?: ";
  if (proto.loc)
    where = std::string(ctx.locationFiles[proto.loc]) + ":" +
            std::to_string(ctx.locationLines[2 * proto.loc]) + ":" +
            std::to_string(ctx.locationLines[2 * proto.loc + 1]) + ": '" +
            ctx.locationOps[proto.loc] + "' ";
  throw Fault(where + message);
}

/// No second result.
constexpr uint32_t kNoSlot = ~uint32_t(0);

inline uint64_t newBuffer(Context &ctx) { return ctx.nextBuffer++; }

/// The buffer of slot `slot` in the current work item.
inline uint64_t slotBuffer(Context &ctx, uint32_t slot) {
  if (ctx.slotItem[slot] != ctx.item + 1) {
    ctx.slotItem[slot] = ctx.item + 1;
    ctx.slotBuffer[slot] = newBuffer(ctx);
  }
  return ctx.slotBuffer[slot];
}

inline void addRead(tilekit_trace_record &r, uint64_t buffer) {
  if (r.num_reads + r.num_writes >= TILEKIT_TRACE_MAX_BUFFERS) {
    r.reserved = 1;
    return;
  }
  for (unsigned i = r.num_reads + r.num_writes; i > r.num_reads; --i)
    r.buffers[i] = r.buffers[i - 1];
  r.buffers[r.num_reads++] = buffer;
}

inline void addWrite(tilekit_trace_record &r, uint64_t buffer) {
  if (r.num_reads + r.num_writes >= TILEKIT_TRACE_MAX_BUFFERS) {
    r.reserved = 1;
    return;
  }
  r.buffers[r.num_reads + r.num_writes++] = buffer;
}

/// A record of the current work item from `proto`, its names and location
/// given the sink's indices.
inline tilekit_trace_record begin(Context &ctx,
                                  const tilekit_trace_record &proto) {
  tilekit_trace_record r = proto;
  r.item = ctx.item;
  r.loc = locationId(ctx, proto.loc);
  if (r.kind == TILEKIT_TRACE_COMPUTE) {
    r.op = nameId(ctx, proto.op);
    r.dtype = nameId(ctx, proto.dtype);
  }
  return r;
}

inline void emit(Context &ctx, const tilekit_trace_record &r) {
  ctx.sink->emit(ctx.sink->context, &r);
  ++ctx.records;
}

inline int64_t elements(const Tile &tile, int rank) {
  int64_t n = 1;
  for (int d = 0; d < rank; ++d)
    n *= tile.valid[d];
  return n;
}

/// The shape fields from the last (up to three) extents.
inline void setShape(tilekit_trace_record &r, const int64_t *extents,
                     int rank) {
  int first = rank > 3 ? rank - 3 : 0;
  for (int i = first; i < rank; ++i)
    r.shape[i - first] = static_cast<uint32_t>(extents[i]);
}

/// The element offset of `offsets` in `tensor` and the strides of its two
/// innermost dimensions.
inline uint64_t gmOffset(tilekit_trace_record &r, const Tensor &tensor,
                         const int64_t *offsets) {
  uint64_t linear = 0;
  for (int d = 0; d < tensor.rank; ++d)
    linear = linear * static_cast<uint64_t>(tensor.shape[d]) +
             static_cast<uint64_t>(offsets[d]);
  r.strides[0] = tensor.rank >= 2
                     ? static_cast<uint32_t>(tensor.shape[tensor.rank - 1])
                     : 1;
  r.strides[1] = 1;
  return linear;
}

inline void checkValid(Context &ctx, const tilekit_trace_record &proto,
                       const int64_t *valid, const int64_t *box, int rank) {
  for (int d = 0; d < rank; ++d)
    if (valid[d] < 0 || valid[d] > box[d])
      fail(ctx, proto,
           "valid extent " + std::to_string(valid[d]) + " of dimension " +
               std::to_string(d) + " does not fit the box extent " +
               std::to_string(box[d]));
}

/// Index operands gathered for a call: `ints(a, b)` passes as a pointer to
/// its two values.
template <size_t N> struct Ints {
  int64_t values[N ? N : 1];
  operator const int64_t *() const { return values; }
};
template <typename... T> inline Ints<sizeof...(T)> ints(T... values) {
  return Ints<sizeof...(T)>{{static_cast<int64_t>(values)...}};
}

/// A vector op's tile operand: its rank, element size and type name.
struct OperandInfo {
  int rank;
  uint8_t size;
  uint16_t dtype;
};

/// How a vector op's result gets its valid shape from its tile operand
/// `from`: the same (elementwise ops, casts, scans, sorts, gathers), with
/// the last or second-to-last extent 1 (row and column reductions), its
/// first or second extent and the box's others (row and column
/// broadcasts), transposed; or its whole box (fillpad, iota), or its
/// valid-shape operands (tile.full; the box without).
enum class ValidRule {
  Operand,
  RowReduce,
  ColReduce,
  RowBroadcast,
  ColBroadcast,
  Transpose,
  Box,
  Given
};

inline int64_t resultExtent(ValidRule rule, const Tile *from,
                            const int64_t *box, const int64_t *given, int rank,
                            int d) {
  switch (rule) {
  case ValidRule::Operand:
    return from->valid[d];
  case ValidRule::RowReduce:
    return d == rank - 1 ? 1 : from->valid[d];
  case ValidRule::ColReduce:
    return d == rank - 2 ? 1 : from->valid[d];
  case ValidRule::RowBroadcast:
    return d == 0 ? from->valid[0] : box[d];
  case ValidRule::ColBroadcast:
    return d == 1 ? from->valid[1] : box[d];
  case ValidRule::Transpose:
    return from->valid[1 - d];
  case ValidRule::Box:
    return box[d];
  case ValidRule::Given:
    return given ? given[d] : box[d];
  }
  return box[d];
}

/// The two results of a vector op writing two tiles (argmax's values and
/// indices, the sorts').
struct TilePair {
  Tile first, second;
};
inline Tile first(const TilePair &pair) { return pair.first; }
inline Tile second(const TilePair &pair) { return pair.second; }

inline ptrdiff_t dim(const Tensor &tensor, int d) { return tensor.shape[d]; }
inline ptrdiff_t valid_dim(const Tile &tile, int d) { return tile.valid[d]; }
inline ptrdiff_t block_index(const Context &ctx) { return ctx.blockIndex; }
inline ptrdiff_t block_count(const Context &ctx) { return ctx.blockCount; }

/// The entry points' arguments: a tensor's dims (checked against the static
/// ones of `shape`, like `?x128`), a scalar's value.
inline Tensor bindTensor(Context &ctx, const int64_t *args, size_t count,
                         size_t &at, const char *name, const char *shape) {
  Tensor tensor;
  tensor.storage = newBuffer(ctx);
  std::string dims = shape;
  size_t start = 0;
  while (true) {
    size_t end = dims.find('x', start);
    std::string dim = dims.substr(start, end - start);
    if (at >= count)
      throw Fault(std::string("too few arguments: tensor ") + name +
                  " needs its dimensions");
    int64_t extent = args[at++];
    if (extent < 0 || (dim != "?" && std::stoll(dim) != extent))
      throw Fault(std::string("tensor ") + name + " of shape " + shape +
                  " cannot have extent " + std::to_string(extent) +
                  " in dimension " + std::to_string(tensor.rank));
    tensor.shape[tensor.rank++] = extent;
    if (end == std::string::npos)
      break;
    start = end + 1;
  }
  return tensor;
}

inline int64_t bindScalar(const int64_t *args, size_t count, size_t &at) {
  if (at >= count)
    throw Fault("too few arguments");
  return args[at++];
}

inline double asDouble(int64_t bits) {
  double value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

inline void checkArgumentCount(size_t count, size_t used) {
  if (count != used)
    throw Fault("expected " + std::to_string(used) + " arguments, not " +
                std::to_string(count));
}

inline void report(const std::exception &fault, char *error, size_t size) {
  if (!size)
    return;
  std::strncpy(error, fault.what(), size - 1);
  error[size - 1] = 0;
}

// BEGIN CALL FORMATS
// Each traced op calls one of these with its prototype record `proto`
// (static fields), its buffer slot `slot` where it defines a tile, and its
// dynamic operands; `box` is the tile type's shape, `rank` its rank.

/// Opens a work item (an in-core call, a block of a launch); nested ones
/// belong to the outer one.
inline void tilekit_trace_work_begin(Context &ctx) {
  if (ctx.depth++ > 0)
    return;
  ctx.item = ctx.nextItem++;
  tilekit_trace_record r{};
  r.kind = TILEKIT_TRACE_WORK_BEGIN;
  r.core = TILEKIT_TRACE_AICORE;
  r.item = ctx.item;
  emit(ctx, r);
}

inline void tilekit_trace_work_end(Context &ctx) {
  if (--ctx.depth > 0)
    return;
  tilekit_trace_record r{};
  r.kind = TILEKIT_TRACE_WORK_END;
  r.core = TILEKIT_TRACE_AICORE;
  r.item = ctx.item;
  emit(ctx, r);
}

/// A tile with the valid shape `valid` (the box when `count` is 0), in
/// its own buffer, without a record (tile.create).
inline Tile tilekit_trace_tile(Context &ctx, const tilekit_trace_record &proto,
                               uint32_t slot, const int64_t *box, int rank,
                               const int64_t *valid, int count) {
  Tile tile;
  for (int d = 0; d < rank; ++d)
    tile.valid[d] = count ? valid[d] : box[d];
  checkValid(ctx, proto, tile.valid, box, rank);
  tile.buffer = slotBuffer(ctx, slot);
  return tile;
}

/// The same tile with another valid shape (tile.set_validshape).
inline Tile tilekit_trace_set_valid(Context &ctx,
                                    const tilekit_trace_record &proto,
                                    const Tile &src, const int64_t *box,
                                    int rank, const int64_t *valid) {
  Tile tile = src;
  for (int d = 0; d < rank; ++d)
    tile.valid[d] = valid[d];
  checkValid(ctx, proto, tile.valid, box, rank);
  return tile;
}

/// A new GM tensor (tensor.create) in storage of its own.
inline Tensor tilekit_trace_tensor(Context &ctx, const int64_t *sizes,
                                   int rank) {
  Tensor tensor;
  tensor.storage = newBuffer(ctx);
  tensor.rank = rank;
  for (int d = 0; d < rank; ++d)
    tensor.shape[d] = sizes[d];
  return tensor;
}

/// GM -> on-chip (tile.load): the box at `offsets` clamped to the tensor
/// and to `valid` (the box when `count` is 0).
inline Tile tilekit_trace_dma_load(Context &ctx,
                                   const tilekit_trace_record &proto,
                                   uint32_t slot, const Tensor &src,
                                   const int64_t *box, int rank,
                                   const int64_t *offsets, const int64_t *valid,
                                   int count) {
  int64_t requested[3];
  for (int d = 0; d < rank; ++d)
    requested[d] = count ? valid[d] : box[d];
  checkValid(ctx, proto, requested, box, rank);
  for (int d = 0; d < src.rank; ++d)
    if (offsets[d] < 0 || offsets[d] >= src.shape[d])
      fail(ctx, proto,
           "offset " + std::to_string(offsets[d]) + " of dimension " +
               std::to_string(d) + " is outside the tensor's extent " +
               std::to_string(src.shape[d]));
  Tile tile;
  int lead = src.rank - rank;
  for (int d = 0; d < rank; ++d)
    tile.valid[d] = std::clamp<int64_t>(src.shape[lead + d] - offsets[lead + d],
                                        0, requested[d]);
  tile.buffer = slotBuffer(ctx, slot);
  tilekit_trace_record r = begin(ctx, proto);
  addWrite(r, tile.buffer);
  addRead(r, src.storage);
  setShape(r, tile.valid, rank);
  r.gm_offset = gmOffset(r, src, offsets);
  r.amount = static_cast<uint64_t>(elements(tile, rank)) * proto.elem_size;
  emit(ctx, r);
  return tile;
}

/// On-chip -> GM (tile.store): the tile's valid region at `offsets`.
inline Tensor tilekit_trace_dma_store(Context &ctx,
                                      const tilekit_trace_record &proto,
                                      const Tile &tile, int rank,
                                      const Tensor &dst,
                                      const int64_t *offsets) {
  int lead = dst.rank - rank;
  for (int d = 0; d < dst.rank; ++d) {
    int64_t extent = d < lead ? 1 : tile.valid[d - lead];
    if (offsets[d] < 0 || (extent > 0 && extent > dst.shape[d] - offsets[d]))
      fail(ctx, proto,
           "writes the valid region past the end of the tensor in "
           "dimension " +
               std::to_string(d));
  }
  tilekit_trace_record r = begin(ctx, proto);
  addRead(r, tile.buffer);
  addWrite(r, dst.storage);
  setShape(r, tile.valid, rank);
  r.gm_offset = gmOffset(r, dst, offsets);
  r.amount = static_cast<uint64_t>(elements(tile, rank)) * proto.elem_size;
  emit(ctx, r);
  return dst;
}

/// On-chip -> on-chip (tile.move): the whole box, the valid shape kept.
inline Tile tilekit_trace_dma_move(Context &ctx,
                                   const tilekit_trace_record &proto,
                                   uint32_t slot, const Tile &src) {
  Tile tile = src;
  tile.buffer = slotBuffer(ctx, slot);
  tilekit_trace_record r = begin(ctx, proto);
  addWrite(r, tile.buffer);
  addRead(r, src.buffer);
  emit(ctx, r);
  return tile;
}

/// A cube op (proto: M x K x N): the result's buffer is the accumulator's
/// when there is one (`hasAcc`), which it reads unless `init` holds.
inline Tile
tilekit_trace_compute_matmul(Context &ctx, const tilekit_trace_record &proto,
                             uint32_t slot, int rank, const Tile &lhs,
                             const Tile &rhs, const Tile &bias, bool hasBias,
                             const Tile &acc, bool hasAcc, bool init) {
  Tile result = lhs;
  result.valid[rank - 1] = rhs.valid[rank - 1];
  result.buffer = hasAcc ? acc.buffer : slotBuffer(ctx, slot);
  tilekit_trace_record r = begin(ctx, proto);
  addWrite(r, result.buffer);
  addRead(r, lhs.buffer);
  addRead(r, rhs.buffer);
  if (hasBias)
    addRead(r, bias.buffer);
  bool accumulate = hasAcc && !init;
  r.flags = accumulate ? TILEKIT_TRACE_ACCUMULATE : 0;
  if (accumulate)
    addRead(r, result.buffer);
  emit(ctx, r);
  return result;
}

/// A vector op: its result's valid shape by `rule` from tile operand
/// `from`, its box or `given`; its buffer the slot's, or tile operand
/// `inPlace`'s (>= 0: tile.assemble updates its destination). The record
/// reads every tile operand (`infos`: rank, element size, type name) and
/// counts the elements of the largest one (the first one's type unless a
/// later one is larger). With `slot2`, a second result (same valid shape)
/// is written by the same instruction.
template <typename... Operands>
inline TilePair tilekit_trace_compute_vector2(
    Context &ctx, const tilekit_trace_record &proto, uint32_t slot,
    uint32_t slot2, ValidRule rule, int from, int inPlace, const int64_t *box,
    int rank, const int64_t *given, const OperandInfo *infos,
    const Operands &...operands) {
  const Tile *tiles[] = {&operands..., nullptr};
  TilePair results;
  Tile &result = results.first;
  for (int d = 0; d < rank; ++d)
    result.valid[d] = resultExtent(rule, tiles[from], box, given, rank, d);
  checkValid(ctx, proto, result.valid, box, rank);
  result.buffer = inPlace >= 0 ? tiles[inPlace]->buffer : slotBuffer(ctx, slot);
  tilekit_trace_record r = begin(ctx, proto);
  addWrite(r, result.buffer);
  if (slot2 != kNoSlot) {
    results.second = result;
    results.second.buffer = slotBuffer(ctx, slot2);
    addWrite(r, results.second.buffer);
  }
  int64_t amount = elements(result, rank);
  uint16_t dtype = proto.dtype;
  uint8_t size = proto.elem_size;
  for (size_t i = 0; i < sizeof...(Operands); ++i) {
    addRead(r, tiles[i]->buffer);
    int64_t n = elements(*tiles[i], infos[i].rank);
    if (n > amount || i == 0) {
      amount = std::max(amount, n);
      dtype = infos[i].dtype;
      size = infos[i].size;
    }
  }
  setShape(r, result.valid, rank);
  r.dtype = nameId(ctx, dtype);
  r.elem_size = size;
  r.amount = static_cast<uint64_t>(amount);
  emit(ctx, r);
  return results;
}

/// A vector op with one result (tilekit_trace_compute_vector2).
template <typename... Operands>
inline Tile
tilekit_trace_compute_vector(Context &ctx, const tilekit_trace_record &proto,
                             uint32_t slot, ValidRule rule, int from,
                             int inPlace, const int64_t *box, int rank,
                             const int64_t *given, const OperandInfo *infos,
                             const Operands &...operands) {
  return tilekit_trace_compute_vector2(ctx, proto, slot, kNoSlot, rule, from,
                                       inPlace, box, rank, given, infos,
                                       operands...)
      .first;
}

/// The same buffer as another box, whole (tile.reshape of a tile whose
/// box `srcBox` is all valid).
inline Tile tilekit_trace_reshape(Context &ctx,
                                  const tilekit_trace_record &proto,
                                  const Tile &src, const int64_t *srcBox,
                                  int srcRank, const int64_t *box, int rank) {
  for (int d = 0; d < srcRank; ++d)
    if (src.valid[d] != srcBox[d])
      fail(ctx, proto,
           "reshapes a tile whose valid shape is not its whole box");
  Tile tile = src;
  for (int d = 0; d < 3; ++d)
    tile.valid[d] = d < rank ? box[d] : 1;
  return tile;
}

/// A flag (set or wait) or a pipe barrier: everything is in `proto`.
inline void tilekit_trace_sync(Context &ctx,
                               const tilekit_trace_record &proto) {
  emit(ctx, begin(ctx, proto));
}
// END CALL FORMATS

} // namespace tilekit_producer

/* What a producer exports, read by `tilekit sim --producer=compiled` and
 * `--trace-so`. */
extern "C" {
/* The TILEKIT_TRACE_ABI_VERSION the producer was built against. */
typedef uint32_t (*tilekit_trace_producer_abi_fn)(void);
/* Its parameters, one per line: `tensor NAME RANK DIM...` (a dimension is
 * its size or `?`), `index NAME`, `int NAME`, `float NAME`. */
typedef const char *(*tilekit_trace_producer_params_fn)(void);
/* Runs the kernel on `args` (per parameter: a tensor's RANK dims, a
 * scalar's value; floats as their bits in an int64) as `blocks` blocks;
 * 0, or 1 with the fault in `error`. */
typedef int (*tilekit_trace_produce_fn)(const struct tilekit_trace_sink *sink,
                                        const int64_t *args, size_t num_args,
                                        int64_t blocks, char *error,
                                        size_t error_size);
}

#endif // TILEKIT_TRACE_TRACEPRODUCER_H
