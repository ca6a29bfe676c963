// RUN: tilekit-opt %s | tilekit-opt | FileCheck %s
// RUN: tilekit-opt %s --mlir-print-op-generic | tilekit-opt | FileCheck %s
// RUN: tilekit-opt %s -emit-bytecode | tilekit-opt | FileCheck %s

// Round trip of the tile and GM tensor types.

// Tile types: every element type and memory space; canonical layouts are not printed.
// CHECK-LABEL: func.func private @tiles
// CHECK-SAME: (!pto.tile<16x64xf32, vec>, !pto.tile<16x64xf16, vec>, !pto.tile<16x64xbf16, vec>, !pto.tile<16x64xi8, vec>, !pto.tile<16x64xi16, vec>, !pto.tile<16x64xi32, vec>, !pto.tile<16x64xi64, vec>, !pto.tile<16x64xui8, vec>, !pto.tile<16x64xi1, vec>, !pto.tile<64x64xf16, mat>, !pto.tile<64x32xf16, left>, !pto.tile<32x64xf16, right>, !pto.tile<64x64xf32, acc>, !pto.tile<1x64xf32, bias>, !pto.tile<256xf32, vec>, !pto.tile<2x16x16xf16, left>)
func.func private @tiles(!pto.tile<16x64xf32, vec>, !pto.tile<16x64xf16, vec>, !pto.tile<16x64xbf16, vec>,
                         !pto.tile<16x64xi8, vec>, !pto.tile<16x64xi16, vec>, !pto.tile<16x64xi32, vec>,
                         !pto.tile<16x64xi64, vec>, !pto.tile<16x64xui8, vec>, !pto.tile<16x64xi1, vec>,
                         !pto.tile<64x64xf16, mat>, !pto.tile<64x32xf16, left>, !pto.tile<32x64xf16, right>,
                         !pto.tile<64x64xf32, acc>, !pto.tile<1x64xf32, bias>, !pto.tile<256xf32, vec>,
                         !pto.tile<2x16x16xf16, left>)

// Non-canonical layout parameters, pad values and addresses are printed.
// CHECK-LABEL: func.func private @layouts
// CHECK-SAME: (!pto.tile<16x16xf16, mat, blayout = row_major, slayout = none_box>, !pto.tile<16x16xf16, left, blayout = col_major, slayout = col_major, fractal = 1024>, !pto.tile<16x16xf32, acc, fractal = 512>, !pto.tile<16x16xf32, vec, pad = zero>, !pto.tile<16x16xf32, vec, pad = min>, !pto.tile<16x16xf32, vec, pad = max, addr = 0>, !pto.tile<16x16xf32, vec, fractal = 32, addr = 1024>, !pto.tile<16x16xf16, mat>)
func.func private @layouts(!pto.tile<16x16xf16, mat, blayout = row_major, slayout = none_box>,
                           !pto.tile<16x16xf16, left, blayout = col_major, slayout = col_major, fractal = 1024>,
                           !pto.tile<16x16xf32, acc, fractal = 512>,
                           !pto.tile<16x16xf32, vec, pad = zero>, !pto.tile<16x16xf32, vec, pad = min>,
                           !pto.tile<16x16xf32, vec, pad = max, addr = 0>,
                           !pto.tile<16x16xf32, vec, addr = 1024, fractal = 32>,
                           !pto.tile<16x16xf16, mat, blayout = col_major, slayout = row_major, fractal = 512, pad = null>)

// GM tensors: static and dynamic dimensions.
// CHECK-LABEL: func.func private @tensors
// CHECK-SAME: (!pto.tensor<128xf32>, !pto.tensor<?x64xf16>, !pto.tensor<?x?xbf16>, !pto.tensor<4x?x8xi8>, !pto.tensor<2x2xi1>)
func.func private @tensors(!pto.tensor<128xf32>, !pto.tensor<?x64xf16>, !pto.tensor<?x?xbf16>, !pto.tensor<4x?x8xi8>, !pto.tensor<2x2xi1>)

