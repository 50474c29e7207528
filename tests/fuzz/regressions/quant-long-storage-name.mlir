func.func @f(%a: tensor<2x!quant.uniform<u8:f32, 0.5:3>>) -> tensor<2x!quant.uniform<ustablehlo.concatenate8.5:3>> {
  return %a : tensor<2x!quant.uniform<u8:f32, 0.5:3>>
}
