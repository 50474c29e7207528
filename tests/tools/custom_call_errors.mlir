// Custom calls that call functions, malformed: each case fails with its located error
// (tests/CMakeLists.txt, cli.check_custom_call_errors).

func.func private @two(%a: tensor<f32>, %b: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  return %a, %b : tensor<f32>, tensor<f32>
}

// A reduce_window body that returns two values for one accumulator.
func.func @body_results() {
  %x = stablehlo.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0]> : tensor<5xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %size = stablehlo.constant dense<2> : tensor<1xi64>
  %one = stablehlo.constant dense<1> : tensor<1xi64>
  %pad = stablehlo.constant dense<[[0, 1]]> : tensor<1x2xi64>
  %r = stablehlo.custom_call @stablehlo.dynamic_reduce_window(%x, %zero, %size, %size, %one, %one, %pad) {called_computations = [@two]} : (tensor<5xf32>, tensor<f32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1x2xi64>) -> tensor<3xf32>
  func.return
}

// -----

// ApproxTopK without its comparator.
func.func @no_comparator() {
  %x = stablehlo.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %i = stablehlo.iota dim = 0 : tensor<3xi32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.custom_call @ApproxTopK(%x, %i, %ninf, %zero) {mhlo.backend_config = {reduction_dim = 0 : i64, top_k = 2 : i64}} : (tensor<3xf32>, tensor<3xi32>, tensor<f32>, tensor<i32>) -> (tensor<2xf32>, tensor<2xi32>)
  func.return
}
