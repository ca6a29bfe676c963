// Every AscendC op through tilekit-translate --ascendc-to-cpp: the Ascend C
// call each becomes (docs/emit-cpp.md has the table and the API pages).
// (The source-line comments before each call are checked in
// compile-emit.test; here they are left out.)
// RUN: tilekit-translate --ascendc-to-cpp %s | grep -v '// ascendc-ops.mlir:' | FileCheck %s
// The C++ is well-formed against the API's declarations, warnings as errors.
// RUN: tilekit-translate --ascendc-to-cpp %s -o %t.cpp
// RUN: %clangxx -fsyntax-only -std=c++17 -Wall -Werror %runtime_flags %t.cpp

// CHECK: #include "kernel_operator.h"
// The kernel: GM tensors arrive as GM_ADDR, then the dynamic extents,
// then the workspace.
// CHECK: extern "C" __global__ __aicore__ void vector_ops(GM_ADDR [[X:v[0-9]+]], GM_ADDR [[Y:v[0-9]+]], float [[S:v[0-9]+]], ptrdiff_t [[N:v[0-9]+]], ptrdiff_t [[ROWS:v[0-9]+]], GM_ADDR [[WS:v[0-9]+]]) {
// CHECK: AscendC::GlobalTensor<float> [[XG:v[0-9]+]];
// CHECK-NEXT: [[XG]].SetGlobalBuffer((__gm__ float *)([[X]]));
// CHECK-NEXT: AscendC::GlobalTensor<float> [[XV:v[0-9]+]] = [[XG]];
// CHECK: AscendC::GlobalTensor<half> [[W0:v[0-9]+]];
// CHECK-NEXT: [[W0]].SetGlobalBuffer((__gm__ half *)([[WS]]));
// A second region starts past the first (64 halves = 128 bytes).
// CHECK: [[W1:v[0-9]+]].SetGlobalBuffer((__gm__ float *)([[WS]] + 128));
func.func @vector_ops(%x: !ascendc.global_tensor<?x64xf32>, %y: !ascendc.global_tensor<16x64xf32>,
                      %s: f32, %n: index) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %c1024 = arith.constant 1024 : index
  %ws0 = ascendc.workspace : !ascendc.global_tensor<64xf16>
  %ws1 = ascendc.workspace : !ascendc.global_tensor<64xf32>
  // CHECK: AscendC::LocalTensor<float> [[A:v[0-9]+]] = AscendC::LocalTensor<float>(AscendC::TPosition::VECIN, 0, 1024);
  %a = ascendc.local_tensor vecin addr 0 size 4096 : !ascendc.local_tensor<16x64xf32>
  // CHECK: AscendC::LocalTensor<float> [[B:v[0-9]+]] = AscendC::LocalTensor<float>(AscendC::TPosition::VECCALC, 4096, 1024);
  %b = ascendc.local_tensor veccalc addr 4096 size 4096 : !ascendc.local_tensor<16x64xf32>
  %h = ascendc.local_tensor vecout addr 8192 size 2048 : !ascendc.local_tensor<16x64xf16>
  %m = ascendc.local_tensor veccalc addr 12288 size 256 : !ascendc.local_tensor<128xui8>
  // The extent of a dynamic dimension is its kernel argument.
  // CHECK: ptrdiff_t [[OFF:v[0-9]+]] = [[ROWS]] *
  %rows = ascendc.global_tensor.dim %x, 0 : !ascendc.global_tensor<?x64xf32>
  %off = arith.muli %rows, %c8 : index
  // CHECK: AscendC::GlobalTensor<float> [[VIEW:v[0-9]+]] = [[XV]][[[OFF]]];
  %view = ascendc.global_tensor.subindex %x[%off] : !ascendc.global_tensor<?x64xf32> to !ascendc.global_tensor<?x64xf32>
  // A count known only at run time may not fill whole 32-byte blocks,
  // which DataCopy moves: DataCopyPad of its bytes.
  // CHECK: [[ONE:v[0-9]+]].blockLen = {{v[0-9]+}};
  // CHECK: AscendC::DataCopyPad([[A]], [[VIEW]], {{v[0-9]+}}, {{v[0-9]+}});
  ascendc.data_copy %a, %view, %n : !ascendc.local_tensor<16x64xf32>, !ascendc.global_tensor<?x64xf32>
  // A count of whole blocks: DataCopy.
  // CHECK: AscendC::DataCopy([[A]], [[VIEW]], {{v[0-9]+}});
  ascendc.data_copy %a, %view, %c1024 : !ascendc.local_tensor<16x64xf32>, !ascendc.global_tensor<?x64xf32>
  // A window from GM: DataCopyPad with the gaps in bytes (GM) and blocks (UB).
  // CHECK: AscendC::DataCopyExtParams [[P:v[0-9]+]];
  // CHECK: [[P]].blockCount =
  // CHECK: [[P]].blockLen =
  // CHECK: [[P]].srcStride =
  // CHECK: [[P]].dstStride =
  // CHECK: AscendC::DataCopyPadExtParams<float> [[PAD:v[0-9]+]];
  // CHECK: AscendC::DataCopyPad([[B]], [[VIEW]], {{v[0-9]+}}, {{v[0-9]+}});
  ascendc.data_copy %b, %view window [%c8, %c64] strides [%c64, %c64] : !ascendc.local_tensor<16x64xf32>, !ascendc.global_tensor<?x64xf32>
  // CHECK: AscendC::Adds([[B]], [[A]], [[S]], {{v[0-9]+}});
  ascendc.adds_l2 %b, %a, %s, %c1024 : !ascendc.local_tensor<16x64xf32>, !ascendc.local_tensor<16x64xf32>, f32
  // Without a count: the whole destination.
  // CHECK: ptrdiff_t [[ALL:v[0-9]+]] = 1024;
  // CHECK-NEXT: AscendC::Exp([[A]], [[B]], [[ALL]]);
  ascendc.exp_l2 %a, %b : !ascendc.local_tensor<16x64xf32>, !ascendc.local_tensor<16x64xf32>
  // CHECK: AscendC::Max([[A]], [[A]], [[B]], {{v[0-9]+}});
  ascendc.max_l2 %a, %a, %b, %c1024 : !ascendc.local_tensor<16x64xf32>, !ascendc.local_tensor<16x64xf32>, !ascendc.local_tensor<16x64xf32>
  // CHECK: AscendC::Duplicate([[B]], [[S]], {{v[0-9]+}});
  ascendc.duplicate_l2 %b, %s, %c1024 : !ascendc.local_tensor<16x64xf32>, f32
  // CHECK: AscendC::Cast({{v[0-9]+}}, [[A]], AscendC::RoundMode::CAST_RINT, {{v[0-9]+}});
  ascendc.cast_l2 %h, %a, rint, %c1024 : !ascendc.local_tensor<16x64xf16>, !ascendc.local_tensor<16x64xf32>
  // CHECK: AscendC::Compare({{v[0-9]+}}, [[A]], [[B]], AscendC::CMPMODE::LT, {{v[0-9]+}});
  ascendc.compare_l2 %m, %a, %b, lt, %c1024 : !ascendc.local_tensor<128xui8>, !ascendc.local_tensor<16x64xf32>, !ascendc.local_tensor<16x64xf32>
  // Level 0: a lane count, the repeat, the strides as a parameter struct.
  // CHECK: AscendC::BinaryRepeatParams [[BP:v[0-9]+]] = AscendC::BinaryRepeatParams(1, 1, 1, 8, 8, 8);
  // CHECK-NEXT: AscendC::Add([[A]], [[A]], [[B]], {{v[0-9]+}}, {{v[0-9]+}}, [[BP]]);
  ascendc.add_l0 %a, %a, %b mask %c64 repeat %c8 strides [1, 1, 1, 8, 8, 8] : !ascendc.local_tensor<16x64xf32>, !ascendc.local_tensor<16x64xf32>, !ascendc.local_tensor<16x64xf32>
  // Lane bits: uint64_t mask[2] = {low, high}.
  // CHECK: uint64_t [[MASK:v[0-9]+]][2];
  // CHECK: uint64_t [[LOW:v[0-9]+]] = (uint64_t) [[LO:v[0-9]+]];
