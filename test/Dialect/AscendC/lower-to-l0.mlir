// RUN: tilekit-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(ascendc-lower-to-l0))' -verify-diagnostics | FileCheck %s
// RUN: tilekit-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(ascendc-lower-to-l0,ascendc-fill-asc-operands))' -verify-diagnostics | FileCheck %s --check-prefix=FILLED

// A repeat covers 256 bytes: 64 f32 elements, 128 f16. The whole tensor
// leaves mask and repeat to fill-asc-operands; counts within one repeat or
// a multiple of it become mask/repeat.
// CHECK-LABEL: func.func @lower(
// 1000 f32 elements, no count: defaults later (mask 64, repeat ceil(1000/64) = 16).
// CHECK: ascendc.exp_l0 %{{.*}}, %{{.*}} : <1000xf32>, <1000xf32>
// FILLED: ascendc.exp_l0 %{{.*}}, %{{.*}} mask %[[C64:.*]] repeat %[[C16:.*]] strides [1, 1, 8, 8] : <1000xf32>, <1000xf32>
// count 1000 = all of it: the same.
// CHECK: ascendc.add_l0 %{{.*}}, %{{.*}}, %{{.*}} : <1000xf32>, <1000xf32>, <1000xf32>
// FILLED: ascendc.add_l0 %{{.*}}, %{{.*}}, %{{.*}} mask %{{.*}} repeat %{{.*}} strides [1, 1, 1, 8, 8, 8]
// count 40 <= 64: mask 40, repeat 1.
// CHECK: %[[C40:.*]] = arith.constant 40 : index
// CHECK: %[[C1:.*]] = arith.constant 1 : index
// CHECK: ascendc.muls_l0 %{{.*}}, %{{.*}}, %{{.*}} mask %[[C40]] repeat %[[C1]] : <1000xf32>, <1000xf32>, f32
// count 256 f16 = 2 repeats of 128.
// CHECK: %[[C128:.*]] = arith.constant 128 : index
// CHECK: %[[C2:.*]] = arith.constant 2 : index
// CHECK: ascendc.cast_l0 %{{.*}}, %{{.*}}, rint mask %[[C128]] repeat %[[C2]] : <512xf16>, <512xf16>
// A compare stays at L2: the L0 form lays its bits out per repeat, which
// nothing here models (it could not be checked to keep the result).
// CHECK: ascendc.compare_l2 %{{.*}}, %{{.*}}, %{{.*}}, lt : <128xui8>, <1000xf32>, <1000xf32>
// FILLED: ascendc.compare_l2 %{{.*}}, %{{.*}}, %{{.*}}, lt, %{{.*}} : <128xui8>, <1000xf32>, <1000xf32>
// FILLED: ascendc.duplicate_l0 %{{.*}}, %{{.*}} mask %{{.*}} repeat %{{.*}} strides [1, 8] : <1000xf32>, f32
func.func @lower(%s: f32) {
  %c1000 = arith.constant 1000 : index
  %c40 = arith.constant 40 : index
  %c256 = arith.constant 256 : index
  %x = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<1000xf32>
  %y = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<1000xf32>
  %h = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<512xf16>
  %m = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<128xui8>
  ascendc.exp_l2 %y, %x : !ascendc.local_tensor<1000xf32>, !ascendc.local_tensor<1000xf32>
  ascendc.add_l2 %y, %x, %y, %c1000 : !ascendc.local_tensor<1000xf32>, !ascendc.local_tensor<1000xf32>, !ascendc.local_tensor<1000xf32>
  ascendc.muls_l2 %y, %x, %s, %c40 : !ascendc.local_tensor<1000xf32>, !ascendc.local_tensor<1000xf32>, f32
  ascendc.cast_l2 %h, %h, rint, %c256 : !ascendc.local_tensor<512xf16>, !ascendc.local_tensor<512xf16>
  ascendc.compare_l2 %m, %x, %y, lt : !ascendc.local_tensor<128xui8>, !ascendc.local_tensor<1000xf32>, !ascendc.local_tensor<1000xf32>
  ascendc.duplicate_l2 %y, %s : !ascendc.local_tensor<1000xf32>, f32
  return
}

