// RUN: tilekit-opt %s -split-input-file -ascendc-form-launch -verify-diagnostics | FileCheck %s
// RUN: tilekit-opt %s -split-input-file -ascendc-form-launch=overlap-items=false 2>&1 | FileCheck %s --check-prefix=OFF
//
// What the overlapped items compute, and that the tokens order the items
// sharing a half, is checked by running compiled kernels with many items
// per core as C++ against the executor (test/Tools/run-compiled-overlap.test).

// Consecutive items of a core overlap: the copy @row_pong sits in the other
// half of UB and renumbers the events it sets (the two run at once); its
// even items call @row, its odd ones @row_pong (k = item / blocks); one
// token per pipe the items use, on an event neither half sets to S.
// CHECK-LABEL: func.func @row(
// CHECK-SAME: ascendc.overlapped
// CHECK: ascendc.local_tensor vecin addr 0 size 8192
// CHECK: ascendc.local_tensor veccalc addr 8192 size 8192
// CHECK: ascendc.set_flag mte2 -> v, event 0
// CHECK: ascendc.set_flag v -> s, event 0
// CHECK-LABEL: func.func @row_pong(
// CHECK-SAME: ascendc.overlapped
// CHECK: ascendc.local_tensor vecin addr 16384 size 8192
// CHECK: ascendc.local_tensor veccalc addr 24576 size 8192
// CHECK: ascendc.set_flag mte2 -> v, event 1
// CHECK-NEXT: ascendc.wait_flag mte2 -> v, event 1
// CHECK: ascendc.set_flag v -> s, event 2
// CHECK-NEXT: ascendc.wait_flag v -> s, event 2
// CHECK-LABEL: func.func @rows_kernel(
// CHECK: %[[BLOCKS:.+]] = ascendc.get_block_num
// CHECK: ascendc.set_flag mte2 -> s, event 1
// CHECK-NEXT: ascendc.set_flag v -> s, event 1
// CHECK-NEXT: ascendc.set_flag mte3 -> s, event 1
// CHECK: scf.for {{.+}} iter_args(%[[ITEM:[a-z0-9]+]] =
// CHECK: %[[K:.+]] = arith.divsi %[[ITEM]], %[[BLOCKS]]
// CHECK: %[[HALF:.+]] = arith.remsi %[[K]], %c2
// CHECK: %[[EVEN:.+]] = arith.cmpi eq, %[[HALF]]
// CHECK: scf.if %[[EVEN]] {
// CHECK-NEXT: func.call @row(
// CHECK-NEXT: } else {
// CHECK-NEXT: func.call @row_pong(
// CHECK-NEXT: {{^ *}}}
// CHECK-NEXT: ascendc.wait_flag mte2 -> s, event 1
// CHECK-NEXT: ascendc.set_flag mte2 -> s, event 1
// CHECK-NEXT: ascendc.wait_flag v -> s, event 1
// CHECK-NEXT: ascendc.set_flag v -> s, event 1
// CHECK-NEXT: ascendc.wait_flag mte3 -> s, event 1
// CHECK-NEXT: ascendc.set_flag mte3 -> s, event 1
// CHECK: ascendc.wait_flag mte2 -> s, event 1
// CHECK-NEXT: ascendc.wait_flag v -> s, event 1
// CHECK-NEXT: ascendc.wait_flag mte3 -> s, event 1
// CHECK-NEXT: return
// OFF-LABEL: func.func @row(
// OFF-NOT: ascendc.overlapped
// OFF-NOT: @row_pong
// OFF-NOT: -> s, event 1
module attributes {ascendc.arch = "c220"} {
  func.func @row(%x: !ascendc.global_tensor<?x128xf32>, %y: !ascendc.global_tensor<?x128xf32>, %r: index) {
    %c128 = arith.constant 128 : index
    %off = arith.muli %r, %c128 : index
    %in = ascendc.global_tensor.subindex %x[%off] : <?x128xf32> to <?x128xf32>
    %out = ascendc.global_tensor.subindex %y[%off] : <?x128xf32> to <?x128xf32>
    %a = ascendc.local_tensor vecin addr 0 size 8192 : <16x128xf32>
    %b = ascendc.local_tensor veccalc addr 8192 size 8192 : <16x128xf32>
    %n = arith.constant 2048 : index
    ascendc.data_copy %a, %in, %n : !ascendc.local_tensor<16x128xf32>, !ascendc.global_tensor<?x128xf32>
    ascendc.set_flag mte2 -> v, event 0
    ascendc.wait_flag mte2 -> v, event 0
    ascendc.exp_l2 %b, %a, %n : <16x128xf32>, <16x128xf32>
    ascendc.set_flag v -> s, event 0
    ascendc.wait_flag v -> s, event 0
    ascendc.set_flag v -> mte3, event 0
    ascendc.wait_flag v -> mte3, event 0
    ascendc.data_copy %out, %b, %n : !ascendc.global_tensor<?x128xf32>, !ascendc.local_tensor<16x128xf32>
    return
  }
  func.func @rows(%x: !ascendc.global_tensor<?x128xf32>, %y: !ascendc.global_tensor<?x128xf32>)
      attributes {ascendc.host, pto.kind = #pto.kind<orchestration>, pto.independent_items} {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %m = ascendc.global_tensor.dim %x, 0 : <?x128xf32>
    scf.for %r = %c0 to %m step %c16 {
      func.call @row(%x, %y, %r) : (!ascendc.global_tensor<?x128xf32>, !ascendc.global_tensor<?x128xf32>, index) -> ()
    }
    return
  }
}

