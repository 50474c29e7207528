// ERROR: expected '<' to open the sharding attribute
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = sdy.sharding_constraint %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