// -----

// A count that is not whole repeats: the full repeats, then the tail on
// views that start after them (100 = 64 + 36; the tail's views end with
// the tensor's 1000 elements when fewer than a repeat are left).
// CHECK-LABEL: func.func @tail(
// CHECK: %[[M:.*]] = arith.constant 64 : index
// CHECK: %[[R:.*]] = arith.constant 1 : index
// CHECK: ascendc.exp_l0 %{{.*}}, %{{.*}} mask %[[M]] repeat %[[R]] : <1000xf32>, <1000xf32>
// CHECK: %[[TAIL:.*]] = arith.constant 36 : index
// CHECK: %[[AT:.*]] = arith.constant 64 : index
// CHECK: %[[VD:.*]] = ascendc.reinterpret_cast %{{.*}}[%[[AT]]] : <1000xf32> to <64xf32>
// CHECK: %[[VS:.*]] = ascendc.reinterpret_cast %{{.*}}[%[[AT]]] : <1000xf32> to <64xf32>
// CHECK: ascendc.exp_l0 %[[VD]], %[[VS]] mask %[[TAIL]] repeat %{{.*}} : <64xf32>, <64xf32>
// 999 = 15 repeats of 64 and 39 in a view of the last 40 elements.
// CHECK: arith.constant 15 : index
// CHECK: %[[AT2:.*]] = arith.constant 960 : index
// CHECK: ascendc.reinterpret_cast %{{.*}}[%[[AT2]]] : <1000xf32> to <40xf32>
// CHECK: ascendc.exp_l0 {{.*}} : <40xf32>, <40xf32>
func.func @tail() {
  %c100 = arith.constant 100 : index
  %c999 = arith.constant 999 : index
  %x = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<1000xf32>
  ascendc.exp_l2 %x, %x, %c100 : !ascendc.local_tensor<1000xf32>, !ascendc.local_tensor<1000xf32>
  ascendc.exp_l2 %x, %x, %c999 : !ascendc.local_tensor<1000xf32>, !ascendc.local_tensor<1000xf32>
  return
}

// -----

// A count known only at run time: its repeats and tail as the kernel runs,
// each instruction under an scf.if that it is not empty.
// CHECK-LABEL: func.func @dynamic(
// CHECK: %[[R:.*]] = arith.divui %[[N:.*]], %[[C64:.*]] : index
// CHECK: %[[T:.*]] = arith.remui %[[N]], %[[C64]] : index
// CHECK: scf.if
// CHECK-NEXT: ascendc.exp_l0 %{{.*}}, %{{.*}} mask %[[C64]] repeat %[[R]] : <1024xf32>, <1024xf32>
// CHECK: scf.if
// CHECK: %[[AT:.*]] = arith.muli %[[R]], %[[C64]] : index
// CHECK: ascendc.reinterpret_cast %{{.*}}[%[[AT]]] : <1024xf32> to <64xf32>
// CHECK: ascendc.exp_l0 %{{.*}}, %{{.*}} mask %[[T]] repeat %{{.*}} : <64xf32>, <64xf32>
func.func @dynamic(%n: index) {
  %x = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<1024xf32>
  ascendc.exp_l2 %x, %x, %n : !ascendc.local_tensor<1024xf32>, !ascendc.local_tensor<1024xf32>
  return
}

// -----

