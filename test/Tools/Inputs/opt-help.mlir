func.func @kernel() {
  return
}
