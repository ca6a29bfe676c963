// RUN: tilekit-opt %s -split-input-file -pto-outline-tensor-compute -verify-diagnostics | FileCheck %s
// What the generated kernels compute is checked end to end (executor
// before and after, compiled C++, NumPy) by
// test/Conversion/compile-op-families.test on Inputs/tensor_compute.mlir.

// An elementwise chain assembled into a tensor is one kernel that stores
// into the target: one call a band of 16 rows, the kernel walks the band's
// tiles (exp, then muls: one pass over memory, no workspace).
// CHECK-LABEL: func.func @exp(
// CHECK-NOT: pto.tensor.create
// CHECK: scf.for %[[ROW:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK: %[[ROWS:.*]] = arith.minsi
// CHECK: func.call @tk_exp_muls(%arg0, %arg1, %{{.*}}, %[[ROW]], %{{.*}}, %[[ROW]], %{{.*}}, %[[ROWS]], %{{.*}})
// CHECK: return %arg1
// CHECK-LABEL: func.func private @tk_exp_muls(
// CHECK-SAME: pto.kind = #pto.kind<incore>
// CHECK: scf.for %[[COL:.*]] = %{{.*}} to %arg8 step %{{.*}} {
// CHECK: %[[T:.*]] = pto.tile.load %arg0[%arg3, %{{.*}}] valid [%arg7, %{{.*}}] : !pto.tensor<40x96xf32> -> !pto.tile<16x96xf32, vec>
// CHECK: %[[E:.*]] = pto.tile.exp %[[T]]
// CHECK: %[[M:.*]] = pto.tile.muls %[[E]], %arg2
// CHECK: pto.tile.store %[[M]], %arg1
// CHECK: return %arg1
func.func @exp(%x: !pto.tensor<40x96xf32>, %y: !pto.tensor<40x96xf32>) -> !pto.tensor<40x96xf32>
    attributes {pto.kind = #pto.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %half = arith.constant 0.5 : f32
  %e = pto.tensor.exp %x : !pto.tensor<40x96xf32>
  %m = pto.tensor.muls %e, %half : !pto.tensor<40x96xf32>, f32
  %o = pto.tensor.assemble %m into %y[%c0, %c0] : !pto.tensor<40x96xf32> into !pto.tensor<40x96xf32>
  return %o : !pto.tensor<40x96xf32>
}

// -----

// An elementwise op whose result is used twice is its own kernel, into a
// workspace; so is a chain stored into a tensor it reads (a later band
// would load what an earlier one stored), whose assemble stays a copy.
// Tensors of dynamic shape need no workspace when the chain is assembled.
// CHECK-LABEL: func.func @shared(
// CHECK: func.call @tk_exp(%arg0, %[[E:[0-9]+]],
// CHECK: func.call @tk_add(%[[E]], %arg1,
// CHECK: func.call @tk_neg(%arg1, %[[N:[0-9]+]],
// CHECK: func.call @tk_assemble(%[[N]], %arg1,
// CHECK: func.call @tk_relu(%arg2, %arg3,
func.func @shared(%x: !pto.tensor<40x96xf32>, %y: !pto.tensor<40x96xf32>,
                  %a: !pto.tensor<?x64xf16>, %b: !pto.tensor<?x64xf16>)
    attributes {pto.kind = #pto.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %e = pto.tensor.exp %x : !pto.tensor<40x96xf32>
  %s = pto.tensor.add %e, %e : !pto.tensor<40x96xf32>
  %y1 = pto.tensor.assemble %s into %y[%c0, %c0] : !pto.tensor<40x96xf32> into !pto.tensor<40x96xf32>
  %n = pto.tensor.neg %y1 : !pto.tensor<40x96xf32>
  %y2 = pto.tensor.assemble %n into %y1[%c1, %c0] : !pto.tensor<40x96xf32> into !pto.tensor<40x96xf32>
  %r = pto.tensor.relu %a : !pto.tensor<?x64xf16>
  %b1 = pto.tensor.assemble %r into %b[%c0, %c0] : !pto.tensor<?x64xf16> into !pto.tensor<?x64xf16>
  return
}

// -----

// A function without a kind that computes only on whole tensors becomes an
// orchestration; an element write of a 1-d tensor is a fill of one element
// of its one-row view, with no loop.
// CHECK-LABEL: func.func @write(
// CHECK-SAME: pto.kind = #pto.kind<orchestration>
// CHECK: %[[ROW:.*]] = pto.tensor.view %arg1[%{{.*}}] : !pto.tensor<?xi32> -> !pto.tensor<1x?xi32>
// CHECK-NOT: scf.for
// CHECK: {{(func.)?}}call @tk_write(%[[ROW]], %arg0,
// CHECK: return %arg1
// CHECK-LABEL: func.func private @tk_write(
// CHECK: pto.tile.full %arg1 valid [%arg4, %{{.*}}] : i32 -> !pto.tile<1x8xi32, vec>
func.func @write(%v: i32, %out: !pto.tensor<?xi32>, %i: index) -> !pto.tensor<?xi32> {
  %o = pto.tensor.write %v, %out[%i] : !pto.tensor<?xi32>
  return %o : !pto.tensor<?xi32>
}

