// RUN: tilekit-opt %s -split-input-file -ascendc-form-launch -verify-diagnostics | FileCheck %s
// RUN: tilekit-opt %s -split-input-file -ascendc-form-launch=cores=8 -verify-diagnostics | FileCheck %s --check-prefix=EIGHT

// Items in a loop nest with a branch: the item number is carried through
// both loops and the branch, each call runs on block item % blocks, and
// the host launches the kernel on a block per vector core: two per AI core
// of the architecture's 24 (C220), as the kernel needs no cube.
// CHECK-LABEL: func.func @tile(
// CHECK-SAME: ascendc.device
// CHECK-LABEL: func.func @grid(
// CHECK-NEXT: %[[N:.+]] = arith.constant 48 : index
// CHECK-NEXT: ascendc.launch @grid_kernel(%arg0, %arg1) blocks %[[N]]
// CHECK-NEXT: return %arg0
// CHECK-LABEL: func.func @grid_kernel(
// CHECK: %[[BLOCK:.+]] = ascendc.get_block_idx
// CHECK: %[[BLOCKS:.+]] = ascendc.get_block_num
// CHECK: %[[FIRST:.+]] = arith.constant 0 : index
// CHECK: scf.for {{.+}} iter_args({{.*}}%[[OUTER:arg[0-9]+]] = %[[FIRST]]) -> ({{.*}}index)
// CHECK: scf.for {{.+}} iter_args({{.*}}%[[ITEM:arg[0-9]+]] = %[[OUTER]]) -> ({{.*}}index)
// CHECK: %[[AFTER:.+]] = scf.if
// CHECK: %[[OWNER:.+]] = arith.remsi %[[ITEM]], %[[BLOCKS]]
// CHECK: %[[MINE:.+]] = arith.cmpi eq, %[[OWNER]], %[[BLOCK]]
// CHECK: scf.if %[[MINE]] {
// CHECK: func.call @tile({{.+}}) {ascendc.launch_args = array<i64: 0, -1, -1>}
// CHECK: arith.addi %[[ITEM]]
// CHECK: } else {
// CHECK-NEXT: scf.yield {{.*}}%[[ITEM]]
// EIGHT-LABEL: func.func @grid(
// EIGHT: arith.constant 16 : index
module attributes {ascendc.arch = "c220"} {
  func.func @tile(%y: !ascendc.global_tensor<?x8xf32>, %i: index, %j: index)
      -> !ascendc.global_tensor<?x8xf32> {
    return %y : !ascendc.global_tensor<?x8xf32>
  }
  func.func @grid(%y: !ascendc.global_tensor<?x8xf32>, %n: index)
      -> !ascendc.global_tensor<?x8xf32>
      attributes {ascendc.host, pto.kind = #pto.kind<orchestration>, pto.independent_items} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %y) -> (!ascendc.global_tensor<?x8xf32>) {
      %s = scf.for %j = %c0 to %c3 step %c1 iter_args(%b = %a) -> (!ascendc.global_tensor<?x8xf32>) {
        %odd = arith.cmpi ne, %j, %c1 : index
        %c = scf.if %odd -> (!ascendc.global_tensor<?x8xf32>) {
          %d = func.call @tile(%b, %i, %j) : (!ascendc.global_tensor<?x8xf32>, index, index) -> !ascendc.global_tensor<?x8xf32>
          scf.yield %d : !ascendc.global_tensor<?x8xf32>
        } else {
          scf.yield %b : !ascendc.global_tensor<?x8xf32>
        }
        scf.yield %c : !ascendc.global_tensor<?x8xf32>
      }
      scf.yield %s : !ascendc.global_tensor<?x8xf32>
    }
    return %r : !ascendc.global_tensor<?x8xf32>
  }
}

// -----