// -----

// A kernel whose UB plan does not fit twice runs its items one after
// another, and says why.
// CHECK-LABEL: func.func @big(
// CHECK-NOT: ascendc.overlapped
// CHECK-NOT: @big_pong
module attributes {ascendc.arch = "c220"} {
  func.func @big(%x: !ascendc.global_tensor<?x128xf32>, %r: index) {
    %a = ascendc.local_tensor vecin addr 0 size 131072 : <256x128xf32>
    %n = arith.constant 32768 : index
    ascendc.data_copy %a, %x, %n : !ascendc.local_tensor<256x128xf32>, !ascendc.global_tensor<?x128xf32>
    return
  }
  // expected-remark @+1 {{the items of '@bigs_kernel' do not overlap on a core: '@big' uses 131072 bytes of UB, which do not fit twice in 196608}}
  func.func @bigs(%x: !ascendc.global_tensor<?x128xf32>)
      attributes {ascendc.host, pto.kind = #pto.kind<orchestration>, pto.independent_items} {
    %c0 = arith.constant 0 : index
    %c256 = arith.constant 256 : index
    %m = ascendc.global_tensor.dim %x, 0 : <?x128xf32>
    scf.for %r = %c0 to %m step %c256 {
      func.call @big(%x, %r) : (!ascendc.global_tensor<?x128xf32>, index) -> ()
    }
    return
  }
}

// -----

// Dependent items run on one core, in order: nothing overlaps.
// CHECK-LABEL: func.func @chain(
// CHECK-NOT: ascendc.overlapped
// CHECK-LABEL: func.func @chains_kernel(
// CHECK-NOT: -> s
// CHECK: return
module attributes {ascendc.arch = "c220"} {
  func.func @chain(%x: !ascendc.global_tensor<?x128xf32>, %r: index) {
    %a = ascendc.local_tensor vecin addr 0 size 8192 : <16x128xf32>
    %n = arith.constant 2048 : index
    ascendc.data_copy %a, %x, %n : !ascendc.local_tensor<16x128xf32>, !ascendc.global_tensor<?x128xf32>
    return
  }
  func.func @chains(%x: !ascendc.global_tensor<?x128xf32>)
      attributes {ascendc.host, pto.kind = #pto.kind<orchestration>} {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %m = ascendc.global_tensor.dim %x, 0 : <?x128xf32>
    scf.for %r = %c0 to %m step %c16 {
      func.call @chain(%x, %r) : (!ascendc.global_tensor<?x128xf32>, index) -> ()
    }
    return
  }
}

// -----

