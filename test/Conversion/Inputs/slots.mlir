// Both cores push three tiles on pipe 0 before they pop any: the cube
// three products x_k w, the vector core three tiles of y in f16. With
// SLOTS slots each way (3: they fit; 2: both cores block on their third
// push, as the PTO run does) the constant-trip loops unroll and each
// tile in flight has its own workspace slot. The cube then multiplies
// each popped tile by w into z, the vector core adds 1 to each popped
// product into o.
func.func @slots_aic(%x: !pto.tensor<48x32xf16>, %w: !pto.tensor<32x32xf16>,
                     %y: !pto.tensor<48x32xf32>, %z: !pto.tensor<48x32xf32>,
                     %o: !pto.tensor<48x32xf32>) attributes {pto.kind = #pto.kind<aic>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c16 = arith.constant 16 : index
  pto.system.aic_initialize_pipe 0 both slot_num SLOTS slot_size 2048
  %wm = pto.tile.load %w[%c0, %c0] : !pto.tensor<32x32xf16> -> !pto.tile<32x32xf16, mat>
  %wr = pto.tile.move %wm : !pto.tile<32x32xf16, mat> -> !pto.tile<32x32xf16, right>
  scf.for %k = %c0 to %c3 step %c1 {
    %row = arith.muli %k, %c16 : index
    %a = pto.tile.load %x[%row, %c0] : !pto.tensor<48x32xf16> -> !pto.tile<16x32xf16, mat>
    %al = pto.tile.move %a : !pto.tile<16x32xf16, mat> -> !pto.tile<16x32xf16, left>
    %c = pto.tile.matmul %al, %wr : !pto.tile<16x32xf16, left>, !pto.tile<32x32xf16, right> -> !pto.tile<16x32xf32, acc>
    pto.tile.tpush_to_aiv %c split 0 : !pto.tile<16x32xf32, acc>
  }
  scf.for %k = %c0 to %c3 step %c1 {
    %row = arith.muli %k, %c16 : index
    %p = pto.tile.tpop_from_aiv split 0 : !pto.tile<16x32xf16, mat>
    %pl = pto.tile.move %p : !pto.tile<16x32xf16, mat> -> !pto.tile<16x32xf16, left>
    %c = pto.tile.matmul %pl, %wr : !pto.tile<16x32xf16, left>, !pto.tile<32x32xf16, right> -> !pto.tile<16x32xf32, acc>
    %s = pto.tile.store %c, %z[%row, %c0] : !pto.tile<16x32xf32, acc> -> !pto.tensor<48x32xf32>
  }
  return
}

func.func @slots_aiv(%x: !pto.tensor<48x32xf16>, %w: !pto.tensor<32x32xf16>,
                     %y: !pto.tensor<48x32xf32>, %z: !pto.tensor<48x32xf32>,
                     %o: !pto.tensor<48x32xf32>) attributes {pto.kind = #pto.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c16 = arith.constant 16 : index
  %one = arith.constant 1.0 : f32
  pto.system.aiv_initialize_pipe 0 both slot_num SLOTS slot_size 2048
  scf.for %k = %c0 to %c3 step %c1 {
    %row = arith.muli %k, %c16 : index
    %v = pto.tile.load %y[%row, %c0] : !pto.tensor<48x32xf32> -> !pto.tile<16x32xf32, vec>
    %h = pto.tile.cast %v round rint : !pto.tile<16x32xf32, vec> -> !pto.tile<16x32xf16, vec>
    pto.tile.tpush_to_aic %h split 0 : !pto.tile<16x32xf16, vec>
  }
  scf.for %k = %c0 to %c3 step %c1 {
    %row = arith.muli %k, %c16 : index
    %r = pto.tile.tpop_from_aic split 0 : !pto.tile<16x32xf32, vec>
    %s = pto.tile.adds %r, %one : !pto.tile<16x32xf32, vec>, f32
    %t = pto.tile.store %s, %o[%row, %c0] : !pto.tile<16x32xf32, vec> -> !pto.tensor<48x32xf32>
  }
  return
}

func.func @slots(%x: !pto.tensor<48x32xf16>, %w: !pto.tensor<32x32xf16>,
                 %y: !pto.tensor<48x32xf32>, %z: !pto.tensor<48x32xf32>,
                 %o: !pto.tensor<48x32xf32>) attributes {pto.kind = #pto.kind<group>} {
  return
}

func.func @main(%x: !pto.tensor<48x32xf16>, %w: !pto.tensor<32x32xf16>,
                %y: !pto.tensor<48x32xf32>, %z: !pto.tensor<48x32xf32>,
                %o: !pto.tensor<48x32xf32>) attributes {pto.kind = #pto.kind<orchestration>} {
  call @slots(%x, %w, %y, %z, %o) : (!pto.tensor<48x32xf16>, !pto.tensor<32x32xf16>, !pto.tensor<48x32xf32>, !pto.tensor<48x32xf32>, !pto.tensor<48x32xf32>) -> ()
  return
}
