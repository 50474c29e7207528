module @manual_no_results {
  sdy.mesh @mesh = <["b"=2]>
  func.func public @main(%arg0: tensor<8xf32>) {
    sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"b"}]>] out_shardings=[] manual_axes={"b"} (%arg1: tensor<4xf32>) {
      sdy.return
    } : (tensor<8xf32>) -> ()
    return
  }
}
