// RUN: tilekit-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(ascendc-reuse-ub-allocation))' | FileCheck %s
// RUN: tilekit-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(ascendc-reuse-ub-allocation{reuse-in-out=true}))' | FileCheck %s --check-prefix=INOUT
// RUN: tilekit-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(ascendc-reuse-ub-allocation,ascendc-allocate-tensor))' | FileCheck %s --check-prefix=ADDR

// Two tensors used one after the other share storage: the second becomes a
// cast of the first, and allocation gives them one address.
// CHECK-LABEL: func.func @sequential(
// CHECK: %[[A:.*]] = ascendc.local_tensor_auto veccalc : <333xi32>
// CHECK: ascendc.data_copy %[[A]]
// CHECK: %[[B:.*]] = ascendc.reinterpret_cast %[[A]] : <333xi32> to <333xi32>
// CHECK: ascendc.data_copy %[[B]]
// ADDR-LABEL: func.func @sequential(
// ADDR: %[[A:.*]] = ascendc.local_tensor veccalc addr 0 size 1536 : <333xi32>
// ADDR-NOT: ascendc.local_tensor veccalc
// ADDR: ascendc.reinterpret_cast %[[A]]
func.func @sequential(%gm: !ascendc.global_tensor<333xi32>) {
  %a = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<333xi32>
  ascendc.data_copy %a, %gm : !ascendc.local_tensor<333xi32>, !ascendc.global_tensor<333xi32>
  %b = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<333xi32>
  ascendc.data_copy %b, %gm : !ascendc.local_tensor<333xi32>, !ascendc.global_tensor<333xi32>
  return
}

// -----

// A later, larger tensor takes the storage over: it moves before the
// earlier one, which becomes a cast of it. Overlapping lifetimes do not
// share: %c is live while %a is.
// CHECK-LABEL: func.func @larger_later(
// CHECK-NEXT: %[[B:.*]] = ascendc.local_tensor_auto veccalc : <256xf32>
// CHECK-NEXT: %[[A:.*]] = ascendc.reinterpret_cast %[[B]] : <256xf32> to <64xf32>
// CHECK-NEXT: %[[C:.*]] = ascendc.local_tensor_auto veccalc : <64xf32>
// CHECK-NEXT: ascendc.exp_l2 %[[C]], %[[A]]
// CHECK-NEXT: ascendc.exp_l2 %[[B]], %[[B]]
// CHECK-NEXT: ascendc.exp_l2 %[[C]], %[[C]]
// ADDR-LABEL: func.func @larger_later(
// 256*4 = 1024 at 0; %c after it at 1024.
// ADDR: ascendc.local_tensor veccalc addr 0 size 1024 : <256xf32>
// ADDR: ascendc.local_tensor veccalc addr 1024 size 256 : <64xf32>
func.func @larger_later(%n: index) {
  %a = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<64xf32>
  %c = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<64xf32>
  ascendc.exp_l2 %c, %a, %n : !ascendc.local_tensor<64xf32>, !ascendc.local_tensor<64xf32>
  %b = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<256xf32>
  ascendc.exp_l2 %b, %b, %n : !ascendc.local_tensor<256xf32>, !ascendc.local_tensor<256xf32>
  ascendc.exp_l2 %c, %c, %n : !ascendc.local_tensor<64xf32>, !ascendc.local_tensor<64xf32>
  return
}

// -----

// A use inside a loop keeps the tensor alive for the whole loop; uses through
// casts count. Cube and bias tensors are never touched.
// CHECK-LABEL: func.func @nested(
// CHECK: %[[A:.*]] = ascendc.local_tensor_auto veccalc : <64xf32>
// CHECK: %[[B:.*]] = ascendc.local_tensor_auto veccalc : <64xf32>
// CHECK: ascendc.local_tensor_auto a1 : <16x16xf16>
// CHECK: ascendc.local_tensor_auto a1 : <16x16xf16>
// CHECK: scf.for
// CHECK: %[[D:.*]] = ascendc.reinterpret_cast %[[A]] : <64xf32> to <64xf32>
func.func @nested(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<64xf32>
  %b = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<64xf32>
  %l1a = ascendc.local_tensor_auto a1 : !ascendc.local_tensor<16x16xf16>
  %l1b = ascendc.local_tensor_auto a1 : !ascendc.local_tensor<16x16xf16>
  %view = ascendc.reinterpret_cast %a : !ascendc.local_tensor<64xf32> to !ascendc.local_tensor<64xi32>
  scf.for %i = %c0 to %n step %c1 {
    ascendc.exp_l2 %b, %b, %n : !ascendc.local_tensor<64xf32>, !ascendc.local_tensor<64xf32>
    ascendc.abs_l2 %view, %view, %n : !ascendc.local_tensor<64xi32>, !ascendc.local_tensor<64xi32>
  }
  // %a's life ended with the loop; %b is still live below.
  %d = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<64xf32>
  ascendc.add_l2 %d, %b, %b, %n : !ascendc.local_tensor<64xf32>, !ascendc.local_tensor<64xf32>, !ascendc.local_tensor<64xf32>
  return
}

