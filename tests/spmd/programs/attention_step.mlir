module @jit__lambda attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["i"=4]> {stablehlo.mesh = {axes = [{name = "i", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<16x48xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, %arg1: tensor<8x4x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"i"}, {}, {}]>}) -> (tensor<16x48xf32> {jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) {
    %0 = stablehlo.dot_general %arg1, %arg0, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x4x16xf32>, tensor<16x48xf32>) -> tensor<8x4x48xf32>
    %1 = stablehlo.slice %0 [0:8, 0:4, 0:16] : (tensor<8x4x48xf32>) -> tensor<8x4x16xf32>
    %2 = stablehlo.slice %0 [0:8, 0:4, 16:32] : (tensor<8x4x48xf32>) -> tensor<8x4x16xf32>
    %3 = stablehlo.slice %0 [0:8, 0:4, 32:48] : (tensor<8x4x48xf32>) -> tensor<8x4x16xf32>
    %4 = stablehlo.reshape %1 : (tensor<8x4x16xf32>) -> tensor<8x4x2x8xf32>
    %5 = stablehlo.reshape %2 : (tensor<8x4x16xf32>) -> tensor<8x4x2x8xf32>
    %6 = stablehlo.reshape %3 : (tensor<8x4x16xf32>) -> tensor<8x4x2x8xf32>
    %7 = stablehlo.dot_general %4, %5, batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<8x4x2x8xf32>, tensor<8x4x2x8xf32>) -> tensor<8x2x4x4xf32>
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %8 = stablehlo.reduce(%7 init: %cst) applies stablehlo.maximum across dimensions = [3] : (tensor<8x2x4x4xf32>, tensor<f32>) -> tensor<8x2x4xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8x2x4xf32>
    %10 = stablehlo.maximum %9, %8 : tensor<8x2x4xf32>
    %11 = stablehlo.broadcast_in_dim %10, dims = [0, 1, 2] : (tensor<8x2x4xf32>) -> tensor<8x2x4x1xf32>
    %12 = stablehlo.broadcast_in_dim %11, dims = [0, 1, 2, 3] : (tensor<8x2x4x1xf32>) -> tensor<8x2x4x4xf32>
    %13 = stablehlo.subtract %7, %12 : tensor<8x2x4x4xf32>
    %14 = stablehlo.exponential %13 : tensor<8x2x4x4xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %15 = stablehlo.reduce(%14 init: %cst_1) applies stablehlo.add across dimensions = [3] : (tensor<8x2x4x4xf32>, tensor<f32>) -> tensor<8x2x4xf32>
    %16 = stablehlo.broadcast_in_dim %15, dims = [0, 1, 2] : (tensor<8x2x4xf32>) -> tensor<8x2x4x1xf32>
    %17 = stablehlo.broadcast_in_dim %16, dims = [0, 1, 2, 3] : (tensor<8x2x4x1xf32>) -> tensor<8x2x4x4xf32>
    %18 = stablehlo.divide %14, %17 : tensor<8x2x4x4xf32>
    %19 = stablehlo.multiply %16, %16 : tensor<8x2x4x1xf32>
    %cst_2 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %20 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<8x2x4x1xf32>
    %21 = stablehlo.divide %20, %19 : tensor<8x2x4x1xf32>
    %22 = stablehlo.dot_general %6, %18, batching_dims = [0, 2] x [0, 1], contracting_dims = [1] x [3], precision = [DEFAULT, DEFAULT] : (tensor<8x4x2x8xf32>, tensor<8x2x4x4xf32>) -> tensor<8x2x8x4xf32>
    %23 = stablehlo.transpose %22, dims = [0, 3, 1, 2] : (tensor<8x2x8x4xf32>) -> tensor<8x4x2x8xf32>
    %24 = stablehlo.reshape %23 : (tensor<8x4x2x8xf32>) -> tensor<8x4x16xf32>
    %cst_3 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %25 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<8x4x16xf32>
    %26 = stablehlo.multiply %25, %24 : tensor<8x4x16xf32>
    %cst_4 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_5 = stablehlo.constant dense<5.120000e+02> : tensor<f32>
    %27 = stablehlo.divide %cst_4, %cst_5 : tensor<f32>
    %28 = stablehlo.broadcast_in_dim %27, dims = [] : (tensor<f32>) -> tensor<8x4x16xf32>
    %29 = stablehlo.multiply %28, %26 : tensor<8x4x16xf32>
    %30 = stablehlo.reshape %29 : (tensor<8x4x16xf32>) -> tensor<8x4x2x8xf32>
    %31 = stablehlo.transpose %30, dims = [0, 2, 3, 1] : (tensor<8x4x2x8xf32>) -> tensor<8x2x8x4xf32>
    %32 = stablehlo.dot_general %31, %6, batching_dims = [0, 1] x [0, 2], contracting_dims = [2] x [3], precision = [DEFAULT, DEFAULT] : (tensor<8x2x8x4xf32>, tensor<8x4x2x8xf32>) -> tensor<8x2x4x4xf32>
    %33 = stablehlo.dot_general %31, %18, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<8x2x8x4xf32>, tensor<8x2x4x4xf32>) -> tensor<8x2x8x4xf32>
    %34 = stablehlo.transpose %33, dims = [0, 3, 1, 2] : (tensor<8x2x8x4xf32>) -> tensor<8x4x2x8xf32>
    %35 = stablehlo.broadcast_in_dim %21, dims = [0, 1, 2, 3] : (tensor<8x2x4x1xf32>) -> tensor<8x2x4x4xf32>
    %36 = stablehlo.multiply %32, %35 : tensor<8x2x4x4xf32>
    %37 = stablehlo.multiply %36, %14 : tensor<8x2x4x4xf32>
    %cst_6 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %38 = stablehlo.reduce(%37 init: %cst_6) applies stablehlo.add across dimensions = [3] : (tensor<8x2x4x4xf32>, tensor<f32>) -> tensor<8x2x4xf32>
    %39 = stablehlo.reshape %38 : (tensor<8x2x4xf32>) -> tensor<8x2x4x1xf32>
    %40 = stablehlo.negate %39 : tensor<8x2x4x1xf32>
    %41 = stablehlo.broadcast_in_dim %16, dims = [0, 1, 2, 3] : (tensor<8x2x4x1xf32>) -> tensor<8x2x4x4xf32>
    %42 = stablehlo.divide %32, %41 : tensor<8x2x4x4xf32>
    %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %43 = stablehlo.reduce(%40 init: %cst_7) applies stablehlo.add across dimensions = [3] : (tensor<8x2x4x1xf32>, tensor<f32>) -> tensor<8x2x4xf32>
    %44 = stablehlo.broadcast_in_dim %43, dims = [0, 1, 2] : (tensor<8x2x4xf32>) -> tensor<8x2x4x4xf32>
    %45 = stablehlo.add %42, %44 : tensor<8x2x4x4xf32>
    %46 = stablehlo.multiply %45, %14 : tensor<8x2x4x4xf32>
    %47 = stablehlo.dot_general %46, %4, batching_dims = [0, 1] x [0, 2], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x2x4x4xf32>, tensor<8x4x2x8xf32>) -> tensor<8x2x4x8xf32>
    %48 = stablehlo.transpose %47, dims = [0, 2, 1, 3] : (tensor<8x2x4x8xf32>) -> tensor<8x4x2x8xf32>
    %49 = stablehlo.dot_general %46, %5, batching_dims = [0, 1] x [0, 2], contracting_dims = [3] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x2x4x4xf32>, tensor<8x4x2x8xf32>) -> tensor<8x2x4x8xf32>
    %50 = stablehlo.transpose %49, dims = [0, 2, 1, 3] : (tensor<8x2x4x8xf32>) -> tensor<8x4x2x8xf32>
    %51 = stablehlo.reshape %34 : (tensor<8x4x2x8xf32>) -> tensor<8x4x16xf32>
    %52 = stablehlo.reshape %48 : (tensor<8x4x2x8xf32>) -> tensor<8x4x16xf32>
    %53 = stablehlo.reshape %50 : (tensor<8x4x2x8xf32>) -> tensor<8x4x16xf32>
    %54 = stablehlo.concatenate %53, %52, %51, dim = 2 : (tensor<8x4x16xf32>, tensor<8x4x16xf32>, tensor<8x4x16xf32>) -> tensor<8x4x48xf32>
    %55 = stablehlo.dot_general %54, %arg1, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<8x4x48xf32>, tensor<8x4x16xf32>) -> tensor<48x16xf32>
    %56 = stablehlo.transpose %55, dims = [1, 0] : (tensor<48x16xf32>) -> tensor<16x48xf32>
    %cst_8 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %57 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<16x48xf32>
    %58 = stablehlo.multiply %57, %56 : tensor<16x48xf32>
    %59 = stablehlo.subtract %arg0, %58 : tensor<16x48xf32>
    return %59 : tensor<16x48xf32>
  }
}
