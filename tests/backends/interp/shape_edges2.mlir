
func.func @dyn_reshape_runtime() {
  %a = stablehlo.constant dense<[1, 3]> : tensor<2xi64>
  %s = stablehlo.add %a, %a : tensor<2xi64>
  %x = stablehlo.iota dim = 0 : tensor<12xi32>
  %0 = stablehlo.dynamic_reshape %x, %s : (tensor<12xi32>, tensor<2xi64>) -> tensor<?x?xi32>
  %n = stablehlo.get_dimension_size %0, dim = 1 : (tensor<?x?xi32>) -> tensor<i32>
  check.expect_eq_const %n, dense<6> : tensor<i32>
  func.return
}

// -----

func.func @scatter_promoted() {
  %a = stablehlo.constant dense<[100, 100]> : tensor<2xi8>
  %idx = stablehlo.constant dense<[[0], [0]]> : tensor<2x1xi32>
  %u = stablehlo.constant dense<[100, 100]> : tensor<2xi8>
  %r = "stablehlo.scatter"(%a, %idx, %u) ({
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %s = stablehlo.add %x, %y : tensor<i32>
      stablehlo.return %s : tensor<i32>
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>
  } : (tensor<2xi8>, tensor<2x1xi32>, tensor<2xi8>) -> tensor<2xi32>
  check.expect_eq_const %r, dense<[300, 100]> : tensor<2xi32>
  func.return
}

// -----

func.func @scatter_quant() {
  %a = "stablehlo.constant"() {value = dense<[2, 4]> : tensor<2xi8>} : () -> tensor<2x!quant.uniform<i8:f32, 0.5>>
  %idx = stablehlo.constant dense<[[1]]> : tensor<1x1xi32>
  %u = "stablehlo.constant"() {value = dense<[6]> : tensor<1xi8>} : () -> tensor<1x!quant.uniform<i8:f32, 0.5>>
  %r = "stablehlo.scatter"(%a, %idx, %u) ({
    ^bb0(%x: tensor<!quant.uniform<i8:f32, 0.5>>, %y: tensor<!quant.uniform<i8:f32, 0.5>>):
      %s = stablehlo.add %x, %y : tensor<!quant.uniform<i8:f32, 0.5>>
      stablehlo.return %s : tensor<!quant.uniform<i8:f32, 0.5>>
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>
  } : (tensor<2x!quant.uniform<i8:f32, 0.5>>, tensor<1x1xi32>, tensor<1x!quant.uniform<i8:f32, 0.5>>) -> tensor<2x!quant.uniform<i8:f32, 0.5>>
  %f = stablehlo.uniform_dequantize %r : (tensor<2x!quant.uniform<i8:f32, 0.5>>) -> tensor<2xf32>
  check.expect_almost_eq_const %f, dense<[1.0, 5.0]> : tensor<2xf32>
  func.return
}

// -----

func.func @broadcast_per_axis() {
  %a = "stablehlo.constant"() {value = dense<[2, 4]> : tensor<2xi8>} : () -> tensor<2x!quant.uniform<i8:f32:0, {0.5, 2.0}>>
  %b = stablehlo.broadcast_in_dim %a, dims = [1] : (tensor<2x!quant.uniform<i8:f32:0, {0.5, 2.0}>>) -> tensor<3x2x!quant.uniform<i8:f32:1, {0.5, 2.0}>>
  %f = stablehlo.uniform_dequantize %b : (tensor<3x2x!quant.uniform<i8:f32:1, {0.5, 2.0}>>) -> tensor<3x2xf32>
  check.expect_almost_eq_const %f, dense<[[1.0, 8.0], [1.0, 8.0], [1.0, 8.0]]> : tensor<3x2xf32>
  func.return
}

// -----

func.func @gather_batching_dims() {
  %operand = stablehlo.constant dense<[[10, 11, 12], [20, 21, 22]]> : tensor<2x3xi32>
  %idx = stablehlo.constant dense<[[2, 0], [1, 5]]> : tensor<2x2xi32>
  %r = "stablehlo.gather"(%operand, %idx) {
    dimension_numbers = #stablehlo.gather<operand_batching_dims = [0], start_indices_batching_dims = [0], collapsed_slice_dims = [1], start_index_map = [1], index_vector_dim = 2>,
    slice_sizes = array<i64: 1, 1>
  } : (tensor<2x3xi32>, tensor<2x2xi32>) -> tensor<2x2xi32>
  check.expect_eq_const %r, dense<[[12, 10], [21, 22]]> : tensor<2x2xi32>
  func.return
}

// -----

func.func @concat_empty_pieces() {
  %a = stablehlo.constant dense<> : tensor<2x0xi32>
  %b = stablehlo.constant dense<[[1], [2]]> : tensor<2x1xi32>
  %r = stablehlo.concatenate %a, %b, %a, %b, dim = 1 : (tensor<2x0xi32>, tensor<2x1xi32>, tensor<2x0xi32>, tensor<2x1xi32>) -> tensor<2x2xi32>
  check.expect_eq_const %r, dense<[[1, 1], [2, 2]]> : tensor<2x2xi32>
  func.return
}

// -----

func.func @iota_types() {
  %a = stablehlo.iota dim = 0 : tensor<3xcomplex<f32>>
  check.expect_eq_const %a, dense<[(0.0, 0.0), (1.0, 0.0), (2.0, 0.0)]> : tensor<3xcomplex<f32>>
  %b = stablehlo.iota dim = 0 : tensor<3xui8>
  check.expect_eq_const %b, dense<[0, 1, 2]> : tensor<3xui8>
  %c = stablehlo.iota dim = 0 : tensor<3xbf16>
  check.expect_eq_const %c, dense<[0.0, 1.0, 2.0]> : tensor<3xbf16>
  func.return
}
