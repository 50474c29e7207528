// A sharding over a mesh the module does not declare.
module @unknown_mesh attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["i"=2]>
  func.func public @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@other, [{"i"}]>}) -> tensor<8xf32> {
    return %arg0 : tensor<8xf32>
  }
}
