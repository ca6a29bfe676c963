// RUN: tilekit-opt %s | tilekit-opt | FileCheck %s
// RUN: tilekit-opt %s --mlir-print-op-generic | tilekit-opt | FileCheck %s

// Round trip of every AscendC op.

// CHECK-LABEL: func.func @tensors(
func.func @tensors(%gm: !ascendc.global_tensor<?x128xf32>, %off: index) {
  // CHECK: ascendc.local_tensor_auto vecin input : <16x128xf32>
  %x = ascendc.local_tensor_auto vecin input : !ascendc.local_tensor<16x128xf32>
  // CHECK: ascendc.local_tensor_auto vecout output : <16x128xf32>
  %y = ascendc.local_tensor_auto vecout output : !ascendc.local_tensor<16x128xf32>
  // CHECK: ascendc.local_tensor veccalc addr 8192 size 8192 : <16x128xf32>
  %z = ascendc.local_tensor veccalc addr 8192 size 8192 : !ascendc.local_tensor<16x128xf32>
  // CHECK: ascendc.tbuf_get_tensor veccalc : <64xf16>
  %b = ascendc.tbuf_get_tensor veccalc : !ascendc.local_tensor<64xf16>
  // CHECK: ascendc.reinterpret_cast %{{.*}} : <16x128xf32> to <2048xi32>
  %r = ascendc.reinterpret_cast %z : !ascendc.local_tensor<16x128xf32> to !ascendc.local_tensor<2048xi32>
  // CHECK: ascendc.global_tensor.subindex %{{.*}}[%{{.*}}] : <?x128xf32> to <?x128xf32>
  %g = ascendc.global_tensor.subindex %gm[%off] : !ascendc.global_tensor<?x128xf32> to !ascendc.global_tensor<?x128xf32>
  // CHECK: ascendc.global_tensor.reshape %{{.*}}[%{{.*}}] : <?x128xf32> to <?x8x16xf32>
  %g3 = ascendc.global_tensor.reshape %gm[%off] : !ascendc.global_tensor<?x128xf32> to !ascendc.global_tensor<?x8x16xf32>
  // CHECK: ascendc.data_copy %{{.*}}, %{{.*}} : !ascendc.local_tensor<16x128xf32>, !ascendc.global_tensor<?x128xf32>
  ascendc.data_copy %x, %g : !ascendc.local_tensor<16x128xf32>, !ascendc.global_tensor<?x128xf32>
  // CHECK: ascendc.data_copy %{{.*}}, %{{.*}}, %{{.*}} : !ascendc.global_tensor<?x128xf32>, !ascendc.local_tensor<16x128xf32>
  ascendc.data_copy %g, %y, %off : !ascendc.global_tensor<?x128xf32>, !ascendc.local_tensor<16x128xf32>
  return
}

// CHECK-LABEL: func.func @cube(
func.func @cube(%gm: !ascendc.global_tensor<32x32xf16>, %out: !ascendc.global_tensor<32x32xf32>, %n: index, %first: i1) {
  %a1 = ascendc.local_tensor_auto a1 : !ascendc.local_tensor<32x32xf16>
  %b1 = ascendc.local_tensor_auto b1 : !ascendc.local_tensor<32x32xf16>
  %c1 = ascendc.local_tensor_auto c1 : !ascendc.local_tensor<32xf32>
  %a2 = ascendc.local_tensor_auto a2 : !ascendc.local_tensor<32x32xf16>
  %b2 = ascendc.local_tensor_auto b2 : !ascendc.local_tensor<32x32xf16>
  %c2 = ascendc.local_tensor_auto c2 : !ascendc.local_tensor<32xf32>
  %acc = ascendc.local_tensor_auto co1 : !ascendc.local_tensor<32x32xf32>
  %ub = ascendc.local_tensor_auto co2 : !ascendc.local_tensor<32x32xf32>
  ascendc.data_copy %a1, %gm : !ascendc.local_tensor<32x32xf16>, !ascendc.global_tensor<32x32xf16>
  // CHECK: ascendc.load_data %{{.*}}, %{{.*}} : <32x32xf16>, <32x32xf16>
  ascendc.load_data %a2, %a1 : !ascendc.local_tensor<32x32xf16>, !ascendc.local_tensor<32x32xf16>
  // CHECK: ascendc.load_data %{{.*}}, %{{.*}} transpose : <32x32xf16>, <32x32xf16>
  ascendc.load_data %b2, %b1 transpose : !ascendc.local_tensor<32x32xf16>, !ascendc.local_tensor<32x32xf16>
  // CHECK: ascendc.data_copy %{{.*}}, %{{.*}} : !ascendc.local_tensor<32xf32>, !ascendc.local_tensor<32xf32>
  ascendc.data_copy %c2, %c1 : !ascendc.local_tensor<32xf32>, !ascendc.local_tensor<32xf32>
  // CHECK: ascendc.mmad %{{.*}}, %{{.*}}, %{{.*}} m %{{.*}} n %{{.*}} k %{{.*}} init %{{.*}} : <32x32xf32>, <32x32xf16>, <32x32xf16>
  ascendc.mmad %acc, %a2, %b2 m %n n %n k %n init %first : !ascendc.local_tensor<32x32xf32>, !ascendc.local_tensor<32x32xf16>, !ascendc.local_tensor<32x32xf16>
  // CHECK: ascendc.mmad %{{.*}}, %{{.*}}, %{{.*}} bias %{{.*}} m %{{.*}} n %{{.*}} k %{{.*}} : <32x32xf32>, <32x32xf16>, <32x32xf16>, !ascendc.local_tensor<32xf32>
  ascendc.mmad %acc, %a2, %b2 bias %c2 m %n n %n k %n : !ascendc.local_tensor<32x32xf32>, !ascendc.local_tensor<32x32xf16>, !ascendc.local_tensor<32x32xf16>, !ascendc.local_tensor<32xf32>
  // CHECK: ascendc.fixpipe %{{.*}}, %{{.*}} : !ascendc.local_tensor<32x32xf32>, <32x32xf32>
  ascendc.fixpipe %ub, %acc : !ascendc.local_tensor<32x32xf32>, !ascendc.local_tensor<32x32xf32>
  // CHECK: ascendc.fixpipe %{{.*}}, %{{.*}} : !ascendc.global_tensor<32x32xf32>, <32x32xf32>
  ascendc.fixpipe %out, %acc : !ascendc.global_tensor<32x32xf32>, !ascendc.local_tensor<32x32xf32>
  return
}

