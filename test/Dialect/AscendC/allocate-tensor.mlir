// RUN: tilekit-opt %s --pass-pipeline='builtin.module(func.func(ascendc-allocate-tensor))' | FileCheck %s

// UB: vecin, vecout, co2 and veccalc share one running address; sizes round
// up to whole 256-byte vector repeats (a repeat never writes past its
// tensor).
// CHECK-LABEL: func.func @ub(
func.func @ub() {
  // 16*100*4 = 6400 B, already a multiple of 32.
  // CHECK: ascendc.local_tensor vecin addr 0 size 6400 input : <16x100xf32>
  %a = ascendc.local_tensor_auto vecin input : !ascendc.local_tensor<16x100xf32>
  // 3*5*2 = 30 B -> 256; at 0 + 6400.
  // CHECK: ascendc.local_tensor vecout addr 6400 size 256 output : <3x5xf16>
  %b = ascendc.local_tensor_auto vecout output : !ascendc.local_tensor<3x5xf16>
  // 333*4 = 1332 B -> 1536; at 6400 + 256 = 6656.
  // CHECK: ascendc.local_tensor veccalc addr 6656 size 1536 : <333xi32>
  %c = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<333xi32>
  // 7*4 = 28 B -> 256; at 6656 + 1536 = 8192.
  // CHECK: ascendc.local_tensor co2 addr 8192 size 256 : <7xf32>
  %d = ascendc.local_tensor_auto co2 : !ascendc.local_tensor<7xf32>
  // TPipe-backed tensors are not planned.
  // CHECK: ascendc.tbuf_get_tensor veccalc : <64xf32>
  %e = ascendc.tbuf_get_tensor veccalc : !ascendc.local_tensor<64xf32>
  // CHECK-NOT: local_tensor_auto
  return
}

// Cube positions pad to fractals: rows to 16, the K (last) dimension of
// a1/a2 to 32 bytes, both dimensions of b1/b2/co1 to 16; bias data (c1, c2)
// rounds to 32 bytes. a1, b1 and c1 share L1's running address.
// CHECK-LABEL: func.func @cube(
func.func @cube() {
  // rows 30 -> 32, K 40 f16 -> 48 (16 per 32 B): 32*48*2 = 3072.
  // CHECK: ascendc.local_tensor a1 addr 0 size 3072 : <30x40xf16>
  %a1 = ascendc.local_tensor_auto a1 : !ascendc.local_tensor<30x40xf16>
  // 40 -> 48, 20 -> 32: 48*32*2 = 3072; at 3072.
  // CHECK: ascendc.local_tensor b1 addr 3072 size 3072 : <40x20xf16>
  %b1 = ascendc.local_tensor_auto b1 : !ascendc.local_tensor<40x20xf16>
  // 20*4 = 80 -> 96; at 3072 + 3072 = 6144.
  // CHECK: ascendc.local_tensor c1 addr 6144 size 96 : <20xf32>
  %c1 = ascendc.local_tensor_auto c1 : !ascendc.local_tensor<20xf32>
  // f32 K holds 8 per 32 B: rows 17 -> 32, K 8 -> 8: 32*8*4 = 1024.
  // CHECK: ascendc.local_tensor a2 addr 0 size 1024 : <17x8xf32>
  %a2 = ascendc.local_tensor_auto a2 : !ascendc.local_tensor<17x8xf32>
  // i8 K holds 32 per 32 B: rows 16, K 20 -> 32: 16*32*1 = 512; at 1024.
  // CHECK: ascendc.local_tensor a2 addr 1024 size 512 : <16x20xi8>
  %a2b = ascendc.local_tensor_auto a2 : !ascendc.local_tensor<16x20xi8>
  // Leading dimensions multiply: 2*3 * (20 -> 32) * (20 -> 32) * 2 = 12288.
  // CHECK: ascendc.local_tensor b2 addr 0 size 12288 : <2x3x20x20xf16>
  %b2 = ascendc.local_tensor_auto b2 : !ascendc.local_tensor<2x3x20x20xf16>
  // 30 -> 32, 20 -> 32: 32*32*4 = 4096.
  // CHECK: ascendc.local_tensor co1 addr 0 size 4096 : <30x20xf32>
  %co1 = ascendc.local_tensor_auto co1 : !ascendc.local_tensor<30x20xf32>
  // A rank-1 cube tensor is one row: 1 -> 16 rows, 10 -> 16: 16*16*4 = 1024;
  // at 4096.
  // CHECK: ascendc.local_tensor co1 addr 4096 size 1024 : <10xf32>
  %co1b = ascendc.local_tensor_auto co1 : !ascendc.local_tensor<10xf32>
  // 20*4 = 80 -> 96.
  // CHECK: ascendc.local_tensor c2 addr 0 size 96 : <20xf32>
  %c2 = ascendc.local_tensor_auto c2 : !ascendc.local_tensor<20xf32>
  return
}

