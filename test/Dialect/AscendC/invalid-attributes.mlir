// RUN: tilekit-opt %s -split-input-file -verify-diagnostics

// The attributes passes hand on are declared: a misspelled one is an error.
// expected-error @+1 {{has unknown AscendC attribute 'ascendc.kernel_typ'}}
module attributes {ascendc.kernel_typ = "mixed"} {
}

// -----

// kernel_type names the kind of kernel.
// expected-error @+1 {{has ascendc.kernel_type = "both"; expected "cube" or "vector" or "mixed"}}
module attributes {ascendc.kernel_type = "both"} {
}

// -----

// Module attributes belong on the module.
func.func @f() attributes {ascendc.arch = "c310"} {
  // expected-error @-1 {{carries ascendc.arch, which belongs on the module}}
  return
}

// -----

// expected-error @+1 {{has ascendc.static_alloc = 1 : i64; expected true or false}}
module attributes {ascendc.static_alloc = 1} {
}

// -----

func.func @f() {
  // expected-error @+1 {{has ascendc.buf_id = -1 : i64; expected a non-negative integer}}
  %t = ascendc.local_tensor_auto veccalc {ascendc.buf_id = -1} : !ascendc.local_tensor<64xf32>
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{has ascendc.buf_ids = [1, 2]; expected an array of buffer ids (array<i64: ...>)}}
  %t = ascendc.local_tensor_auto veccalc {ascendc.buf_ids = [1, 2]} : !ascendc.local_tensor<64xf32>
  return
}

// -----

// Loop markers sit on loops.
func.func @f() {
  // expected-error @+1 {{carries ascendc.vec_scope_loop, which belongs on a loop}}
  %t = ascendc.local_tensor_auto veccalc {ascendc.vec_scope_loop} : !ascendc.local_tensor<64xf32>
  return
}

// -----

// The kernel argument attribute names a known argument.
// expected-error @+1 {{has ascendc.kernel_arg = "Workspace"; expected "DumpAddr"}}
func.func @f(%a: !ascendc.global_tensor<?xi8> {ascendc.kernel_arg = "Workspace"}) {
  return
}

// -----

// expected-error @+1 {{argument #0 has unknown AscendC attribute 'ascendc.kernel_argument' (expected ascendc.kernel_arg)}}
func.func @f(%a: !ascendc.global_tensor<?xi8> {ascendc.kernel_argument = "DumpAddr"}) {
  return
}

// -----

// The front end's unrolling attributes are declared too (asctile).
func.func @f() {
  %t = ascendc.get_subblock_idx
  // expected-error @+1 {{has the unknown attribute asctile.unrol_iter (asctile declares asctile.unroll_factor and asctile.unroll_iter)}}
  scf.execute_region {
    scf.yield
  } {asctile.unroll_factor = 2, asctile.unrol_iter = 0}
  return
}

// -----

func.func @f() {
  %t = ascendc.get_subblock_idx
  // expected-error @+1 {{has asctile.unroll_factor = 0 : i64; expected a positive integer (the unroll factor)}}
  scf.execute_region {
    scf.yield
  } {asctile.unroll_factor = 0, asctile.unroll_iter = 0}
  return
}

// -----

func.func @f() {
  %t = ascendc.get_subblock_idx
  // expected-error @+1 {{is unrolled iteration 3, outside 0..2 (2 is the epilogue)}}
  scf.execute_region {
    scf.yield
  } {asctile.unroll_factor = 2, asctile.unroll_iter = 3}
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{has asctile.unroll_iter = "one"; expected a non-negative integer (the iteration)}}
  %t = ascendc.get_subblock_idx {asctile.unroll_iter = "one"}
  return
}

// -----

// expected-error @+1 {{has ascendc.launched_by = "main"; expected a host function's symbol}}
func.func @k() attributes {ascendc.launched_by = "main"} {
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{has ascendc.lifetime = array<i64: 5, 2>; expected a span of the op order (array<i64: first, last>)}}
  %t = ascendc.local_tensor_auto veccalc {ascendc.lifetime = array<i64: 5, 2>} : !ascendc.local_tensor<64xf32>
  return
}
