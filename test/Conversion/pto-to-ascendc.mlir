// RUN: tilekit-opt %S/Inputs/scaled_add.mlir --convert-pto-to-ascendc | FileCheck %s
// RUN: not tilekit-opt %s -split-input-file --convert-pto-to-ascendc 2>&1 | FileCheck %s --check-prefix=ERR
// RUN: tilekit-opt %S/Inputs/ragged.mlir --convert-pto-to-ascendc | FileCheck %s --check-prefix=RAGGED
// RUN: tilekit-opt %S/Inputs/cast.mlir --convert-pto-to-ascendc | FileCheck %s --check-prefix=CAST
// RUN: tilekit-opt %S/Inputs/expand.mlir --convert-pto-to-ascendc | FileCheck %s --check-prefix=EXPAND
// RUN: tilekit-opt %S/Inputs/reduce.mlir --convert-pto-to-ascendc | FileCheck %s --check-prefix=REDUCE
// RUN: tilekit-opt %examples/gemm.mlir --convert-pto-to-ascendc | FileCheck %s --check-prefix=GEMM
// RUN: tilekit-opt %S/Inputs/carried.mlir --convert-pto-to-ascendc | FileCheck %s --check-prefix=CARRIED

// GM tensors become global tensors, vector tiles placeholder local tensors
// (VECIN for loads, VECCALC for computed tiles); a whole-row tile load is
// a view at row * 128 elements and one copy; each elementwise op writes a
// fresh local tensor at L2 (no count: the whole tensor); the store copies
// out and the stored tensor is the same GM buffer; scf stays (a loop no
// longer carries the GM tensor, which is the same buffer on every trip).
// CHECK-LABEL: func.func @scaled_add(
// CHECK-SAME: %[[X:.*]]: !ascendc.global_tensor<64x128xf32>, %[[Y:.*]]: !ascendc.global_tensor<64x128xf32>, %[[Z:.*]]: !ascendc.global_tensor<64x128xf32>, %[[A:.*]]: f32) -> !ascendc.global_tensor<64x128xf32>
// CHECK: scf.for %[[ROW:.*]] = {{.*}} {
// CHECK: %[[C128:.*]] = arith.constant 128 : index
// CHECK: %[[OFF:.*]] = arith.muli %[[ROW]], %[[C128]]
// CHECK: %[[XV:.*]] = ascendc.global_tensor.subindex %[[X]][%[[OFF]]]
// CHECK: %[[TX:.*]] = ascendc.local_tensor_auto vecin : <16x128xf32>
// CHECK: ascendc.data_copy %[[TX]], %[[XV]]
// CHECK: %[[TY:.*]] = ascendc.local_tensor_auto vecin
// CHECK: %[[AX:.*]] = ascendc.local_tensor_auto veccalc : <16x128xf32>
// CHECK: ascendc.muls_l2 %[[AX]], %[[TX]], %[[A]] :
// CHECK: %[[S:.*]] = ascendc.local_tensor_auto veccalc
// CHECK: ascendc.add_l2 %[[S]], %[[AX]], %[[TY]] :
// CHECK: ascendc.relu_l2
// CHECK: ascendc.min_l2 {{.*}}, %[[TX]], %[[TY]] :
// CHECK: ascendc.exp_l2
// CHECK: %[[D:.*]] = ascendc.local_tensor_auto veccalc
// CHECK: ascendc.sub_l2 %[[D]],
// CHECK: %[[ZV:.*]] = ascendc.global_tensor.subindex %[[Z]]
// CHECK: ascendc.data_copy %[[ZV]], %[[D]] :
// CHECK-NOT: scf.yield
// CHECK: return %[[Z]] : !ascendc.global_tensor<64x128xf32>
// CHECK-NOT: pto.

// A PTO op without a lowering is an error at the op, naming it.
// ERR: pto-to-ascendc.mlir:[[@LINE+2]]:8: error: 'pto.tensor.exp' op is not lowered to AscendC; write it as
func.func @host_exp(%x: !pto.tensor<16x128xf32>) -> !pto.tensor<16x128xf32> attributes {pto.kind = #pto.kind<orchestration>} {
  %e = pto.tensor.exp %x : !pto.tensor<16x128xf32>
  return %e : !pto.tensor<16x128xf32>
}