// Items of two kernels alternate on a core: each copy sits above the
// larger original, and the copies' events avoid every original's (an item
// of either kind runs beside an item of the other).
// CHECK-LABEL: func.func @small(
// CHECK: ascendc.set_flag mte2 -> v, event 0
// CHECK-LABEL: func.func @small_pong(
// CHECK: ascendc.local_tensor vecin addr 16384 size 8192
// CHECK: ascendc.set_flag mte2 -> v, event 2
// CHECK-LABEL: func.func @large(
// CHECK: ascendc.set_flag mte2 -> v, event 1
// CHECK-LABEL: func.func @large_pong(
// CHECK: ascendc.local_tensor vecin addr 16384 size 16384
// CHECK: ascendc.set_flag mte2 -> v, event 3
module attributes {ascendc.arch = "c220"} {
  func.func @small(%x: !ascendc.global_tensor<?x128xf32>, %r: index) {
    %a = ascendc.local_tensor vecin addr 0 size 8192 : <16x128xf32>
    %n = arith.constant 2048 : index
    ascendc.data_copy %a, %x, %n : !ascendc.local_tensor<16x128xf32>, !ascendc.global_tensor<?x128xf32>
    ascendc.set_flag mte2 -> v, event 0
    ascendc.wait_flag mte2 -> v, event 0
    ascendc.exp_l2 %a, %a, %n : <16x128xf32>, <16x128xf32>
    return
  }
  func.func @large(%x: !ascendc.global_tensor<?x128xf32>, %r: index) {
    %a = ascendc.local_tensor vecin addr 0 size 16384 : <32x128xf32>
    %n = arith.constant 4096 : index
    ascendc.data_copy %a, %x, %n : !ascendc.local_tensor<32x128xf32>, !ascendc.global_tensor<?x128xf32>
    ascendc.set_flag mte2 -> v, event 1
    ascendc.wait_flag mte2 -> v, event 1
    ascendc.exp_l2 %a, %a, %n : <32x128xf32>, <32x128xf32>
    return
  }
  func.func @both(%x: !ascendc.global_tensor<?x128xf32>, %y: !ascendc.global_tensor<?x128xf32>)
      attributes {ascendc.host, pto.kind = #pto.kind<orchestration>, pto.independent_items} {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %m = ascendc.global_tensor.dim %x, 0 : <?x128xf32>
    scf.for %r = %c0 to %m step %c32 {
      func.call @small(%x, %r) : (!ascendc.global_tensor<?x128xf32>, index) -> ()
      func.call @large(%y, %r) : (!ascendc.global_tensor<?x128xf32>, index) -> ()
    }
    return
  }
}

// -----

// Every buffer must hold two items: a cube kernel whose accumulator fills
// L0C does not overlap.
module attributes {ascendc.arch = "c220"} {
  func.func @wide(%x: !ascendc.global_tensor<?x256xf32>, %r: index) {
    %c = ascendc.local_tensor co1 addr 0 size 131072 : <128x256xf32>
    %a = ascendc.local_tensor a2 addr 0 size 512 : <16x16xf16>
    %b = ascendc.local_tensor b2 addr 0 size 512 : <16x16xf16>
    %c16 = arith.constant 16 : index
    %true = arith.constant true
    ascendc.mmad %c, %a, %b m %c16 n %c16 k %c16 init %true : <128x256xf32>, <16x16xf16>, <16x16xf16>
    return
  }
  // expected-remark @+1 {{the items of '@wides_kernel' do not overlap on a core: '@wide' uses 131072 bytes of L0C, which do not fit twice in 131072}}
  func.func @wides(%x: !ascendc.global_tensor<?x256xf32>)
      attributes {ascendc.host, pto.kind = #pto.kind<orchestration>, pto.independent_items} {
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    %m = ascendc.global_tensor.dim %x, 0 : <?x256xf32>
    scf.for %r = %c0 to %m step %c128 {
      func.call @wide(%x, %r) : (!ascendc.global_tensor<?x256xf32>, index) -> ()
    }
    return
  }
}

// -----

// GM scratch a kernel makes inside a loop has no fixed place in the item's
// workspace slice to move the copy's above: no overlap.
module attributes {ascendc.arch = "c220"} {
  func.func @looped(%x: !ascendc.global_tensor<?x128xf32>, %r: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %n = arith.constant 2048 : index
    %a = ascendc.local_tensor vecin addr 0 size 8192 : <16x128xf32>
    scf.for %i = %c0 to %c2 step %c1 {
      %w = ascendc.workspace : <16x128xf32>
      ascendc.data_copy %a, %w, %n : !ascendc.local_tensor<16x128xf32>, !ascendc.global_tensor<16x128xf32>
    }
    return
  }
  // expected-remark @+1 {{the items of '@loopeds_kernel' do not overlap on a core: '@looped' makes GM scratch inside a loop or branch}}
  func.func @loopeds(%x: !ascendc.global_tensor<?x128xf32>)
      attributes {ascendc.host, pto.kind = #pto.kind<orchestration>, pto.independent_items} {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %m = ascendc.global_tensor.dim %x, 0 : <?x128xf32>
    scf.for %r = %c0 to %m step %c16 {
      func.call @looped(%x, %r) : (!ascendc.global_tensor<?x128xf32>, index) -> ()
    }
    return
  }
}
