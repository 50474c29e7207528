module @jit_indexed attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["i"=4]> {stablehlo.mesh = {axes = [{name = "i", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<8x6x6x3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"i"}, {}, {}, {}]>}, %arg1: tensor<3x3x3x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {}, {}]>}, %arg2: tensor<32x5xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, %arg3: tensor<8x3xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"i"}, {}]>}, %arg4: tensor<8x10xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"i"}, {}]>}, %arg5: tensor<3xi32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg6: tensor<8x3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"i"}, {}]>}) -> (tensor<8x6x6x4xf32> {jax.result_info = "result[0]", sdy.sharding = #sdy.sharding<@mesh, [{"i"}, {}, {}, {}]>}, tensor<8x3x5xf32> {jax.result_info = "result[1]", sdy.sharding = #sdy.sharding<@mesh, [{"i"}, {}, {}]>}, tensor<8x10xf32> {jax.result_info = "result[2]", sdy.sharding = #sdy.sharding<@mesh, [{"i"}, {}]>}) {
    %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<8x6x6x3xf32>, tensor<3x3x3x4xf32>) -> tensor<8x6x6x4xf32>
    %1 = stablehlo.tanh %0 : tensor<8x6x6x4xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<8x3xi32>
    %3 = stablehlo.compare LT, %arg3, %2, SIGNED : (tensor<8x3xi32>, tensor<8x3xi32>) -> tensor<8x3xi1>
    %c_0 = stablehlo.constant dense<32> : tensor<i32>
    %4 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<8x3xi32>
    %5 = stablehlo.add %arg3, %4 : tensor<8x3xi32>
    %6 = stablehlo.select %3, %5, %arg3 : tensor<8x3xi1>, tensor<8x3xi32>
    %7 = stablehlo.broadcast_in_dim %6, dims = [0, 1] : (tensor<8x3xi32>) -> tensor<8x3x1xi32>
    %8 = "stablehlo.gather"(%arg2, %7) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 5>}> : (tensor<32x5xf32>, tensor<8x3x1xi32>) -> tensor<8x3x5xf32>
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x3x5xf32>
    %10 = stablehlo.multiply %8, %9 : tensor<8x3x5xf32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %11 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %12 = stablehlo.compare LT, %arg5, %11, SIGNED : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
    %c_2 = stablehlo.constant dense<10> : tensor<i32>
    %13 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %14 = stablehlo.add %arg5, %13 : tensor<3xi32>
    %15 = stablehlo.select %12, %14, %arg5 : tensor<3xi1>, tensor<3xi32>
    %16 = stablehlo.broadcast_in_dim %15, dims = [0] : (tensor<3xi32>) -> tensor<3x1xi32>
    %17 = "stablehlo.scatter"(%arg4, %16, %arg6) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0], inserted_window_dims = [1], scatter_dims_to_operand_dims = [1], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg7: tensor<f32>, %arg8: tensor<f32>):
      %18 = stablehlo.add %arg7, %arg8 : tensor<f32>
      stablehlo.return %18 : tensor<f32>
    }) : (tensor<8x10xf32>, tensor<3x1xi32>, tensor<8x3xf32>) -> tensor<8x10xf32>
    return %1, %10, %17 : tensor<8x6x6x4xf32>, tensor<8x3x5xf32>, tensor<8x10xf32>
  }
}
