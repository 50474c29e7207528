module @jit__lambda attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["i"=4]> {stablehlo.mesh = {axes = [{name = "i", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<8x3xf32>) -> (tensor<8x3xf32> {jax.result_info = "result"}) {
    %0 = call @"<lambda>"(%arg0) : (tensor<8x3xf32>) -> tensor<8x3xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x3xf32>
    %2 = stablehlo.add %0, %1 : tensor<8x3xf32>
    return %2 : tensor<8x3xf32>
  }
  func.func private @"<lambda>"(%arg0: tensor<8x3xf32>) -> tensor<8x3xf32> {
    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"i"}, {}]>] out_shardings=[<@mesh, [{"i"}, {}]>] manual_axes={"i"} (%arg1: tensor<2x3xf32>) {
      %1 = stablehlo.cosine %arg1 : tensor<2x3xf32>
      %c = stablehlo.constant dense<1> : tensor<ui32>
      %c_0 = stablehlo.constant dense<4> : tensor<ui32>
      %2 = stablehlo.partition_id : tensor<ui32>
      %3 = stablehlo.divide %2, %c : tensor<ui32>
      %4 = stablehlo.remainder %3, %c_0 : tensor<ui32>
      %5 = stablehlo.convert %4 : (tensor<ui32>) -> tensor<i32>
      %6 = stablehlo.convert %5 : (tensor<i32>) -> tensor<f32>
      %7 = stablehlo.broadcast_in_dim %6, dims = [] : (tensor<f32>) -> tensor<2x3xf32>
      %8 = stablehlo.multiply %1, %7 : tensor<2x3xf32>
      sdy.return %8 : tensor<2x3xf32>
    } : (tensor<8x3xf32>) -> tensor<8x3xf32>
    return %0 : tensor<8x3xf32>
  }
}