// Items not proven independent run on one block, in program order.
// CHECK-LABEL: func.func @chain(
// CHECK-NEXT: %[[ONE:.+]] = arith.constant 1 : index
// CHECK-NEXT: ascendc.launch @chain_kernel(%arg0) blocks %[[ONE]]
// EIGHT-LABEL: func.func @chain(
// EIGHT-NEXT: arith.constant 1 : index
module attributes {ascendc.arch = "c310"} {
  func.func @step(%y: !ascendc.global_tensor<4xf32>) {
    return
  }
  func.func @chain(%y: !ascendc.global_tensor<4xf32>) attributes {ascendc.host} {
    func.call @step(%y) : (!ascendc.global_tensor<4xf32>) -> ()
    func.call @step(%y) : (!ascendc.global_tensor<4xf32>) -> ()
    return
  }
}

// -----

// A kernel that reads its block index would read the launch's: the host
// stays as it is.
// CHECK-LABEL: func.func @blocks(
// CHECK: call @which
// CHECK-NOT: ascendc.launch
module {
  func.func @which(%y: !ascendc.global_tensor<4xf32>) {
    %b = ascendc.get_block_idx
    return
  }
  func.func @blocks(%y: !ascendc.global_tensor<4xf32>) attributes {ascendc.host, pto.kind = #pto.kind<orchestration>, pto.independent_items} {
    // expected-warning @+1 {{'@blocks' stays a host loop of one launch per work item: it calls '@which', which reads its block index}}
    func.call @which(%y) : (!ascendc.global_tensor<4xf32>) -> ()
    return
  }
}

// -----

// Phases (pto.item_phases): one kernel per phase, holding only its calls
// and the control flow they need, launched in order, each on every core
// when its items are independent, else on one. A kernel run by two phases
// does not overlap its items (the phase on one core ends each item
// drained).
// CHECK-LABEL: func.func @staged(
// CHECK-NEXT: %[[ALL:.+]] = arith.constant 48 : index
// CHECK-NEXT: ascendc.launch @staged_kernel_0(%arg0, %arg1) blocks %[[ALL]]
// CHECK-NEXT: %[[ONE:.+]] = arith.constant 1 : index
// CHECK-NEXT: ascendc.launch @staged_kernel_1(%arg0, %arg1) blocks %[[ONE]]
// CHECK-NEXT: %[[AGAIN:.+]] = arith.constant 48 : index
// CHECK-NEXT: ascendc.launch @staged_kernel_2(%arg0, %arg1) blocks %[[AGAIN]]
// CHECK-LABEL: func.func @staged_kernel_0(
// CHECK: scf.for
// CHECK: call @fill(
// CHECK-NOT: call @
// CHECK: return
// CHECK-LABEL: func.func @staged_kernel_1(
// CHECK-NOT: scf.for
// CHECK: call @fold(
// CHECK-NOT: call @
// CHECK: return
// CHECK-LABEL: func.func @staged_kernel_2(
// CHECK: scf.for
// CHECK: call @fill(
// CHECK-NOT: call @
// CHECK: return
module attributes {ascendc.arch = "c220"} {
  func.func @fill(%y: !ascendc.global_tensor<?x8xf32>, %i: index) {
    return
  }
  func.func @fold(%y: !ascendc.global_tensor<?x8xf32>, %z: !ascendc.global_tensor<?x8xf32>) {
    return
  }
  // expected-remark @+2 {{the items of '@staged_kernel_0' do not overlap on a core: '@fill' runs in another phase too}}
  // expected-remark @+1 {{the items of '@staged_kernel_2' do not overlap on a core: '@fill' runs in another phase too}}
  func.func @staged(%y: !ascendc.global_tensor<?x8xf32>, %z: !ascendc.global_tensor<?x8xf32>)
      attributes {ascendc.host, pto.kind = #pto.kind<orchestration>,
                  pto.item_phases = [{calls = 1 : i64, independent}, {calls = 1 : i64}, {calls = 1 : i64, independent}]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    scf.for %i = %c0 to %c4 step %c1 {
      func.call @fill(%y, %i) : (!ascendc.global_tensor<?x8xf32>, index) -> ()
    }
    func.call @fold(%y, %z) : (!ascendc.global_tensor<?x8xf32>, !ascendc.global_tensor<?x8xf32>) -> ()
    scf.for %i = %c0 to %c4 step %c1 {
      func.call @fill(%z, %i) : (!ascendc.global_tensor<?x8xf32>, index) -> ()
    }
    return
  }
}

// -----

