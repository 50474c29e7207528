// ERROR: integer literal does not fit in 64 bits
func.func @f() -> tensor<i64> {
  %0 = stablehlo.constant dense<99999999999999999999> : tensor<i64>
  return %0 : tensor<i64>
}
