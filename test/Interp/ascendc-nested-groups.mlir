// A core group inside another runs on the core of the outer one only, and
// takes no turn with the other core: the kernel ends (fuzz-verify-each
// found a mixed kernel with a nested group waiting forever).
// RUN: tilekit run %s --input y=zeros:8:f32 | FileCheck %s
// CHECK-DAG: cube in cube
// CHECK-DAG: vector
// CHECK-NOT: vector in cube
// RUN: tilekit compile %s --arch=c220 --verify-each --input y=zeros:8:f32 -o /dev/null 2>&1 | FileCheck %s --check-prefix=EACH
// EACH: verify-each: {{[0-9]+}} passes, the outputs equal before and after each

func.func @nested(%y: !ascendc.global_tensor<8xf32>) {
  ascendc.if_aic {
    ascendc.if_aic {
      ascendc.printf "cube in cube\n"
    }
    ascendc.if_aiv {
      ascendc.printf "vector in cube\n"
    }
  }
  ascendc.if_aiv {
    ascendc.printf "vector\n"
  }
  return
}
