// RUN: tilekit-opt %s -split-input-file -verify-diagnostics

// pto.kind takes a function kind.
// expected-error @+1 {{'pto.kind' must be a function kind such as #pto.kind<incore>}}
func.func @f() attributes {pto.kind = "incore"} {
  return
}

// -----

// Split codes are 0-4.
// expected-error @+1 {{split code 5 is invalid (expected 0 none, 1 up/down, 2 left/right, 3 up/down odd, 4 left/right odd)}}
func.func @f() attributes {pto.kind = #pto.kind<aiv>, pto.split = 5 : i32} {
  return
}

// -----

// Only groups and aiv functions carry a split.
// expected-error @+1 {{has 'pto.split', which only a function of kind 'group' or 'aiv' may carry}}
func.func @f() attributes {pto.kind = #pto.kind<incore>, pto.split = 1 : i32} {
  return
}

// -----

// Dual dispatch is a flag.
// expected-error @+1 {{'pto.dual_aiv_dispatch' must be a unit or bool}}
func.func @f() attributes {pto.kind = #pto.kind<aiv>, pto.dual_aiv_dispatch = 1 : i32} {
  return
}

// -----

// Only groups name their members.
// expected-error @+1 {{has 'pto.aic', which only a function of kind 'group' may carry}}
func.func @f() attributes {pto.kind = #pto.kind<aiv>, pto.aic = @g} {
  return
}

// -----

// Unknown pto.* attributes are errors, not silently ignored.
// expected-error @+1 {{has unknown PTO attribute 'pto.lanes'}}
func.func @f() attributes {pto.lanes = 2 : i32} {
  return
}

// -----

// pto.* attributes belong on functions.
// expected-error @+1 {{'pto.kind' is a function attribute; it cannot be placed on 'builtin.module'}}
module attributes {pto.kind = #pto.kind<group>} {
}

// -----

// A group needs its cube function.
func.func @g_aiv() attributes {pto.kind = #pto.kind<aiv>} {
  return
}
// expected-error @+1 {{is a group but its aic function '@g_aic' does not exist (name it with 'pto.aic' or define @g_aic)}}
func.func @g() attributes {pto.kind = #pto.kind<group>} {
  return
}

// -----

// A group's members have the matching kinds.
func.func @g_aic() attributes {pto.kind = #pto.kind<aic>} {
  return
}
func.func @vec() attributes {pto.kind = #pto.kind<incore>} {
  return
}
// expected-error @+1 {{pairs '@vec' as its aiv function, but that function is not of kind 'aiv'}}
func.func @g() attributes {pto.kind = #pto.kind<group>, pto.aiv = @vec} {
  return
}

// -----

// A group passes its arguments to both members.
func.func @g_aic(%x: !pto.tensor<16xf32>) attributes {pto.kind = #pto.kind<aic>} {
  return
}
func.func @g_aiv(%x: !pto.tensor<16xf16>) attributes {pto.kind = #pto.kind<aiv>} {
  return
}
// expected-error @+1 {{passes its arguments to '@g_aiv', so their argument types must be the same}}
func.func @g(%x: !pto.tensor<16xf32>) attributes {pto.kind = #pto.kind<group>} {
  return
}

// -----

// Tile ops run on a core, not in orchestration.
func.func @f() attributes {pto.kind = #pto.kind<orchestration>} {
  // expected-error @+1 {{'pto.tile.create' op is a tile op and cannot run in a function of kind 'orchestration' (allowed: incore, aic, aiv)}}
  %t = pto.tile.create : !pto.tile<16x16xf32, vec>
  return
}

// -----

// Cube ops run on the cube core.
func.func @f(%a: !pto.tile<16x16xf16, left>, %b: !pto.tile<16x16xf16, right>) attributes {pto.kind = #pto.kind<aiv>} {
  // expected-error @+1 {{'pto.tile.matmul' op is a cube op and cannot run in a function of kind 'aiv' (allowed: incore, aic)}}
  %c = pto.tile.matmul %a, %b : !pto.tile<16x16xf16, left>, !pto.tile<16x16xf16, right> -> !pto.tile<16x16xf32, acc>
  return
}

