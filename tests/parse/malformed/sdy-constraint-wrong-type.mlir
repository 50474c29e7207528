// ERROR: is written with a type other than its definition's
sdy.mesh @mesh = <["a"=2]>
func.func @f(%x: tensor<4xf32>) -> tensor<4xf64> {
  %0 = sdy.sharding_constraint %x <@mesh, [{"a"}]> : tensor<4xf64>
  return %0 : tensor<4xf64>
}
