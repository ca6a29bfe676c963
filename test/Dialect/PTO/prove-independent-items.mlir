// RUN: tilekit-opt %s -split-input-file -pto-prove-independent-items -verify-diagnostics | FileCheck %s

// Rows [row, row + 16) with row stepping by 16: the items' stores never meet.
// CHECK-LABEL: func.func @rows(
// CHECK-SAME: pto.independent_items
func.func @tile(%x: !pto.tensor<?x8xf32>, %y: !pto.tensor<?x8xf32>, %row: index)
    -> !pto.tensor<?x8xf32> attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %t = pto.tile.load %x[%row, %c0] : !pto.tensor<?x8xf32> -> !pto.tile<16x8xf32, vec>
  %o = pto.tile.store %t, %y[%row, %c0] : !pto.tile<16x8xf32, vec> -> !pto.tensor<?x8xf32>
  return %o : !pto.tensor<?x8xf32>
}
func.func @rows(%x: !pto.tensor<?x8xf32>, %y: !pto.tensor<?x8xf32>) -> !pto.tensor<?x8xf32>
    attributes {pto.kind = #pto.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %m = pto.tensor.dim %x, 0 : !pto.tensor<?x8xf32>
  %r = scf.for %row = %c0 to %m step %c16 iter_args(%out = %y) -> (!pto.tensor<?x8xf32>) {
    %next = func.call @tile(%x, %out, %row) : (!pto.tensor<?x8xf32>, !pto.tensor<?x8xf32>, index) -> !pto.tensor<?x8xf32>
    scf.yield %next : !pto.tensor<?x8xf32>
  }
  return %r : !pto.tensor<?x8xf32>
}

// -----

// Two loops, each owning a dimension (a GEMM's tiles of C), with the
// offset computed in the kernel from the argument (row + 2 * lane, a
// 2-row tile, step 4) and a branch around the call.
// CHECK-LABEL: func.func @grid(
// CHECK-SAME: pto.independent_items
func.func @cell(%y: !pto.tensor<?x?xf32>, %r: index, %c: index)
    -> !pto.tensor<?x?xf32> attributes {pto.kind = #pto.kind<incore>} {
  %c2 = arith.constant 2 : index
  %lane = pto.tile.get_subblock_idx
  %off = arith.muli %lane, %c2 : index
  %row = arith.addi %r, %off : index
  %t = pto.tile.load %y[%row, %c] : !pto.tensor<?x?xf32> -> !pto.tile<2x8xf32, vec>
  %o = pto.tile.store %t, %y[%row, %c] : !pto.tile<2x8xf32, vec> -> !pto.tensor<?x?xf32>
  return %o : !pto.tensor<?x?xf32>
}
func.func @grid(%y: !pto.tensor<?x?xf32>, %skip: index) -> !pto.tensor<?x?xf32>
    attributes {pto.kind = #pto.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %m = pto.tensor.dim %y, 0 : !pto.tensor<?x?xf32>
  %n = pto.tensor.dim %y, 1 : !pto.tensor<?x?xf32>
  scf.for %i = %c0 to %m step %c4 {
    scf.for %j = %c0 to %n step %c8 {
      %go = arith.cmpi ne, %i, %skip : index
      scf.if %go {
        %d = func.call @cell(%y, %i, %j) : (!pto.tensor<?x?xf32>, index, index) -> !pto.tensor<?x?xf32>
      }
    }
  }
  return %y : !pto.tensor<?x?xf32>
}

// -----

// Every item reads and writes the same box: a chain, one core.
// CHECK-LABEL: func.func @chain(
// CHECK-NOT: pto.independent_items
func.func @acc(%y: !pto.tensor<4x8xf32>, %i: index) -> !pto.tensor<4x8xf32>
    attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %a = pto.tile.load %y[%c0, %c0] : !pto.tensor<4x8xf32> -> !pto.tile<4x8xf32, vec>
  %o = pto.tile.store %a, %y[%c0, %c0] : !pto.tile<4x8xf32, vec> -> !pto.tensor<4x8xf32>
  return %o : !pto.tensor<4x8xf32>
}
func.func @chain(%y: !pto.tensor<4x8xf32>) -> !pto.tensor<4x8xf32>
    attributes {pto.kind = #pto.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c9 = arith.constant 9 : index
  %r = scf.for %i = %c0 to %c9 step %c1 iter_args(%out = %y) -> (!pto.tensor<4x8xf32>) {
    // expected-warning @+1 {{the work items of '@chain' run on one core, in order: items of '@acc' in different trips of the loop at}}
    %next = func.call @acc(%out, %i) : (!pto.tensor<4x8xf32>, index) -> !pto.tensor<4x8xf32>
    scf.yield %next : !pto.tensor<4x8xf32>
  }
  return %r : !pto.tensor<4x8xf32>
}

