// ERROR: dense string payloads must be hexadecimal
func.func @f() -> tensor<f32> {
  %0 = stablehlo.constant dense<"0x000"> : tensor<f32>
  return %0 : tensor<f32>
}