// Phases that do not cover the calls (the marks of another kernel): a
// warning, and one launch on one core.
// CHECK-LABEL: func.func @miscounted(
// CHECK-NEXT: arith.constant 1 : index
// CHECK-NEXT: ascendc.launch @miscounted_kernel(
module attributes {ascendc.arch = "c220"} {
  func.func @leaf(%y: !ascendc.global_tensor<4xf32>) {
    return
  }
  // expected-warning @+1 {{'@miscounted' has phases of 3 call sites but makes 2: its items run on one core, in order}}
  func.func @miscounted(%y: !ascendc.global_tensor<4xf32>)
      attributes {ascendc.host, pto.kind = #pto.kind<orchestration>,
                  pto.item_phases = [{calls = 1 : i64, independent}, {calls = 2 : i64, independent}]} {
    func.call @leaf(%y) : (!ascendc.global_tensor<4xf32>) -> ()
    func.call @leaf(%y) : (!ascendc.global_tensor<4xf32>) -> ()
    return
  }
}

// -----

// A launch runs on one kind of core: a phase whose kernels run on the cube
// and then on the vector cores becomes a launch of each, in order (the
// cube's on a block per AI core, the vector's on two).
// CHECK-LABEL: func.func @cube_then_vector(
// CHECK-NEXT: %[[AIC:.+]] = arith.constant 24 : index
// CHECK-NEXT: ascendc.launch @cube_then_vector_kernel_0(%arg0, %arg1) blocks %[[AIC]]
// CHECK-NEXT: %[[AIV:.+]] = arith.constant 48 : index
// CHECK-NEXT: ascendc.launch @cube_then_vector_kernel_1(%arg0, %arg1) blocks %[[AIV]]
// CHECK-LABEL: func.func @cube_then_vector_kernel_0(
// CHECK: call @product
// CHECK-NOT: call @epilogue
// CHECK: return
// CHECK-LABEL: func.func @cube_then_vector_kernel_1(
// CHECK-NOT: call @product
// CHECK: call @epilogue
// CHECK: return
module attributes {ascendc.arch = "c220"} {
  func.func @product(%y: !ascendc.global_tensor<?x8xf32>, %i: index) {
    %acc = ascendc.local_tensor_auto co1 : !ascendc.local_tensor<16x16xf32>
    %a = ascendc.local_tensor_auto a2 : !ascendc.local_tensor<16x16xf16>
    %b = ascendc.local_tensor_auto b2 : !ascendc.local_tensor<16x16xf16>
    ascendc.mmad %acc, %a, %b m %i n %i k %i : !ascendc.local_tensor<16x16xf32>, !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
    return
  }
  func.func @epilogue(%y: !ascendc.global_tensor<?x8xf32>, %z: !ascendc.global_tensor<?x8xf32>, %i: index) {
    return
  }
  func.func @cube_then_vector(%y: !ascendc.global_tensor<?x8xf32>, %z: !ascendc.global_tensor<?x8xf32>)
      attributes {ascendc.host, pto.kind = #pto.kind<orchestration>,
                  pto.item_phases = [{calls = 1 : i64, independent}, {calls = 1 : i64, independent}]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    scf.for %i = %c0 to %c4 step %c1 {
      func.call @product(%y, %i) : (!ascendc.global_tensor<?x8xf32>, index) -> ()
    }
    scf.for %i = %c0 to %c4 step %c1 {
      func.call @epilogue(%y, %z, %i) : (!ascendc.global_tensor<?x8xf32>, !ascendc.global_tensor<?x8xf32>, index) -> ()
    }
    return
  }
}

// -----

