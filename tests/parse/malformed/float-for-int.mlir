// ERROR: floating-point value for integer type i32
func.func @f() -> tensor<i32> {
  %0 = stablehlo.constant dense<1.5> : tensor<i32>
  return %0 : tensor<i32>
}
