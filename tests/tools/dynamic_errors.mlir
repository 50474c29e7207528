// Shape-polymorphic programs whose sizes go wrong at the sizes `kiln check` makes (1, 13):
// each case must fail with its located error (tests/CMakeLists.txt, cli.check_dynamic_errors).

// A size computed negative: b - 5 at b = 1.
func.func @main(%arg0: tensor<i64>, %arg1: tensor<?xf32>) -> tensor<?x?xf32> {
  %c = stablehlo.constant dense<5> : tensor<i64>
  %0 = stablehlo.subtract %arg0, %c : tensor<i64>
  %1 = stablehlo.reshape %0 : (tensor<i64>) -> tensor<1xi64>
  %2 = stablehlo.reshape %arg0 : (tensor<i64>) -> tensor<1xi64>
  %3 = stablehlo.concatenate %1, %2, dim = 0 : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  %4 = stablehlo.dynamic_broadcast_in_dim %arg1, %3, dims = [1] : (tensor<?xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  return %4 : tensor<?x?xf32>
}

// -----

// A size that overflows: b * 2^40 in both dimensions.
func.func @main(%arg0: tensor<i64>, %arg1: tensor<?xf32>) -> tensor<?x?xf32> {
  %c = stablehlo.constant dense<1099511627776> : tensor<i64>
  %0 = stablehlo.multiply %arg0, %c : tensor<i64>
  %1 = stablehlo.reshape %0 : (tensor<i64>) -> tensor<1xi64>
  %2 = stablehlo.concatenate %1, %1, dim = 0 : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  %3 = stablehlo.dynamic_broadcast_in_dim %arg1, %2, dims = [1] : (tensor<?xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  return %3 : tensor<?x?xf32>
}

// -----

// A failing shape assertion (JAX's form): b >= 5, its {0} substituted.
func.func @main(%arg0: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %c = stablehlo.constant dense<5> : tensor<i32>
  %0 = stablehlo.get_dimension_size %arg0, dim = 0 : (tensor<?x4xf32>) -> tensor<i32>
  %1 = stablehlo.compare GE, %0, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
  stablehlo.custom_call @shape_assertion(%1, %0) {error_message = "Expected b >= 5, got b = {0} ({1} stays)", has_side_effect = true} : (tensor<i1>, tensor<i32>) -> ()
  return %arg0 : tensor<?x4xf32>
}

// -----

// StableHLO's dynamic top_k asked for more than a row holds: k = b + 1.
func.func @main(%arg0: tensor<2x?xf32>) -> (tensor<2x?xf32>, tensor<2x?xi32>) {
  %c = stablehlo.constant dense<1> : tensor<i32>
  %0 = stablehlo.get_dimension_size %arg0, dim = 1 : (tensor<2x?xf32>) -> tensor<i32>
  %1 = stablehlo.add %0, %c : tensor<i32>
  %2:2 = stablehlo.custom_call @stablehlo.dynamic_top_k(%arg0, %1) : (tensor<2x?xf32>, tensor<i32>) -> (tensor<2x?xf32>, tensor<2x?xi32>)
  return %2#0, %2#1 : tensor<2x?xf32>, tensor<2x?xi32>
}

// -----

// StableHLO's dynamic rng_bit_generator with a size computed negative: b - 5 at b = 1.
func.func @main(%arg0: tensor<?xf32>) -> tensor<?xui32> {
  %c = stablehlo.constant dense<5> : tensor<i32>
  %0 = stablehlo.get_dimension_size %arg0, dim = 0 : (tensor<?xf32>) -> tensor<i32>
  %1 = stablehlo.subtract %0, %c : tensor<i32>
  %2 = stablehlo.reshape %1 : (tensor<i32>) -> tensor<1xi32>
  %s = stablehlo.constant dense<[1, 2]> : tensor<2xui64>
  %3:2 = stablehlo.custom_call @stablehlo.dynamic_rng_bit_generator(%s, %2) {rng_algorithm = #stablehlo<rng_algorithm THREE_FRY>} : (tensor<2xui64>, tensor<1xi32>) -> (tensor<2xui64>, tensor<?xui32>)
  return %3#1 : tensor<?xui32>
}
