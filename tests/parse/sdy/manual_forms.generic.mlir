"builtin.module"() <{sym_name = "manual"}> ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["a"=2, "b"=2]>, sym_name = "mesh"}> : () -> ()
  "func.func"() <{function_type = (tensor<8x16xf32>, tensor<8xf32>) -> (tensor<8x16xf32>, tensor<8xf32>), sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<8x16xf32>, %arg1: tensor<8xf32>):
    "sdy.manual_computation"() <{in_shardings = #sdy.sharding_per_value<[]>, manual_axes = #sdy<manual_axes{}>, out_shardings = #sdy.sharding_per_value<[]>}> ({
      "sdy.return"() : () -> ()
    }) : () -> ()
    %0:2 = "sdy.manual_computation"(%arg0, %arg1) <{in_shardings = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>, <@mesh, [{"a"}]>]>, manual_axes = #sdy<manual_axes{"a"}>, out_shardings = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>, <@mesh, [{"a", ?}]>]>}> ({
    ^bb0(%arg2: tensor<4x16xf32>, %arg3: tensor<4xf32>):
      %1 = "stablehlo.negate"(%arg3) : (tensor<4xf32>) -> tensor<4xf32>
      %2 = "sdy.manual_computation"(%arg2) <{in_shardings = #sdy.sharding_per_value<[<@mesh, [{}, {"b"}]>]>, manual_axes = #sdy<manual_axes{"b"}>, out_shardings = #sdy.sharding_per_value<[<@mesh, [{}, {"b"}]>]>}> ({
      ^bb0(%arg4: tensor<4x8xf32>):
        %3 = "stablehlo.add"(%arg4, %arg4) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
        "sdy.return"(%3) : (tensor<4x8xf32>) -> ()
      }) {xla.note = "inner"} : (tensor<4x16xf32>) -> tensor<4x16xf32>
      "sdy.return"(%2, %1) : (tensor<4x16xf32>, tensor<4xf32>) -> ()
    }) : (tensor<8x16xf32>, tensor<8xf32>) -> (tensor<8x16xf32>, tensor<8xf32>)
    "func.return"(%0#0, %0#1) : (tensor<8x16xf32>, tensor<8xf32>) -> ()
  }) : () -> ()
}) : () -> ()
