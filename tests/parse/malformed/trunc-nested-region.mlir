// ERROR: expected '}' to close the region
func.func @f(%a: tensor<i32>) -> tensor<i32> {
  %0 = stablehlo.while(%i = %a) : tensor<i32>
  cond {
    %c = stablehlo.compare LT, %i, %i : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    stablehlo.return %i : tensor<i32>