// CHECK-LABEL: func.func @vector(
func.func @vector(%n: index, %s: f32, %h: f16) {
  %x = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<256xf32>
  %y = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<256xf32>
  %m = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<32xui8>
  %hx = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<256xf16>
  // CHECK: ascendc.exp_l2 %{{.*}}, %{{.*}}, %{{.*}} : <256xf32>, <256xf32>
  ascendc.exp_l2 %y, %x, %n : !ascendc.local_tensor<256xf32>, !ascendc.local_tensor<256xf32>
  // CHECK: ascendc.abs_l0 %{{.*}}, %{{.*}} mask %{{.*}} repeat %{{.*}} strides [1, 1, 8, 8] : <256xf32>, <256xf32>
  ascendc.abs_l0 %y, %x mask %n repeat %n strides [1, 1, 8, 8] : !ascendc.local_tensor<256xf32>, !ascendc.local_tensor<256xf32>
  // CHECK: ascendc.add_l2 %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : <256xf32>, <256xf32>, <256xf32>
  ascendc.add_l2 %y, %x, %y, %n : !ascendc.local_tensor<256xf32>, !ascendc.local_tensor<256xf32>, !ascendc.local_tensor<256xf32>
  // CHECK: ascendc.max_l0 %{{.*}}, %{{.*}}, %{{.*}} mask %{{.*}} repeat %{{.*}} strides [1, 1, 1, 8, 8, 8] : <256xf32>, <256xf32>, <256xf32>
  ascendc.max_l0 %y, %x, %y mask %n repeat %n strides [1, 1, 1, 8, 8, 8] : !ascendc.local_tensor<256xf32>, !ascendc.local_tensor<256xf32>, !ascendc.local_tensor<256xf32>
  // CHECK: ascendc.muls_l2 %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : <256xf32>, <256xf32>, f32
  ascendc.muls_l2 %y, %x, %s, %n : !ascendc.local_tensor<256xf32>, !ascendc.local_tensor<256xf32>, f32
  // CHECK: ascendc.adds_l0 %{{.*}}, %{{.*}}, %{{.*}} mask %{{.*}} repeat %{{.*}} strides [1, 1, 8, 8] : <256xf32>, <256xf32>, f32
  ascendc.adds_l0 %y, %x, %s mask %n repeat %n strides [1, 1, 8, 8] : !ascendc.local_tensor<256xf32>, !ascendc.local_tensor<256xf32>, f32
  // CHECK: ascendc.duplicate_l2 %{{.*}}, %{{.*}}, %{{.*}} : <256xf32>, f32
  ascendc.duplicate_l2 %y, %s, %n : !ascendc.local_tensor<256xf32>, f32
  // CHECK: ascendc.duplicate_l0 %{{.*}}, %{{.*}} mask %{{.*}} repeat %{{.*}} strides [1, 8] : <256xf32>, f32
  ascendc.duplicate_l0 %y, %s mask %n repeat %n strides [1, 8] : !ascendc.local_tensor<256xf32>, f32
  // A lane bit mask (Ascend C's uint64_t mask[2]) instead of a lane count.
  %hi = arith.constant 0 : i64
  %lo = arith.constant -4294967296 : i64
  // CHECK: ascendc.duplicate_l0 %{{.*}}, %{{.*}} mask_bits[%{{.*}}, %{{.*}}] repeat %{{.*}} strides [1, 8] : <256xf32>, f32
  ascendc.duplicate_l0 %y, %s mask_bits [%hi, %lo] repeat %n strides [1, 8] : !ascendc.local_tensor<256xf32>, f32
  // CHECK: ascendc.add_l0 %{{.*}}, %{{.*}}, %{{.*}} mask_bits[%{{.*}}, %{{.*}}] repeat %{{.*}} : <256xf16>, <256xf16>, <256xf16>
  ascendc.add_l0 %hx, %hx, %hx mask_bits [%hi, %lo] repeat %n : !ascendc.local_tensor<256xf16>, !ascendc.local_tensor<256xf16>, !ascendc.local_tensor<256xf16>
  // CHECK: ascendc.cast_l2 %{{.*}}, %{{.*}}, rint, %{{.*}} : <256xf16>, <256xf32>
  ascendc.cast_l2 %hx, %x, rint, %n : !ascendc.local_tensor<256xf16>, !ascendc.local_tensor<256xf32>
  // CHECK: ascendc.cast_l0 %{{.*}}, %{{.*}}, floor mask %{{.*}} repeat %{{.*}} strides [1, 1, 4, 8] : <256xf16>, <256xf32>
  ascendc.cast_l0 %hx, %x, floor mask %n repeat %n strides [1, 1, 4, 8] : !ascendc.local_tensor<256xf16>, !ascendc.local_tensor<256xf32>
  // CHECK: ascendc.compare_l2 %{{.*}}, %{{.*}}, %{{.*}}, lt, %{{.*}} : <32xui8>, <256xf32>, <256xf32>
  ascendc.compare_l2 %m, %x, %y, lt, %n : !ascendc.local_tensor<32xui8>, !ascendc.local_tensor<256xf32>, !ascendc.local_tensor<256xf32>
  // CHECK: ascendc.compare_l0 %{{.*}}, %{{.*}}, %{{.*}}, ge mask %{{.*}} repeat %{{.*}} strides [1, 1, 1, 8, 8, 8] : <32xui8>, <256xf32>, <256xf32>
  ascendc.compare_l0 %m, %x, %y, ge mask %n repeat %n strides [1, 1, 1, 8, 8, 8] : !ascendc.local_tensor<32xui8>, !ascendc.local_tensor<256xf32>, !ascendc.local_tensor<256xf32>
  %row = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<1x256xf32>
  %full = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<8x256xf32>
  // CHECK: ascendc.broadcast %{{.*}}, %{{.*}} axis 0 : <8x256xf32>, <1x256xf32>
  ascendc.broadcast %full, %row axis 0 : !ascendc.local_tensor<8x256xf32>, !ascendc.local_tensor<1x256xf32>
  return
}

