//===- GemmTrace.h - The trace of a tiled, double-buffered GEMM --*- C++
//-*-===//
//
// The hand-written GEMM of HARDWARE.md's measurements: C = A @ B, f16 in and
// f32 out, output tiles of BM x BN over the cores, K in steps of BK, the L1
// and L0 operand buffers double-buffered with flags between the pipes as
// the kernel sets them. Generated directly (interpreting a 7680^3 GEMM would
// take hours); the same records the executor emits for such a kernel.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_BENCHMARKS_GEMMTRACE_H
#define TILEKIT_BENCHMARKS_GEMMTRACE_H

#include "tilekit/Trace/Trace.h"

namespace tilekit::bench {

/// Sends the records of the GEMM to `sink` as they are made (a trace of
/// any length takes no memory here).
inline void writeGemmTrace(trace::TraceSink &sink, uint32_t m, uint32_t k,
                           uint32_t n, uint32_t bm = 128, uint32_t bn = 256,
                           uint32_t bk = 64) {
  using namespace trace;
  uint16_t f16 = sink.getTables().intern("f16");
  uint16_t matmul = sink.getTables().intern("matmul_acc");
  const uint64_t gmA = 1, gmB = 2, gmC = 3;
  uint64_t nextBuffer = 100;
  uint32_t item = 0;
  // Everything runs on the cube core.
  auto add = [&](Record record) {
    record.item = item;
    if (record.getKind() != RecordKind::WorkBegin &&
        record.getKind() != RecordKind::WorkEnd)
      record.setCore(CoreKind::Cube);
    else
      record.setCore(CoreKind::AiCore);
    sink.emit(record);
  };
  auto flag = [&](RecordKind kind, Pipe set, Pipe wait, uint16_t event) {
    Record record(kind);
    record.set_pipe = static_cast<uint8_t>(set);
    record.wait_pipe = static_cast<uint8_t>(wait);
    record.op = event;
    add(record);
  };
  auto dma = [&](DmaPath path, uint64_t bytes, uint64_t from, uint64_t to,
                 uint64_t offset, uint32_t rows, uint32_t cols) {
    Record record(RecordKind::Dma);
    record.sub = static_cast<uint8_t>(path);
    record.elem_size = path == DmaPath::L0CToGm ? 4 : 2;
    record.amount = bytes;
    record.shape[0] = rows;
    record.shape[1] = cols;
    // GM boxes are rows of the row-major operand.
    record.strides[0] = path == DmaPath::L0CToGm ? n : from == gmA ? k : n;
    record.strides[1] = 1;
    record.gm_offset = offset;
    record.addRead(from);
    record.addWrite(to);
    record.setSpace(getDestination(path));
    record.write_bytes = record.getSpace() == Space::GM ? 0 : bytes;
    add(record);
  };
  uint64_t aBytes = uint64_t(bm) * bk * 2, bBytes = uint64_t(bk) * bn * 2;
  for (uint32_t m0 = 0; m0 < m; m0 += bm) {
    for (uint32_t n0 = 0; n0 < n; n0 += bn, ++item) {
      add(Record(RecordKind::WorkBegin));
      uint64_t l1A[2], l1B[2], l0A[2], l0B[2];
      for (int i = 0; i < 2; ++i) {
        l1A[i] = nextBuffer++;
        l1B[i] = nextBuffer++;
        l0A[i] = nextBuffer++;
        l0B[i] = nextBuffer++;
      }
      uint64_t acc = nextBuffer++;
      uint32_t steps = (k + bk - 1) / bk;
      for (uint32_t s = 0; s < steps; ++s) {
        int slot = s % 2;
        // Reuse of a double-buffered slot waits until its last reader is
        // done, as the kernel's flags make it.
        if (s >= 2)
          flag(RecordKind::WaitFlag, Pipe::MTE1, Pipe::MTE2, slot);
        dma(DmaPath::GmToL1, aBytes, gmA, l1A[slot],
            uint64_t(m0) * k + uint64_t(s) * bk, bm, bk);
        dma(DmaPath::GmToL1, bBytes, gmB, l1B[slot], uint64_t(s) * bk * n + n0,
            bk, bn);
        if (s >= 2)
          flag(RecordKind::WaitFlag, Pipe::M, Pipe::MTE1, slot);
        dma(DmaPath::L1ToL0A, aBytes, l1A[slot], l0A[slot], 0, bm, bk);
        dma(DmaPath::L1ToL0B, bBytes, l1B[slot], l0B[slot], 0, bk, bn);
        flag(RecordKind::SetFlag, Pipe::MTE1, Pipe::MTE2, slot);
        Record mm(RecordKind::Compute);
        mm.sub = static_cast<uint8_t>(Unit::Cube);
        mm.op = matmul;
        mm.dtype = f16;
        mm.elem_size = 2;
        mm.shape[0] = bm;
        mm.shape[1] = bk;
        mm.shape[2] = bn;
        mm.amount = uint64_t(bm) * bk * bn;
        mm.setFlag(s > 0);
        mm.addRead(l0A[slot]);
        mm.addRead(l0B[slot]);
        if (mm.hasFlag())
          mm.addRead(acc);
        mm.addWrite(acc);
        mm.setSpace(Space::L0C);
        mm.write_bytes = uint64_t(bm) * bn * 4;
        add(mm);
        flag(RecordKind::SetFlag, Pipe::M, Pipe::MTE1, slot);
      }
      dma(DmaPath::L0CToGm, uint64_t(bm) * bn * 4, acc, gmC,
          uint64_t(m0) * n + n0, bm, bn);
      add(Record(RecordKind::WorkEnd));
    }
  }
}

inline trace::Trace gemmTrace(uint32_t m, uint32_t k, uint32_t n,
                              uint32_t bm = 128, uint32_t bn = 256,
                              uint32_t bk = 64) {
  trace::TraceCollector collector;
  writeGemmTrace(collector, m, k, n, bm, bn, bk);
  return std::move(collector.trace);
}

} // namespace tilekit::bench

#endif // TILEKIT_BENCHMARKS_GEMMTRACE_H
