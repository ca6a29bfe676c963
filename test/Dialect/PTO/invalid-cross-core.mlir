// RUN: tilekit-opt %s -split-input-file -verify-diagnostics

// Split codes are 0-4.
func.func @f(%t: !pto.tile<64x64xf32, acc>) {
  // expected-error @+1 {{split code 5 is invalid (expected 0 none, 1 up/down, 2 left/right, 3 up/down odd, 4 left/right odd)}}
  pto.tile.tpush_to_aiv %t split 5 : !pto.tile<64x64xf32, acc>
  return
}

// -----

// Negative split codes are invalid too.
func.func @f() {
  // expected-error @+1 {{split code -1 is invalid}}
  %t = pto.tile.tpop_from_aic split -1 : !pto.tile<64x64xf32, vec>
  return
}

// -----

// No odd vector-to-cube transport: push side.
func.func @f(%t: !pto.tile<33x64xf32, vec>) {
  // expected-error @+1 {{split code 3 is odd, but there is no odd vector-to-cube transport (expected 0, 1 or 2)}}
  pto.tile.tpush_to_aic %t split 3 : !pto.tile<33x64xf32, vec>
  return
}

// -----

// No odd vector-to-cube transport: pop side.
func.func @f() {
  // expected-error @+1 {{split code 4 is odd, but there is no odd vector-to-cube transport (expected 0, 1 or 2)}}
  %t = pto.tile.tpop_from_aiv split 4 : !pto.tile<64x65xf16, mat>
  return
}

// -----

// lane_stride only applies to split transfers.
func.func @f(%t: !pto.tile<64x64xf32, acc>) {
  // expected-error @+1 {{lane_stride needs a split transfer (split code 3 or 4)}}
  pto.tile.tpush_to_aiv %t split 0 lane_stride 8 : !pto.tile<64x64xf32, acc>
  return
}

// -----

// lane_stride moves only the cut of the odd codes.
func.func @f(%t: !pto.tile<64x64xf32, acc>) {
  // expected-error @+1 {{lane_stride moves the cut of the odd codes 3 and 4; split code 1 always cuts the box at its half}}
  pto.tile.tpush_to_aiv %t split 1 lane_stride 32 : !pto.tile<64x64xf32, acc>
  return
}

// -----

// Codes 1 and 2 cut the box at its half: the cube core's box must be even.
func.func @f(%t: !pto.tile<33x64xf32, acc>) {
  // expected-error @+1 {{split code 1 cuts the box at its half, but the box extent along dim 0 is 33, which is odd}}
  pto.tile.tpush_to_aiv %t split 1 : !pto.tile<33x64xf32, acc>
  return
}

// -----

// The merged box on the cube core is even too (dim 1 for left/right).
func.func @f() {
  // expected-error @+1 {{split code 2 cuts the box at its half, but the box extent along dim 1 is 65, which is odd}}
  %t = pto.tile.tpop_from_aiv split 2 : !pto.tile<64x65xf16, mat>
  return
}

// -----

// An odd code without lane_stride cuts at the box half as well.
func.func @f(%t: !pto.tile<16x33xf32, mat>) {
  // expected-error @+1 {{split code 4 cuts the box at its half, but the box extent along dim 1 is 33, which is odd}}
  pto.tile.tpush_to_aiv %t split 4 : !pto.tile<16x33xf32, mat>
  return
}

// -----

// lane_stride is positive.
func.func @f(%t: !pto.tile<64x64xf32, acc>) {
  // expected-error @+1 {{lane_stride must be positive, got 0}}
  pto.tile.tpush_to_aiv %t split 3 lane_stride 0 : !pto.tile<64x64xf32, acc>
  return
}

// -----

// lane_stride leaves lane 1 a share of the split dimension (dim 1 for left/right).
func.func @f(%t: !pto.tile<16x64xf32, acc>) {
  // expected-error @+1 {{lane_stride 64 leaves lane 1 empty: the split dimension has extent 64}}
  pto.tile.tpush_to_aiv %t split 4 lane_stride 64 : !pto.tile<16x64xf32, acc>
  return
}

