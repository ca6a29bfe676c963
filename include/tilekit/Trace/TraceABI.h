/*===- TraceABI.h - The trace record as a C contract -------------*- C -*-===//
 *
 * The one definition of a trace record, in plain C so that a producer in
 * another shared object (a compiled trace producer, a foreign tool) can
 * write records the timing model reads. No C++ types, no pointers inside a
 * record: a record is copied by value. The numbering of kinds, cores, paths,
 * pipes and spaces is part of the ABI (paths, pipes and spaces are those of
 * include/tilekit/Machine/Machine.def, in its order).
 *
 * Any change to a layout or a numbering bumps TILEKIT_TRACE_ABI_VERSION; the
 * version is written into every trace file and a reader refuses another one
 * with an error naming both. docs/trace-format.md describes the records.
 *
 *===----------------------------------------------------------------------===*/

#ifndef TILEKIT_TRACE_TRACEABI_H
#define TILEKIT_TRACE_TRACEABI_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TILEKIT_TRACE_ABI_VERSION 5u

/* Buffers a record reads and writes, together. */
#define TILEKIT_TRACE_MAX_BUFFERS 16u

enum tilekit_trace_kind {
  TILEKIT_TRACE_WORK_BEGIN = 0,
  TILEKIT_TRACE_WORK_END = 1,
  TILEKIT_TRACE_DMA = 2,
  TILEKIT_TRACE_COMPUTE = 3,
  TILEKIT_TRACE_MEMORY_BAR = 4,
  TILEKIT_TRACE_SET_FLAG = 5,
  TILEKIT_TRACE_WAIT_FLAG = 6,
  TILEKIT_TRACE_BARRIER = 7,
  /* A cross-core transfer: the producer's push and the consumer's pop. */
  TILEKIT_TRACE_PUSH = 8,
  TILEKIT_TRACE_POP = 9,
  TILEKIT_TRACE_NUM_KINDS = 10
};

/* The core of an AI core a record runs on. AICORE: the whole AI core (a
 * barrier of an in-core function that spans the cube and vector cores). */
enum tilekit_trace_core {
  TILEKIT_TRACE_CUBE = 0,
  TILEKIT_TRACE_VECTOR = 1,
  TILEKIT_TRACE_AICORE = 2
};

enum tilekit_trace_unit {
  TILEKIT_TRACE_UNIT_CUBE = 0,
  TILEKIT_TRACE_UNIT_VECTOR = 1,
  TILEKIT_TRACE_UNIT_SCALAR = 2
};

/* Flags of a compiled producer's run (tilekit_trace_produce,
 * TraceProducer.h): cross-core pushes never block (the reference runtime's
 * unbounded queues, `tilekit sim --unbounded-pipes`). */
#define TILEKIT_PRODUCE_UNBOUNDED_PIPES 1u

/* The limits of a compiled producer's run (0: none). Past one the run
 * stops and tilekit_trace_produce returns TILEKIT_PRODUCE_STOPPED with the
 * limit named in its error: a producer at huge shapes cannot run forever
 * or hold more memory than it was given. */
struct tilekit_trace_limits {
  uint64_t max_records; /* records written, the step limit's unit */
  uint64_t max_bytes;   /* bytes of records held at once (group launches
                           keep their cores' records until they end) */
  uint64_t timeout_ms;  /* wall-clock milliseconds */
};
/* tilekit_trace_produce's results. */
#define TILEKIT_PRODUCE_OK 0
#define TILEKIT_PRODUCE_FAULT 1   /* the kernel faulted at these shapes */
#define TILEKIT_PRODUCE_STOPPED 2 /* a limit stopped it */

/* flags */
#define TILEKIT_TRACE_ASYNC 1u      /* DMA: completes at issue for readers */
#define TILEKIT_TRACE_ACCUMULATE 1u /* COMPUTE: reads its accumulator */
/* WORK_BEGIN: the item is a compiled kernel's block, its on-chip order
 * given by its flags, barriers and buffer ids alone (no dataflow edges, no
 * capacity model). */
#define TILEKIT_TRACE_EXPLICIT_SYNC 1u
/* SET/WAIT_FLAG: a cross-core flag `op` (Ascend C's CrossCoreSetFlag mode
 * 2); tag_id is the mask of the vector lanes it signals or waits for. */
