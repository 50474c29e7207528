func.func @f(%x: tensor<f32>) {
  "func.return"() : () -> ()
  %0 = stablehlo.negate %x : tensor<f32>
}
// -----
sdy.mesh @mesh = <["a"=2]>
func.func @g(%x: tensor<4xf32>) {
  sdy.manual_computation(%x) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[] manual_axes={"a"} (%l: tensor<2xf32>) {
    "sdy.return"() : () -> ()
    %1 = stablehlo.negate %l : tensor<2xf32>
  } : (tensor<4xf32>) -> ()
  return
}
