// RUN: tilekit-opt %s -split-input-file -verify-diagnostics

func.func @f() {
  // expected-error @+1 {{a local tensor needs a static shape}}
  %x = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<?x16xf32>
  return
}

// -----

// Found by fuzz-parse: sizes overflowed int64 in the verifiers.
func.func @f() {
  // expected-error @+1 {{a local tensor larger than 4294967296 bytes; no on-chip buffer is that large}}
  %x = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<9223372036854775807xi8>
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{a tensor element must be an integer or a float, not 'index'}}
  %x = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<16xindex>
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{is marked both input and output}}
  %x = ascendc.local_tensor_auto veccalc input output : !ascendc.local_tensor<16xf32>
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{size 32 is smaller than the tensor's 64 bytes}}
  %x = ascendc.local_tensor veccalc addr 0 size 32 : !ascendc.local_tensor<16xf32>
  return
}

// -----

func.func @f() {
  %x = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<16xf16>
  // expected-error @+1 {{views 64 bytes from byte 0 of 32, past the source's end}}
  %y = ascendc.reinterpret_cast %x : !ascendc.local_tensor<16xf16> to !ascendc.local_tensor<16xf32>
  return
}

// -----

func.func @f() {
  %c8 = arith.constant 8 : index
  %x = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<16xf16>
  // expected-error @+1 {{views 32 bytes from byte 16 of 32, past the source's end}}
  %y = ascendc.reinterpret_cast %x[%c8] : !ascendc.local_tensor<16xf16> to !ascendc.local_tensor<16xf16>
  return
}

// -----

// An offset whose bytes overflow int64 (a fuzzer's input).
func.func @f() {
  %c = arith.constant 4611686018427387904 : index
  %x = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<16xf16>
  // expected-error @+1 {{starts at element 4611686018427387904, past the source's end}}
  %y = ascendc.reinterpret_cast %x[%c] : !ascendc.local_tensor<16xf16> to !ascendc.local_tensor<16xf16>
  return
}

// -----

func.func @f(%g: !ascendc.global_tensor<16xf32>, %h: !ascendc.global_tensor<16xf32>) {
  // expected-error @+1 {{copies GM to GM, which no transfer engine does}}
  ascendc.data_copy %g, %h : !ascendc.global_tensor<16xf32>, !ascendc.global_tensor<16xf32>
  return
}

// -----

func.func @f(%g: !ascendc.global_tensor<16xf16>) {
  %x = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<16xf32>
  // expected-error @+1 {{copies 'f16' into 'f32'; use a cast to convert}}
  ascendc.data_copy %x, %g : !ascendc.local_tensor<16xf32>, !ascendc.global_tensor<16xf16>
  return
}

// -----

func.func @f(%g: !ascendc.global_tensor<16x16xf16>) {
  %x = ascendc.local_tensor_auto a2 : !ascendc.local_tensor<16x16xf16>
  // expected-error @+1 {{the destination of a GM load must be at vecin, veccalc, a1, b1, c1, but it is at a2}}
  ascendc.data_copy %x, %g : !ascendc.local_tensor<16x16xf16>, !ascendc.global_tensor<16x16xf16>
  return
}

// -----

func.func @f(%g: !ascendc.global_tensor<16x16xf32>) {
  %x = ascendc.local_tensor_auto co1 : !ascendc.local_tensor<16x16xf32>
  // expected-error @+1 {{the source of a GM store must be at vecin, vecout, veccalc, co2, a1, b1, but it is at co1}}
  ascendc.data_copy %g, %x : !ascendc.global_tensor<16x16xf32>, !ascendc.local_tensor<16x16xf32>
  return
}

// -----

func.func @f() {
  %x = ascendc.local_tensor_auto a1 : !ascendc.local_tensor<16xf32>
  %y = ascendc.local_tensor_auto a2 : !ascendc.local_tensor<16xf32>
  // expected-error @+1 {{the destination of an L1 copy must be at c2, vecin, veccalc, but it is at a2}}
  ascendc.data_copy %y, %x : !ascendc.local_tensor<16xf32>, !ascendc.local_tensor<16xf32>
  return
}

// -----

func.func @f() {
  %x = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<16x16xf16>
  %y = ascendc.local_tensor_auto a2 : !ascendc.local_tensor<16x16xf16>
  // expected-error @+1 {{the source must be at a1, b1, c1, but it is at veccalc}}
  ascendc.load_data %y, %x : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
  return
}

// -----

func.func @f(%n: index) {
  %c = ascendc.local_tensor_auto co1 : !ascendc.local_tensor<16x16xf32>
  %a = ascendc.local_tensor_auto b2 : !ascendc.local_tensor<16x16xf16>
  %b = ascendc.local_tensor_auto b2 : !ascendc.local_tensor<16x16xf16>
  // expected-error @+1 {{the left operand must be at a2, but it is at b2}}
  ascendc.mmad %c, %a, %b m %n n %n k %n : !ascendc.local_tensor<16x16xf32>, !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
  return
}

// -----

