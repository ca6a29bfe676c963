// What once left C++ that -Wall -Werror rejects although compile exited 0:
// a block index only a printf used (remove-debug-ops removes the printf),
// and the smallest int64_t, which is no C++ literal.
func.func @kernel(%x: !ascendc.global_tensor<128xf32>, %y: !ascendc.global_tensor<128xf32>, %n: index) {
  %b = ascendc.get_block_idx
  ascendc.printf "block %d\n", %b : index
  %min = arith.constant -9223372036854775808 : index
  %c64 = arith.constant 64 : index
  %t = ascendc.local_tensor_auto vecin : !ascendc.local_tensor<64xf32>
  %unset = arith.cmpi eq, %n, %min : index
  %off = arith.select %unset, %c64, %n : index
  %v = ascendc.global_tensor.subindex %x[%off] : !ascendc.global_tensor<128xf32> to !ascendc.global_tensor<128xf32>
  ascendc.data_copy %t, %v, %c64 : !ascendc.local_tensor<64xf32>, !ascendc.global_tensor<128xf32>
  ascendc.data_copy %y, %t, %c64 : !ascendc.global_tensor<128xf32>, !ascendc.local_tensor<64xf32>
  return
}
