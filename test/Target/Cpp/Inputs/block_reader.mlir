// An in-core function that reads its block index: its orchestration stays
// one launch per work item (a launch would change what it reads).
func.func @which(%y: !pto.tensor<16xf32>) -> !pto.tensor<16xf32>
    attributes {pto.kind = #pto.kind<incore>} {
  %b = pto.tile.get_block_idx
  %t = pto.tile.load %y[%b] : !pto.tensor<16xf32> -> !pto.tile<16xf32, vec>
  %o = pto.tile.store %t, %y[%b] : !pto.tile<16xf32, vec> -> !pto.tensor<16xf32>
  return %o : !pto.tensor<16xf32>
}
func.func @main(%y: !pto.tensor<16xf32>) -> !pto.tensor<16xf32>
    attributes {pto.kind = #pto.kind<orchestration>} {
  %r = func.call @which(%y) : (!pto.tensor<16xf32>) -> !pto.tensor<16xf32>
  return %r : !pto.tensor<16xf32>
}