// -----

// A step smaller than the tile: neighbouring items overlap by a row.
// CHECK-LABEL: func.func @overlap(
// CHECK-NOT: pto.independent_items
func.func @tile(%y: !pto.tensor<?x8xf32>, %row: index) -> !pto.tensor<?x8xf32>
    attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %t = pto.tile.load %y[%row, %c0] : !pto.tensor<?x8xf32> -> !pto.tile<4x8xf32, vec>
  %o = pto.tile.store %t, %y[%row, %c0] : !pto.tile<4x8xf32, vec> -> !pto.tensor<?x8xf32>
  return %o : !pto.tensor<?x8xf32>
}
func.func @overlap(%y: !pto.tensor<?x8xf32>) -> !pto.tensor<?x8xf32>
    attributes {pto.kind = #pto.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %m = pto.tensor.dim %y, 0 : !pto.tensor<?x8xf32>
  scf.for %row = %c0 to %m step %c3 {
    // expected-warning @+1 {{no dimension of its accesses stays within one step of the loop}}
    %d = func.call @tile(%y, %row) : (!pto.tensor<?x8xf32>, index) -> !pto.tensor<?x8xf32>
  }
  return %y : !pto.tensor<?x8xf32>
}

// -----

// One call writes what another reads: items of two calls meet, so they
// are two phases (two launches, the second after the first), each with
// items that never meet.
// CHECK-LABEL: func.func @phases(
// CHECK-SAME: pto.item_phases = [{calls = 1 : i64, independent}, {calls = 1 : i64, independent}]
// CHECK-NOT: pto.independent_items
func.func @write(%y: !pto.tensor<4x8xf32>) -> !pto.tensor<4x8xf32>
    attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %t = pto.tile.load %y[%c0, %c0] : !pto.tensor<4x8xf32> -> !pto.tile<4x8xf32, vec>
  %o = pto.tile.store %t, %y[%c0, %c0] : !pto.tile<4x8xf32, vec> -> !pto.tensor<4x8xf32>
  return %o : !pto.tensor<4x8xf32>
}
func.func @read(%y: !pto.tensor<4x8xf32>, %z: !pto.tensor<4x8xf32>) -> !pto.tensor<4x8xf32>
    attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %t = pto.tile.load %y[%c0, %c0] : !pto.tensor<4x8xf32> -> !pto.tile<4x8xf32, vec>
  %o = pto.tile.store %t, %z[%c0, %c0] : !pto.tile<4x8xf32, vec> -> !pto.tensor<4x8xf32>
  return %o : !pto.tensor<4x8xf32>
}
func.func @phases(%y: !pto.tensor<4x8xf32>, %z: !pto.tensor<4x8xf32>) -> !pto.tensor<4x8xf32>
    attributes {pto.kind = #pto.kind<orchestration>} {
  %a = func.call @write(%y) : (!pto.tensor<4x8xf32>) -> !pto.tensor<4x8xf32>
  %b = func.call @read(%a, %z) : (!pto.tensor<4x8xf32>, !pto.tensor<4x8xf32>) -> !pto.tensor<4x8xf32>
  return %b : !pto.tensor<4x8xf32>
}

// -----

// A while loop launches its items an unknown number of times.
// CHECK-LABEL: func.func @until(
// CHECK-NOT: pto.independent_items
func.func @noop(%y: !pto.tensor<4x8xf32>) -> !pto.tensor<4x8xf32>
    attributes {pto.kind = #pto.kind<incore>} {
  return %y : !pto.tensor<4x8xf32>
}
func.func @until(%y: !pto.tensor<4x8xf32>, %n: index) -> !pto.tensor<4x8xf32>
    attributes {pto.kind = #pto.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-warning @+1 {{a while loop launches its items an unknown number of times}}
  %r = scf.while (%i = %c0) : (index) -> index {
    %go = arith.cmpi slt, %i, %n : index
    scf.condition(%go) %i : index
  } do {
  ^bb0(%i: index):
    %d = func.call @noop(%y) : (!pto.tensor<4x8xf32>) -> !pto.tensor<4x8xf32>
    %next = arith.addi %i, %c1 : index
    scf.yield %next : index
  }
  return %y : !pto.tensor<4x8xf32>
}

// -----