// -----

// A tile of a rank-3 tensor that is not whole rows of it has no window.
// ERR: pto-to-ascendc.mlir:[[@LINE+4]]:8: error: 'pto.tile.load' op moves a rank-3 tile that is not whole rows of its tensor; windows are lowered for 2-d tiles
func.func @narrow(%x: !pto.tensor<2x64x128xf32>, %y: !pto.tensor<2x64x128xf32>) -> !pto.tensor<2x64x128xf32> attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %t = pto.tile.load %x[%c0, %c0, %c64] : !pto.tensor<2x64x128xf32> -> !pto.tile<1x16x64xf32, vec>
  %r = pto.tile.store %t, %y[%c0, %c0, %c64] : !pto.tile<1x16x64xf32, vec> -> !pto.tensor<2x64x128xf32>
  return %r : !pto.tensor<2x64x128xf32>
}

// -----

// A loop that carries a new cube tile each trip (not an in-place update):
// there is no copy into a home tensor in L0C.
// ERR: pto-to-ascendc.mlir:[[@LINE+9]]:11: error: carries a new cube tile across its trips (iter_arg 0), which is not lowered to AscendC; update the tile in place
func.func @carried(%x: !pto.tensor<64x64xf16>, %y: !pto.tensor<64x64xf32>) -> !pto.tensor<64x64xf32> attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %a = pto.tile.load %x[%c0, %c0] : !pto.tensor<64x64xf16> -> !pto.tile<64x64xf16, mat>
  %l = pto.tile.move %a : !pto.tile<64x64xf16, mat> -> !pto.tile<64x64xf16, left>
  %r = pto.tile.move %a : !pto.tile<64x64xf16, mat> -> !pto.tile<64x64xf16, right>
  %c = pto.tile.create : !pto.tile<64x64xf32, acc>
  %last = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %c) -> (!pto.tile<64x64xf32, acc>) {
    %p = pto.tile.matmul %l, %r : !pto.tile<64x64xf16, left>, !pto.tile<64x64xf16, right> -> !pto.tile<64x64xf32, acc>
    scf.yield %p : !pto.tile<64x64xf32, acc>
  }
  %out = pto.tile.store %last, %y[%c0, %c0] : !pto.tile<64x64xf32, acc> -> !pto.tensor<64x64xf32>
  return %out : !pto.tensor<64x64xf32>
}

// -----

// A fold of rows that are not whole 32-byte blocks, which the API reads
// padded to whole blocks.
// ERR: pto-to-ascendc.mlir:[[@LINE+4]]:8: error: 'pto.tile.row_max' op folds '!pto.tile<16x100xf16, vec>', whose rows of 200 bytes are not whole 32-byte blocks; the API's Reduce reads rows padded to whole blocks (srcInnerPad): widen the tile to 112 columns (its valid columns can stay 100)
func.func @unpadded_fold(%x: !pto.tensor<16x100xf16>, %y: !pto.tensor<16x1xf16>) -> !pto.tensor<16x1xf16> attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %t = pto.tile.load %x[%c0, %c0] : !pto.tensor<16x100xf16> -> !pto.tile<16x100xf16, vec>
  %m = pto.tile.row_max %t : !pto.tile<16x100xf16, vec> -> !pto.tile<16x1xf16, vec>
  %r = pto.tile.store %m, %y[%c0, %c0] : !pto.tile<16x1xf16, vec> -> !pto.tensor<16x1xf16>
  return %r : !pto.tensor<16x1xf16>
}

// -----

// Columns are padded by the lanes of a vector repeat, whose mask covers
// 128 elements: a repeat of 8-bit elements has 256.
// ERR: pto-to-ascendc.mlir:[[@LINE+4]]:8: error: 'pto.tile.fillpad' op pads the columns of a '!pto.tile<16x64xi8, vec>'; that is lowered for 2-d tiles of 16- or 32-bit elements whose rows are whole 32-byte blocks (the lane mask of a repeat covers 128 elements)
func.func @narrow_pad(%x: !pto.tensor<64x64xi8>, %n: index) -> !pto.tensor<64x64xi8> attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %t = pto.tile.load %x[%c0, %c0] valid [%n, %n] : !pto.tensor<64x64xi8> -> !pto.tile<16x64xi8, vec>
  %p = pto.tile.fillpad %t, zero : !pto.tile<16x64xi8, vec>
  %r = pto.tile.store %p, %x[%c0, %c0] : !pto.tile<16x64xi8, vec> -> !pto.tensor<64x64xi8>
  return %r : !pto.tensor<64x64xi8>
}

