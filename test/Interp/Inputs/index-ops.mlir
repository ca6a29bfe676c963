// Kernels for index-ops.test: each loads its inputs with runtime valid
// shapes, applies one family of ops and stores the results.

func.func @iota(%y: !pto.tensor<2x16xi32>, %z: !pto.tensor<2x16xf32>, %s: i32, %f: f32) {
  %c0 = arith.constant 0 : index
  %a = pto.tile.iota %s : i32 -> !pto.tile<2x16xi32, vec>
  %b = pto.tile.iota %f descending : f32 -> !pto.tile<2x16xf32, vec>
  %o1 = pto.tile.store %a, %y[%c0, %c0] : !pto.tile<2x16xi32, vec> -> !pto.tensor<2x16xi32>
  %o2 = pto.tile.store %b, %z[%c0, %c0] : !pto.tile<2x16xf32, vec> -> !pto.tensor<2x16xf32>
  return
}

func.func @scans(%x: !pto.tensor<8x40xf32>, %rows: index, %cols: index, %r: !pto.tensor<8x40xf32>, %c: !pto.tensor<8x40xf32>) {
  %c0 = arith.constant 0 : index
  %t = pto.tile.load %x[%c0, %c0] valid [%rows, %cols] : !pto.tensor<8x40xf32> -> !pto.tile<8x40xf32, vec>
  %a = pto.tile.row_cumsum %t : !pto.tile<8x40xf32, vec>
  %b = pto.tile.col_cumsum %t : !pto.tile<8x40xf32, vec>
  %o1 = pto.tile.store %a, %r[%c0, %c0] : !pto.tile<8x40xf32, vec> -> !pto.tensor<8x40xf32>
  %o2 = pto.tile.store %b, %c[%c0, %c0] : !pto.tile<8x40xf32, vec> -> !pto.tensor<8x40xf32>
  return
}

func.func @argreduce(%x: !pto.tensor<8x64xf32>, %rows: index, %cols: index, %mv: !pto.tensor<8x1xf32>, %mi: !pto.tensor<8x1xi32>, %nv: !pto.tensor<8x1xf32>, %ni: !pto.tensor<8x1xi32>) {
  %c0 = arith.constant 0 : index
  %t = pto.tile.load %x[%c0, %c0] valid [%rows, %cols] : !pto.tensor<8x64xf32> -> !pto.tile<8x64xf32, vec>
  %a, %ai = pto.tile.row_argmax %t : !pto.tile<8x64xf32, vec> -> !pto.tile<8x1xf32, vec>, !pto.tile<8x1xi32, vec>
  %b, %bi = pto.tile.row_argmin %t : !pto.tile<8x64xf32, vec> -> !pto.tile<8x1xf32, vec>, !pto.tile<8x1xi32, vec>
  %o1 = pto.tile.store %a, %mv[%c0, %c0] : !pto.tile<8x1xf32, vec> -> !pto.tensor<8x1xf32>
  %o2 = pto.tile.store %ai, %mi[%c0, %c0] : !pto.tile<8x1xi32, vec> -> !pto.tensor<8x1xi32>
  %o3 = pto.tile.store %b, %nv[%c0, %c0] : !pto.tile<8x1xf32, vec> -> !pto.tensor<8x1xf32>
  %o4 = pto.tile.store %bi, %ni[%c0, %c0] : !pto.tile<8x1xi32, vec> -> !pto.tensor<8x1xi32>
  return
}

// A top-k: sort 32-blocks, merge runs of 32 and 64 into sorted rows of 128,
// keep the first k columns.
func.func @topk(%x: !pto.tensor<4x128xf32>, %rows: index, %k: index, %v: !pto.tensor<4x128xf32>, %i: !pto.tensor<4x128xi32>, %sv: !pto.tensor<4x128xf32>, %si: !pto.tensor<4x128xi32>) {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  %t = pto.tile.load %x[%c0, %c0] valid [%rows, %c128] : !pto.tensor<4x128xf32> -> !pto.tile<4x128xf32, vec>
  %s, %si0 = pto.tile.sort32 %t : !pto.tile<4x128xf32, vec> -> !pto.tile<4x128xf32, vec>, !pto.tile<4x128xi32, vec>
  %m1, %i1 = pto.tile.mrgsort %s, %si0 block 32 : !pto.tile<4x128xf32, vec>, !pto.tile<4x128xi32, vec>
  %m2, %i2 = pto.tile.mrgsort %m1, %i1 block 64 : !pto.tile<4x128xf32, vec>, !pto.tile<4x128xi32, vec>
  %kv = pto.tile.set_validshape %m2[%rows, %k] : !pto.tile<4x128xf32, vec>
  %ki = pto.tile.set_validshape %i2[%rows, %k] : !pto.tile<4x128xi32, vec>
  %o1 = pto.tile.store %kv, %v[%c0, %c0] : !pto.tile<4x128xf32, vec> -> !pto.tensor<4x128xf32>
  %o2 = pto.tile.store %ki, %i[%c0, %c0] : !pto.tile<4x128xi32, vec> -> !pto.tensor<4x128xi32>
  %o3 = pto.tile.store %s, %sv[%c0, %c0] : !pto.tile<4x128xf32, vec> -> !pto.tensor<4x128xf32>
  %o4 = pto.tile.store %si0, %si[%c0, %c0] : !pto.tile<4x128xi32, vec> -> !pto.tensor<4x128xi32>
  return
}

