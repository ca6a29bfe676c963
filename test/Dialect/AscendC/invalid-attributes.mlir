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
