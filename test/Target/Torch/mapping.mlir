// RUN: tilekit emit --target=torch %s | FileCheck %s
// Each op maps to one line of the script; this pins the mapping.

func.func @tile_ops(%x: !pto.tensor<?x64xf32>, %out: !pto.tensor<?x64xf32>, %i: index, %s: f32, %k: !pto.tile<16x64xi32, vec>) -> !pto.tensor<?x64xf32> {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %t = pto.tile.load %x[%i, %c0] valid [%c8, %c8] : !pto.tensor<?x64xf32> -> !pto.tile<16x64xf32, vec>
  %n = pto.tile.create : !pto.tile<16x64xf32, vec>
  %f = pto.tile.full %s valid [%c8, %c8] : f32 -> !pto.tile<16x64xf32, vec>
  %sl = pto.tile.slice %t[%c0, %c8] pad max : !pto.tile<16x64xf32, vec> -> !pto.tile<8x64xf32, vec>
  %as = pto.tile.assemble %sl into %n[%c8, %c0] : !pto.tile<8x64xf32, vec> into !pto.tile<16x64xf32, vec>
  %fp = pto.tile.fillpad %t, min : !pto.tile<16x64xf32, vec>
  %vs = pto.tile.set_validshape %t[%c8, %c8] : !pto.tile<16x64xf32, vec>
  %rs = pto.tile.reshape %fp : !pto.tile<16x64xf32, vec> -> !pto.tile<32x32xf32, vec>
  %tr = pto.tile.transpose %fp : !pto.tile<16x64xf32, vec> -> !pto.tile<64x16xf32, vec>
  %e = pto.tile.read %t[%c0, %c0] : !pto.tile<16x64xf32, vec>
  %w = pto.tile.write %e, %t[%c0, %c8] : !pto.tile<16x64xf32, vec>
  %add = pto.tile.add %t, %w : !pto.tile<16x64xf32, vec>
  %div = pto.tile.div %k, %k : !pto.tile<16x64xi32, vec>
  %shl = pto.tile.shl %k, %k : !pto.tile<16x64xi32, vec>
  %adds = pto.tile.adds %t, %s : !pto.tile<16x64xf32, vec>, f32
  %exp = pto.tile.exp %t : !pto.tile<16x64xf32, vec>
  %not = pto.tile.not %k : !pto.tile<16x64xi32, vec>
  %cast = pto.tile.cast %t round floor : !pto.tile<16x64xf32, vec> -> !pto.tile<16x64xf16, vec>
  %m = pto.tile.cmp lt, %t, %w : !pto.tile<16x64xf32, vec> -> !pto.tile<16x64xi1, vec>
  %ms = pto.tile.cmps ge, %t, %s : !pto.tile<16x64xf32, vec>, f32 -> !pto.tile<16x64xi1, vec>
  %sel = pto.tile.sel %m, %t, %w : !pto.tile<16x64xi1, vec>, !pto.tile<16x64xf32, vec>
  %sels = pto.tile.sels %m, %t, %s : !pto.tile<16x64xi1, vec>, !pto.tile<16x64xf32, vec>, f32
  %rsum = pto.tile.row_sum %t : !pto.tile<16x64xf32, vec> -> !pto.tile<16x1xf32, vec>
  %cmax = pto.tile.col_max %t : !pto.tile<16x64xf32, vec> -> !pto.tile<1x64xf32, vec>
  %rex = pto.tile.row_expand %rsum : !pto.tile<16x1xf32, vec> -> !pto.tile<16x64xf32, vec>
  %rem = pto.tile.row_expand_mul %t, %rsum : !pto.tile<16x64xf32, vec>, !pto.tile<16x1xf32, vec>
  %ced = pto.tile.col_expand_expdif %t, %cmax : !pto.tile<16x64xf32, vec>, !pto.tile<1x64xf32, vec>
  %o = pto.tile.store %add, %out[%i, %c0] atomic_add : !pto.tile<16x64xf32, vec> -> !pto.tensor<?x64xf32>
  pto.system.sync_src mte2 -> v, event 0
  pto.system.bar_all
  return %o : !pto.tensor<?x64xf32>
}

