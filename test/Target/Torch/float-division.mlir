// Scalar float division and remainder follow IEEE: by zero they give an
// infinity or NaN instead of raising.
// RUN: tilekit emit --target=torch %s -o %t.py
// RUN: %python -c "ns = {}; exec(open('%t.py').read(), ns); print(ns['d'](1.0, 0.0)); print(ns['d'](-1.0, 0.0)); print(ns['d'](0.0, 0.0)); print(ns['d'](7.0, 2.0))" | FileCheck %s
// CHECK: (inf, nan)
// CHECK-NEXT: (-inf, nan)
// CHECK-NEXT: (nan, nan)
// CHECK-NEXT: (3.5, 1.0)
func.func @d(%a: f32, %b: f32) -> (f32, f32) {
  %q = arith.divf %a, %b : f32
  %r = arith.remf %a, %b : f32
  return %q, %r : f32, f32
}
