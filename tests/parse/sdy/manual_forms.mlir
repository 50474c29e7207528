module @manual {
  sdy.mesh @mesh = <["a"=2, "b"=2]>
  func.func public @main(%arg0: tensor<8x16xf32>, %arg1: tensor<8xf32>) -> (tensor<8x16xf32>, tensor<8xf32>) {
    sdy.manual_computation() in_shardings=[] out_shardings=[] manual_axes={} () {
      sdy.return
    } : () -> ()
    %0:2 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{"a"}, {}]>, <@mesh, [{"a"}]>] out_shardings=[<@mesh, [{"a"}, {}]>, <@mesh, [{"a", ?}]>] manual_axes={"a"} (%arg2: tensor<4x16xf32>, %arg3: tensor<4xf32>) {
      %1 = stablehlo.negate %arg3 : tensor<4xf32>
      %2 = sdy.manual_computation(%arg2) in_shardings=[<@mesh, [{}, {"b"}]>] out_shardings=[<@mesh, [{}, {"b"}]>] manual_axes={"b"} (%arg4: tensor<4x8xf32>) {
        %3 = stablehlo.add %arg4, %arg4 : tensor<4x8xf32>
        sdy.return %3 : tensor<4x8xf32>
      } {xla.note = "inner"} : (tensor<4x16xf32>) -> tensor<4x16xf32>
      sdy.return %2, %1 : tensor<4x16xf32>, tensor<4xf32>
    } : (tensor<8x16xf32>, tensor<8xf32>) -> (tensor<8x16xf32>, tensor<8xf32>)
    return %0#0, %0#1 : tensor<8x16xf32>, tensor<8xf32>
  }
}