// -----

// Vector ops run on a vector core.
func.func @f(%a: !pto.tile<16x16xf32, vec>) attributes {pto.kind = #pto.kind<aic>} {
  // expected-error @+1 {{'pto.tile.exp' op is a vector op and cannot run in a function of kind 'aic' (allowed: incore, aiv)}}
  %c = pto.tile.exp %a : !pto.tile<16x16xf32, vec>
  return
}

// -----

// Tensor ops run in orchestration.
func.func @f(%a: !pto.tensor<16xf32>) attributes {pto.kind = #pto.kind<incore>} {
  // expected-error @+1 {{'pto.tensor.exp' op is a tensor op and cannot run in a function of kind 'incore' (allowed: orchestration)}}
  %c = pto.tensor.exp %a : !pto.tensor<16xf32>
  return
}

// -----

// A split is an integer code.
// expected-error @+1 {{'pto.split' must be an integer}}
func.func @f() attributes {pto.kind = #pto.kind<aiv>, pto.split = "up_down"} {
  return
}

// -----

// Dual dispatch is for groups and vector functions.
// expected-error @+1 {{has 'pto.dual_aiv_dispatch', which only a function of kind 'group' or 'aiv' may carry}}
func.func @f() attributes {pto.kind = #pto.kind<incore>, pto.dual_aiv_dispatch} {
  return
}

// -----

// Pairing attributes name functions.
// expected-error @+1 {{'pto.aiv' must name a function}}
func.func @g() attributes {pto.kind = #pto.kind<group>, pto.aiv = "g_aiv"} {
  return
}

// -----

// Only vector lane 0 returns a value: the cube function returns nothing.
func.func @g_aic(%x: !pto.tensor<16xf32>) -> !pto.tensor<16xf32> attributes {pto.kind = #pto.kind<aic>} {
  return %x : !pto.tensor<16xf32>
}
func.func @g_aiv(%x: !pto.tensor<16xf32>) attributes {pto.kind = #pto.kind<aiv>} {
  return
}
// expected-error @+1 {{returns what its vector lane 0 returns, so its aic function '@g_aic' must return nothing}}
func.func @g(%x: !pto.tensor<16xf32>) attributes {pto.kind = #pto.kind<group>} {
  return
}

// -----

// The group returns what its vector function returns.
func.func @g_aic(%x: !pto.tensor<16xf32>) attributes {pto.kind = #pto.kind<aic>} {
  return
}
func.func @g_aiv(%x: !pto.tensor<16xf32>) attributes {pto.kind = #pto.kind<aiv>} {
  return
}
// expected-error @+1 {{returns what its aiv function '@g_aiv' returns, so their result types must be the same}}
func.func @g(%x: !pto.tensor<16xf32>) -> !pto.tensor<16xf32> attributes {pto.kind = #pto.kind<group>} {
  return %x : !pto.tensor<16xf32>
}

// -----

// A split group runs its vector function on two lanes: lane 1 would return too.
func.func @g_aic(%x: !pto.tensor<16xf32>) attributes {pto.kind = #pto.kind<aic>} {
  return
}
func.func @g_aiv(%x: !pto.tensor<16xf32>) -> index attributes {pto.kind = #pto.kind<aiv>} {
  %c0 = arith.constant 0 : index
  return %c0 : index
}
// expected-error @+1 {{runs its aiv function '@g_aiv' on two lanes (split 1), so lane 1 would return a value as well; a group returns only lane 0's results: return nothing and store the results to a GM tensor argument instead}}
func.func @g(%x: !pto.tensor<16xf32>) -> index attributes {pto.kind = #pto.kind<group>, pto.split = 1 : i32} {
  %c0 = arith.constant 0 : index
  return %c0 : index
}

