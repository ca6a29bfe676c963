// An op with no PyTorch form is an error naming the op and its location, and
// no script is written.
// RUN: rm -f %t.py
// RUN: not tilekit emit --target=torch %s -o %t.py 2>&1 | FileCheck %s
// RUN: not test -e %t.py
// A missing --target says which targets exist.
// RUN: not tilekit emit %s 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not tilekit emit --target=cuda %s 2>&1 | FileCheck %s --check-prefix=BADTARGET
// An unwritable output is reported, not crashed on.
// RUN: not tilekit emit --target=torch %examples/softmax.mlir -o %t.missing/dir/out.py 2>&1 | FileCheck %s --check-prefix=WRITE

// CHECK: errors.mlir:[[@LINE+5]]:8: error: 'scf.execute_region' op cannot be emitted as PyTorch
// TARGET: --target option: must be specified
// BADTARGET: --target option: Cannot find option named 'cuda'
// WRITE: tilekit emit: cannot write '{{.*}}out.py'
func.func @f(%n: index) -> index {
  %r = scf.execute_region -> index {
    scf.yield %n : index
  }
  return %r : index
}