#define TILEKIT_TRACE_CROSS_CORE 1u
/* SET/WAIT_FLAG: releases / acquires buffer id `op` on pipe `set_pipe`
 * (Ascend C's RlsBufId / GetBufId). */
#define TILEKIT_TRACE_BUFFER_ID 2u

struct tilekit_trace_record {
  uint8_t kind;      /* tilekit_trace_kind */
  uint8_t core;      /* tilekit_trace_core */
  uint8_t lane;      /* vector core 0 or 1 of the AI core */
  uint8_t sub;       /* DMA/PUSH/POP: path; COMPUTE: unit; BARRIER: pipe */
  uint8_t elem_size; /* bytes per element */
  uint8_t flags;
  uint8_t set_pipe, wait_pipe; /* SET/WAIT_FLAG */
  uint8_t space;               /* on-chip space written (capacity), 0: GM */
  uint8_t num_reads, num_writes;
  uint8_t reserved;
  uint16_t dtype; /* element type: index into the name table */
  uint16_t op;    /* COMPUTE: op name index; flags: event; PUSH/POP: pipe */
  uint32_t item;  /* the work item */
  uint32_t loc;   /* source location index, 0: unknown */
  uint32_t shape[3];
  uint32_t strides[2];
  /* MEMORY_BAR and async DMA: the tag pair. PUSH/POP: tag_id is the mask of
   * the lane queues (bit 0: lane 0, bit 1: lane 1); PUSH: tag_slot is the
   * pipe's slot count (0: unbounded). */
  uint32_t tag_id, tag_slot;
  uint64_t amount;      /* DMA/PUSH/POP: bytes; COMPUTE: elements or MxKxN */
  uint64_t write_bytes; /* bytes of the written buffer (capacity) */
  uint64_t gm_offset;   /* element offset of the box in its GM tensor */
  uint64_t buffers[TILEKIT_TRACE_MAX_BUFFERS]; /* reads, then writes */
};

/* The layout is part of the ABI: 208 bytes, no padding but the 4 bytes
 * before `amount`. */
typedef char tilekit_trace_record_layout_check
    [sizeof(struct tilekit_trace_record) == 208 ? 1 : -1];

/* Adds a buffer a record reads (reads come first: the writes move up) or
 * writes; past TILEKIT_TRACE_MAX_BUFFERS the record is marked overfull
 * (`reserved`), which writers and the timing model reject. */
static inline void tilekit_trace_add_read(struct tilekit_trace_record *r,
                                          uint64_t buffer) {
  unsigned i;
  if (r->num_reads + r->num_writes >= TILEKIT_TRACE_MAX_BUFFERS) {
    r->reserved = 1;
    return;
  }
  for (i = r->num_reads + r->num_writes; i > r->num_reads; --i)
    r->buffers[i] = r->buffers[i - 1];
  r->buffers[r->num_reads++] = buffer;
}

static inline void tilekit_trace_add_write(struct tilekit_trace_record *r,
                                           uint64_t buffer) {
  if (r->num_reads + r->num_writes >= TILEKIT_TRACE_MAX_BUFFERS) {
    r->reserved = 1;
    return;
  }
  r->buffers[r->num_reads + r->num_writes++] = buffer;
}

/* A transfer of `rows` x `cols` elements of `elem_size` bytes: its bytes
 * and its box, rows `gm_stride` elements apart in GM (0: contiguous, one
 * row). The executor's records of compiled kernels and their compiled
 * producers fill transfers with this one rule. */
static inline void tilekit_trace_set_transfer(struct tilekit_trace_record *r,
                                              int64_t rows, int64_t cols,
                                              int64_t gm_stride) {
  r->amount = (uint64_t)(rows * cols * (int64_t)r->elem_size);
  if (gm_stride && rows > 1) {
    r->shape[0] = (uint32_t)rows;
    r->shape[1] = (uint32_t)cols;
    r->strides[0] = (uint32_t)gm_stride;
    r->strides[1] = 1;
  } else {
    r->shape[0] = (uint32_t)(rows * cols);
  }
}
/* Where a producer sends records: names (op kinds, element types, file
 * names) and source locations are interned first, records refer to them
 * by index. */
struct tilekit_trace_sink {
  void *context;
  uint16_t (*intern_name)(void *context, const char *name);
  uint32_t (*intern_location)(void *context, const char *file, uint32_t line,
                              uint32_t column);
  void (*emit)(void *context, const struct tilekit_trace_record *record);
};

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TILEKIT_TRACE_TRACEABI_H */
