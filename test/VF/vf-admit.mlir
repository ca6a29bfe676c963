// RUN: tilekit-opt %s -split-input-file -verify-diagnostics -tilekit-vf-admit
// Admission of hand-written helpers: what it accepts unchanged, and each
// way a helper can fail it.

// The accepted helper comes out as it went in (the others fail).
// RUN: not tilekit-opt %s -split-input-file -tilekit-vf-admit 2>/dev/null | FileCheck %s
// CHECK-LABEL: emitc.func @admitted
// CHECK:         "tk_vf_barrier"
// CHECK-NEXT:    "tk_vf_store"
emitc.func @admitted(%ub: !emitc.ptr<ui8>) attributes {tilekit.vf_helper} {
  %a = emitc.call_opaque "tk_vf_tile"(%ub) {args = [0 : index, 0 : i64]} : (!emitc.ptr<ui8>) -> !emitc.ptr<f32>
  %b = emitc.call_opaque "tk_vf_tile"(%ub) {args = [0 : index, 128 : i64]} : (!emitc.ptr<ui8>) -> !emitc.ptr<f32>
  %v = emitc.call_opaque "tk_vf_load"(%a) {args = [0 : index, 32 : i64]} : (!emitc.ptr<f32>) -> !emitc.opaque<"tk_vreg">
  // Bytes [0, 256) and [128, 384): the store overlaps the load.
  emitc.call_opaque "tk_vf_barrier"() : () -> ()
  emitc.call_opaque "tk_vf_store"(%b, %v) {args = [0 : index, 0 : i64, 1 : index]} : (!emitc.ptr<f32>, !emitc.opaque<"tk_vreg">) -> ()
  // Disjoint from both: no barrier needed.
  emitc.call_opaque "tk_vf_store"(%a, %v) {args = [0 : index, 96 : i64, 1 : index]} : (!emitc.ptr<f32>, !emitc.opaque<"tk_vreg">) -> ()
  emitc.return
}

// -----

emitc.func @runtime_displacement(%ub: !emitc.ptr<ui8>, %n: i64) attributes {tilekit.vf_helper} {
  // expected-error @+1 {{is not admitted: its pointer is not provably the common UB base plus a constant displacement}}
  %a = emitc.call_opaque "tk_vf_tile"(%ub, %n) {args = [0 : index, 1 : index]} : (!emitc.ptr<ui8>, i64) -> !emitc.ptr<f32>
  emitc.return
}

// -----

emitc.func @another_base(%ub: !emitc.ptr<ui8>, %other: !emitc.ptr<ui8>) attributes {tilekit.vf_helper} {
  // expected-error @+1 {{its pointer is not provably the common UB base}}
  %a = emitc.call_opaque "tk_vf_tile"(%other) {args = [0 : index, 0 : i64]} : (!emitc.ptr<ui8>) -> !emitc.ptr<f32>
  emitc.return
}

// -----

emitc.func @raw_pointer(%ub: !emitc.ptr<ui8>, %p: !emitc.ptr<f32>) attributes {tilekit.vf_helper} {
  // expected-error @+1 {{accesses memory through a pointer that is not provably the common UB base plus a constant}}
  %v = emitc.call_opaque "tk_vf_load"(%p) {args = [0 : index, 0 : i64]} : (!emitc.ptr<f32>) -> !emitc.opaque<"tk_vreg">
  emitc.return
}

// -----

