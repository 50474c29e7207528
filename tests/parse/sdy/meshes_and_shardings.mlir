module @shardings attributes {mhlo.num_partitions = 4 : i32} {
  sdy.mesh @mesh = <["a"=2, "b"=2]> {stablehlo.mesh = {axes = [{name = "a", size = 2 : i64}, {name = "b", size = 2 : i64}]}}
  sdy.mesh @mesh4 = <["x"=4]>
  sdy.mesh @perm = <["a"=2, "b"=2], device_ids=[3, 2, 1, 0]>
  sdy.mesh @empty = <[]>
  sdy.mesh @maximal = <[], device_ids=[0]>
  sdy.mesh @"my mesh" = <["c"=4]>
  func.func public @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}p0, {"b", ?}p1]>}, %arg1: tensor<8xf32> {sdy.sharding = #sdy.sharding<mesh<["q"=2]>, [{"q"}]>}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], replicated={"a", "b"}>}, tensor<8xf32>) {
    %0 = sdy.sharding_constraint %arg0 <@mesh, [{"a"}, {}], replicated={"b"}> : tensor<8x16xf32>
    %1 = sdy.sharding_constraint %0 <@mesh4, [{"x":(1)2}, {"x":(2)2}]> {foo = 1 : i64} : tensor<8x16xf32>
    %2 = sdy.sharding_constraint %1 <@maximal, []> : tensor<8x16xf32>
    %3 = sdy.sharding_constraint %2 <@mesh, [{"a", ?}p2, {?}]> : tensor<8x16xf32>
    %4 = sdy.sharding_constraint %3 <@perm, [{"b", "a"}, {}]> : tensor<8x16xf32>
    %5 = sdy.sharding_constraint %4 <@"my mesh", [{}, {"c"}]> : tensor<8x16xf32>
    %6 = sdy.sharding_constraint %arg1 <mesh<["z"=2], device_ids=[1, 0]>, [{"z"}]> : tensor<8xf32>
    %7 = sdy.sharding_constraint %6 <@mesh, [{}], unreduced={"a"}> : tensor<8xf32>
    return %5, %7 : tensor<8x16xf32>, tensor<8xf32>
  }
}
