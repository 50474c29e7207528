// GSPMD mode: an argument tiled over 8 devices in a program of 4 partitions.
module @gspmd_devices attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8xf32> {mhlo.sharding = "{devices=[8]<=[8]}"}) -> tensor<8xf32> {
    return %arg0 : tensor<8xf32>
  }
}
