// RUN: tilekit-opt %s -ascendc-compute-memory-consumption | FileCheck %s
// Within the capacities (L0C exactly full), check-capacity passes quietly.
// RUN: tilekit-opt %s -ascendc-compute-memory-consumption="check-capacity=true ub-bytes=8192 l0c-bytes=4096" | FileCheck %s

// A buffer's need is the end of its highest tensor; tensors sharing
// addresses (reuse) count once; the module takes the largest need over its
// functions.
// CHECK: module attributes {ascendc.memory_consumed = {BT = 96 : i64, L0A = 1024 : i64, L0B = 512 : i64, L0C = 4096 : i64, L1 = 6240 : i64, UB = 7808 : i64}}
func.func @first() {
  // UB: max(0 + 6400, 6400 + 32, 6432 + 1344 = 7776) = 7776 in @first.
  %a = ascendc.local_tensor vecin addr 0 size 6400 : !ascendc.local_tensor<16x100xf32>
  %b = ascendc.local_tensor vecout addr 6400 size 32 : !ascendc.local_tensor<3x5xf16>
  %c = ascendc.local_tensor veccalc addr 6432 size 1344 : !ascendc.local_tensor<333xi32>
  // Reuses %a's bytes: does not add.
  %d = ascendc.local_tensor veccalc addr 0 size 1024 : !ascendc.local_tensor<256xf32>
  // L1: a1, b1 and c1 are one buffer: 6144 + 96 = 6240.
  %e = ascendc.local_tensor a1 addr 0 size 3072 : !ascendc.local_tensor<30x40xf16>
  %f = ascendc.local_tensor b1 addr 3072 size 3072 : !ascendc.local_tensor<40x20xf16>
  %g = ascendc.local_tensor c1 addr 6144 size 96 : !ascendc.local_tensor<20xf32>
  %h = ascendc.local_tensor a2 addr 0 size 1024 : !ascendc.local_tensor<17x8xf32>
  %i = ascendc.local_tensor b2 addr 0 size 512 : !ascendc.local_tensor<16x16xf16>
  %j = ascendc.local_tensor c2 addr 0 size 96 : !ascendc.local_tensor<20xf32>
  return
}
func.func @second() {
  // UB: 7776 + 32 = 7808, more than @first: the module's UB need.
  %a = ascendc.local_tensor veccalc addr 7776 size 32 : !ascendc.local_tensor<8xf32>
  // L0C: 4096 (fits the 4096 of the second RUN exactly).
  %b = ascendc.local_tensor co1 addr 0 size 4096 : !ascendc.local_tensor<32x32xf32>
  return
}
