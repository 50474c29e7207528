// Custom calls JAX emits beyond StableHLO's ops. With results of run-time shape, as its
// shape-polymorphic exports emit them: jaxlib's LAPACK targets with their result shapes as
// operands (indices_of_shape_operands), StableHLO's dynamic top_k and rng_bit_generator
// (`kiln check` runs each @main at several sizes of its `?` dims on the device and on the
// interpreter and compares them); and on constants with expected values, those, StableHLO's
// dynamic reduce_window and XLA's ApproxTopK (jax.lax.approx_max_k), which call functions.

// A batch of 2x2 Cholesky factors: result 0's shape is operand 1, result 1's (info) operand 2.
func.func @main(%x: tensor<?x2x2xf32>) -> (tensor<?x2x2xf32>, tensor<?xi32>) {
  %b = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x2x2xf32>) -> tensor<i32>
  %b1 = stablehlo.reshape %b : (tensor<i32>) -> tensor<1xi32>
  %two = stablehlo.constant dense<2> : tensor<1xi32>
  %shape = stablehlo.concatenate %b1, %two, %two, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
  %xt = stablehlo.transpose %x, dims = [0, 2, 1] : (tensor<?x2x2xf32>) -> tensor<?x2x2xf32>
  %spd = stablehlo.dot_general %x, %xt, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<?x2x2xf32>, tensor<?x2x2xf32>) -> tensor<?x2x2xf32>
  %r:2 = stablehlo.custom_call @lapack_spotrf_ffi(%spd, %shape, %b1) {indices_of_shape_operands = dense<[1, 2]> : tensor<2xi64>, mhlo.backend_config = {uplo = 76 : ui8}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<0> : tensor<1xindex>, dense<0> : tensor<1xindex>], result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<0> : tensor<1xindex>]} : (tensor<?x2x2xf32>, tensor<3xi32>, tensor<1xi32>) -> (tensor<?x2x2xf32>, tensor<?xi32>)
  return %r#0, %r#1 : tensor<?x2x2xf32>, tensor<?xi32>
}

// -----

// The largest half of each row (k is the row length / 2, rounded down), in order.
func.func @main(%x: tensor<3x?xf32>) -> (tensor<3x?xf32>, tensor<3x?xi32>) {
  %n = stablehlo.get_dimension_size %x, dim = 1 : (tensor<3x?xf32>) -> tensor<i32>
  %two = stablehlo.constant dense<2> : tensor<i32>
  %k = stablehlo.divide %n, %two : tensor<i32>
  %r:2 = stablehlo.custom_call @stablehlo.dynamic_top_k(%x, %k) : (tensor<3x?xf32>, tensor<i32>) -> (tensor<3x?xf32>, tensor<3x?xi32>)
  return %r#0, %r#1 : tensor<3x?xf32>, tensor<3x?xi32>
}

// -----

// Bits of an output shape [b, 4], and the state after them.
func.func @main(%x: tensor<?xf32>) -> (tensor<2xui64>, tensor<?x4xui32>) {
  %b = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?xf32>) -> tensor<i32>
  %b1 = stablehlo.reshape %b : (tensor<i32>) -> tensor<1xi32>
  %four = stablehlo.constant dense<4> : tensor<1xi32>
  %shape = stablehlo.concatenate %b1, %four, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %state = stablehlo.constant dense<[7, 42]> : tensor<2xui64>
  %r:2 = stablehlo.custom_call @stablehlo.dynamic_rng_bit_generator(%state, %shape) {rng_algorithm = #stablehlo<rng_algorithm THREE_FRY>} : (tensor<2xui64>, tensor<2xi32>) -> (tensor<2xui64>, tensor<?x4xui32>)
  return %r#0, %r#1 : tensor<2xui64>, tensor<?x4xui32>
}

// -----

// The same ops on constants, with their expected values.
func.func @dynamic_top_k_values() {
  %x = stablehlo.constant dense<[[3.0, -1.0, 7.0, 7.0, 0.5], [0.0, 2.0, -2.0, 1.0, 4.0]]> : tensor<2x5xf32>
  %k = stablehlo.constant dense<3> : tensor<i64>
  %r:2 = stablehlo.custom_call @stablehlo.dynamic_top_k(%x, %k) : (tensor<2x5xf32>, tensor<i64>) -> (tensor<2x3xf32>, tensor<2x3xi32>)
  check.expect_eq_const %r#0, dense<[[7.0, 7.0, 3.0], [4.0, 2.0, 1.0]]> : tensor<2x3xf32>
  check.expect_eq_const %r#1, dense<[[2, 3, 0], [4, 1, 3]]> : tensor<2x3xi32>
  func.return
}


// -----

func.func private @gt_comparator(%a: tensor<f32>, %b: tensor<f32>, %ia: tensor<i32>, %ib: tensor<i32>) -> tensor<i1> {
  %0 = stablehlo.compare GT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
  return %0 : tensor<i1>
}

// The 2 largest of each column (reduction_dim 0), with their rows; ties keep row order.
func.func @approx_top_k_values() {
  %x = stablehlo.constant dense<[[1.0, 5.0, 2.0], [4.0, 5.0, 0.0], [3.0, 9.0, 2.0], [0.5, -1.0, 2.0]]> : tensor<4x3xf32>
  %i = stablehlo.iota dim = 0 : tensor<4x3xi32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.custom_call @ApproxTopK(%x, %i, %ninf, %zero) {called_computations = [@gt_comparator], mhlo.backend_config = {aggregate_to_topk = true, is_fallback = true, recall_target = 0.95 : f32, reduction_dim = 0 : i64, reduction_input_size_override = -1 : i64, top_k = 2 : i64}} : (tensor<4x3xf32>, tensor<4x3xi32>, tensor<f32>, tensor<i32>) -> (tensor<2x3xf32>, tensor<2x3xi32>)
  check.expect_eq_const %r#0, dense<[[4.0, 9.0, 2.0], [3.0, 5.0, 2.0]]> : tensor<2x3xf32>
  check.expect_eq_const %r#1, dense<[[1, 2, 0], [2, 0, 2]]> : tensor<2x3xi32>
  func.return
}

// -----

func.func private @add_body(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = stablehlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}

// Windows of 2 with stride 2 over [1 .. 5] padded by one at the end: sums 3, 7, 5.
func.func @dynamic_reduce_window_values() {
  %x = stablehlo.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0]> : tensor<5xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %size = stablehlo.constant dense<2> : tensor<1xi64>
  %one = stablehlo.constant dense<1> : tensor<1xi64>
  %pad = stablehlo.constant dense<[[0, 1]]> : tensor<1x2xi64>
  %r = stablehlo.custom_call @stablehlo.dynamic_reduce_window(%x, %zero, %size, %size, %one, %one, %pad) {called_computations = [@add_body]} : (tensor<5xf32>, tensor<f32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1x2xi64>) -> tensor<3xf32>
  check.expect_eq_const %r, dense<[3.0, 7.0, 5.0]> : tensor<3xf32>
  func.return
}