emitc.func @missing_barrier(%ub: !emitc.ptr<ui8>) attributes {tilekit.vf_helper} {
  %a = emitc.call_opaque "tk_vf_tile"(%ub) {args = [0 : index, 0 : i64]} : (!emitc.ptr<ui8>) -> !emitc.ptr<f32>
  %b = emitc.call_opaque "tk_vf_tile"(%ub) {args = [0 : index, 288 : i64]} : (!emitc.ptr<ui8>) -> !emitc.ptr<f32>
  %v = emitc.call_opaque "tk_vf_load"(%a) {args = [0 : index, 0 : i64]} : (!emitc.ptr<f32>) -> !emitc.opaque<"tk_vreg">
  // expected-note @+1 {{the earlier access}}
  emitc.call_opaque "tk_vf_store"(%a, %v) {args = [0 : index, 64 : i64, 1 : index]} : (!emitc.ptr<f32>, !emitc.opaque<"tk_vreg">) -> ()
  // expected-error @+1 {{is not admitted: it writes UB bytes [288, 544) that an earlier write touches at [256, 512) with no barrier between them}}
  emitc.call_opaque "tk_vf_store"(%b, %v) {args = [0 : index, 0 : i64, 1 : index]} : (!emitc.ptr<f32>, !emitc.opaque<"tk_vreg">) -> ()
  emitc.return
}

// -----

// Masks do not prove independence: a prefix and a suffix of the same 64
// lanes still need a barrier.
emitc.func @masks_do_not_count(%ub: !emitc.ptr<ui8>) attributes {tilekit.vf_helper} {
  %a = emitc.call_opaque "tk_vf_tile"(%ub) {args = [0 : index, 0 : i64]} : (!emitc.ptr<ui8>) -> !emitc.ptr<f32>
  %v = emitc.call_opaque "tk_vf_load"(%a) {args = [0 : index, 64 : i64]} : (!emitc.ptr<f32>) -> !emitc.opaque<"tk_vreg">
  %p = emitc.call_opaque "tk_vf_prefix_mask"() {args = [10 : i64]} : () -> ui64
  %s = emitc.call_opaque "tk_vf_suffix_mask"() {args = [10 : i64]} : () -> ui64
  // expected-note @+1 {{the earlier access}}
  emitc.call_opaque "tk_vf_store_masked"(%a, %v, %p) {args = [0 : index, 0 : i64, 1 : index, 2 : index]} : (!emitc.ptr<f32>, !emitc.opaque<"tk_vreg">, ui64) -> ()
  // expected-error @+1 {{it writes UB bytes [0, 256) that an earlier write touches at [0, 256)}}
  emitc.call_opaque "tk_vf_store_masked"(%a, %v, %s) {args = [0 : index, 0 : i64, 1 : index, 2 : index]} : (!emitc.ptr<f32>, !emitc.opaque<"tk_vreg">, ui64) -> ()
  emitc.return
}

// -----

emitc.func @calls_out(%ub: !emitc.ptr<ui8>) attributes {tilekit.vf_helper} {
  // expected-error @+1 {{is not admitted: 'memcpy' is not in the helper subset}}
  emitc.call_opaque "memcpy"(%ub, %ub) {args = [0 : index, 1 : index, 256 : i64]} : (!emitc.ptr<ui8>, !emitc.ptr<ui8>) -> ()
  emitc.return
}

// -----

emitc.func @misaligned(%ub: !emitc.ptr<ui8>) attributes {tilekit.vf_helper} {
  %a = emitc.call_opaque "tk_vf_tile"(%ub) {args = [0 : index, 0 : i64]} : (!emitc.ptr<ui8>) -> !emitc.ptr<f32>
  // expected-error @+1 {{its element offset is not a constant multiple of 8 (32 bytes)}}
  %v = emitc.call_opaque "tk_vf_load"(%a) {args = [0 : index, 3 : i64]} : (!emitc.ptr<f32>) -> !emitc.opaque<"tk_vreg">
  emitc.return
}

// -----

emitc.func @control_flow(%ub: !emitc.ptr<ui8>, %c: i1) attributes {tilekit.vf_helper} {
  // expected-error @+1 {{is not admitted in a helper: only calls of the vector-register runtime}}
  emitc.if %c {
  }
  emitc.return
}

// -----

// expected-error @+1 {{is not admitted: its first parameter must be the common UB base (uint8_t *)}}
emitc.func @no_base(%n: i64) attributes {tilekit.vf_helper} {
  emitc.return
}