// A phase whose items meet among themselves (each adds into the same rows)
// runs on one core; the phase after it, whose items never meet, on all.
// CHECK-LABEL: func.func @chained_then_rows(
// CHECK-SAME: pto.item_phases = [{calls = 1 : i64}, {calls = 1 : i64, independent}]
func.func @acc2(%x: !pto.tensor<16x8xf32>, %y: !pto.tensor<16x8xf32>)
    -> !pto.tensor<16x8xf32> attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %a = pto.tile.load %x[%c0, %c0] : !pto.tensor<16x8xf32> -> !pto.tile<16x8xf32, vec>
  %b = pto.tile.load %y[%c0, %c0] : !pto.tensor<16x8xf32> -> !pto.tile<16x8xf32, vec>
  %s = pto.tile.add %a, %b : !pto.tile<16x8xf32, vec>
  %o = pto.tile.store %s, %y[%c0, %c0] : !pto.tile<16x8xf32, vec> -> !pto.tensor<16x8xf32>
  return %o : !pto.tensor<16x8xf32>
}
func.func @copy_rows(%y: !pto.tensor<16x8xf32>, %z: !pto.tensor<?x8xf32>, %row: index)
    -> !pto.tensor<?x8xf32> attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %t = pto.tile.load %y[%c0, %c0] : !pto.tensor<16x8xf32> -> !pto.tile<16x8xf32, vec>
  %o = pto.tile.store %t, %z[%row, %c0] : !pto.tile<16x8xf32, vec> -> !pto.tensor<?x8xf32>
  return %o : !pto.tensor<?x8xf32>
}
func.func @chained_then_rows(%x: !pto.tensor<16x8xf32>, %y: !pto.tensor<16x8xf32>,
                             %z: !pto.tensor<?x8xf32>) -> !pto.tensor<?x8xf32>
    attributes {pto.kind = #pto.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %sum = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %y) -> (!pto.tensor<16x8xf32>) {
    // expected-warning @+1 {{the work items of a phase of '@chained_then_rows' run on one core, in order: items of '@acc2' in different trips of the loop at}}
    %next = func.call @acc2(%x, %acc) : (!pto.tensor<16x8xf32>, !pto.tensor<16x8xf32>) -> !pto.tensor<16x8xf32>
    scf.yield %next : !pto.tensor<16x8xf32>
  }
  %m = pto.tensor.dim %z, 0 : !pto.tensor<?x8xf32>
  %r = scf.for %row = %c0 to %m step %c16 iter_args(%out = %z) -> (!pto.tensor<?x8xf32>) {
    %next = func.call @copy_rows(%sum, %out, %row) : (!pto.tensor<16x8xf32>, !pto.tensor<?x8xf32>, index) -> !pto.tensor<?x8xf32>
    scf.yield %next : !pto.tensor<?x8xf32>
  }
  return %r : !pto.tensor<?x8xf32>
}

// -----

// An op the orchestration runs itself between two phases belongs to
// neither: no phases, and the warning names it.
// CHECK-LABEL: func.func @own_op_between(
// CHECK-NOT: pto.item_phases
// CHECK-NOT: pto.independent_items
func.func @put(%y: !pto.tensor<4x8xf32>) -> !pto.tensor<4x8xf32>
    attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %t = pto.tile.load %y[%c0, %c0] : !pto.tensor<4x8xf32> -> !pto.tile<4x8xf32, vec>
  %o = pto.tile.store %t, %y[%c0, %c0] : !pto.tile<4x8xf32, vec> -> !pto.tensor<4x8xf32>
  return %o : !pto.tensor<4x8xf32>
}
func.func @take(%y: !pto.tensor<4x8xf32>, %z: !pto.tensor<4x8xf32>) -> !pto.tensor<4x8xf32>
    attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %t = pto.tile.load %y[%c0, %c0] : !pto.tensor<4x8xf32> -> !pto.tile<4x8xf32, vec>
  %o = pto.tile.store %t, %z[%c0, %c0] : !pto.tile<4x8xf32, vec> -> !pto.tensor<4x8xf32>
  return %o : !pto.tensor<4x8xf32>
}
func.func @own_op_between(%y: !pto.tensor<4x8xf32>, %z: !pto.tensor<4x8xf32>) -> !pto.tensor<4x8xf32>
    attributes {pto.kind = #pto.kind<orchestration>} {
  %a = func.call @put(%y) : (!pto.tensor<4x8xf32>) -> !pto.tensor<4x8xf32>
  %c0 = arith.constant 0 : index
  // expected-warning @+1 {{the orchestration runs 'pto.tensor.read' itself, between its work items}}
  %v = pto.tensor.read %a[%c0, %c0] : !pto.tensor<4x8xf32>
  %b = func.call @take(%a, %z) : (!pto.tensor<4x8xf32>, !pto.tensor<4x8xf32>) -> !pto.tensor<4x8xf32>
  return %b : !pto.tensor<4x8xf32>
}