// -----

// In a loop body, input and output tensors do not share unless
// reuse-in-out: the loop's iterations overlap when pipelined. The scratch
// tensor %tmp is live while %in and %out are used, so it shares with
// neither.
// CHECK-LABEL: func.func @in_out_loop(
// CHECK: scf.for
// CHECK-NEXT: %[[IN:.*]] = ascendc.local_tensor_auto vecin input : <64xf32>
// CHECK: ascendc.local_tensor_auto veccalc : <64xf32>
// CHECK: ascendc.local_tensor_auto vecout output : <64xf32>
// CHECK-NOT: reinterpret_cast
// INOUT-LABEL: func.func @in_out_loop(
// INOUT: scf.for
// INOUT-NEXT: %[[IN:.*]] = ascendc.local_tensor_auto vecin input : <64xf32>
// INOUT: %[[OUT:.*]] = ascendc.reinterpret_cast %[[IN]] : <64xf32> to <64xf32>
// INOUT-NEXT: ascendc.add_l2 %[[OUT]]
func.func @in_out_loop(%gm: !ascendc.global_tensor<64xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %in = ascendc.local_tensor_auto vecin input : !ascendc.local_tensor<64xf32>
    ascendc.data_copy %in, %gm : !ascendc.local_tensor<64xf32>, !ascendc.global_tensor<64xf32>
    %tmp = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<64xf32>
    ascendc.exp_l2 %tmp, %in, %n : !ascendc.local_tensor<64xf32>, !ascendc.local_tensor<64xf32>
    %out = ascendc.local_tensor_auto vecout output : !ascendc.local_tensor<64xf32>
    ascendc.add_l2 %out, %tmp, %tmp, %n : !ascendc.local_tensor<64xf32>, !ascendc.local_tensor<64xf32>, !ascendc.local_tensor<64xf32>
    ascendc.data_copy %gm, %out : !ascendc.global_tensor<64xf32>, !ascendc.local_tensor<64xf32>
  }
  return
}

// -----

// Outside loops, input and output tensors share like any other.
// CHECK-LABEL: func.func @in_out_straight(
// CHECK: %[[IN:.*]] = ascendc.local_tensor_auto vecin input : <64xf32>
// CHECK: ascendc.reinterpret_cast %[[IN]] : <64xf32> to <64xf32>
func.func @in_out_straight(%gm: !ascendc.global_tensor<64xf32>, %n: index) {
  %in = ascendc.local_tensor_auto vecin input : !ascendc.local_tensor<64xf32>
  ascendc.data_copy %in, %gm : !ascendc.local_tensor<64xf32>, !ascendc.global_tensor<64xf32>
  %tmp = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<64xf32>
  ascendc.exp_l2 %tmp, %in, %n : !ascendc.local_tensor<64xf32>, !ascendc.local_tensor<64xf32>
  %out = ascendc.local_tensor_auto vecout output : !ascendc.local_tensor<64xf32>
  ascendc.add_l2 %out, %tmp, %tmp, %n : !ascendc.local_tensor<64xf32>, !ascendc.local_tensor<64xf32>, !ascendc.local_tensor<64xf32>
  ascendc.data_copy %gm, %out : !ascendc.global_tensor<64xf32>, !ascendc.local_tensor<64xf32>
  return
}

// -----