// Gather by flat index into the source box; scatter rows of the negated
// first two source rows by per-element row indices.
func.func @gather_scatter(%src: !pto.tensor<8x16xf32>, %idx: !pto.tensor<1x32xi32>, %n: index, %ridx: !pto.tensor<2x16xi32>, %m: index, %g: !pto.tensor<1x32xf32>, %d: !pto.tensor<8x16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %s = pto.tile.load %src[%c0, %c0] : !pto.tensor<8x16xf32> -> !pto.tile<8x16xf32, vec>
  %ix = pto.tile.load %idx[%c0, %c0] valid [%c1, %n] : !pto.tensor<1x32xi32> -> !pto.tile<1x32xi32, vec>
  %gt = pto.tile.gather %s, %ix : !pto.tile<8x16xf32, vec>, !pto.tile<1x32xi32, vec> -> !pto.tile<1x32xf32, vec>
  %top = pto.tile.load %src[%c0, %c0] valid [%c2, %m] : !pto.tensor<8x16xf32> -> !pto.tile<2x16xf32, vec>
  %neg = arith.constant -1.0 : f32
  %vals = pto.tile.muls %top, %neg : !pto.tile<2x16xf32, vec>, f32
  %rows = pto.tile.load %ridx[%c0, %c0] : !pto.tensor<2x16xi32> -> !pto.tile<2x16xi32, vec>
  %sc = pto.tile.scatter %vals, %rows into %s : !pto.tile<2x16xf32, vec>, !pto.tile<2x16xi32, vec> into !pto.tile<8x16xf32, vec>
  %o1 = pto.tile.store %gt, %g[%c0, %c0] : !pto.tile<1x32xf32, vec> -> !pto.tensor<1x32xf32>
  %o2 = pto.tile.store %sc, %d[%c0, %c0] : !pto.tile<8x16xf32, vec> -> !pto.tensor<8x16xf32>
  return
}

func.func @valid_dims(%x: !pto.tensor<8x40xf32>, %rows: index, %cols: index, %y: !pto.tensor<1x2xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t = pto.tile.load %x[%c0, %c0] valid [%rows, %cols] : !pto.tensor<8x40xf32> -> !pto.tile<8x40xf32, vec>
  %r = pto.tile.valid_dim %t, 0 : !pto.tile<8x40xf32, vec>
  %c = pto.tile.valid_dim %t, 1 : !pto.tile<8x40xf32, vec>
  %ri = arith.index_cast %r : index to i32
  %ci = arith.index_cast %c : index to i32
  %z = pto.tile.create : !pto.tile<1x2xi32, vec>
  %w0 = pto.tile.write %ri, %z[%c0, %c0] : !pto.tile<1x2xi32, vec>
  %w1 = pto.tile.write %ci, %w0[%c0, %c1] : !pto.tile<1x2xi32, vec>
  %o = pto.tile.store %w1, %y[%c0, %c0] : !pto.tile<1x2xi32, vec> -> !pto.tensor<1x2xi32>
  return
}

func.func @unary(%x: !pto.tensor<8x64xf32>, %a: !pto.tensor<8x64xf32>, %b: !pto.tensor<8x64xf32>, %c: !pto.tensor<8x64xf32>) {
  %c0 = arith.constant 0 : index
  %t = pto.tile.load %x[%c0, %c0] : !pto.tensor<8x64xf32> -> !pto.tile<8x64xf32, vec>
  %th = pto.tile.tanh %t : !pto.tile<8x64xf32, vec>
  %sg = pto.tile.sigmoid %t : !pto.tile<8x64xf32, vec>
  %ef = pto.tile.erf %t : !pto.tile<8x64xf32, vec>
  %o1 = pto.tile.store %th, %a[%c0, %c0] : !pto.tile<8x64xf32, vec> -> !pto.tensor<8x64xf32>
  %o2 = pto.tile.store %sg, %b[%c0, %c0] : !pto.tile<8x64xf32, vec> -> !pto.tensor<8x64xf32>
  %o3 = pto.tile.store %ef, %c[%c0, %c0] : !pto.tile<8x64xf32, vec> -> !pto.tensor<8x64xf32>
  return
}

// Errors: a partial 32-block, a run that is not sorted.
func.func @sort_partial(%x: !pto.tensor<2x64xf32>, %cols: index) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %t = pto.tile.load %x[%c0, %c0] valid [%c2, %cols] : !pto.tensor<2x64xf32> -> !pto.tile<2x64xf32, vec>
  %s, %i = pto.tile.sort32 %t : !pto.tile<2x64xf32, vec> -> !pto.tile<2x64xf32, vec>, !pto.tile<2x64xi32, vec>
  return
}

func.func @merge_unsorted(%x: !pto.tensor<2x64xf32>) {
  %c0 = arith.constant 0 : index
  %z = arith.constant 0 : i32
  %t = pto.tile.load %x[%c0, %c0] : !pto.tensor<2x64xf32> -> !pto.tile<2x64xf32, vec>
  %i = pto.tile.iota %z : i32 -> !pto.tile<2x64xi32, vec>
  %s, %si = pto.tile.mrgsort %t, %i block 32 : !pto.tile<2x64xf32, vec>, !pto.tile<2x64xi32, vec>
  return
}
