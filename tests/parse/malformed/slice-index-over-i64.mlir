// ERROR: integer out of range of i64
func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = stablehlo.slice %a [0:9223372036854775808] : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
