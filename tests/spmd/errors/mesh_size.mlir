// A mesh of 2 devices in a program of 4 partitions.
module @mesh_size attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["i"=2]>
  func.func public @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"i"}]>}) -> tensor<8xf32> {
    return %arg0 : tensor<8xf32>
  }
}