// -----

// A tile whose valid shape reaches its store through an scf result: the
// lowering cannot tell how many rows to store.
// ERR: pto-to-ascendc.mlir:[[@LINE+11]]:8: error: 'pto.tile.store' op stores a tile whose valid shape the lowering cannot follow here
func.func @through_if(%x: !pto.tensor<64x128xf32>, %n: index, %p: i1) -> !pto.tensor<64x128xf32> attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  %t = pto.tile.load %x[%c0, %c0] valid [%n, %c128] : !pto.tensor<64x128xf32> -> !pto.tile<16x128xf32, vec>
  %u = scf.if %p -> (!pto.tile<16x128xf32, vec>) {
    scf.yield %t : !pto.tile<16x128xf32, vec>
  } else {
    %e = pto.tile.exp %t : !pto.tile<16x128xf32, vec>
    scf.yield %e : !pto.tile<16x128xf32, vec>
  }
  %r = pto.tile.store %u, %x[%c0, %c0] : !pto.tile<16x128xf32, vec> -> !pto.tensor<64x128xf32>
  return %r : !pto.tensor<64x128xf32>
}

// A ragged last tile (Inputs/ragged.mlir): the load copies rows x 64
// elements, and so does the store of what is computed from it. The rows
// asked for are clamped to the rows left past the offset, as the executor
// clamps them (the range analysis cannot tie the two together).
// RAGGED: arith.minui
// RAGGED: %[[LEFT:.*]] = arith.subi %{{.*}}, %{{.*}} : index
// RAGGED: %[[ROWS:.*]] = arith.minsi %{{.*}}, %[[LEFT]] : index
// RAGGED: %[[COUNT:.*]] = arith.muli %[[ROWS]], %{{.*}} : index
// RAGGED: ascendc.data_copy %{{.*}}, %{{.*}}, %[[COUNT]] : !ascendc.local_tensor<16x64xf32>, !ascendc.global_tensor<37x64xf32>
// RAGGED: ascendc.exp_l2
// RAGGED: ascendc.muls_l2
// RAGGED: %[[STORED:.*]] = arith.muli %[[ROWS]], %{{.*}} : index
// RAGGED: ascendc.data_copy %{{.*}}, %{{.*}}, %[[STORED]] : !ascendc.global_tensor<37x64xf32>, !ascendc.local_tensor<16x64xf32>

// Casts keep their round mode (none when absent); each writes a fresh
// tensor of the result's element type (Inputs/cast.mlir).
// CAST: %[[W:.*]] = ascendc.local_tensor_auto veccalc : <16x64xf32>
// CAST: ascendc.cast_l2 %[[W]], %{{.*}}, none : <16x64xf32>, <16x64xf16>
// CAST: %[[N:.*]] = ascendc.local_tensor_auto veccalc : <16x64xf16>
// CAST: ascendc.cast_l2 %[[N]], %{{.*}}, trunc : <16x64xf16>, <16x64xf32>

// A row expansion broadcasts the column along axis 1 into a fresh tensor,
// then combines into it in place; expdif subtracts and takes exp there
// (Inputs/expand.mlir).
// EXPAND: %[[COL:.*]] = ascendc.local_tensor_auto vecin : <16x1xf32>
// EXPAND: %[[E:.*]] = ascendc.local_tensor_auto veccalc : <16x64xf32>
// EXPAND: ascendc.broadcast %[[E]], %[[COL]] axis 1 : <16x64xf32>, <16x1xf32>
// EXPAND: ascendc.sub_l2 %[[E]], %{{.*}}, %[[E]] :
// EXPAND: ascendc.exp_l2 %[[E]], %[[E]] :
// EXPAND: %[[M:.*]] = ascendc.local_tensor_auto veccalc : <16x64xf32>
// EXPAND: ascendc.broadcast %[[M]], %[[COL]] axis 1
// EXPAND: ascendc.mul_l2 %[[M]], %[[E]], %[[M]] :

// -----