// -----

// The cube core pushes to the vector lanes, not the other way round.
func.func @f(%t: !pto.tile<64x64xf32, acc>) attributes {pto.kind = #pto.kind<aiv>} {
  // expected-error @+1 {{runs on the aic side of a group and cannot appear in a function of kind 'aiv'}}
  pto.tile.tpush_to_aiv %t split 1 : !pto.tile<64x64xf32, acc>
  return
}

// -----

// Vector lanes pop what the cube core pushed.
func.func @f() attributes {pto.kind = #pto.kind<aic>} {
  // expected-error @+1 {{runs on the aiv side of a group and cannot appear in a function of kind 'aic'}}
  %t = pto.tile.tpop_from_aic split 1 : !pto.tile<32x64xf32, vec>
  return
}

// -----

// Cross-core ops need a group member, not a plain in-core function.
func.func @f(%t: !pto.tile<32x64xf32, vec>) attributes {pto.kind = #pto.kind<incore>} {
  // expected-error @+1 {{runs on the aiv side of a group and cannot appear in a function of kind 'incore'}}
  pto.tile.tpush_to_aic %t split 1 : !pto.tile<32x64xf32, vec>
  return
}

// -----

// Pipe ids are non-negative.
func.func @f() {
  // expected-error @+1 {{pipe id must be non-negative}}
  %t = pto.tile.tpop_from_aiv split 0 pipe -1 : !pto.tile<64x64xf16, mat>
  return
}

// -----

// The cube core sends from L0C or L1.
func.func @f(%t: !pto.tile<64x64xf32, vec>) {
  // expected-error @+1 {{sends from the cube core's 'acc' or 'mat' buffers, not 'vec'}}
  pto.tile.tpush_to_aiv %t split 1 : !pto.tile<64x64xf32, vec>
  return
}

// -----

// The cube core receives into L1.
func.func @f() {
  // expected-error @+1 {{received tile must be a 'mat' tile, got 'vec'}}
  %t = pto.tile.tpop_from_aiv split 1 : !pto.tile<64x64xf16, vec>
  return
}

// -----

// A vector lane sends from UB.
func.func @f(%t: !pto.tile<32x64xf16, mat>) {
  // expected-error @+1 {{sent tile must be a 'vec' tile, got 'mat'}}
  pto.tile.tpush_to_aic %t split 1 : !pto.tile<32x64xf16, mat>
  return
}

// -----

// A vector lane receives into UB.
func.func @f() {
  // expected-error @+1 {{received tile must be a 'vec' tile, got 'acc'}}
  %t = pto.tile.tpop_from_aic split 1 : !pto.tile<32x64xf32, acc>
  return
}

// -----

// A split cuts a dimension the tile has.
func.func @f(%t: !pto.tile<64xf32, acc>) {
  // expected-error @+1 {{split code 2 cuts dimension 1, but the tile has rank 1}}
  pto.tile.tpush_to_aiv %t split 2 lane_stride 4 : !pto.tile<64xf32, acc>
  return
}

// -----

// A lane's box may be odd (the half of a 66-row box), and an odd box is fine when lane_stride gives the cut.
func.func @f(%t: !pto.tile<33x64xf32, vec>, %a: !pto.tile<33x64xf32, acc>) attributes {pto.kind = #pto.kind<aiv>} {
  pto.tile.tpush_to_aic %t split 1 : !pto.tile<33x64xf32, vec>
  %r = pto.tile.tpop_from_aic split 1 : !pto.tile<33x64xf32, vec>
  return
}

func.func @g(%a: !pto.tile<33x64xf32, acc>) attributes {pto.kind = #pto.kind<aic>} {
  pto.tile.tpush_to_aiv %a split 3 lane_stride 17 : !pto.tile<33x64xf32, acc>
  return
}