// -----

// Dual dispatch (set on the vector function) runs two lanes as well.
func.func @g_aic(%x: !pto.tensor<16xf32>) attributes {pto.kind = #pto.kind<aic>} {
  return
}
func.func @g_aiv(%x: !pto.tensor<16xf32>) -> !pto.tensor<16xf32> attributes {pto.kind = #pto.kind<aiv>, pto.dual_aiv_dispatch} {
  return %x : !pto.tensor<16xf32>
}
// expected-error @+1 {{runs its aiv function '@g_aiv' on two lanes (split 0, dual dispatch)}}
func.func @g(%x: !pto.tensor<16xf32>) -> !pto.tensor<16xf32> attributes {pto.kind = #pto.kind<group>} {
  return %x : !pto.tensor<16xf32>
}

// -----

// A group's body would never run.
func.func @g_aic() attributes {pto.kind = #pto.kind<aic>} {
  return
}
func.func @g_aiv() attributes {pto.kind = #pto.kind<aiv>} {
  return
}
// expected-error @+1 {{is a group, whose call runs its aic and aiv functions; its body holds only the return}}
func.func @g() attributes {pto.kind = #pto.kind<group>} {
  %c0 = arith.constant 0 : index
  return
}

// -----

// Cube and vector functions run only through their group.
func.func @g_aic() attributes {pto.kind = #pto.kind<aic>} {
  return
}
func.func @main() attributes {pto.kind = #pto.kind<orchestration>} {
  // expected-error @+1 {{'func.call' op calls '@g_aic', a function of kind 'aic'; such functions run only through their group}}
  call @g_aic() : () -> ()
  return
}

// -----

// Groups are launched from orchestration.
func.func @g_aic() attributes {pto.kind = #pto.kind<aic>} {
  return
}
func.func @g_aiv() attributes {pto.kind = #pto.kind<aiv>} {
  return
}
func.func @g() attributes {pto.kind = #pto.kind<group>} {
  return
}
func.func @core() attributes {pto.kind = #pto.kind<incore>} {
  // expected-error @+1 {{'func.call' op launches the group '@g' from a function of kind 'incore'; groups are launched from orchestration}}
  call @g() : () -> ()
  return
}

// -----

// A group and its vector function agree on the split.
func.func @g_aic() attributes {pto.kind = #pto.kind<aic>} {
  return
}
func.func @g_aiv() attributes {pto.kind = #pto.kind<aiv>, pto.split = 2 : i32} {
  return
}
// expected-error @+1 {{has split 1 but its aiv function '@g_aiv' has split 2}}
func.func @g() attributes {pto.kind = #pto.kind<group>, pto.split = 1 : i32} {
  return
}

// -----

// A cube function cannot make a tile in UB, which only the vector cores
// reach, nor a vector function one in L1.
func.func @cube_side() attributes {pto.kind = #pto.kind<aic>} {
  // expected-error @+1 {{'pto.tile.create' op makes a 'vec' tile (ub), which the cube core running this aic function cannot reach}}
  %t = pto.tile.create : !pto.tile<16x16xf32, vec>
  return
}

// -----

func.func @vector_side(%x: !pto.tensor<16x16xf16>) attributes {pto.kind = #pto.kind<aiv>} {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'pto.tile.load' op makes a 'mat' tile (l1), which the vector core running this aiv function cannot reach}}
  %t = pto.tile.load %x[%c0, %c0] : !pto.tensor<16x16xf16> -> !pto.tile<16x16xf16, mat>
  return
}

// -----

// pto.buffer_set names one of a double-buffered loop's two buffer sets.
func.func @f(%t: !pto.tensor<16x16xf32>) attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{has 'pto.buffer_set', which names a buffer set: 0 or 1}}
  %a = pto.tile.load %t[%c0, %c0] {pto.buffer_set = 2 : i64} : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, vec>
  return
}
