// 6 rows do not split into 4 blocks: Kiln does not pad shards.
module @uneven attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["i"=4]>
  func.func public @main(%arg0: tensor<6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"i"}]>}) -> tensor<6xf32> {
    return %arg0 : tensor<6xf32>
  }
}
