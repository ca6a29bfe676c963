// A loop that never ends: only --max-steps or --timeout stop it.
func.func @forever(%n: i32) -> i32 {
  %one = arith.constant 1 : i32
  %r = scf.while (%i = %n) : (i32) -> i32 {
    %go = arith.constant true
    scf.condition(%go) %i : i32
  } do {
  ^bb0(%i: i32):
    %next = arith.addi %i, %one : i32
    scf.yield %next : i32
  }
  return %r : i32
}
