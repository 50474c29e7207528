// Row gathers (x[indices], an embedding lookup) that the cpu backend copies natively
// (dynamic_slice.c); indices out of range are clamped, as the spec's gather does.

func.func @row_gather_clamped() {
  %x = stablehlo.constant dense<[[0.0, 1.0, 2.0], [10.0, 11.0, 12.0], [20.0, 21.0, 22.0], [30.0, 31.0, 32.0]]> : tensor<4x3xf32>
  %i = stablehlo.constant dense<[[2], [0], [-5], [9], [3]]> : tensor<5x1xi32>
  %g = "stablehlo.gather"(%x, %i) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 3>} : (tensor<4x3xf32>, tensor<5x1xi32>) -> tensor<5x3xf32>
  check.expect_eq_const %g, dense<[[20.0, 21.0, 22.0], [0.0, 1.0, 2.0], [0.0, 1.0, 2.0], [30.0, 31.0, 32.0], [30.0, 31.0, 32.0]]> : tensor<5x3xf32>
  func.return
}

// -----

// Indices without an index vector dim, a 2-D batch, a rank-3 operand, unsigned indices.
func.func @row_gather_batched() {
  %x = stablehlo.iota dim = 0 : tensor<3x2x2xi64>
  %i = stablehlo.constant dense<[[1, 2], [7, 0]]> : tensor<2x2xui8>
  %g = "stablehlo.gather"(%x, %i) {dimension_numbers = #stablehlo.gather<offset_dims = [2, 3], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, slice_sizes = array<i64: 1, 2, 2>} : (tensor<3x2x2xi64>, tensor<2x2xui8>) -> tensor<2x2x2x2xi64>
  check.expect_eq_const %g, dense<[[[[1, 1], [1, 1]], [[2, 2], [2, 2]]], [[[2, 2], [2, 2]], [[0, 0], [0, 0]]]]> : tensor<2x2x2x2xi64>
  func.return
}
