// An input held as partial sums (unreduced axes): the per-device program sums them where a
// whole value is needed; kiln run, which takes whole arrays, refuses it clearly.
module @unreduced attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["i"=2]>
  func.func public @main(%arg0: tensor<4x3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced={"i"}>}) -> tensor<4x3xf32> {
    %0 = stablehlo.cosine %arg0 : tensor<4x3xf32>
    return %0 : tensor<4x3xf32>
  }
}
