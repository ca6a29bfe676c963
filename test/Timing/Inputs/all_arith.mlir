// Every arith op an orchestration or in-core function may use on scalars
// (trace-producer.test): its values steer the loop and scale the tiles.
func.func @all_arith(%x: !pto.tensor<?x64xf32>, %y: !pto.tensor<?x64xf32>, %s: f32, %n: i32)
    attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %rows = pto.tensor.dim %x, 0 : !pto.tensor<?x64xf32>
  %two = arith.constant 2.0 : f32
  %a1 = arith.remf %s, %two : f32
  %a2 = arith.negf %a1 : f32
  %a3 = arith.maximumf %a2, %s : f32
  %a4 = arith.minimumf %a3, %two : f32
  %a5 = arith.maxnumf %a4, %s : f32
  %a6 = arith.minnumf %a5, %two : f32
  %a7 = arith.divf %a6, %two : f32
  %a8 = arith.subf %a7, %s : f32
  %a9 = arith.truncf %a8 : f32 to f16
  %a10 = arith.extf %a9 : f16 to f32
  %b1 = arith.fptosi %a10 : f32 to i32
  %b2 = arith.fptoui %two : f32 to i32
  %b3 = arith.addi %b1, %b2 : i32
  %b4 = arith.shli %b3, %b2 : i32
  %b5 = arith.shrsi %b4, %b2 : i32
  %b6 = arith.shrui %b5, %b2 : i32
  %b7 = arith.andi %b6, %n : i32
  %b8 = arith.ori %b7, %n : i32
  %b9 = arith.xori %b8, %n : i32
  %b10 = arith.divsi %b9, %n : i32
  %b11 = arith.remsi %b10, %n : i32
  %b12 = arith.extsi %b11 : i32 to i64
  %b13 = arith.extui %n : i32 to i64
  %b14 = arith.addi %b12, %b13 : i64
  %b15 = arith.trunci %b14 : i64 to i32
  %b16 = arith.sitofp %b15 : i32 to f32
  %b17 = arith.uitofp %n : i32 to f32
  %b18 = arith.addf %b16, %b17 : f32
  %b19 = arith.fptosi %b18 : f32 to i32
  %b20 = arith.cmpf olt, %b18, %a10 : f32
  %b21 = arith.select %b20, %b18, %a10 : f32
  %b22 = arith.mulf %b21, %s : f32
  %i1 = arith.index_cast %b19 : i32 to index
  %i2 = arith.index_castui %n : i32 to index
  %i3 = arith.remsi %i1, %c1 : index
  %i4 = arith.addi %i3, %i2 : index
  %c2 = arith.constant 2 : index
  %i5 = arith.remui %i4, %c2 : index
  %i6 = arith.minui %i5, %c1 : index
  %start = arith.muli %i6, %c16 : index
  scf.for %i = %start to %rows step %c16 {
    %left = arith.subi %rows, %i : index
    %rv = arith.minsi %left, %c16 : index
    %t = pto.tile.load %x[%i, %c0] valid [%rv, %c64]
        : !pto.tensor<?x64xf32> -> !pto.tile<16x64xf32, vec>
    %e = pto.tile.muls %t, %b22 : !pto.tile<16x64xf32, vec>, f32
    %o = pto.tile.store %e, %y[%i, %c0]
        : !pto.tile<16x64xf32, vec> -> !pto.tensor<?x64xf32>
  }
  return
}
