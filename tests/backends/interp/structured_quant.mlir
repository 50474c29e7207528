func.func @reduce_quant() {
  %f = stablehlo.constant dense<[1.0, 2.0, 3.0, 4.5]> : tensor<4xf32>
  %a = stablehlo.uniform_quantize %f : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 0.5>>
  %zf = stablehlo.constant dense<0.0> : tensor<f32>
  %z = stablehlo.uniform_quantize %zf : (tensor<f32>) -> tensor<!quant.uniform<i8:f32, 0.5>>
  %r = "stablehlo.reduce"(%a, %z) ({
  ^bb0(%x: tensor<!quant.uniform<i8:f32, 0.5>>, %y: tensor<!quant.uniform<i8:f32, 0.5>>):
    %s = stablehlo.add %x, %y : tensor<!quant.uniform<i8:f32, 0.5>>
    stablehlo.return %s : tensor<!quant.uniform<i8:f32, 0.5>>
  }) {dimensions = array<i64: 0>} : (tensor<4x!quant.uniform<i8:f32, 0.5>>, tensor<!quant.uniform<i8:f32, 0.5>>) -> tensor<!quant.uniform<i8:f32, 0.5>>
  %d = stablehlo.uniform_dequantize %r : (tensor<!quant.uniform<i8:f32, 0.5>>) -> tensor<f32>
  check.expect_almost_eq_const %d, dense<10.5> : tensor<f32>
  %s:2 = "stablehlo.sort"(%a, %f) ({
  ^bb0(%x: tensor<!quant.uniform<i8:f32, 0.5>>, %y: tensor<!quant.uniform<i8:f32, 0.5>>, %p: tensor<f32>, %q: tensor<f32>):
    %c = stablehlo.compare GT, %x, %y : (tensor<!quant.uniform<i8:f32, 0.5>>, tensor<!quant.uniform<i8:f32, 0.5>>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) {dimension = 0 : i64} : (tensor<4x!quant.uniform<i8:f32, 0.5>>, tensor<4xf32>) -> (tensor<4x!quant.uniform<i8:f32, 0.5>>, tensor<4xf32>)
  check.expect_almost_eq_const %s#1, dense<[4.5, 3.0, 2.0, 1.0]> : tensor<4xf32>
  func.return
}
