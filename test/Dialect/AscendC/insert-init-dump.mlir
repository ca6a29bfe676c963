// RUN: tilekit-opt %s -split-input-file -ascendc-insert-init-dump | FileCheck %s
// Idempotent: a second run changes nothing.
// RUN: tilekit-opt %s -split-input-file -ascendc-insert-init-dump -ascendc-insert-init-dump | FileCheck %s

// A kernel that prints gets the dump argument and InitDump (1 MiB per
// core, mixed because the module is); one that does not is untouched. A
// sub-block guard stays first.
// CHECK-LABEL: func.func @prints(
// CHECK-SAME: %[[N:.*]]: index, %[[DUMP:.*]]: !ascendc.global_tensor<?xui8> {ascendc.kernel_arg = "DumpAddr"})
// CHECK-NEXT: ascendc.subblock_guard
// CHECK-NEXT: ascendc.init_dump %[[DUMP]] mixed size 1048576 : <?xui8>
// CHECK-NEXT: ascendc.printf
// CHECK-LABEL: func.func @quiet(
// CHECK-SAME: %{{.*}}: index)
// CHECK-NOT: init_dump
module attributes {ascendc.kernel_type = "mixed"} {
  func.func @prints(%n: index) {
    ascendc.subblock_guard
    ascendc.printf "n = %d\n", %n : index
    return
  }
  func.func @quiet(%n: index) {
    return
  }
}

// -----

// dump_tensor counts too; a vector kernel is not mixed.
// CHECK-LABEL: func.func @dumps(
// CHECK-SAME: {ascendc.kernel_arg = "DumpAddr"})
// CHECK-NEXT: ascendc.init_dump %{{.*}} size 1048576 : <?xui8>
module attributes {ascendc.kernel_type = "vector"} {
  func.func @dumps(%n: index) {
    %t = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<64xf32>
    ascendc.dump_tensor %t, 1, %n : !ascendc.local_tensor<64xf32>
    return
  }
}
