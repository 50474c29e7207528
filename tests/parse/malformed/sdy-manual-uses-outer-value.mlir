// ERROR: use of undefined value '%x' (functions, modules and sdy.manual_computation bodies do not see
sdy.mesh @mesh = <["a"=2]>
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = sdy.manual_computation(%x) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{}]>] manual_axes={"a"} (%l: tensor<2xf32>) {
    sdy.return %x : tensor<4xf32>
  } : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