// Then and else never run together: their tensors share, and the shared
// storage moves before the scf.if. The larger else tensor owns it.
// CHECK-LABEL: func.func @branches(
// CHECK-NEXT: %[[E:.*]] = ascendc.local_tensor_auto veccalc : <128xf32>
// CHECK-NEXT: %[[T:.*]] = ascendc.reinterpret_cast %[[E]] : <128xf32> to <64xf32>
// CHECK-NEXT: scf.if
// CHECK-NEXT: ascendc.exp_l2 %[[T]], %[[T]]
// CHECK: } else {
// CHECK-NEXT: ascendc.exp_l2 %[[E]], %[[E]]
// ADDR-LABEL: func.func @branches(
// 128*4 = 512 B for both branches.
// ADDR-NEXT: ascendc.local_tensor veccalc addr 0 size 512 : <128xf32>
// ADDR-NOT: ascendc.local_tensor veccalc
func.func @branches(%p: i1, %n: index) {
  scf.if %p {
    %t = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<64xf32>
    ascendc.exp_l2 %t, %t, %n : !ascendc.local_tensor<64xf32>, !ascendc.local_tensor<64xf32>
  } else {
    %e = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<128xf32>
    ascendc.exp_l2 %e, %e, %n : !ascendc.local_tensor<128xf32>, !ascendc.local_tensor<128xf32>
  }
  return
}

// -----

// The before and after regions of a while loop alternate; their tensors
// share as well.
// CHECK-LABEL: func.func @while_regions(
// ADDR-LABEL: func.func @while_regions(
// CHECK: %[[B:.*]] = ascendc.local_tensor_auto veccalc : <64xf32>
// CHECK-NEXT: scf.while
// CHECK: ascendc.exp_l2 %[[B]], %[[B]]
// CHECK: ascendc.reinterpret_cast %[[B]] : <64xf32> to <64xi32>
func.func @while_regions(%n: index) {
  %c0 = arith.constant 0 : index
  %r = scf.while (%i = %c0) : (index) -> index {
    %b = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<64xf32>
    ascendc.exp_l2 %b, %b, %n : !ascendc.local_tensor<64xf32>, !ascendc.local_tensor<64xf32>
    %go = arith.cmpi slt, %i, %n : index
    scf.condition(%go) %i : index
  } do {
  ^bb0(%i: index):
    %a = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<64xi32>
    ascendc.abs_l2 %a, %a, %n : !ascendc.local_tensor<64xi32>, !ascendc.local_tensor<64xi32>
    %c1 = arith.constant 1 : index
    %next = arith.addi %i, %c1 : index
    scf.yield %next : index
  }
  return
}

// -----

// A later tensor larger by type but not by allocation (both take one
// 256-byte repeat) still takes the storage over: a cast may not view more
// bytes than its source's type holds.
// CHECK-LABEL: func.func @larger_type_same_allocation(
// CHECK-NEXT: %[[B:.*]] = ascendc.local_tensor_auto veccalc : <8xf32>
// CHECK-NEXT: ascendc.reinterpret_cast %[[B]] : <8xf32> to <1xf32>
// ADDR-LABEL: func.func @larger_type_same_allocation(
// ADDR-NEXT: ascendc.local_tensor veccalc addr 0 size 256 : <8xf32>
// ADDR-NOT: ascendc.local_tensor veccalc
func.func @larger_type_same_allocation(%n: index) {
  %a = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<1xf32>
  ascendc.exp_l2 %a, %a, %n : !ascendc.local_tensor<1xf32>, !ascendc.local_tensor<1xf32>
  %b = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<8xf32>
  ascendc.exp_l2 %b, %b, %n : !ascendc.local_tensor<8xf32>, !ascendc.local_tensor<8xf32>
  return
}

// -----

// The in/out rule holds for a core group inside a loop too: the group's
// block is not the loop body, but its iterations still overlap.
// CHECK-LABEL: func.func @in_out_group_in_loop(
// CHECK: ascendc.if_aiv
// CHECK-NEXT: ascendc.local_tensor_auto vecin input : <64xf32>
// CHECK: ascendc.local_tensor_auto veccalc : <64xf32>
// CHECK: ascendc.local_tensor_auto vecout output : <64xf32>
// CHECK-NOT: reinterpret_cast
// ADDR-LABEL: func.func @in_out_group_in_loop(
// INOUT-LABEL: func.func @in_out_group_in_loop(
// INOUT: %[[IN:.*]] = ascendc.local_tensor_auto vecin input : <64xf32>
// INOUT: ascendc.reinterpret_cast %[[IN]] : <64xf32> to <64xf32>
func.func @in_out_group_in_loop(%gm: !ascendc.global_tensor<64xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    ascendc.if_aiv {
      %in = ascendc.local_tensor_auto vecin input : !ascendc.local_tensor<64xf32>
      ascendc.data_copy %in, %gm : !ascendc.local_tensor<64xf32>, !ascendc.global_tensor<64xf32>
      %tmp = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<64xf32>
      ascendc.exp_l2 %tmp, %in, %n : !ascendc.local_tensor<64xf32>, !ascendc.local_tensor<64xf32>
      %out = ascendc.local_tensor_auto vecout output : !ascendc.local_tensor<64xf32>
      ascendc.add_l2 %out, %tmp, %tmp, %n : !ascendc.local_tensor<64xf32>, !ascendc.local_tensor<64xf32>, !ascendc.local_tensor<64xf32>
      ascendc.data_copy %gm, %out : !ascendc.global_tensor<64xf32>, !ascendc.local_tensor<64xf32>
    }
  }
  return
}

