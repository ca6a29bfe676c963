// Unsigned integer ops read the unsigned view of their operands: with
// a = -2 : i32 (0xFFFFFFFE = 4294967294) and b = 3.
// RUN: tilekit emit --target=torch %s -o %t.py
// RUN: %python -c "ns = {}; exec(open('%t.py').read(), ns); print(ns['u'](-2, 3))" | FileCheck %s
// ult: 4294967294 < 3 is false; slt: -2 < 3 is true; extui and
// index_castui: 4294967294; uitofp: 4294967294 rounds to 2^32 in f32;
// divui: 4294967294 // 3 = 1431655764.
// CHECK: (False, True, 4294967294, 4294967296.0, 1431655764, 4294967294)
// The executor computes the same.
// RUN: tilekit run %s --input a=-2 --input b=3 --print result0 --print result1 --print result2 --print result3 --print result4 --print result5 | FileCheck %s --check-prefix=EXEC
// EXEC: result0: i1 0
// EXEC-NEXT: result1: i1 1
// EXEC-NEXT: result2: i64 4294967294
// EXEC-NEXT: result3: f32 4.2949673e+09
// EXEC-NEXT: result4: i32 1431655764
// EXEC-NEXT: result5: index 4294967294
func.func @u(%a: i32, %b: i32) -> (i1, i1, i64, f32, i32, index) {
  %lt = arith.cmpi ult, %a, %b : i32
  %slt = arith.cmpi slt, %a, %b : i32
  %e = arith.extui %a : i32 to i64
  %f = arith.uitofp %a : i32 to f32
  %d = arith.divui %a, %b : i32
  %i = arith.index_castui %a : i32 to index
  return %lt, %slt, %e, %f, %d, %i : i1, i1, i64, f32, i32, index
}
