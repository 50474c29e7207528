"builtin.module"() <{sym_name = "shardings"}> ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["a"=2, "b"=2]>, sym_name = "mesh"}> {stablehlo.mesh = {axes = [{name = "a", size = 2 : i64}, {name = "b", size = 2 : i64}]}} : () -> ()
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=4]>, sym_name = "mesh4"}> : () -> ()
  "sdy.mesh"() <{mesh = #sdy.mesh<["a"=2, "b"=2], device_ids=[3, 2, 1, 0]>, sym_name = "perm"}> : () -> ()
  "sdy.mesh"() <{mesh = #sdy.mesh<[]>, sym_name = "empty"}> : () -> ()
  "sdy.mesh"() <{mesh = #sdy.mesh<[], device_ids=[0]>, sym_name = "maximal"}> : () -> ()
  "sdy.mesh"() <{mesh = #sdy.mesh<["c"=4]>, sym_name = "my mesh"}> : () -> ()
  "func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"a"}p0, {"b", ?}p1]>}, {sdy.sharding = #sdy.sharding<mesh<["q"=2]>, [{"q"}]>}], function_type = (tensor<8x16xf32>, tensor<8xf32>) -> (tensor<8x16xf32>, tensor<8xf32>), res_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{}, {}], replicated={"a", "b"}>}, {}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<8x16xf32>, %arg1: tensor<8xf32>):
    %0 = "sdy.sharding_constraint"(%arg0) <{sharding = #sdy.sharding<@mesh, [{"a"}, {}], replicated={"b"}>}> : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %1 = "sdy.sharding_constraint"(%0) <{sharding = #sdy.sharding<@mesh4, [{"x":(1)2}, {"x":(2)2}]>}> {foo = 1 : i64} : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %2 = "sdy.sharding_constraint"(%1) <{sharding = #sdy.sharding<@maximal, []>}> : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %3 = "sdy.sharding_constraint"(%2) <{sharding = #sdy.sharding<@mesh, [{"a", ?}p2, {?}]>}> : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %4 = "sdy.sharding_constraint"(%3) <{sharding = #sdy.sharding<@perm, [{"b", "a"}, {}]>}> : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %5 = "sdy.sharding_constraint"(%4) <{sharding = #sdy.sharding<@"my mesh", [{}, {"c"}]>}> : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %6 = "sdy.sharding_constraint"(%arg1) <{sharding = #sdy.sharding<mesh<["z"=2], device_ids=[1, 0]>, [{"z"}]>}> : (tensor<8xf32>) -> tensor<8xf32>
    %7 = "sdy.sharding_constraint"(%6) <{sharding = #sdy.sharding<@mesh, [{}], unreduced={"a"}>}> : (tensor<8xf32>) -> tensor<8xf32>
    "func.return"(%5, %7) : (tensor<8x16xf32>, tensor<8xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 4 : i32} : () -> ()
