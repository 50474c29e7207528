func.func @f(%a: tensor<4xf32>, %z: tensor<f32>) -> tensor<f32> {
  %0 = stablehlo.reduce(%a init: %z) applies stablehlo.and across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}