// A loop whose trips call a cube kernel and then a vector kernel, on items
// not proved independent: two launches would run every trip's cube item
// before any vector item, so the host stays a loop of launches.
module attributes {ascendc.arch = "c220"} {
  func.func @product(%y: !ascendc.global_tensor<?x8xf32>, %i: index) {
    %acc = ascendc.local_tensor_auto co1 : !ascendc.local_tensor<16x16xf32>
    %a = ascendc.local_tensor_auto a2 : !ascendc.local_tensor<16x16xf16>
    %b = ascendc.local_tensor_auto b2 : !ascendc.local_tensor<16x16xf16>
    ascendc.mmad %acc, %a, %b m %i n %i k %i : !ascendc.local_tensor<16x16xf32>, !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
    return
  }
  func.func @epilogue(%y: !ascendc.global_tensor<?x8xf32>, %z: !ascendc.global_tensor<?x8xf32>, %i: index) {
    return
  }
  func.func @interleaved(%y: !ascendc.global_tensor<?x8xf32>, %z: !ascendc.global_tensor<?x8xf32>)
      attributes {ascendc.host, pto.kind = #pto.kind<orchestration>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    scf.for %i = %c0 to %c4 step %c1 {
      func.call @product(%y, %i) : (!ascendc.global_tensor<?x8xf32>, index) -> ()
      // expected-warning @+1 {{'@interleaved' stays a host loop of one launch per work item: a loop calls kernels for different kinds of cores (a launch runs on one kind) and its items are not proved independent}}
      func.call @epilogue(%y, %z, %i) : (!ascendc.global_tensor<?x8xf32>, !ascendc.global_tensor<?x8xf32>, index) -> ()
    }
    return
  }
}

// -----

// Scratch of run-time size: its region moves, with a copy of the
// arithmetic that sizes it, to the start of the host (before its first
// call), so every launch knows where each region starts before its items
// run; the call passes the region (launch argument -2).
// CHECK-LABEL: func.func @sized_kernel(
// CHECK: %[[R:.+]] = ascendc.global_tensor.dim %arg0, 0
// CHECK-NEXT: %[[TWO:.+]] = arith.constant 2 : index
// CHECK-NEXT: %[[ROWS:.+]] = arith.muli %[[R]], %[[TWO]]
// CHECK-NEXT: ascendc.workspace[%[[ROWS]]] : <?x8xf32>
// CHECK: func.call @first(
// CHECK: func.call @second({{.+}}) {ascendc.launch_args = array<i64: -2>}
module attributes {ascendc.arch = "c220"} {
  func.func @first(%y: !ascendc.global_tensor<?x8xf32>) -> !ascendc.global_tensor<?x8xf32> {
    return %y : !ascendc.global_tensor<?x8xf32>
  }
  func.func @second(%t: !ascendc.global_tensor<?x8xf32>) -> !ascendc.global_tensor<?x8xf32> {
    return %t : !ascendc.global_tensor<?x8xf32>
  }
  func.func @sized(%y: !ascendc.global_tensor<?x8xf32>)
      attributes {ascendc.host, pto.kind = #pto.kind<orchestration>} {
    %a = func.call @first(%y) : (!ascendc.global_tensor<?x8xf32>) -> !ascendc.global_tensor<?x8xf32>
    %r = ascendc.global_tensor.dim %y, 0 : !ascendc.global_tensor<?x8xf32>
    %c2 = arith.constant 2 : index
    %rows = arith.muli %r, %c2 : index
    %t = ascendc.workspace [%rows] : !ascendc.global_tensor<?x8xf32>
    %b = func.call @second(%t) : (!ascendc.global_tensor<?x8xf32>) -> !ascendc.global_tensor<?x8xf32>
    return
  }
}

// -----

// A size the host computes only by running a work item's loop: the host
// stays a loop of launches.
module attributes {ascendc.arch = "c220"} {
  func.func @use(%t: !ascendc.global_tensor<?x8xf32>) -> !ascendc.global_tensor<?x8xf32> {
    return %t : !ascendc.global_tensor<?x8xf32>
  }
  func.func @unsized(%y: !ascendc.global_tensor<?x8xf32>, %n: index)
      attributes {ascendc.host, pto.kind = #pto.kind<orchestration>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %rows = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> index {
      %next = arith.addi %acc, %i : index
      scf.yield %next : index
    }
    // expected-warning @below {{'@unsized' stays a host loop of one launch per work item: it makes GM scratch whose size the host does not have before it launches (it depends on 'scf.for' at}}
    %t = ascendc.workspace [%rows] : !ascendc.global_tensor<?x8xf32>
    %b = func.call @use(%t) : (!ascendc.global_tensor<?x8xf32>) -> !ascendc.global_tensor<?x8xf32>
    return
  }
}