// CHECK-NEXT: [[MASK]][{{v[0-9]+}}] = [[LOW]];
  // CHECK: AscendC::UnaryRepeatParams [[UP:v[0-9]+]] = AscendC::UnaryRepeatParams(1, 1, 8, 8);
  // CHECK-NEXT: AscendC::Muls([[B]], [[A]], [[S]], [[MASK]], {{v[0-9]+}}, [[UP]]);
  %lo = arith.constant 255 : i64
  %hi = arith.constant 0 : i64
  ascendc.muls_l0 %b, %a, %s mask_bits [%hi, %lo] repeat %c8 : !ascendc.local_tensor<16x64xf32>, !ascendc.local_tensor<16x64xf32>, f32
  // Duplicate at level 0 takes its two strides as arguments.
  // CHECK: AscendC::Duplicate([[B]], [[S]], {{v[0-9]+}}, {{v[0-9]+}}, 1, 8);
  ascendc.duplicate_l0 %b, %s mask %c64 repeat %c8 : !ascendc.local_tensor<16x64xf32>, f32
  // CHECK: AscendC::DataCopy([[YG:v[0-9]+]], [[B]], {{v[0-9]+}});
  ascendc.data_copy %y, %b : !ascendc.global_tensor<16x64xf32>, !ascendc.local_tensor<16x64xf32>
  // A window to GM.
  // CHECK: AscendC::DataCopyPad({{v[0-9]+}}, [[B]], {{v[0-9]+}});
  ascendc.data_copy %y, %b window [%c8, %c64] strides [%c64, %c64] : !ascendc.global_tensor<16x64xf32>, !ascendc.local_tensor<16x64xf32>
  // UB to UB: DataCopyParams in 32-byte blocks.
  // CHECK: AscendC::DataCopyParams
  // CHECK: AscendC::DataCopy([[A]], [[B]], {{v[0-9]+}});
  ascendc.data_copy %a, %b window [%c8, %c64] strides [%c64, %c64] : !ascendc.local_tensor<16x64xf32>, !ascendc.local_tensor<16x64xf32>
  // The same storage seen with another element type.
  // CHECK: AscendC::LocalTensor<int32_t> [[I:v[0-9]+]];
  // CHECK-NEXT: [[I]] = [[A]].ReinterpretCast<int32_t>();
  %i = ascendc.reinterpret_cast %a : !ascendc.local_tensor<16x64xf32> to !ascendc.local_tensor<16x64xi32>
  %c0_i32 = arith.constant 0 : i32
  ascendc.duplicate_l2 %i, %c0_i32, %c1024 : !ascendc.local_tensor<16x64xi32>, i32
  // The advanced API with its planned scratch (sharedTmpBuffer).
  // CHECK: AscendC::LocalTensor<uint8_t> [[TMP:v[0-9]+]] = AscendC::LocalTensor<uint8_t>(AscendC::TPosition::VECCALC, 16704, 2048);
  %tmp = ascendc.local_tensor veccalc addr 16704 size 2048 : !ascendc.local_tensor<2048xui8>
  // CHECK: uint32_t [[DST:v[0-9]+]][2];
  // CHECK: AscendC::Broadcast<float, 2, 0>([[A]], {{v[0-9]+}}, [[DST]], {{v[0-9]+}}, [[TMP]]);
  %row = ascendc.local_tensor veccalc addr 16384 size 256 : !ascendc.local_tensor<1x64xf32>
  ascendc.broadcast %a, %row axis 0 scratch %tmp : !ascendc.local_tensor<16x64xf32>, !ascendc.local_tensor<1x64xf32>, !ascendc.local_tensor<2048xui8>
  // CHECK: AscendC::ReduceSum<float, AscendC::Pattern::Reduce::AR>({{v[0-9]+}}, [[A]], [[TMP]], {{v[0-9]+}}, true);
  %sums = ascendc.local_tensor veccalc addr 16640 size 64 : !ascendc.local_tensor<16x1xf32>
  ascendc.reduce_sum %sums, %a axis 1 scratch %tmp : !ascendc.local_tensor<16x1xf32>, !ascendc.local_tensor<16x64xf32>, !ascendc.local_tensor<2048xui8>
  // CHECK: AscendC::ReduceMax<float, AscendC::Pattern::Reduce::RA>({{v[0-9]+}}, [[A]], [[TMP]], {{v[0-9]+}}, true);
  ascendc.reduce_max %row, %a axis 0 rows %c8 scratch %tmp : !ascendc.local_tensor<1x64xf32>, !ascendc.local_tensor<16x64xf32>, !ascendc.local_tensor<2048xui8>
  // Synchronization.
  // CHECK: AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(2);
  ascendc.set_flag v -> mte3, event 2
  // CHECK: AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(2);
  ascendc.wait_flag v -> mte3, event 2
  // CHECK: AscendC::PipeBarrier<PIPE_V>();
  ascendc.pipe_barrier v
  // CHECK: AscendC::Mutex::Lock<PIPE_MTE2>(3);
  ascendc.get_buf mte2, 3
  // CHECK: AscendC::Mutex::Unlock<PIPE_MTE2>(3);
  ascendc.rls_buf mte2, 3
  // Debugging.
  // CHECK: AscendC::printf("n = %d\n", [[N]]);
  ascendc.printf "n = %d\n", %n : index
  // CHECK: AscendC::DumpTensor([[A]], 7, {{v[0-9]+}});
  ascendc.dump_tensor %a, 7, %c8 : !ascendc.local_tensor<16x64xf32>
  // CHECK: assert({{v[0-9]+}}, "n must be positive");
  %pos = arith.cmpi sgt, %n, %c0 : index
  ascendc.assert %pos, "n must be positive"
  // CHECK: return;
  return
}

