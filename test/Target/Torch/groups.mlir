// Group functions become calls into the script's cross-core runtime, with the
// group's split and dispatch recorded in _GROUP_META. --check-shapes guards
// arguments and every tile result.
// RUN: tilekit emit --target=torch %examples/mixed_scaled_matmul.mlir | FileCheck %s
// RUN: tilekit emit --target=torch --check-shapes %examples/softmax.mlir | FileCheck %s --check-prefix=SHAPES
// RUN: tilekit emit --target=torch %examples/softmax.mlir | FileCheck %s --check-prefix=NOSHAPES

// CHECK: _GROUP_META.update({
// CHECK-NEXT: 'scaled_matmul': {'aic': 'scaled_matmul_aic', 'aiv': 'scaled_matmul_aiv', 'split': 1, 'dual_aiv_dispatch': False},
// CHECK-LABEL: def scaled_matmul_aic(x, w, y, m0):
// CHECK: a1 = _cross_core_rt.pop_from_aiv(1, [64, 64], 'f16', pipe=0)
// CHECK: _cross_core_rt.push_to_aiv(c, 1, pipe=0)
// CHECK-LABEL: def scaled_matmul_aiv(x, w, y, m0):
// CHECK: lane = _get_subblock_idx()
// CHECK: _cross_core_rt.push_to_aic(h, 1, pipe=0)
// CHECK: r = _cross_core_rt.pop_from_aic(1, [32, 64], 'f32', pipe=0)
// CHECK-LABEL: def scaled_matmul(x, w, y, m0):
// CHECK-NEXT: return _run_group_call('scaled_matmul', x, w, y, m0)
// CHECK-LABEL: def main(x, w, y):
// CHECK: _run_group_call('scaled_matmul', x, w, y, m0)

// SHAPES-LABEL: def softmax_tile(
// SHAPES: e = _expdif(t, max_)
// SHAPES-NEXT: _check_shape(e, 'f32', [16, 128], 'e')
// SHAPES: _check_shape(out, 'f32', [None, 128], 'out')
// SHAPES-LABEL: def softmax(x, y):
// SHAPES-NEXT: _check_dtype(x, 'f32', 'x')
// SHAPES-NEXT: _check_dtype(y, 'f32', 'y')
// NOSHAPES-LABEL: def softmax_tile(
// NOSHAPES-NOT: _check_shape(
// NOSHAPES-NOT: _check_dtype(
