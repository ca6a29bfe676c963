// The debug ops run when a kernel keeps them (the pipelines' debug mode):
// printf formats its scalars, dump_tensor prints a tensor's first elements
// with its tag, assert stops the kernel at the op with its message.
// RUN: tilekit run %s --entry debug --input n=3 --input ok=1 --input s=1.5 | FileCheck %s
// RUN: not tilekit run %s --entry debug --input n=3 --input ok=0 --input s=1.5 2>&1 | FileCheck %s --check-prefix=FAIL
// RUN: not tilekit run %s --entry missing_arg 2>&1 | FileCheck %s --check-prefix=ARGS
// RUN: not tilekit run %s --entry star --input n=4 2>&1 | FileCheck %s --check-prefix=STAR
// CHECK: n = 3, s = 1.50, 0x1f, 100%
// CHECK-NEXT: dump_tensor desc 7, 4 elements: [1.5, 1.5, 1.5, 1.5]
// FAIL: ascendc-debug.mlir:[[@LINE+11]]:3: error: 'ascendc.assert' op failed: ok must hold
// ARGS: error: 'ascendc.printf' op has more conversions than its 0 arguments
// STAR: error: 'ascendc.printf' op has an unsupported conversion '%*d' in its format
func.func @debug(%n: index, %ok: i1, %s: f32) {
  %c4 = arith.constant 4 : index
  %c31 = arith.constant 31 : i32
  %t = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<8xf32>
  ascendc.duplicate_l2 %t, %s : !ascendc.local_tensor<8xf32>, f32
  ascendc.printf "n = %d, s = %.2f, %#x, 100%%\n", %n, %s, %c31 : index, f32, i32
  ascendc.pipe_barrier all
  ascendc.dump_tensor %t, 7, %c4 : !ascendc.local_tensor<8xf32>
  ascendc.assert %ok, "ok must hold"
  return
}

func.func @missing_arg() {
  ascendc.printf "%d\n"
  return
}

func.func @star(%n: i32) {
  ascendc.printf "%*d\n", %n : i32
  return
}