// exp of a difference in f16 would round the difference first.
// ERR: pto-to-ascendc.mlir:[[@LINE+5]]:8: error: 'pto.tile.row_expand_expdif' op computes exp of a difference in 'f16', which is lowered only for f32 tiles
func.func @expdif16(%x: !pto.tensor<16x64xf16>, %m: !pto.tensor<16x1xf16>) -> !pto.tensor<16x64xf16> attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %t = pto.tile.load %x[%c0, %c0] : !pto.tensor<16x64xf16> -> !pto.tile<16x64xf16, vec>
  %col = pto.tile.load %m[%c0, %c0] : !pto.tensor<16x1xf16> -> !pto.tile<16x1xf16, vec>
  %e = pto.tile.row_expand_expdif %t, %col : !pto.tile<16x64xf16, vec>, !pto.tile<16x1xf16, vec>
  %r = pto.tile.store %e, %x[%c0, %c0] : !pto.tile<16x64xf16, vec> -> !pto.tensor<16x64xf16>
  return %r : !pto.tensor<16x64xf16>
}

// A row fold keeps the valid rows (its store copies rows x 1 elements); a
// column fold folds only them (`rows`) and its 1 x 64 result is whole.
// The rows asked for are clamped to the tensor's (the load's rule) and a
// fold runs only when there is a row.
// REDUCE-LABEL: func.func @reduce(
// REDUCE: ascendc.global_tensor.dim %arg0, 0 : <?x64xf32>
// REDUCE: %[[N:.*]] = arith.minsi
// REDUCE: %[[T:.*]] = ascendc.local_tensor_auto vecin : <16x64xf32>
// REDUCE: %[[SUM:.*]] = ascendc.local_tensor_auto veccalc : <16x1xf32>
// REDUCE: scf.if
// REDUCE-NEXT: ascendc.reduce_sum %[[SUM]], %[[T]] axis 1 rows %[[N]] : <16x1xf32>, <16x64xf32>
// REDUCE: %[[MAX:.*]] = ascendc.local_tensor_auto veccalc : <1x64xf32>
// REDUCE: scf.if
// REDUCE-NEXT: ascendc.reduce_max %[[MAX]], %[[T]] axis 0 rows %[[N]] : <1x64xf32>, <16x64xf32>
// REDUCE: %[[C1:.*]] = arith.constant 1 : index
// REDUCE: %[[SUMS:.*]] = arith.muli %[[N]], %[[C1]]
// REDUCE: ascendc.data_copy %{{.*}}, %[[SUM]], %[[SUMS]] :
// REDUCE: ascendc.data_copy %{{.*}}, %[[MAX]] :

// GEMM (examples/gemm.mlir): the operand tiles load as windows of the
// dynamic-width tensors into A1 and B1 (the L1 tile feeding a right operand
// sits at B1), load_data stages them in L0A/L0B, the K loop's mmad
// accumulates in place into one CO1 tensor (the loop no longer carries it)
// with the valid K and the loop's init bit, and the fixpipe stores the
// valid corner. The dynamic-shape loads clamp the extents they ask for to
// what the tensors have past their offsets (the executor's rule).
// GEMM-LABEL: func.func @gemm_block(
// GEMM: %[[ACC:.*]] = ascendc.local_tensor_auto co1 : <64x64xf32>
// GEMM: scf.for %[[K0:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// GEMM: %[[KASK:.*]] = arith.minui
// GEMM: %[[ROWS:.*]] = arith.minsi %arg5,
// GEMM: %[[KV:.*]] = arith.minsi %[[KASK]],
// GEMM: %[[WIDTH:.*]] = ascendc.global_tensor.dim %arg0, 1
// GEMM: %[[A1:.*]] = ascendc.local_tensor_auto a1 : <64x32xf16>
// GEMM: ascendc.data_copy %[[A1]], %{{.*}} window[%[[ROWS]], %[[KV]]] strides[%[[WIDTH]], %{{.*}}]
// GEMM: %[[BK:.*]] = arith.minsi %[[KASK]],
// GEMM: %[[COLS:.*]] = arith.minsi %arg6,
// GEMM: %[[B1:.*]] = ascendc.local_tensor_auto b1 : <32x64xf16>
// GEMM: ascendc.data_copy %[[B1]], %{{.*}} window[%[[BK]], %[[COLS]]]
// GEMM: %[[A2:.*]] = ascendc.local_tensor_auto a2
// GEMM: ascendc.load_data %[[A2]], %[[A1]]
// GEMM: %[[B2:.*]] = ascendc.local_tensor_auto b2
// GEMM: ascendc.load_data %[[B2]], %[[B1]]
// GEMM: %[[FIRST:.*]] = arith.cmpi eq, %[[K0]]
// GEMM: ascendc.mmad %[[ACC]], %[[A2]], %[[B2]] m %{{.*}} n %{{.*}} k %[[KV]] init %[[FIRST]]
// GEMM-NOT: scf.yield
// GEMM: ascendc.fixpipe %{{.*}}, %[[ACC]] window[%arg5, %arg6] strides[