// -----

// The cube's CO2 tensor (written by its fixpipe) and the vector core's
// scratch tensor are used one after the other in IR order, but the cores
// run at once: they never share storage.
// CHECK-LABEL: func.func @two_cores(
// CHECK-NOT: reinterpret_cast
// CHECK: return
// ADDR-LABEL: func.func @two_cores(
// ADDR: ascendc.local_tensor co2 addr 0 size 1024 : <16x16xf32>
// ADDR: ascendc.local_tensor veccalc addr 1024 size 1024 : <16x16xf32>
// INOUT-LABEL: func.func @two_cores(
func.func @two_cores(%n: index) {
  %acc = ascendc.local_tensor_auto co1 : !ascendc.local_tensor<16x16xf32>
  %c2 = ascendc.local_tensor_auto co2 : !ascendc.local_tensor<16x16xf32>
  %v = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<16x16xf32>
  ascendc.if_aic {
    ascendc.fixpipe %c2, %acc : !ascendc.local_tensor<16x16xf32>, !ascendc.local_tensor<16x16xf32>
  }
  ascendc.if_aiv {
    ascendc.exp_l2 %v, %v, %n : !ascendc.local_tensor<16x16xf32>, !ascendc.local_tensor<16x16xf32>
  }
  return
}

// -----

// Tensors of different reuse groups (a double-buffered loop's two halves)
// never share, however their lifetimes fall; tensors of one group do.
// CHECK-LABEL: func.func @reuse_groups(
// CHECK: %[[A:.*]] = ascendc.local_tensor_auto veccalc {ascendc.reuse_group = 0 : i64} : <333xi32>
// CHECK: %[[B:.*]] = ascendc.local_tensor_auto veccalc {ascendc.reuse_group = 1 : i64} : <333xi32>
// CHECK: ascendc.reinterpret_cast %[[A]]
// ADDR-LABEL: func.func @reuse_groups(
// ADDR: ascendc.local_tensor veccalc addr 0 size 1536
// ADDR: ascendc.local_tensor veccalc addr 1536 size 1536
func.func @reuse_groups(%gm: !ascendc.global_tensor<333xi32>) {
  %a = ascendc.local_tensor_auto veccalc {ascendc.reuse_group = 0 : i64} : !ascendc.local_tensor<333xi32>
  ascendc.data_copy %a, %gm : !ascendc.local_tensor<333xi32>, !ascendc.global_tensor<333xi32>
  %b = ascendc.local_tensor_auto veccalc {ascendc.reuse_group = 1 : i64} : !ascendc.local_tensor<333xi32>
  ascendc.data_copy %b, %gm : !ascendc.local_tensor<333xi32>, !ascendc.global_tensor<333xi32>
  %c = ascendc.local_tensor_auto veccalc {ascendc.reuse_group = 0 : i64} : !ascendc.local_tensor<333xi32>
  ascendc.data_copy %c, %gm : !ascendc.local_tensor<333xi32>, !ascendc.global_tensor<333xi32>
  return
}

// -----

