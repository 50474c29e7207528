module @jit__lambda attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["i"=4]> {stablehlo.mesh = {axes = [{name = "i", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<8x2xf32>) -> (tensor<8x2xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0:3 = stablehlo.while(%iterArg = %c_0, %iterArg_1 = %c, %iterArg_2 = %arg0) : tensor<i32>, tensor<i32>, tensor<8x2xf32>
    cond {
      %c_3 = stablehlo.constant dense<3> : tensor<i32>
      %1 = stablehlo.compare LT, %iterArg, %c_3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %1 : tensor<i1>
    } do {
      %1:2 = func.call @closed_call(%iterArg_1, %iterArg_2) : (tensor<i32>, tensor<8x2xf32>) -> (tensor<i32>, tensor<8x2xf32>)
      %c_3 = stablehlo.constant dense<1> : tensor<i32>
      %2 = stablehlo.add %iterArg, %c_3 : tensor<i32>
      stablehlo.return %2, %1#0, %1#1 : tensor<i32>, tensor<i32>, tensor<8x2xf32>
    }
    return %0#2 : tensor<8x2xf32>
  }
  func.func private @closed_call(%arg0: tensor<i32>, %arg1: tensor<8x2xf32>) -> (tensor<i32>, tensor<8x2xf32>) {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %0 = stablehlo.add %arg0, %c : tensor<i32>
    %1 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, []>, <@mesh, [{"i"}, {}]>] out_shardings=[<@mesh, [{"i"}, {}]>] manual_axes={"i"} (%arg2: tensor<i32>, %arg3: tensor<2x2xf32>) {
      %2 = "stablehlo.all_reduce"(%arg3) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> ({
      ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
        %8 = stablehlo.add %arg4, %arg5 : tensor<f32>
        stablehlo.return %8 : tensor<f32>
      }) : (tensor<2x2xf32>) -> tensor<2x2xf32>
      %cst = stablehlo.constant dense<4.000000e+00> : tensor<f32>
      %3 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x2xf32>
      %4 = stablehlo.divide %2, %3 : tensor<2x2xf32>
      %5 = stablehlo.convert %arg2 : (tensor<i32>) -> tensor<f32>
      %6 = stablehlo.broadcast_in_dim %5, dims = [] : (tensor<f32>) -> tensor<2x2xf32>
      %7 = stablehlo.add %4, %6 : tensor<2x2xf32>
      sdy.return %7 : tensor<2x2xf32>
    } : (tensor<i32>, tensor<8x2xf32>) -> tensor<8x2xf32>
    return %0, %1 : tensor<i32>, tensor<8x2xf32>
  }
}
