// ERROR: expected 'out_shardings'
sdy.mesh @mesh = <["a"=2]>
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = sdy.manual_computation(%x) in_shardings=[<@mesh, [{"a"}]>] manual_axes={"a"} (%l: tensor<2xf32>) {
    sdy.return %l : tensor<2xf32>
  } : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
