"builtin.module"() <{sym_name = "manual_no_results"}> ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["b"=2]>, sym_name = "mesh"}> : () -> ()
  "func.func"() <{function_type = (tensor<8xf32>) -> (), sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<8xf32>):
    "sdy.manual_computation"(%arg0) <{in_shardings = #sdy.sharding_per_value<[<@mesh, [{"b"}]>]>, manual_axes = #sdy<manual_axes{"b"}>, out_shardings = #sdy.sharding_per_value<[]>}> ({
    ^bb0(%arg1: tensor<4xf32>):
      "sdy.return"() : () -> ()
    }) : (tensor<8xf32>) -> ()
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