// CHECK-LABEL: func.func @sync(
func.func @sync(%n: index, %ok: i1) {
  // CHECK: ascendc.set_flag mte2 -> v, event 0
  ascendc.set_flag mte2 -> v, event 0
  // CHECK: ascendc.wait_flag mte2 -> v, event 0
  ascendc.wait_flag mte2 -> v, event 0
  // CHECK: ascendc.pipe_barrier all
  ascendc.pipe_barrier all
  // CHECK: ascendc.get_buf mte3, 2
  ascendc.get_buf mte3, 2
  // CHECK: ascendc.rls_buf mte3, 2
  ascendc.rls_buf mte3, 2
  // CHECK: ascendc.if_aic {
  // CHECK-NEXT: ascendc.cross_core_set_flag fix, flag 17
  // CHECK-NEXT: }
  ascendc.if_aic {
    ascendc.cross_core_set_flag fix, flag 17
  }
  // CHECK: ascendc.if_aiv {
  // CHECK-NEXT: ascendc.cross_core_wait_flag s, flag 17
  // CHECK-NEXT: %[[LANE:.*]] = ascendc.get_subblock_idx
  // CHECK-NEXT: ascendc.printf "lane %d\0A", %[[LANE]] : index
  ascendc.if_aiv {
    ascendc.cross_core_wait_flag s, flag 17
    %lane = ascendc.get_subblock_idx
    ascendc.printf "lane %d\n", %lane : index
    ascendc.yield
  }
  %t = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<64xf32>
  // CHECK: ascendc.dump_tensor %{{.*}}, 5, %{{.*}} : <64xf32>
  ascendc.dump_tensor %t, 5, %n : !ascendc.local_tensor<64xf32>
  // CHECK: ascendc.assert %{{.*}}, "n fits"
  ascendc.assert %ok, "n fits"
  return
}

// A printf without arguments followed by an op that defines a value.
// CHECK-LABEL: func.func @printf_alone
// CHECK: ascendc.printf "start\0A"
// CHECK-NEXT: %{{.*}} = ascendc.get_subblock_idx
func.func @printf_alone() {
  ascendc.printf "start\n"
  %lane = ascendc.get_subblock_idx
  return
}
