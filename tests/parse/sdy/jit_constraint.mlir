module @jit_f attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=2, "model"=2]> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 2 : i64}]}}
  func.func public @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}]>}) -> (tensor<8x16xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.sine %arg0 : tensor<8x16xf32>
    %1 = sdy.sharding_constraint %0 <@mesh, [{"data"}, {?}]> : tensor<8x16xf32>
    %2 = stablehlo.cosine %1 : tensor<8x16xf32>
    %3 = sdy.sharding_constraint %2 <@mesh, [{"data", "model"}, {}]> : tensor<8x16xf32>
    return %3 : tensor<8x16xf32>
  }
}
