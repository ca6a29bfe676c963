// RUN: tilekit-opt %s -split-input-file -verify-diagnostics
// Register scopes: what the verifier rejects, each at its op.

!T = !pto.tile<1x128xf32, vec>
func.func @loop_in_scope(%t: !T, %n: index) -> !T {
  %r = pto.reg_scope (%t, %n) : (!T, index) -> !T {
  ^bb0(%ts: !T, %ns: index):
    // expected-error @+1 {{'scf.for' op is not allowed in a register scope: a scope is straight-line vector-register code (pto.vreg.* ops); unroll static loops before the scope}}
    scf.for %i = %ns to %ns step %ns {
    }
    pto.reg_scope.yield %ts : !T
  }
  return %r : !T
}

// -----

!T = !pto.tile<1x128xf32, vec>
func.func @scalar_math_in_scope(%t: !T, %n: index) -> !T {
  %r = pto.reg_scope (%t, %n) : (!T, index) -> !T {
  ^bb0(%ts: !T, %ns: index):
    // expected-error @+1 {{'arith.addi' op is not allowed in a register scope: a scope is straight-line vector-register code (pto.vreg.* ops); compute scalars outside the scope and capture them}}
    %m = arith.addi %ns, %ns : index
    pto.reg_scope.yield %ts : !T
  }
  return %r : !T
}

// -----

!T = !pto.tile<1x128xf32, vec>
func.func @misaligned(%t: !T) {
  pto.reg_scope (%t) : (!T) -> () {
  ^bb0(%ts: !T):
    // expected-error @+1 {{offset 4 is not a multiple of 8 elements (32 bytes)}}
    %v = pto.vreg.load %ts[4] : !T
    pto.reg_scope.yield
  }
  return
}

// -----

!T = !pto.tile<1x128xf32, vec>
func.func @past_the_end(%t: !T) {
  pto.reg_scope (%t) : (!T) -> () {
  ^bb0(%ts: !T):
    // expected-error @+1 {{offset 72 puts lanes past the tile's 128 elements}}
    %v = pto.vreg.load %ts[72] : !T
    pto.reg_scope.yield
  }
  return
}

// -----

// The largest offset: no overflow on the way to the error (fuzz-verify-each).
!T = !pto.tile<1x128xf32, vec>
func.func @largest_offset(%t: !T) {
  pto.reg_scope (%t) : (!T) -> () {
  ^bb0(%ts: !T):
    // expected-error @+1 {{offset 9223372036854775807 puts lanes past the tile's 128 elements}}
    %v = pto.vreg.load %ts[9223372036854775807] : !T
    pto.reg_scope.yield
  }
  return
}

// -----

!H = !pto.tile<1x128xf16, vec>
func.func @f16_capture(%t: !H) {
  // expected-error @+1 {{capture #0 '!pto.tile<1x128xf16, vec>' is not a row-major f32 tile in UB (vec)}}
  pto.reg_scope (%t) : (!H) -> () {
  ^bb0(%ts: !H):
    pto.reg_scope.yield
  }
  return
}

// -----

!T = !pto.tile<1x128xf32, vec>
func.func @stored_not_yielded(%t: !T) {
  // expected-error @+1 {{stores into capture #0 but does not yield it}}
  pto.reg_scope (%t) : (!T) -> () {
  ^bb0(%ts: !T):
    %v = pto.vreg.load %ts[0] : !T
    pto.vreg.store %v, %ts[64] : !T
    pto.reg_scope.yield
  }
  return
}

// -----

!T = !pto.tile<1x128xf32, vec>
func.func @yield_twice(%t: !T) -> (!T, !T) {
  %r:2 = pto.reg_scope (%t) : (!T) -> (!T, !T) {
  ^bb0(%ts: !T):
    // expected-error @+1 {{yields capture #0 twice}}
    pto.reg_scope.yield %ts, %ts : !T, !T
  }
  return %r#0, %r#1 : !T, !T
}

// -----

!T = !pto.tile<1x128xf32, vec>
func.func @mask_too_wide(%t: !T) {
  pto.reg_scope (%t) : (!T) -> () {
  ^bb0(%ts: !T):
    // expected-error @+1 {{count 65 is not between 0 and 64 lanes}}
    %m = pto.vreg.prefix_mask 65
    pto.reg_scope.yield
  }
  return
}

// -----

!T = !pto.tile<1x128xf32, vec>
func.func @vector_capture(%t: !T, %v: vector<64xf32>) {
  // expected-error @+1 {{capture #1 is 'vector<64xf32>': a scope captures tiles and index, integer or f32 scalars}}
  pto.reg_scope (%t, %v) : (!T, vector<64xf32>) -> () {
  ^bb0(%ts: !T, %vs: vector<64xf32>):
    pto.reg_scope.yield
  }
  return
}

// -----

!T = !pto.tile<1x128xf32, vec>
func.func @outside_a_scope(%t: !T) {
  // expected-error @+1 {{'pto.vreg.prefix_mask' op expects parent op 'pto.reg_scope'}}
  %m = pto.vreg.prefix_mask 3
  return
}

// -----

!T = !pto.tile<1x128xf32, vec>
func.func @cube_kernel(%t: !T) attributes {pto.kind = #pto.kind<aic>} {
  // expected-error @+1 {{'pto.reg_scope' op is a vector op and cannot run in a function of kind 'aic' (allowed: incore, aiv)}}
  pto.reg_scope (%t) : (!T) -> () {
  ^bb0(%ts: !T):
    pto.reg_scope.yield
  }
  return
}