// A mixed kernel: the cube's and the vector core's groups, the cube ops,
// the cross-core flags and the queries.
// CHECK: extern "C" __global__ __aicore__ void cube_ops(GM_ADDR [[CX:v[0-9]+]], GM_ADDR [[CW:v[0-9]+]], GM_ADDR [[CB:v[0-9]+]], GM_ADDR [[CY:v[0-9]+]]) {
// CHECK: if (AscendC::GetSubBlockIdx() != 0) { return; }
func.func @cube_ops(%x: !ascendc.global_tensor<16x32xf16>, %w: !ascendc.global_tensor<32x16xf16>,
                    %bias: !ascendc.global_tensor<1x16xf32>, %y: !ascendc.global_tensor<16x16xf32>) {
  ascendc.subblock_guard
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c0 = arith.constant 0 : index
  // CHECK: if (g_coreType == AscendC::AIC) {
  ascendc.if_aic {
    %xl1 = ascendc.local_tensor a1 addr 0 size 1024 : !ascendc.local_tensor<16x32xf16>
    // ND rows into the NZ fractals of L1.
    // CHECK: AscendC::Nd2NzParams [[ND:v[0-9]+]];
    // CHECK: [[ND]].nValue =
    // CHECK: [[ND]].dValue =
    // CHECK: AscendC::DataCopy([[XL1:v[0-9]+]], {{v[0-9]+}}, {{v[0-9]+}});
    ascendc.data_copy %xl1, %x window [%c16, %c32] strides [%c32, %c32] : !ascendc.local_tensor<16x32xf16>, !ascendc.global_tensor<16x32xf16>
    %wl1 = ascendc.local_tensor b1 addr 1024 size 1024 : !ascendc.local_tensor<32x16xf16>
    ascendc.data_copy %wl1, %w : !ascendc.local_tensor<32x16xf16>, !ascendc.global_tensor<32x16xf16>
    %a = ascendc.local_tensor a2 addr 0 size 1024 : !ascendc.local_tensor<16x32xf16>
    %b = ascendc.local_tensor b2 addr 0 size 1024 : !ascendc.local_tensor<32x16xf16>
    // CHECK: AscendC::LoadData2DParams [[LD:v[0-9]+]];
    // CHECK: [[LD]].repeatTimes =
    // CHECK: [[LD]].ifTranspose =
    // CHECK: AscendC::LoadData({{v[0-9]+}}, [[XL1]], {{v[0-9]+}});
    ascendc.load_data %a, %xl1 : !ascendc.local_tensor<16x32xf16>, !ascendc.local_tensor<16x32xf16>
    ascendc.load_data %b, %wl1 transpose : !ascendc.local_tensor<32x16xf16>, !ascendc.local_tensor<32x16xf16>
    %bl1 = ascendc.local_tensor c1 addr 2048 size 64 : !ascendc.local_tensor<1x16xf32>
    ascendc.data_copy %bl1, %bias : !ascendc.local_tensor<1x16xf32>, !ascendc.global_tensor<1x16xf32>
    %bt = ascendc.local_tensor c2 addr 0 size 64 : !ascendc.local_tensor<1x16xf32>
    ascendc.data_copy %bt, %bl1 : !ascendc.local_tensor<1x16xf32>, !ascendc.local_tensor<1x16xf32>
    %acc = ascendc.local_tensor co1 addr 0 size 1024 : !ascendc.local_tensor<16x16xf32>
    // CHECK: AscendC::MmadParams [[MP:v[0-9]+]];
    // CHECK: [[MP]].m =
    // CHECK: [[MP]].cmatrixInitVal =
    // CHECK: [[MP]].isBias =
    // CHECK: AscendC::Mmad([[ACC:v[0-9]+]], {{v[0-9]+}}, {{v[0-9]+}}, {{v[0-9]+}}, {{v[0-9]+}});
    ascendc.mmad %acc, %a, %b bias %bt m %c16 n %c16 k %c32 : !ascendc.local_tensor<16x16xf32>, !ascendc.local_tensor<16x32xf16>, !ascendc.local_tensor<32x16xf16>, !ascendc.local_tensor<1x16xf32>
    // CHECK: AscendC::FixpipeParamsV220 [[FP:v[0-9]+]];
    // CHECK: [[FP]].nSize =
    // CHECK: [[FP]].mSize =
    // CHECK: AscendC::Fixpipe<float, float, AscendC::CFG_ROW_MAJOR>({{v[0-9]+}}, [[ACC]], {{v[0-9]+}});
    ascendc.fixpipe %y, %acc : !ascendc.global_tensor<16x16xf32>, !ascendc.local_tensor<16x16xf32>
    // CHECK: AscendC::CrossCoreSetFlag<0x2, PIPE_FIX>(5);
    ascendc.cross_core_set_flag fix, flag 5
  }
  // CHECK: if (g_coreType == AscendC::AIV) {
  ascendc.if_aiv {
    // CHECK: AscendC::CrossCoreWaitFlag<0x2, PIPE_MTE2>(5);
    ascendc.cross_core_wait_flag mte2, flag 5
    // CHECK: ptrdiff_t {{v[0-9]+}} = AscendC::GetBlockIdx();
    %blk = ascendc.get_block_idx
    // CHECK: ptrdiff_t {{v[0-9]+}} = AscendC::GetBlockNum();
    %num = ascendc.get_block_num
    // CHECK: ptrdiff_t {{v[0-9]+}} = AscendC::GetSubBlockIdx();
    %sub = ascendc.get_subblock_idx
    // Index min / max: a compare and a conditional (unsigned: size_t).
    // CHECK: size_t [[UA:v[0-9]+]] = (size_t) [[BLK:v[0-9]+]];
    // CHECK-NEXT: size_t [[UB:v[0-9]+]] = (size_t) [[NUM:v[0-9]+]];
    // CHECK-NEXT: bool [[LT:v[0-9]+]] = [[UA]] < [[UB]];
    // CHECK-NEXT: ptrdiff_t {{v[0-9]+}} = [[LT]] ? [[BLK]] : [[NUM]];
    %lo = arith.minui %blk, %num : index
    // CHECK: bool [[GT:v[0-9]+]] = {{v[0-9]+}} > {{v[0-9]+}};
    // CHECK-NEXT: ptrdiff_t {{v[0-9]+}} = [[GT]] ? {{v[0-9]+}} : {{v[0-9]+}};
    %hi = arith.maxsi %lo, %sub : index
    ascendc.printf "%d\n", %hi : index
  }
  return
}
