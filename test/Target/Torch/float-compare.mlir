// Float compares with NaN: ordered predicates are false and unordered ones
// true, in the script as in the executor.
// RUN: tilekit emit --target=torch %s -o %t.py
// RUN: %python -c "ns = {}; exec(open('%t.py').read(), ns); print([int(x) for x in ns['c'](float('nan'), 2.0)]); print([int(x) for x in ns['c'](1.0, 2.0)])" | FileCheck %s
// one ueq ult uge olt ord uno une
// CHECK: [0, 1, 1, 1, 0, 0, 1, 1]
// CHECK-NEXT: [1, 0, 1, 0, 1, 1, 0, 1]
// RUN: tilekit run %s --input a=nan --input b=2.0 --print result0 --print result1 --print result2 --print result3 --print result4 --print result5 --print result6 --print result7 | FileCheck %s --check-prefix=NAN
// NAN: result0: i1 0
// NAN-NEXT: result1: i1 1
// NAN-NEXT: result2: i1 1
// NAN-NEXT: result3: i1 1
// NAN-NEXT: result4: i1 0
// NAN-NEXT: result5: i1 0
// NAN-NEXT: result6: i1 1
// NAN-NEXT: result7: i1 1
func.func @c(%a: f32, %b: f32) -> (i1, i1, i1, i1, i1, i1, i1, i1) {
  %0 = arith.cmpf one, %a, %b : f32
  %1 = arith.cmpf ueq, %a, %b : f32
  %2 = arith.cmpf ult, %a, %b : f32
  %3 = arith.cmpf uge, %a, %b : f32
  %4 = arith.cmpf olt, %a, %b : f32
  %5 = arith.cmpf ord, %a, %b : f32
  %6 = arith.cmpf uno, %a, %b : f32
  %7 = arith.cmpf une, %a, %b : f32
  return %0, %1, %2, %3, %4, %5, %6, %7 : i1, i1, i1, i1, i1, i1, i1, i1
}
