module @jit__lambda attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["i"=4]> {stablehlo.mesh = {axes = [{name = "i", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<4x17000xf32>, %arg1: tensor<4x5xf32>, %arg2: tensor<4x16500xi32>) -> (tensor<4x17000xf32> {jax.result_info = "result[0]"}, tensor<4x5xf32> {jax.result_info = "result[1]"}, tensor<4x16500xi32> {jax.result_info = "result[2]"}) {
    %0:3 = sdy.manual_computation(%arg0, %arg1, %arg2) in_shardings=[<@mesh, [{"i"}, {}]>, <@mesh, [{"i"}, {}]>, <@mesh, [{"i"}, {}]>] out_shardings=[<@mesh, [{"i"}, {}]>, <@mesh, [{"i"}, {}]>, <@mesh, [{"i"}, {}]>] manual_axes={"i"} (%arg3: tensor<1x17000xf32>, %arg4: tensor<1x5xf32>, %arg5: tensor<1x16500xi32>) {
      %1 = "stablehlo.all_reduce"(%arg3) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> ({
      ^bb0(%arg6: tensor<f32>, %arg7: tensor<f32>):
        %4 = stablehlo.add %arg6, %arg7 : tensor<f32>
        stablehlo.return %4 : tensor<f32>
      }) : (tensor<1x17000xf32>) -> tensor<1x17000xf32>
      %2 = "stablehlo.all_reduce"(%arg4) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> ({
      ^bb0(%arg6: tensor<f32>, %arg7: tensor<f32>):
        %4 = stablehlo.add %arg6, %arg7 : tensor<f32>
        stablehlo.return %4 : tensor<f32>
      }) : (tensor<1x5xf32>) -> tensor<1x5xf32>
      %3 = "stablehlo.all_reduce"(%arg5) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> ({
      ^bb0(%arg6: tensor<i32>, %arg7: tensor<i32>):
        %4 = stablehlo.maximum %arg6, %arg7 : tensor<i32>
        stablehlo.return %4 : tensor<i32>
      }) : (tensor<1x16500xi32>) -> tensor<1x16500xi32>
      sdy.return %1, %2, %3 : tensor<1x17000xf32>, tensor<1x5xf32>, tensor<1x16500xi32>
    } : (tensor<4x17000xf32>, tensor<4x5xf32>, tensor<4x16500xi32>) -> (tensor<4x17000xf32>, tensor<4x5xf32>, tensor<4x16500xi32>)
    return %0#0, %0#1, %0#2 : tensor<4x17000xf32>, tensor<4x5xf32>, tensor<4x16500xi32>
  }
}
