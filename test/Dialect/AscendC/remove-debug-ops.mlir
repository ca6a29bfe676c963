// RUN: tilekit-opt %s --pass-pipeline='builtin.module(func.func(ascendc-remove-debug-ops))' | FileCheck %s
// Without debug ops, insert-init-dump has nothing to set up.
// RUN: tilekit-opt %s --pass-pipeline='builtin.module(func.func(ascendc-remove-debug-ops),ascendc-insert-init-dump)' | FileCheck %s

// CHECK-LABEL: func.func @debug(
// CHECK-SAME: %{{.*}}: index, %{{.*}}: i1)
// CHECK-NEXT: ascendc.local_tensor_auto
// CHECK-NEXT: scf.if
// CHECK-NEXT: ascendc.pipe_barrier v
// CHECK-NEXT: }
// CHECK-NEXT: return
func.func @debug(%n: index, %ok: i1) {
  %t = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<64xf32>
  ascendc.printf "n = %d\n", %n : index
  scf.if %ok {
    ascendc.dump_tensor %t, 1, %n : !ascendc.local_tensor<64xf32>
    ascendc.pipe_barrier v
  }
  ascendc.assert %ok, "ok"
  return
}
