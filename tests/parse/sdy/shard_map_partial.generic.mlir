"builtin.module"() <{sym_name = "jit__lambda"}> ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["data"=2, "model"=2]>, sym_name = "mesh"}> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 2 : i64}]}} : () -> ()
  "func.func"() <{function_type = (tensor<8x4xf32>, tensor<4x8xf32>) -> (tensor<8x4xf32>, tensor<4x8xf32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<8x4xf32>, %arg1: tensor<4x8xf32>):
    %0:2 = "sdy.manual_computation"(%arg0, %arg1) <{in_shardings = #sdy.sharding_per_value<[<@mesh, [{"data", ?}, {?}]>, <@mesh, [{?}, {"data", ?}]>]>, manual_axes = #sdy<manual_axes{"data"}>, out_shardings = #sdy.sharding_per_value<[<@mesh, [{"data", ?}, {?}]>, <@mesh, [{?}, {"data", ?}]>]>}> ({
    ^bb0(%arg2: tensor<4x4xf32>, %arg3: tensor<4x4xf32>):
      %1 = "stablehlo.sine"(%arg2) : (tensor<4x4xf32>) -> tensor<4x4xf32>
      %2 = "sdy.sharding_constraint"(%1) <{sharding = #sdy.sharding<@mesh, [{?}, {?}]>}> : (tensor<4x4xf32>) -> tensor<4x4xf32>
      %3 = "stablehlo.cosine"(%arg3) : (tensor<4x4xf32>) -> tensor<4x4xf32>
      %4 = "sdy.sharding_constraint"(%3) <{sharding = #sdy.sharding<@mesh, [{?}, {?}]>}> : (tensor<4x4xf32>) -> tensor<4x4xf32>
      "sdy.return"(%2, %4) : (tensor<4x4xf32>, tensor<4x4xf32>) -> ()
    }) : (tensor<8x4xf32>, tensor<4x8xf32>) -> (tensor<8x4xf32>, tensor<4x8xf32>)
    "func.return"(%0#0, %0#1) : (tensor<8x4xf32>, tensor<4x8xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