// A run-time count over a tensor that is not whole repeats (1000 f32: 15
// repeats and 40 elements): the tail's view is one repeat while one fits
// after the full repeats, else the last 40 elements, at their known place.
// CHECK-LABEL: func.func @dynamic_ragged(
// CHECK: %[[R:.*]] = arith.divui %[[N:.*]], %[[C64:.*]] : index
// CHECK: %[[T:.*]] = arith.remui %[[N]], %[[C64]] : index
// CHECK: ascendc.exp_l0 %{{.*}}, %{{.*}} mask %[[C64]] repeat %[[R]] : <1000xf32>, <1000xf32>
// CHECK: %[[C15:.*]] = arith.constant 15 : index
// CHECK: %[[FITS:.*]] = arith.cmpi ult, %[[R]], %[[C15]] : index
// CHECK: scf.if %[[FITS]] {
// CHECK: %[[AT:.*]] = arith.muli %[[R]], %[[C64]] : index
// CHECK: ascendc.reinterpret_cast %{{.*}}[%[[AT]]] : <1000xf32> to <64xf32>
// CHECK: ascendc.exp_l0 %{{.*}}, %{{.*}} mask %[[T]] repeat %{{.*}} : <64xf32>, <64xf32>
// CHECK: } else {
// CHECK: %[[LAST:.*]] = arith.constant 960 : index
// CHECK: ascendc.reinterpret_cast %{{.*}}[%[[LAST]]] : <1000xf32> to <40xf32>
// CHECK: ascendc.exp_l0 %{{.*}}, %{{.*}} mask %[[T]] repeat %{{.*}} : <40xf32>, <40xf32>
func.func @dynamic_ragged(%n: index) {
  %x = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<1000xf32>
  ascendc.exp_l2 %x, %x, %n : !ascendc.local_tensor<1000xf32>, !ascendc.local_tensor<1000xf32>
  return
}

// -----

// Less than one repeat: no full repeats, the tail is the tensor's one
// partial repeat.
// CHECK-LABEL: func.func @dynamic_short(
// CHECK-NOT: ascendc.exp_l0
// CHECK: ascendc.reinterpret_cast %{{.*}} : <40xf32> to <40xf32>
// CHECK: ascendc.exp_l0 {{.*}} mask %{{.*}} repeat %{{.*}} : <40xf32>, <40xf32>
// CHECK-NOT: ascendc.exp_l0
// CHECK: return
func.func @dynamic_short(%n: index) {
  %x = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<40xf32>
  ascendc.exp_l2 %x, %x, %n : !ascendc.local_tensor<40xf32>, !ascendc.local_tensor<40xf32>
  return
}

// -----

// More than 255 repeats (16448 f32: 257 repeats): Ascend C's repeatTimes is
// a uint8_t, so the full repeats go 255 at a time on views from their first
// repeat. A constant count and the whole tensor spell the chunks out; a
// run-time count guards each and takes min(repeats - first, 255).
// CHECK-LABEL: func.func @long(
// CHECK: ascendc.reinterpret_cast %{{.*}} : <16448xf32> to <16320xf32>
// CHECK: ascendc.exp_l0 %{{.*}}, %{{.*}} mask %{{.*}} repeat %[[R255:.*]] : <16320xf32>, <16320xf32>
// CHECK: ascendc.reinterpret_cast %{{.*}} : <16448xf32> to <128xf32>
// CHECK: ascendc.exp_l0 %{{.*}}, %{{.*}} mask %{{.*}} repeat %{{.*}} : <128xf32>, <128xf32>
// CHECK: %[[R:.*]] = arith.divui
// CHECK: %[[FIRST:.*]] = arith.cmpi ugt, %[[R]], %{{.*}} : index
// CHECK: scf.if %[[FIRST]] {
// CHECK: %[[N:.*]] = arith.minui
// CHECK: ascendc.exp_l0 %{{.*}}, %{{.*}} mask %{{.*}} repeat %[[N]] : <16320xf32>, <16320xf32>
// CHECK: scf.if
// CHECK: arith.minui
// CHECK: ascendc.exp_l0 %{{.*}}, %{{.*}} mask %{{.*}} repeat %{{.*}} : <128xf32>, <128xf32>
// CHECK: scf.if
// CHECK: ascendc.exp_l0 %{{.*}}, %{{.*}} mask %{{.*}} repeat %{{.*}} : <64xf32>, <64xf32>
// FILLED-LABEL: func.func @long(
// FILLED-NOT: repeat %c256
// FILLED-NOT: repeat %c257
// FILLED: return
func.func @long(%n: index) {
  %x = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<16448xf32>
  ascendc.exp_l2 %x, %x : !ascendc.local_tensor<16448xf32>, !ascendc.local_tensor<16448xf32>
  ascendc.exp_l2 %x, %x, %n : !ascendc.local_tensor<16448xf32>, !ascendc.local_tensor<16448xf32>
  return
}