func.func @f(%g: !ascendc.global_tensor<16x16xf32>) {
  %x = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<16x16xf32>
  // expected-error @+1 {{the source must be at co1, but it is at veccalc}}
  ascendc.fixpipe %g, %x : !ascendc.global_tensor<16x16xf32>, !ascendc.local_tensor<16x16xf32>
  return
}

// -----

func.func @f(%n: index) {
  %x = ascendc.local_tensor_auto a1 : !ascendc.local_tensor<16xf32>
  // expected-error @+1 {{an operand must be at vecin, vecout, veccalc, co2, but it is at a1}}
  ascendc.exp_l2 %x, %x, %n : !ascendc.local_tensor<16xf32>, !ascendc.local_tensor<16xf32>
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{attribute 'flag' failed to satisfy constraint}}
  ascendc.cross_core_set_flag fix, flag 32
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'pipe' [s, v, m, mte1, mte2, mte3, fix, all]}}
  ascendc.pipe_barrier 3
  return
}

// -----

func.func @broadcast_shapes() {
  %src = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<16x2xf32>
  %dst = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<16x64xf32>
  // expected-error @below {{broadcasts along axis 1 between '!ascendc.local_tensor<16x64xf32>' and '!ascendc.local_tensor<16x2xf32>'; the narrow tensor has extent 1 along the axis and the wide one's elsewhere, of one element type}}
  ascendc.broadcast %dst, %src axis 1 : !ascendc.local_tensor<16x64xf32>, !ascendc.local_tensor<16x2xf32>
  return
}

// -----

func.func @reduce_shapes() {
  %src = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<16x64xf32>
  %dst = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<1x64xf32>
  // expected-error @below {{reduces along axis 1 between '!ascendc.local_tensor<16x64xf32>' and '!ascendc.local_tensor<1x64xf32>'}}
  ascendc.reduce_sum %dst, %src axis 1 : !ascendc.local_tensor<1x64xf32>, !ascendc.local_tensor<16x64xf32>
  return
}

// -----

func.func @reduce_rank() {
  %src = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<2x16x64xf32>
  %dst = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<2x16x1xf32>
  // expected-error @below {{reduces a 2-d tensor}}
  ascendc.reduce_max %dst, %src axis 2 : !ascendc.local_tensor<2x16x1xf32>, !ascendc.local_tensor<2x16x64xf32>
  return
}

// -----

func.func @reshape_sizes(%x: !ascendc.global_tensor<?x64xf32>) {
  // expected-error @below {{gives 0 extents for the 1 dynamic dimensions of its result}}
  %r = ascendc.global_tensor.reshape %x : !ascendc.global_tensor<?x64xf32> to !ascendc.global_tensor<?xf32>
  return
}

// -----

func.func @reshape_count(%x: !ascendc.global_tensor<4x64xf32>) {
  // expected-error @below {{views 256 elements as 128}}
  %r = ascendc.global_tensor.reshape %x : !ascendc.global_tensor<4x64xf32> to !ascendc.global_tensor<2x64xf32>
  return
}

// -----

func.func @reshape_type(%x: !ascendc.global_tensor<4x64xf32>) {
  // expected-error @below {{views 'f32' elements as 'i32'}}
  %r = ascendc.global_tensor.reshape %x : !ascendc.global_tensor<4x64xf32> to !ascendc.global_tensor<4x64xi32>
  return
}

// -----

func.func @dim(%x: !ascendc.global_tensor<?x64xf32>) -> index {
  // expected-error @below {{reads dimension 2 of a rank-2 tensor}}
  %n = ascendc.global_tensor.dim %x, 2 : <?x64xf32>
  return %n : index
}

// -----

// A fuzz finding: the executor multiplied f16 tiles into an i1
// accumulator. The cube accumulates float products in f32.
func.func @mmad_types(%n: index) {
  %acc = ascendc.local_tensor_auto co1 : !ascendc.local_tensor<16x16xi1>
  %a = ascendc.local_tensor_auto a2 : !ascendc.local_tensor<16x16xf16>
  %b = ascendc.local_tensor_auto b2 : !ascendc.local_tensor<16x16xf16>
  // expected-error @below {{multiplies 'f16' by 'f16' into 'i1'; the cube multiplies one element type and accumulates it in 'f32'}}
  ascendc.mmad %acc, %a, %b m %n n %n k %n : !ascendc.local_tensor<16x16xi1>, !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
  return
}

// -----

func.func @workspace_dynamic() {
  // expected-error @below {{has 0 sizes for 1 run-time extents of its type}}
  %ws = ascendc.workspace : !ascendc.global_tensor<?x64xf32>
  return
}

// -----

func.func @window_and_count(%g: !ascendc.global_tensor<64x64xf32>, %n: index) {
  %t = ascendc.local_tensor_auto vecin : !ascendc.local_tensor<16x64xf32>
  // expected-error @below {{takes a count or a window, not both}}
  ascendc.data_copy %t, %g, %n window [%n, %n] strides [%n, %n] : !ascendc.local_tensor<16x64xf32>, !ascendc.global_tensor<64x64xf32>
  return
}