// Placeholders in loops and branches get one static address each, in IR
// order; casts keep pointing at their (now addressed) source; attributes
// other passes attached survive.
// CHECK-LABEL: func.func @control(
func.func @control(%n: index, %p: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // 64*4 = 256.
  // CHECK: %[[A:.*]] = ascendc.local_tensor veccalc addr 0 size 256 : <64xf32>
  %a = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<64xf32>
  scf.for %i = %c0 to %n step %c1 {
    // 100*2 = 200 -> 256; at 256.
    // CHECK: scf.for
    // CHECK-NEXT: ascendc.local_tensor veccalc addr 256 size 256 {asctile.unroll_iter = 1 : i64} : <100xf16>
    %b = ascendc.local_tensor_auto veccalc {asctile.unroll_iter = 1} : !ascendc.local_tensor<100xf16>
    scf.if %p {
      // 9*4 = 36 -> 256; at 256 + 256 = 512.
      // CHECK: scf.if
      // CHECK-NEXT: ascendc.local_tensor veccalc addr 512 size 256 : <9xi32>
      %c = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<9xi32>
    } else {
      // at 512 + 256 = 768: the branches do not share (no reuse here).
      // CHECK: } else {
      // CHECK-NEXT: ascendc.local_tensor veccalc addr 768 size 256 : <8xf32>
      %d = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<8xf32>
    }
  }
  // CHECK: ascendc.reinterpret_cast %[[A]] : <64xf32> to <64xi32>
  %e = ascendc.reinterpret_cast %a : !ascendc.local_tensor<64xf32> to !ascendc.local_tensor<64xi32>
  return
}

// Each function is a kernel with its own buffers: addresses restart at 0.
// CHECK-LABEL: func.func @second(
func.func @second() {
  // CHECK: ascendc.local_tensor veccalc addr 0 size 256 : <8xf32>
  %a = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<8xf32>
  return
}

// A mixed kernel's split group runs its lanes on vector sub-blocks 0 and 1,
// each with its own UB: the tensors both lanes use come first, then each lane's from where
// those end, lane 1's at the same addresses as lane 0's. Other buffers
// are not per lane.
// CHECK-LABEL: func.func @lanes(
func.func @lanes(%gm: !ascendc.global_tensor<64xf32>) {
  // CHECK: ascendc.local_tensor veccalc addr 256 size 1024 {ascendc.lane = 0 : i64} : <256xf32>
  %a0 = ascendc.local_tensor_auto veccalc {ascendc.lane = 0 : i64} : !ascendc.local_tensor<256xf32>
  // CHECK: ascendc.local_tensor veccalc addr 256 size 1024 {ascendc.lane = 1 : i64} : <256xf32>
  %a1 = ascendc.local_tensor_auto veccalc {ascendc.lane = 1 : i64} : !ascendc.local_tensor<256xf32>
  // CHECK: ascendc.local_tensor veccalc addr 0 size 256 : <64xf32>
  %shared = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<64xf32>
  // CHECK: ascendc.local_tensor vecin addr 1280 size 256 {ascendc.lane = 0 : i64} : <64xf32>
  %b0 = ascendc.local_tensor_auto vecin {ascendc.lane = 0 : i64} : !ascendc.local_tensor<64xf32>
  // CHECK: ascendc.local_tensor vecin addr 1280 size 256 {ascendc.lane = 1 : i64} : <64xf32>
  %b1 = ascendc.local_tensor_auto vecin {ascendc.lane = 1 : i64} : !ascendc.local_tensor<64xf32>
  // CHECK: ascendc.local_tensor a1 addr 0 size 8192 {ascendc.lane = 1 : i64} : <256xf16>
  %l1 = ascendc.local_tensor_auto a1 {ascendc.lane = 1 : i64} : !ascendc.local_tensor<256xf16>
  ascendc.if_aic {
  }
  ascendc.if_aiv {
    ascendc.data_copy %b0, %gm : !ascendc.local_tensor<64xf32>, !ascendc.global_tensor<64xf32>
    ascendc.data_copy %b1, %gm : !ascendc.local_tensor<64xf32>, !ascendc.global_tensor<64xf32>
  }
  return
}

// A kernel without a cube part launches one vector core per block: both
// lanes run there, one UB, every tensor at its own address.
// CHECK-LABEL: func.func @lanes_vector_only(
func.func @lanes_vector_only(%gm: !ascendc.global_tensor<64xf32>) {
  // CHECK: ascendc.local_tensor vecin addr 0 size 256 {ascendc.lane = 0 : i64} : <64xf32>
  %b0 = ascendc.local_tensor_auto vecin {ascendc.lane = 0 : i64} : !ascendc.local_tensor<64xf32>
  // CHECK: ascendc.local_tensor vecin addr 256 size 256 {ascendc.lane = 1 : i64} : <64xf32>
  %b1 = ascendc.local_tensor_auto vecin {ascendc.lane = 1 : i64} : !ascendc.local_tensor<64xf32>
  ascendc.if_aiv {
    ascendc.data_copy %b0, %gm : !ascendc.local_tensor<64xf32>, !ascendc.global_tensor<64xf32>
    ascendc.data_copy %b1, %gm : !ascendc.local_tensor<64xf32>, !ascendc.global_tensor<64xf32>
  }
  return
}

// When the cube fills a UB tensor (C310's mailbox) both lanes stay on one
// vector core: one UB, every tensor at its own address.
// CHECK-LABEL: func.func @lanes_one_core(
func.func @lanes_one_core(%gm: !ascendc.global_tensor<64xf32>) {
  // CHECK: ascendc.local_tensor vecin addr 0 size 256 {ascendc.lane = 0 : i64} : <64xf32>
  %b0 = ascendc.local_tensor_auto vecin {ascendc.lane = 0 : i64} : !ascendc.local_tensor<64xf32>
  // CHECK: ascendc.local_tensor vecin addr 256 size 256 {ascendc.lane = 1 : i64} : <64xf32>
  %b1 = ascendc.local_tensor_auto vecin {ascendc.lane = 1 : i64} : !ascendc.local_tensor<64xf32>
  ascendc.if_aic {
    ascendc.data_copy %b1, %gm : !ascendc.local_tensor<64xf32>, !ascendc.global_tensor<64xf32>
  }
  return
}
