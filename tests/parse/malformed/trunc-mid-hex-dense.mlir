// ERROR: unterminated string
func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = stablehlo.constant dense<"0x0000803F