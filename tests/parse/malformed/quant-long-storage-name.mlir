// ERROR: expected an integer storage type
func.func @f(%a: tensor<2x!quant.uniform<ustablehlo.concatenate8:f32, 0.5:3>>) {
  return
}
