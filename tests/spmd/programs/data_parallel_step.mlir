module @jit__lambda attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["i"=4]> {stablehlo.mesh = {axes = [{name = "i", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<6x5xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, %arg1: tensor<16x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"i"}, {}]>}, %arg2: tensor<16x5xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"i"}, {}]>}) -> (tensor<6x5xf32> {jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) {
    %0 = stablehlo.dot_general %arg1, %arg0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x6xf32>, tensor<6x5xf32>) -> tensor<16x5xf32>
    %1 = stablehlo.tanh %0 : tensor<16x5xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<16x5xf32>
    %3 = stablehlo.subtract %2, %1 : tensor<16x5xf32>
    %4 = stablehlo.subtract %1, %arg2 : tensor<16x5xf32>
    %cst_0 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<16x5xf32>
    %6 = stablehlo.multiply %5, %4 : tensor<16x5xf32>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_2 = stablehlo.constant dense<8.000000e+01> : tensor<f32>
    %7 = stablehlo.divide %cst_1, %cst_2 : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [] : (tensor<f32>) -> tensor<16x5xf32>
    %9 = stablehlo.multiply %8, %6 : tensor<16x5xf32>
    %10 = stablehlo.multiply %9, %3 : tensor<16x5xf32>
    %11 = stablehlo.multiply %10, %1 : tensor<16x5xf32>
    %12 = stablehlo.add %10, %11 : tensor<16x5xf32>
    %13 = stablehlo.dot_general %12, %arg1, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x5xf32>, tensor<16x6xf32>) -> tensor<5x6xf32>
    %14 = stablehlo.transpose %13, dims = [1, 0] : (tensor<5x6xf32>) -> tensor<6x5xf32>
    %cst_3 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %15 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<6x5xf32>
    %16 = stablehlo.multiply %15, %14 : tensor<6x5xf32>
    %17 = stablehlo.subtract %arg0, %16 : tensor<6x5xf32>
    return %17 : tensor<6x5xf32>
  }
}