func.func @cube(%a: !pto.tile<16x16xf16, left>, %b: !pto.tile<16x16xf16, right>, %acc: !pto.tile<16x16xf32, acc>, %bias: !pto.tile<1x16xf32, bias>, %k: index) -> !pto.tile<16x16xf32, acc> {
  %c0 = arith.constant 0 : index
  %true = arith.constant true
  %false = arith.constant false
  %first = arith.cmpi eq, %k, %c0 : index
  %p = pto.tile.matmul %a, %b : !pto.tile<16x16xf16, left>, !pto.tile<16x16xf16, right> -> !pto.tile<16x16xf32, acc>
  %r1 = pto.tile.matmul_acc %acc, %a, %b init %first : !pto.tile<16x16xf32, acc>, !pto.tile<16x16xf16, left>, !pto.tile<16x16xf16, right>
  %r2 = pto.tile.matmul_acc %r1, %a, %b init %true : !pto.tile<16x16xf32, acc>, !pto.tile<16x16xf16, left>, !pto.tile<16x16xf16, right>
  %r3 = pto.tile.matmul_acc %r2, %a, %b init %false : !pto.tile<16x16xf32, acc>, !pto.tile<16x16xf16, left>, !pto.tile<16x16xf16, right>
  %r4 = pto.tile.matmul_acc %r3, %a, %b : !pto.tile<16x16xf32, acc>, !pto.tile<16x16xf16, left>, !pto.tile<16x16xf16, right>
  %r5 = pto.tile.matmul_bias %a, %b, %bias : !pto.tile<16x16xf16, left>, !pto.tile<16x16xf16, right>, !pto.tile<1x16xf32, bias> -> !pto.tile<16x16xf32, acc>
  return %r4 : !pto.tile<16x16xf32, acc>
}

func.func @tensors(%a: !pto.tensor<?x32xf16>, %b: !pto.tensor<64x32xf16>, %acc: !pto.tensor<?x64xf32>, %n: index, %p: i1) -> !pto.tensor<?x64xf32> {
  %c0 = arith.constant 0 : index
  %t = pto.tensor.create [%n] : !pto.tensor<?x64xf32>
  %v = pto.tensor.view %t [%n] : !pto.tensor<?x64xf32> -> !pto.tensor<?x64xf32>
  %d = pto.tensor.dim %a, 0 : !pto.tensor<?x32xf16>
  %s = pto.tensor.slice %a[%c0, %c0] : !pto.tensor<?x32xf16> -> !pto.tensor<8x32xf16>
  %m = pto.tensor.matmul %a, %b {b_trans} : !pto.tensor<?x32xf16>, !pto.tensor<64x32xf16> -> !pto.tensor<?x64xf32>
  %r = pto.tensor.matmul_acc %acc, %a, %b init %p {b_trans} : !pto.tensor<?x64xf32>, !pto.tensor<?x32xf16>, !pto.tensor<64x32xf16>
  %e = pto.tensor.exp %r : !pto.tensor<?x64xf32>
  %rs = pto.tensor.row_sum %e : !pto.tensor<?x64xf32> -> !pto.tensor<?x1xf32>
  return %e : !pto.tensor<?x64xf32>
}

// Names: invalid characters, keywords and leading digits.
func.func @names(%in: index, %0: index, %for_: index) -> index {
  %lambda = arith.addi %in, %0 : index
  %a_b = arith.muli %lambda, %for_ : index
  return %a_b : index
}

func.func @control(%n: index) -> (i32, i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %two = arith.constant 2 : i32
  %a, %b = scf.for %i = %c0 to %n step %c1 iter_args(%x = %one, %y = %two) -> (i32, i32) {
    scf.yield %y, %x : i32, i32
  }
  %w:2 = scf.while (%p = %a, %q = %b) : (i32, i32) -> (i32, i32) {
    %go = arith.cmpi slt, %p, %q : i32
    scf.condition(%go) %p, %q : i32, i32
  } do {
  ^bb0(%p: i32, %q: i32):
    %p1 = arith.addi %p, %one : i32
    scf.yield %p1, %q : i32, i32
  }
  %c = arith.cmpi eq, %w#0, %w#1 : i32
  %r = scf.if %c -> (i32) {
    scf.yield %one : i32
  } else {
    scf.yield %two : i32
  }
  return %r, %w#1 : i32, i32
}

