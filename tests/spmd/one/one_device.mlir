// sdy ops in a program of one partition (no mhlo.num_partitions): partitioned for one
// device before any backend sees it. Result: cos(x) * 2 on the input given.
module @one_device {
  sdy.mesh @mesh = <["o"=1]>
  func.func public @main(%arg0: tensor<4x3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"o"}, {}]>}) -> tensor<4x3xf32> {
    %0 = stablehlo.cosine %arg0 : tensor<4x3xf32>
    %1 = sdy.sharding_constraint %0 <@mesh, [{}, {"o"}]> : tensor<4x3xf32>
    %2 = sdy.manual_computation(%1) in_shardings=[<@mesh, [{"o"}, {}]>] out_shardings=[<@mesh, [{"o"}, {}]>] manual_axes={"o"} (%a: tensor<4x3xf32>) {
      %3 = stablehlo.add %a, %a : tensor<4x3xf32>
      sdy.return %3 : tensor<4x3xf32>
    } : (tensor<4x3xf32>) -> tensor<4x3xf32>
    return %2 : tensor<4x3xf32>
  }
}
