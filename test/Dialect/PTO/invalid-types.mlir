// RUN: tilekit-opt %s -split-input-file -verify-diagnostics

// Unknown memory space.
// expected-error @+1 {{unknown memory space 'ub' (expected vec, mat, left, right, acc or bias)}}
func.func private @f(!pto.tile<16x16xf32, ub>)

// -----

// Unknown tile parameter.
// expected-error @+1 {{unknown tile parameter 'stride' (expected blayout, slayout, fractal, pad or addr)}}
func.func private @f(!pto.tile<16x16xf32, vec, stride = 4>)

// -----

// A parameter given twice.
// expected-error @+1 {{tile parameter 'pad' given twice}}
func.func private @f(!pto.tile<16x16xf32, vec, pad = zero, pad = max>)

// -----

// Invalid layout keyword.
// expected-error @+1 {{invalid blayout 'zigzag' (expected row_major, col_major)}}
func.func private @f(!pto.tile<16x16xf32, vec, blayout = zigzag>)

// -----

// Invalid pad keyword.
// expected-error @+1 {{invalid pad 'nan' (expected null, zero, min, max)}}
func.func private @f(!pto.tile<16x16xf32, vec, pad = nan>)

// -----

// Tiles have a positive static box.
// expected-error @+1 {{tile dimensions must be static and positive}}
func.func private @f(!pto.tile<0x16xf32, vec>)

// -----

// Tiles have at least one dimension.
// expected-error @+1 {{tile must have at least one dimension}}
func.func private @f(!pto.tile<f32, vec>)

// -----

// Element types are the machine's.
// expected-error @+1 {{element type 'f64' is not one of f32, f16, bf16, i8, i16, i32, i64, ui8, i1}}
func.func private @f(!pto.tile<16x16xf64, vec>)

// -----

// Masks live in UB.
// expected-error @+1 {{i1 mask tiles live in 'vec', not 'mat'}}
func.func private @f(!pto.tile<16x16xi1, mat>)

// -----

// L0C accumulates in f32 or i32.
// expected-error @+1 {{'acc' tiles accumulate in f32 or i32, not 'f16'}}
func.func private @f(!pto.tile<16x16xf16, acc>)

// -----

// L0A/L0B hold the cube's input types.
// expected-error @+1 {{cube operand tiles hold f16, bf16, f32 or i8, not 'i32'}}
func.func private @f(!pto.tile<16x16xi32, left>)

// -----

// Cube buffers are fractal.
// expected-error @+1 {{'right' tiles are stored in fractals; slayout must not be none_box}}
func.func private @f(!pto.tile<16x16xf16, right, slayout = none_box>)

// -----

// Fractal sizes are the machine's.
// expected-error @+1 {{fractal size must be 32, 512 or 1024 bytes, got 64}}
func.func private @f(!pto.tile<16x16xf32, vec, fractal = 64>)

// -----

// Buffers are addressed in 32-byte blocks.
// expected-error @+1 {{tile address must be a non-negative multiple of 32 bytes, got 48}}
func.func private @f(!pto.tile<16x16xf32, vec, addr = 48>)

// -----

// Negative addresses are rejected.
// expected-error @+1 {{tile address must be a non-negative multiple of 32 bytes, got -32}}
func.func private @f(!pto.tile<16x16xf32, vec, addr = -32>)

// -----

// No machine has more than 253952 B of UB (the 950PR's): a 1 KiB tile at
// 253440 would end at 254464.
// expected-error @+1 {{tile at address 253440 (1024 bytes) runs past the end of ub, which holds at most 253952 bytes on any machine}}
func.func private @f(!pto.tile<16x16xf32, vec, addr = 253440>)

// -----

// The last 1 KiB of the largest UB is fine.
func.func private @f(!pto.tile<16x16xf32, vec, addr = 252928>)

// -----

// GM tensor dimensions are positive or dynamic.
// expected-error @+1 {{tensor dimensions must be positive or '?'}}
func.func private @f(!pto.tensor<0x16xf32>)

// -----

// GM tensors hold the machine's element types too.
// expected-error @+1 {{element type 'f64' is not one of}}
func.func private @f(!pto.tensor<?x16xf64>)

// -----

// A box larger than any buffer is rejected before its size can overflow.
// expected-error @+1 {{tile box exceeds 4294967296 bytes; no on-chip buffer is that large}}
func.func private @f(!pto.tile<9999999999x9999999999xf32, vec>)

// -----

// Static tensor extents are bounded so element counts cannot overflow.
// expected-error @+1 {{tensor has more than 281474976710656 elements}}
func.func private @f(!pto.tensor<99999999999x99999999999xf32>)