// -----

func.func @window_extents(%g: !ascendc.global_tensor<64x64xf32>, %n: index) {
  %t = ascendc.local_tensor_auto vecin : !ascendc.local_tensor<16x64xf32>
  // expected-error @below {{takes a window of 2 extents and 2 row strides, not 1 and 2}}
  ascendc.data_copy %t, %g window [%n] strides [%n, %n] : !ascendc.local_tensor<16x64xf32>, !ascendc.global_tensor<64x64xf32>
  return
}

// -----

// expected-error @below {{carries ascendc.host, which belongs on a function}}
module attributes {ascendc.host} {
}

// -----

func.func @mask_and_bits(%n: index, %w: i64, %s: f32) {
  %y = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<256xf32>
  // expected-error @below {{takes a mask count or lane bits, not both}}
  ascendc.duplicate_l0 %y, %s mask %n mask_bits [%w, %w] repeat %n : !ascendc.local_tensor<256xf32>, f32
  return
}

// -----

func.func @bits_without_repeat(%w: i64, %s: f32) {
  %y = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<256xf32>
  // expected-error @below {{takes a mask and a repeat count together}}
  ascendc.duplicate_l0 %y, %s mask_bits [%w, %w] : !ascendc.local_tensor<256xf32>, f32
  return
}

// -----

func.func @bits_of_bytes(%n: index, %w: i64, %s: i8) {
  %y = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<256xi8>
  // expected-error @below {{selects lanes by bits for 8-bit elements; a bit mask covers the lanes of 16- and 32-bit ones}}
  ascendc.duplicate_l0 %y, %s mask_bits [%w, %w] repeat %n : !ascendc.local_tensor<256xi8>, i8
  return
}

// -----

// Repeat strides are uint8_t fields of Ascend C's repeat parameters.
func.func @repeat_stride_past_uint8(%n: index) {
  %x = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<333xf32>
  // expected-error @below {{repeat stride 4294967296 (stride 3) does not fit Ascend C's uint8_t field: expected 0 to 255}}
  ascendc.sub_l0 %x, %x, %x mask %n repeat %n strides [2, 2, 2, 4294967296, 8, 8] : !ascendc.local_tensor<333xf32>, !ascendc.local_tensor<333xf32>, !ascendc.local_tensor<333xf32>
  return
}

// -----

// BinaryRepeatParams' block strides are uint8_t too.
func.func @binary_block_stride(%n: index) {
  %x = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<333xf32>
  // expected-error @below {{block stride 256 (stride 1) does not fit Ascend C's uint8_t field: expected 0 to 255}}
  ascendc.sub_l0 %x, %x, %x mask %n repeat %n strides [1, 256, 1, 8, 8, 8] : !ascendc.local_tensor<333xf32>, !ascendc.local_tensor<333xf32>, !ascendc.local_tensor<333xf32>
  return
}

// -----

// UnaryRepeatParams' block strides are uint16_t; none is negative.
func.func @unary_block_stride(%n: index) {
  %x = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<333xf32>
  ascendc.abs_l0 %x, %x mask %n repeat %n strides [65535, 1, 8, 8] : !ascendc.local_tensor<333xf32>, !ascendc.local_tensor<333xf32>
  // expected-error @below {{block stride -1 (stride 1) does not fit Ascend C's uint16_t field: expected 0 to 65535}}
  ascendc.abs_l0 %x, %x mask %n repeat %n strides [1, -1, 8, 8] : !ascendc.local_tensor<333xf32>, !ascendc.local_tensor<333xf32>
  return
}

// -----

// A vector instruction's scalar is a number, not a tensor (fuzz-verify-each:
// the executor took the tensor for a scalar).
func.func @tensor_as_scalar(%gm: !ascendc.global_tensor<7xi16>) {
  %b = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<7xi16>
  // expected-error @below {{operand #1 must be an integer, float or index scalar, but got '!ascendc.global_tensor<7xi16>'}}
  ascendc.duplicate_l2 %b, %gm : !ascendc.local_tensor<7xi16>, !ascendc.global_tensor<7xi16>
  return
}

// -----

func.func @tensor_as_adds_scalar(%x: !ascendc.local_tensor<8xf32>) {
  // expected-error @below {{operand #2 must be an integer, float or index scalar, but got '!ascendc.local_tensor<8xf32>'}}
  ascendc.adds_l2 %x, %x, %x : !ascendc.local_tensor<8xf32>, !ascendc.local_tensor<8xf32>, !ascendc.local_tensor<8xf32>
  return
}

// -----

func.func @repeats_past_uint8(%n: index) {
  %c256 = arith.constant 256 : index
  %x = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<16384xf32>
  // expected-error @+1 {{repeats 256 times, which does not fit Ascend C's uint8_t repeatTimes: expected 0 to 255}}
  ascendc.exp_l0 %x, %x mask %n repeat %c256 : !ascendc.local_tensor<16384xf32>, !ascendc.local_tensor<16384xf32>
  return
}
