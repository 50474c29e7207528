// ERROR: expected ':' before the op's types, found ','
func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = stablehlo.add %a,