"builtin.module"() <{sym_name = "jit__lambda"}> ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["data"=2, "model"=2]>, sym_name = "mesh"}> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 2 : i64}]}} : () -> ()
  "func.func"() <{function_type = (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<8x16xf32>, %arg1: tensor<16x8xf32>):
    %0 = "sdy.manual_computation"(%arg0, %arg1) <{in_shardings = #sdy.sharding_per_value<[<@mesh, [{"data"}, {}]>, <@mesh, [{}, {"model"}]>]>, manual_axes = #sdy<manual_axes{"data", "model"}>, out_shardings = #sdy.sharding_per_value<[<@mesh, [{"data"}, {"model"}]>]>}> ({
    ^bb0(%arg2: tensor<4x16xf32>, %arg3: tensor<16x4xf32>):
      %1 = "stablehlo.dot_general"(%arg2, %arg3) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<4x16xf32>, tensor<16x4xf32>) -> tensor<4x4xf32>
      %2 = "stablehlo.tanh"(%1) : (tensor<4x4xf32>) -> tensor<4x4xf32>
      "sdy.return"(%2) : (tensor<4x4xf32>) -> ()
    }) : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
    "func.return"(%0) : (tensor<8x8xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
