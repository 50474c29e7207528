// ERROR: expected ':' before the op's function type
func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "stablehlo.abs"(%a) {x = 1}
  return %0 : tensor<2xf32>
}