// Across blocks: a tile used only before a loop (%init) gives its storage
// to a tile of the loop body (%body), and one used only after the loop
// (%after, in a core group counted in line) takes it back; %live, used
// inside the loop, keeps its own.
// CHECK-LABEL: func.func @across_blocks(
// CHECK: %[[INIT:.*]] = ascendc.local_tensor_auto veccalc : <256xf32>
// CHECK: %[[LIVE:.*]] = ascendc.local_tensor_auto veccalc : <256xf32>
// CHECK: scf.for
// CHECK: ascendc.reinterpret_cast %[[INIT]] : <256xf32> to <256xf32>
// CHECK: ascendc.if_aiv
// CHECK: ascendc.reinterpret_cast %[[INIT]] : <256xf32> to <256xf32>
// ADDR-LABEL: func.func @across_blocks(
// ADDR: ascendc.local_tensor veccalc addr 0 size 1024
// ADDR: ascendc.local_tensor veccalc addr 1024 size 1024
// ADDR-NOT: ascendc.local_tensor veccalc
// ADDR: return
// INOUT-LABEL: func.func @across_blocks(
func.func @across_blocks(%gm: !ascendc.global_tensor<256xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<256xf32>
  %live = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<256xf32>
  ascendc.if_aiv {
    ascendc.data_copy %init, %gm : !ascendc.local_tensor<256xf32>, !ascendc.global_tensor<256xf32>
    ascendc.data_copy %live, %init : !ascendc.local_tensor<256xf32>, !ascendc.local_tensor<256xf32>
  }
  scf.for %i = %c0 to %n step %c1 {
    %body = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<256xf32>
    ascendc.if_aiv {
      ascendc.exp_l2 %body, %live : !ascendc.local_tensor<256xf32>, !ascendc.local_tensor<256xf32>
      ascendc.add_l2 %live, %live, %body : !ascendc.local_tensor<256xf32>, !ascendc.local_tensor<256xf32>, !ascendc.local_tensor<256xf32>
    }
  }
  ascendc.if_aiv {
    %after = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<256xf32>
    ascendc.exp_l2 %after, %live : !ascendc.local_tensor<256xf32>, !ascendc.local_tensor<256xf32>
    ascendc.data_copy %gm, %after : !ascendc.global_tensor<256xf32>, !ascendc.local_tensor<256xf32>
  }
  return
}

// -----

// Each lane's tiles are its own: lane 0's and lane 1's never share, even
// one after the other (on two sub-blocks they are in different UBs).
// CHECK-LABEL: func.func @lanes_apart(
// CHECK-NOT: reinterpret_cast
// CHECK: return
// INOUT-LABEL: func.func @lanes_apart(
func.func @lanes_apart(%gm: !ascendc.global_tensor<256xf32>) {
  %a = ascendc.local_tensor_auto veccalc {ascendc.lane = 0 : i64} : !ascendc.local_tensor<256xf32>
  ascendc.data_copy %a, %gm : !ascendc.local_tensor<256xf32>, !ascendc.global_tensor<256xf32>
  %b = ascendc.local_tensor_auto veccalc {ascendc.lane = 1 : i64} : !ascendc.local_tensor<256xf32>
  ascendc.data_copy %b, %gm : !ascendc.local_tensor<256xf32>, !ascendc.global_tensor<256xf32>
  return
}

// -----

// The last step shares by lifetimes recorded before any sharing, so it
// leaves alone a storage that took a tensor whose lifetime it did not
// record: %b takes %a's storage in the block (%a, an input, is used
// through the loop and is not recorded), and %c, inside the loop while
// %a is read there, must not join them.
// CHECK-LABEL: func.func @unrecorded(
// CHECK: %[[B:.*]] = ascendc.local_tensor_auto veccalc : <64xf32>
// CHECK: ascendc.reinterpret_cast %[[B]] : <64xf32> to <32xf32>
// CHECK: scf.for
// CHECK-NEXT: ascendc.local_tensor_auto veccalc : <32xf32>
// ADDR-LABEL: func.func @unrecorded(
// ADDR: ascendc.local_tensor veccalc addr 0 size 256
// ADDR: ascendc.local_tensor veccalc addr 256 size 256
// INOUT-LABEL: func.func @unrecorded(
func.func @unrecorded(%gm: !ascendc.global_tensor<32xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = ascendc.local_tensor_auto vecin input : !ascendc.local_tensor<32xf32>
  ascendc.data_copy %a, %gm : !ascendc.local_tensor<32xf32>, !ascendc.global_tensor<32xf32>
  scf.for %i = %c0 to %n step %c1 {
    %c = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<32xf32>
    ascendc.exp_l2 %c, %a, %n : !ascendc.local_tensor<32xf32>, !ascendc.local_tensor<32xf32>
    ascendc.data_copy %gm, %c : !ascendc.global_tensor<32xf32>, !ascendc.local_tensor<32xf32>
  }
  %b = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<64xf32>
  ascendc.exp_l2 %b, %b, %n : !ascendc.local_tensor<64xf32>, !ascendc.local_tensor<64xf32>
  return
}