// -----

// A slice inside its source for every trip of a loop with constant bounds
// may go anywhere; a slice that may reach past the edge has a partial
// valid region, which only the ops the pass outlines may take.
// CHECK-LABEL: func.func @slices(
// CHECK: scf.for
// CHECK: {{(func.)?}}call @tk_slice(
// CHECK: func.call @kernel(
func.func private @kernel(%t: !pto.tensor<16x64xf32>) -> !pto.tensor<16x64xf32>
    attributes {pto.kind = #pto.kind<incore>}

func.func @slices(%x: !pto.tensor<64x64xf32>, %n: index) -> !pto.tensor<64x64xf32>
    attributes {pto.kind = #pto.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  scf.for %i = %c0 to %c64 step %c16 {
    %s = pto.tensor.slice %x[%i, %c0] : !pto.tensor<64x64xf32> -> !pto.tensor<16x64xf32>
    %r = func.call @kernel(%s) : (!pto.tensor<16x64xf32>) -> !pto.tensor<16x64xf32>
  }
  return %x : !pto.tensor<64x64xf32>
}

// -----

func.func private @kernel(%t: !pto.tensor<16x64xf32>) -> !pto.tensor<16x64xf32>
    attributes {pto.kind = #pto.kind<incore>}

func.func @partial(%x: !pto.tensor<64x64xf32>, %n: index) -> !pto.tensor<64x64xf32>
    attributes {pto.kind = #pto.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'pto.tensor.slice' op may leave part of its box outside the valid region (the box can reach past the source's edge, or a valid shape is given), and its result reaches 'func.call', which a compiled kernel cannot tell}}
  %s = pto.tensor.slice %x[%n, %c0] : !pto.tensor<64x64xf32> -> !pto.tensor<16x64xf32>
  %e = pto.tensor.exp %s : !pto.tensor<16x64xf32>
  %r = func.call @kernel(%e) : (!pto.tensor<16x64xf32>) -> !pto.tensor<16x64xf32>
  return %x : !pto.tensor<64x64xf32>
}

// -----

// Ops the pass does not take stay: a fold over an extent of run-time size
// (no tile is made for it), a read, a matmul of f32, a matmul_acc into a
// float accumulator.
// CHECK-LABEL: func.func @stays(
// CHECK: pto.tensor.col_sum
// CHECK: pto.tensor.read
// CHECK: pto.tensor.matmul
// CHECK: pto.tensor.matmul_acc
func.func @stays(%x: !pto.tensor<?x64xf32>, %a: !pto.tensor<16x16xf32>, %h: !pto.tensor<16x16xf16>) -> (!pto.tensor<1x64xf32>, f32, !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>)
    attributes {pto.kind = #pto.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %e = pto.tensor.col_sum %x : !pto.tensor<?x64xf32> -> !pto.tensor<1x64xf32>
  %v = pto.tensor.read %x[%c0, %c0] : !pto.tensor<?x64xf32>
  %m = pto.tensor.matmul %a, %a {b_trans} : !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32> -> !pto.tensor<16x16xf32>
  %n = pto.tensor.matmul_acc %a, %h, %h : !pto.tensor<16x16xf32>, !pto.tensor<16x16xf16>, !pto.tensor<16x16xf16>
  return %e, %v, %m, %n : !pto.tensor<1x64xf32>, f32, !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>
}

// -----

// A result of run-time extents: a workspace of those extents, made where
// they are known (compile moves it to the start: ascendc-form-launch).
// CHECK-LABEL: func.func @dynamic(
// CHECK: %[[R:.+]] = pto.tensor.dim %arg0, 0
// CHECK: %[[T:.+]] = pto.tensor.create[%[[R]]] : !pto.tensor<?x64xf32>
// CHECK: func.call @tk_exp(%arg0, %[[T]],
// CHECK: return %[[T]]
func.func @dynamic(%x: !pto.tensor<?x64xf32>) -> !pto.tensor<?x64xf32>
    attributes {pto.kind = #pto.kind<orchestration>} {
  %e = pto.tensor.exp %x : !pto.tensor<?x64xf32>
  return %e : !pto.tensor<?x64xf32>
}

// -----

// A transposed operand: a kernel transposes it into a workspace of the
// turned shape, which the matmul's kernel then reads untransposed.
// CHECK-LABEL: func.func @turned(
// CHECK: %[[W:.*]] = pto.tensor.create : !pto.tensor<32x16xf16>
// CHECK: call @tk_transpose(%arg1, %[[W]],
// CHECK: call @tk_matmul(%arg0, %[[W]], %arg2,
// CHECK: func.func private @tk_transpose(
// CHECK: pto.tile.transpose %{{.*}} : !pto.tile<16x32xf16, vec> -> !pto.tile<32x16xf16, vec>
func.func @turned(%a: !pto.tensor<16x32xf16>, %b: !pto.tensor<16x32xf16>, %o: !pto.tensor<16x16xf32>) -> !pto.tensor<16x16xf32>
    attributes {pto.kind = #pto.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %m = pto.tensor.matmul %a, %b {b_trans} : !pto.tensor<16x32xf16>, !pto.tensor<16x32xf16> -> !pto.tensor<16x16xf32>
  %r = pto.tensor.assemble %m into %o[%c0, %c0] : !pto.tensor<16x16xf32> into !pto.tensor<16x16xf32>
  return %r : !pto.tensor<16x16xf32>
}

// -----

// An integer matmul_acc: the accumulator (times 0 where init holds) plus
// the product, the add and the muls in one kernel.
// CHECK-LABEL: func.func @int_acc(
// CHECK: call @tk_matmul(
// CHECK: call @tk_muls_add(
func.func @int_acc(%c: !pto.tensor<16x32xi32>, %a: !pto.tensor<16x64xi8>, %b: !pto.tensor<64x32xi8>, %first: i1) -> !pto.tensor<16x32xi32>
    attributes {pto.kind = #pto.kind<orchestration>} {
  %r = pto.tensor.matmul_acc %c, %a, %b init %first : !pto.tensor<16x32xi32>, !pto.tensor<16x64xi8>, !pto.tensor<64x32xi8>
  return %r : !pto.tensor<16x32xi32>
}

// -----

// Two orchestrations: what the pass follows in the first (a slice that
// may reach past the edge, erased with it) is not looked at in the second.
// CHECK-LABEL: func.func @first(
// CHECK: {{(func.)?}}call @tk_slice(
// CHECK-LABEL: func.func @second(
// CHECK: {{(func.)?}}call @tk_neg(
func.func @first(%x: !pto.tensor<?x64xf32>, %y: !pto.tensor<16x64xf32>, %n: index)
    attributes {pto.kind = #pto.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %s = pto.tensor.slice %x[%n, %c0] : !pto.tensor<?x64xf32> -> !pto.tensor<16x64xf32>
  %e = pto.tensor.exp %s : !pto.tensor<16x64xf32>
  %y1 = pto.tensor.assemble %e into %y[%c0, %c0] : !pto.tensor<16x64xf32> into !pto.tensor<16x64xf32>
  return
}

func.func @second(%a: !pto.tensor<8x32xf32>, %b: !pto.tensor<8x32xf32>) {
  %c0 = arith.constant 0 : index
  %n = pto.tensor.neg %a : !pto.tensor<8x32xf32>
  %b1 = pto.tensor.assemble %n into %b[%c0, %c0] : !pto.tensor<8x32xf32> into !pto.tensor<8x32xf32>
  return
}

// -----

// A float matmul of whole tensors: a band of 16 rows and 64 columns, K in
// steps of 256 f16 (the right tile's 32 KiB): the first step a matmul, the
// rest accumulate in L0C; the loop's result gets the band's valid shape
// back for the store.
// CHECK-LABEL: func.func @float_matmul(
// CHECK: func.call @tk_matmul(
// CHECK-LABEL: func.func private @tk_matmul(
// CHECK: pto.tile.load {{.*}} -> !pto.tile<16x256xf16, mat>
// CHECK: pto.tile.load {{.*}} -> !pto.tile<256x64xf16, mat>
// CHECK: %[[FIRST:.+]] = pto.tile.matmul
// CHECK: %[[SUM:.+]] = scf.for {{.*}} iter_args(%[[ACC:.+]] = %[[FIRST]])
// CHECK:   pto.tile.matmul_acc %[[ACC]],
// CHECK: %[[BAND:.+]] = pto.tile.set_validshape %[[SUM]]
// CHECK: pto.tile.store %[[BAND]]
func.func @float_matmul(%a: !pto.tensor<20x600xf16>, %b: !pto.tensor<600x40xf16>, %c: !pto.tensor<20x40xf32>) -> !pto.tensor<20x40xf32>
    attributes {pto.kind = #pto.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %m = pto.tensor.matmul %a, %b : !pto.tensor<20x600xf16>, !pto.tensor<600x40xf16> -> !pto.tensor<20x40xf32>
  %r = pto.tensor.assemble %m into %c[%c0, %c0] : !pto.tensor<20x40xf32> into !pto.tensor<20x40xf32>
  return %r : !pto.tensor<20x40xf32>
}
