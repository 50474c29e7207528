module @handwritten attributes {mhlo.num_partitions = 4 : i32} {
  sdy.mesh @mesh = <["x"=4, "y"=1]>
  sdy.mesh @maximal = <[], device_ids=[3]>
  sdy.mesh @empty = <[]>
  func.func public @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)2}p1, {"x":(2)2, ?}p0]>}, %arg1: tensor<8xf32> {sdy.sharding = #sdy.sharding<mesh<["z"=2, "w"=2], device_ids=[3, 2, 1, 0]>, [{"z", ?}], replicated={"w"}>}, %arg2: tensor<1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1xf32>) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@maximal, []>}, tensor<f32> {sdy.sharding = #sdy.sharding<@empty, []>}, tensor<8xf32>, tensor<f32>) {
    %0 = sdy.sharding_constraint %arg0 <@mesh, [{?}p2, {}], replicated={"y"}> : tensor<8x8xf32>
    %1 = sdy.manual_computation(%0) in_shardings=[<@mesh, [{"x"}, {?}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x"} (%arg3: tensor<2x8xf32>) {
      sdy.return %arg3 : tensor<2x8xf32>
    } : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %2 = sdy.manual_computation() in_shardings=[] out_shardings=[<@mesh, []>] manual_axes={} () {
      %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      sdy.return %cst : tensor<f32>
    } : () -> tensor<f32>
    %3 = stablehlo.custom_call @rule(%arg0, %arg1) {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [kl])->([j]) {i=8, j=8, k=4, l=2} reduction={i} need_replication={k} permutation={l} blocked_propagation={j}, custom>} : (tensor<8x8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %4 = stablehlo.custom_call @wide(%arg2) {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k, l, m, n, o, p, q, r, s, t, u, v, w, x, y, z, z_1])->([]) {i=1, j=1, k=1, l=1, m=1, n=1, o=1, p=1, q=1, r=1, s=1, t=1, u=1, v=1, w=1, x=1, y=1, z=1, z_1=1}>} : (tensor<1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1xf32>) -> tensor<f32>
    return %1, %2, %3, %4 : tensor<8x8xf32>, tensor<f32>, tensor<8xf32>, tensor<f32>
  }
}

