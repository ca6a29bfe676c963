// The orchestration's fold of a whole tensor over an extent known at run
// time only has no AscendC lowering: compile writes a kernel for a fold
// only when a tile holds the whole extent it folds.
func.func @host(%x: !pto.tensor<?x128xf32>) -> !pto.tensor<1x128xf32> attributes {pto.kind = #pto.kind<orchestration>} {
  %m = pto.tensor.col_max %x : !pto.tensor<?x128xf32> -> !pto.tensor<1x128xf32>
  return %m : !pto.tensor<1x128xf32>
}
