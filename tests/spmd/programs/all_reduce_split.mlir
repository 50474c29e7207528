module @jit_split_sums attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["i"=4]> {stablehlo.mesh = {axes = [{name = "i", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<4x2xf32>) -> (tensor<4x3003xf32> {jax.result_info = "result"}) {
    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"i"}, {}]>] out_shardings=[<@mesh, [{"i"}, {}]>] manual_axes={"i"} (%arg1: tensor<1x2xf32>) {
      %1 = stablehlo.iota dim = 0 : tensor<300000xf32>
      %cst = stablehlo.constant dense<1.000000e+05> : tensor<f32>
      %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<300000xf32>
      %3 = stablehlo.divide %1, %2 : tensor<300000xf32>
      %4 = stablehlo.slice %arg1 [0:1, 0:1] : (tensor<1x2xf32>) -> tensor<1x1xf32>
      %5 = stablehlo.reshape %4 : (tensor<1x1xf32>) -> tensor<f32>
      %6 = stablehlo.broadcast_in_dim %5, dims = [] : (tensor<f32>) -> tensor<300000xf32>
      %7 = stablehlo.multiply %3, %6 : tensor<300000xf32>
      %8 = stablehlo.slice %arg1 [0:1, 1:2] : (tensor<1x2xf32>) -> tensor<1x1xf32>
      %9 = stablehlo.reshape %8 : (tensor<1x1xf32>) -> tensor<f32>
      %10 = stablehlo.broadcast_in_dim %9, dims = [] : (tensor<f32>) -> tensor<300000xf32>
      %11 = stablehlo.add %7, %10 : tensor<300000xf32>
      %12 = stablehlo.sine %11 : tensor<300000xf32>
      %cst_0 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
      %13 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<300000xf32>
      %14 = stablehlo.add %13, %12 : tensor<300000xf32>
      %15 = stablehlo.iota dim = 0 : tensor<300003xi32>
      %c = stablehlo.constant dense<7919> : tensor<i32>
      %16 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<300003xi32>
      %17 = stablehlo.multiply %15, %16 : tensor<300003xi32>
      %18 = stablehlo.slice %arg1 [0:1, 0:1] : (tensor<1x2xf32>) -> tensor<1x1xf32>
      %19 = stablehlo.reshape %18 : (tensor<1x1xf32>) -> tensor<f32>
      %cst_1 = stablehlo.constant dense<1.000000e+03> : tensor<f32>
      %20 = stablehlo.multiply %19, %cst_1 : tensor<f32>
      %21 = stablehlo.convert %20 : (tensor<f32>) -> tensor<i32>
      %22 = stablehlo.broadcast_in_dim %21, dims = [] : (tensor<i32>) -> tensor<300003xi32>
      %23 = stablehlo.add %17, %22 : tensor<300003xi32>
      %c_2 = stablehlo.constant dense<65521> : tensor<i32>
      %24 = func.call @remainder(%23, %c_2) : (tensor<300003xi32>, tensor<i32>) -> tensor<300003xi32>
      %25 = stablehlo.iota dim = 0 : tensor<250000xf32>
      %cst_3 = stablehlo.constant dense<1.000000e+05> : tensor<f32>
      %26 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<250000xf32>
      %27 = stablehlo.divide %25, %26 : tensor<250000xf32>
      %28 = stablehlo.slice %arg1 [0:1, 1:2] : (tensor<1x2xf32>) -> tensor<1x1xf32>
      %29 = stablehlo.reshape %28 : (tensor<1x1xf32>) -> tensor<f32>
      %30 = stablehlo.broadcast_in_dim %29, dims = [] : (tensor<f32>) -> tensor<250000xf32>
      %31 = stablehlo.multiply %27, %30 : tensor<250000xf32>
      %32 = stablehlo.cosine %31 : tensor<250000xf32>
      %cst_4 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
      %33 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<250000xf32>
      %34 = stablehlo.add %33, %32 : tensor<250000xf32>
      %35 = "stablehlo.all_reduce"(%14) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> ({
      ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
        %50 = stablehlo.add %arg2, %arg3 : tensor<f32>
        stablehlo.return %50 : tensor<f32>
      }) : (tensor<300000xf32>) -> tensor<300000xf32>
      %36 = "stablehlo.all_reduce"(%24) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> ({
      ^bb0(%arg2: tensor<i32>, %arg3: tensor<i32>):
        %50 = stablehlo.maximum %arg2, %arg3 : tensor<i32>
        stablehlo.return %50 : tensor<i32>
      }) : (tensor<300003xi32>) -> tensor<300003xi32>
      %37 = "stablehlo.all_reduce"(%34) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> ({
      ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
        %50 = stablehlo.add %arg2, %arg3 : tensor<f32>
        stablehlo.return %50 : tensor<f32>
      }) : (tensor<250000xf32>) -> tensor<250000xf32>
      %38 = stablehlo.reshape %35 : (tensor<300000xf32>) -> tensor<1000x300xf32>
      %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %39 = stablehlo.reduce(%38 init: %cst_5) applies stablehlo.add across dimensions = [1] : (tensor<1000x300xf32>, tensor<f32>) -> tensor<1000xf32>
      %40 = stablehlo.slice %36 [0:300000] : (tensor<300003xi32>) -> tensor<300000xi32>
      %41 = stablehlo.reshape %40 : (tensor<300000xi32>) -> tensor<1000x300xi32>
      %c_6 = stablehlo.constant dense<0> : tensor<i32>
      %42 = stablehlo.reduce(%41 init: %c_6) applies stablehlo.add across dimensions = [1] : (tensor<1000x300xi32>, tensor<i32>) -> tensor<1000xi32>
      %43 = stablehlo.convert %42 : (tensor<1000xi32>) -> tensor<1000xf32>
      %44 = stablehlo.slice %36 [300000:300003] : (tensor<300003xi32>) -> tensor<3xi32>
      %45 = stablehlo.convert %44 : (tensor<3xi32>) -> tensor<3xf32>
      %46 = stablehlo.reshape %37 : (tensor<250000xf32>) -> tensor<1000x250xf32>
      %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %47 = stablehlo.reduce(%46 init: %cst_7) applies stablehlo.add across dimensions = [1] : (tensor<1000x250xf32>, tensor<f32>) -> tensor<1000xf32>
      %48 = stablehlo.concatenate %39, %43, %45, %47, dim = 0 : (tensor<1000xf32>, tensor<1000xf32>, tensor<3xf32>, tensor<1000xf32>) -> tensor<3003xf32>
      %49 = stablehlo.broadcast_in_dim %48, dims = [1] : (tensor<3003xf32>) -> tensor<1x3003xf32>
      sdy.return %49 : tensor<1x3003xf32>
    } : (tensor<4x2xf32>) -> tensor<4x3003xf32>
    return %0 : tensor<4x3003xf32>
  }
  func.func private @remainder(%arg0: tensor<300003xi32>, %arg1: tensor<i32>) -> tensor<300003xi32> {
    %0 = stablehlo.convert %arg1 : tensor<i32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.compare EQ, %0, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_0 = stablehlo.constant dense<1> : tensor<i32>
    %2 = call @_where(%1, %c_0, %0) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<i32>) -> tensor<300003xi32>
    %4 = stablehlo.remainder %arg0, %3 : tensor<300003xi32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %5 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i32>) -> tensor<300003xi32>
    %6 = stablehlo.compare NE, %4, %5, SIGNED : (tensor<300003xi32>, tensor<300003xi32>) -> tensor<300003xi1>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %7 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<300003xi32>
    %8 = stablehlo.compare LT, %4, %7, SIGNED : (tensor<300003xi32>, tensor<300003xi32>) -> tensor<300003xi1>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %9 = stablehlo.compare LT, %2, %c_3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %10 = stablehlo.broadcast_in_dim %9, dims = [] : (tensor<i1>) -> tensor<300003xi1>
    %11 = stablehlo.compare NE, %8, %10, UNSIGNED : (tensor<300003xi1>, tensor<300003xi1>) -> tensor<300003xi1>
    %12 = stablehlo.and %11, %6 : tensor<300003xi1>
    %13 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<i32>) -> tensor<300003xi32>
    %14 = stablehlo.add %4, %13 : tensor<300003xi32>
    %15 = stablehlo.select %12, %14, %4 : tensor<300003xi1>, tensor<300003xi32>
    return %15 : tensor<300003xi32>
  }
  func.func private @_where(%arg0: tensor<i1>, %arg1: tensor<i32>, %arg2: tensor<i32>) -> tensor<i32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<i1>, tensor<i32>
    return %0 : tensor<i32>
  }
}