// CHECK-LABEL: def tile_ops(x, out, i, s, k):
// CHECK-NEXT:      c0 = 0
// CHECK-NEXT:      c8 = 8
// CHECK-NEXT:      t = _tile_load(x, [i, c0], [16, 64], [c8, c8])
// CHECK-NEXT:      n = _tile_create([16, 64], 'f32', None)
// CHECK-NEXT:      f = _tile_full([16, 64], 'f32', s, [c8, c8])
// CHECK-NEXT:      sl = _tile_slice(t, [c0, c8], [8, 64], None, 'max')
// CHECK-NEXT:      as_ = _assemble(sl, n, [c8, c0])
// CHECK-NEXT:      fp = _fillpad(t, 'min')
// CHECK-NEXT:      vs = _set_validshape(t, [c8, c8])
// CHECK-NEXT:      rs = _reshape(fp, [32, 32])
// CHECK-NEXT:      tr = _transpose(fp)
// CHECK-NEXT:      e = _read(t, [c0, c0])
// CHECK-NEXT:      w = _write(t, [c0, c8], e)
// CHECK-NEXT:      add = _binary(torch.add, t, w)
// CHECK-NEXT:      div = _like(_div(k, k, 'pto.tile.div'), k)
// CHECK-NEXT:      shl = _binary(_shl, k, k)
// CHECK-NEXT:      adds = _binary_scalar(torch.add, t, s)
// CHECK-NEXT:      exp = _unary(torch.exp, t)
// CHECK-NEXT:      not_ = _unary(_not, k)
// CHECK-NEXT:      cast = _cast(t, 'f16', 'floor')
// CHECK-NEXT:      m = _cmp('lt', t, w)
// CHECK-NEXT:      ms = _cmps('ge', t, s)
// CHECK-NEXT:      sel = _sel(m, t, w)
// CHECK-NEXT:      sels = _sels(m, t, s)
// CHECK-NEXT:      rsum = _reduce('sum', t, True)
// CHECK-NEXT:      cmax = _reduce('max', t, False)
// CHECK-NEXT:      rex = _expand(rsum, [16, 64], True)
// CHECK-NEXT:      rem = _expand_binary(torch.mul, t, rsum)
// CHECK-NEXT:      ced = _expdif(t, cmax)
// CHECK-NEXT:      o = _tile_store(add, out, [i, c0], atomic_add=True)
// CHECK-NEXT:      pass  # pto.system.sync_src: orders pipes, a no-op in the reference
// CHECK-NEXT:      pass  # pto.system.bar_all: orders pipes, a no-op in the reference
// CHECK-NEXT:      return o
// CHECK-LABEL: def cube(a, b, acc, bias, k):
// CHECK-NEXT:      c0 = 0
// CHECK-NEXT:      true = True
// CHECK-NEXT:      false = False
// CHECK-NEXT:      first = (k == c0)
// CHECK-NEXT:      p = _matmul(a, b, 'f32')
// CHECK-NEXT:      r1 = _acc_init(acc, _matmul(a, b, 'f32'), first)
// CHECK-NEXT:      r2 = _matmul(a, b, 'f32')
// CHECK-NEXT:      r3 = _accumulate(r2, _matmul(a, b, 'f32'))
// CHECK-NEXT:      r4 = _accumulate(r3, _matmul(a, b, 'f32'))
// CHECK-NEXT:      r5 = _matmul_bias(a, b, bias, 'f32')
// CHECK-NEXT:      return r4
// CHECK-LABEL: def tensors(a, b, acc, n, p):
// CHECK-NEXT:      c0 = 0
// CHECK-NEXT:      t = _tile_create([n, 64], 'f32')
// CHECK-NEXT:      v = _tensor_view(t, [n, 64])
// CHECK-NEXT:      d = a.shape[0]
// CHECK-NEXT:      s = _tensor_slice(a, [c0, c0], [8, 32], None)
// CHECK-NEXT:      m = _tensor_matmul(a, b, 'f32', a_trans=False, b_trans=True)
// CHECK-NEXT:      r = _acc_init(acc, _tensor_matmul(a, b, 'f32', a_trans=False, b_trans=True), p)
// CHECK-NEXT:      e = _unary(torch.exp, r)
// CHECK-NEXT:      rs = _reduce('sum', e, True)
// CHECK-NEXT:      return e
// CHECK-LABEL: def names(in_, v_0, for_):
// CHECK-NEXT:      lambda_ = in_ + v_0
// CHECK-NEXT:      a_b = lambda_ * for_
// CHECK-NEXT:      return a_b
// CHECK-LABEL: def control(n):
// CHECK-NEXT:      c0 = 0
// CHECK-NEXT:      c1 = 1
// CHECK-NEXT:      one = 1
// CHECK-NEXT:      two = 2
// CHECK-NEXT:      x, y = one, two
// CHECK-NEXT:      for i in range(c0, n, c1):
// CHECK-NEXT:          x, y = y, x
// CHECK-NEXT:      a, b = x, y
// CHECK-NEXT:      p, q = a, b
// CHECK-NEXT:      while True:
// CHECK-NEXT:          go = (p < q)
// CHECK-NEXT:          if not go:
// CHECK-NEXT:              w_0, w_1 = p, q
// CHECK-NEXT:              break
// CHECK-NEXT:          p_1, q_1 = p, q
// CHECK-NEXT:          p1 = _wrap(p_1 + one, 'i32')
// CHECK-NEXT:          p, q = p1, q_1
// CHECK-NEXT:      c = (w_0 == w_1)
// CHECK-NEXT:      if c:
// CHECK-NEXT:          r = one
// CHECK-NEXT:      else:
// CHECK-NEXT:          r = two
// CHECK-NEXT:      return r, w_1
