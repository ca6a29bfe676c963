// What has no C++ form is an error at the op that says why, alone (never
// followed by MLIR's bare "failed to legalize"), and nothing is printed.
// RUN: tilekit-translate --ascendc-to-cpp %s --split-input-file --verify-diagnostics

func.func @unplanned(%x: !ascendc.global_tensor<64xf32>) {
  // expected-error @+1 {{'ascendc.local_tensor_auto' op has no address yet; emit C++ from a planned kernel (after ascendc-allocate-tensor, as `tilekit compile` runs it)}}
  %t = ascendc.local_tensor_auto vecin : !ascendc.local_tensor<64xf32>
  ascendc.data_copy %t, %x : !ascendc.local_tensor<64xf32>, !ascendc.global_tensor<64xf32>
  return
}

// -----

// A TPipe-managed tensor (the seed's other strategy): no TPipe is emitted.
func.func @tpipe(%x: !ascendc.global_tensor<64xf32>) {
  // expected-error @+1 {{'ascendc.tbuf_get_tensor' op is a TPipe-managed tensor, which the emitted kernels do not have (they create no TPipe); use a planned local tensor}}
  %t = ascendc.tbuf_get_tensor vecin : !ascendc.local_tensor<64xf32>
  ascendc.data_copy %t, %x : !ascendc.local_tensor<64xf32>, !ascendc.global_tensor<64xf32>
  return
}

// -----

func.func @view_extent(%x: !ascendc.global_tensor<?xf32>, %n: index) {
  %v = ascendc.global_tensor.subindex %x[%n] : !ascendc.global_tensor<?xf32> to !ascendc.global_tensor<?xf32>
  // expected-error @+1 {{'ascendc.global_tensor.dim' op reads a dynamic extent of a GM tensor that is not a kernel argument; only those reach the C++ kernel}}
  %d = ascendc.global_tensor.dim %v, 0 : !ascendc.global_tensor<?xf32>
  ascendc.printf "%d\n", %d : index
  return
}

// -----

func.func @bias_window(%x: !ascendc.global_tensor<1x64xf32>) {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %l1 = ascendc.local_tensor c1 addr 0 size 256 : !ascendc.local_tensor<1x64xf32>
  %bt = ascendc.local_tensor c2 addr 0 size 256 : !ascendc.local_tensor<1x64xf32>
  // expected-error @+1 {{'ascendc.data_copy' op copies a window along a path that has no C++ form here (GM <-> UB, GM -> L1 and UB -> UB do)}}
  ascendc.data_copy %bt, %l1 window [%c1, %c64] strides [%c64, %c64] : !ascendc.local_tensor<1x64xf32>, !ascendc.local_tensor<1x64xf32>
  return
}

// -----

// expected-error @+1 {{'func.func' op returns a value that is not one of its arguments; an Ascend C kernel returns nothing}}
func.func @returns(%n: index) -> index {
  %c1 = arith.constant 1 : index
  return %c1 : index
}

// -----

// The flags of the public contract (docs/emit-cpp.md, "The Ascend C
// contract"): HardEvent names no scalar -> MTE1 pair.
func.func @event_pair() {
  // expected-error @+1 {{'ascendc.set_flag' op orders s before mte1, a pair of pipes no Ascend C HardEvent names}}
  ascendc.set_flag s -> mte1, event 0
  ascendc.wait_flag s -> mte1, event 0
  return
}

// -----

// Event ids 6 and 7 are the framework's in static tensor programming.
func.func @reserved_event() {
  // expected-error @+1 {{'ascendc.set_flag' op uses event id 6, which static tensor programming leaves to the framework (ids 0 to 5)}}
  ascendc.set_flag mte2 -> v, event 6
  ascendc.wait_flag mte2 -> v, event 6
  return
}

// -----

// Cross-core flag ids are 0 to 15.
func.func @cross_core_flag() {
  ascendc.if_aic {
    // expected-error @+1 {{'ascendc.cross_core_set_flag' op sets cross-core flag 17; Ascend C's ids are 0 to 15}}
    ascendc.cross_core_set_flag fix, flag 17
  }
  ascendc.if_aiv {
    ascendc.cross_core_wait_flag mte2, flag 17
  }
  return
}

// -----

// A cross-core flag is set (and waited) on a pipe other than PIPE_S and
// PIPE_ALL (CrossCoreSetFlag's page).
func.func @cross_core_scalar_pipe() {
  ascendc.if_aic {
    ascendc.cross_core_set_flag fix, flag 1
  }
  ascendc.if_aiv {
    // expected-error @+1 {{'ascendc.cross_core_wait_flag' op waits for cross-core flag 1 on PIPE_S, which Ascend C's cross-core flags do not take}}
    ascendc.cross_core_wait_flag s, flag 1
  }
  return
}

// -----

// C310 buffer ids are the Mutex ids a kernel picks: 0 to 27.
func.func @reserved_buffer_id() {
  // expected-error @+1 {{'ascendc.get_buf' op uses buffer id 28, past the Mutex ids a kernel picks (0 to 27)}}
  ascendc.get_buf mte2, 28
  ascendc.rls_buf mte2, 28
  return
}

// -----

// DataCopy moves whole 32-byte blocks: three floats inside UB are not, and
// DataCopyPad moves any bytes between GM and UB only.
func.func @partial_block(%n: index) {
  %c3 = arith.constant 3 : index
  %a = ascendc.local_tensor veccalc addr 0 size 32 : !ascendc.local_tensor<8xf32>
  %b = ascendc.local_tensor veccalc addr 32 size 32 : !ascendc.local_tensor<8xf32>
  // expected-error @+1 {{'ascendc.data_copy' op copies a count of elements that may not be whole 32-byte blocks, which Ascend C's DataCopy moves (DataCopyPad moves any bytes between GM and UB only)}}
  ascendc.data_copy %b, %a, %c3 : !ascendc.local_tensor<8xf32>, !ascendc.local_tensor<8xf32>
  return
}