// -----

// A transfer the group merge did not place has no slot to lower with, and
// a record must name its slot's tensor.
func.func @lonely(%x: !pto.tensor<64x64xf32>) {
  %t = pto.tile.create : !pto.tile<64x64xf32, acc>
  // ERR: pto-to-ascendc.mlir:[[@LINE+1]]:3: error: 'pto.tile.tpush_to_aiv' op is outside a group, where it has no partner to lower with (pto-merge-groups places a group's transfers)
  pto.tile.tpush_to_aiv %t split 0 : !pto.tile<64x64xf32, acc>
  return
}

// -----

func.func @no_slot(%x: !pto.tensor<64x64xf32>) attributes {tilekit.merged_group} {
  %t = pto.tile.create : !pto.tile<64x64xf32, acc>
  // ERR: pto-to-ascendc.mlir:[[@LINE+1]]:3: error: 'pto.tile.tpush_to_aiv' op names workspace 3, which its function does not hold
  pto.tile.tpush_to_aiv %t split 0 {tilekit.transfer = {cut = 0 : i64, id = 0 : i64, lane = 0 : i64, lanes = 1 : i64, workspace = 3 : i64}} : !pto.tile<64x64xf32, acc>
  return
}

// -----

func.func @bad_record(%x: !pto.tensor<64x64xf32>) attributes {tilekit.merged_group} {
  %t = pto.tile.create : !pto.tile<64x64xf32, acc>
  // ERR: pto-to-ascendc.mlir:[[@LINE+1]]:3: error: 'pto.tile.tpush_to_aiv' op has a malformed 'tilekit.transfer' record {lane = 2 : i64, lanes = 1 : i64}
  pto.tile.tpush_to_aiv %t split 0 {tilekit.transfer = {lane = 2 : i64, lanes = 1 : i64}} : !pto.tile<64x64xf32, acc>
  return
}

// Vector tiles carried across trips, a new one each trip (Inputs/
// carried.mlir): each lives in a home tensor, a copy of the initial tile
// before the loop; the body reads the homes and its end copies the trip's
// tiles into them; the loop carries nothing and the results are the homes.
// CARRIED: %[[S0:.*]] = ascendc.local_tensor_auto veccalc
// CARRIED: ascendc.duplicate_l2 %[[S0]]
// CARRIED: %[[M0:.*]] = ascendc.local_tensor_auto veccalc
// CARRIED: ascendc.duplicate_l2 %[[M0]]
// CARRIED: %[[SUM:.*]] = ascendc.local_tensor_auto veccalc
// CARRIED: ascendc.data_copy %[[SUM]], %[[S0]] :
// CARRIED: %[[MAX:.*]] = ascendc.local_tensor_auto veccalc
// CARRIED: ascendc.data_copy %[[MAX]], %[[M0]] :
// CARRIED: scf.for {{.*}} {
// CARRIED: ascendc.add_l2 %[[NEXT:.*]], %[[SUM]], %{{.*}} :
// CARRIED: ascendc.max_l2 %[[HIGHER:.*]], %[[MAX]], %{{.*}} :
// CARRIED: ascendc.data_copy %[[SUM]], %[[NEXT]] :
// CARRIED: ascendc.data_copy %[[MAX]], %[[HIGHER]] :
// CARRIED-NEXT: }
// CARRIED: ascendc.data_copy %{{.*}}, %[[SUM]] :
// CARRIED: ascendc.data_copy %{{.*}}, %[[MAX]] :
