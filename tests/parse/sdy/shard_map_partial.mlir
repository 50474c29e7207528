module @jit__lambda attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=2, "model"=2]> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 2 : i64}]}}
  func.func public @main(%arg0: tensor<8x4xf32>, %arg1: tensor<4x8xf32>) -> (tensor<8x4xf32> {jax.result_info = "result[0]"}, tensor<4x8xf32> {jax.result_info = "result[1]"}) {
    %0:2 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{"data", ?}, {?}]>, <@mesh, [{?}, {"data", ?}]>] out_shardings=[<@mesh, [{"data", ?}, {?}]>, <@mesh, [{?}, {"data", ?}]>] manual_axes={"data"} (%arg2: tensor<4x4xf32>, %arg3: tensor<4x4xf32>) {
      %1 = stablehlo.sine %arg2 : tensor<4x4xf32>
      %2 = sdy.sharding_constraint %1 <@mesh, [{?}, {?}]> : tensor<4x4xf32>
      %3 = stablehlo.cosine %arg3 : tensor<4x4xf32>
      %4 = sdy.sharding_constraint %3 <@mesh, [{?}, {?}]> : tensor<4x4xf32>
      sdy.return %2, %4 : tensor<4x4xf32>, tensor<4x4xf32>
    } : (tensor<8x4xf32>, tensor<4x8xf32>) -> (tensor<8x4xf32>, tensor<4x8xf32>)
    return %0#0, %0#1 : tensor<8x4xf32>, tensor<4x8xf32>
  }
}
