// ERROR: invalid hexadecimal digit
func.func @f() -> tensor<f32> {
  %0 = stablehlo.constant dense<"0x0000G03F"> : tensor<f32>
  return %0 : tensor<f32>
}
