// The compile's warm-up run (kiln_cpu_warm_up) skips interpreter and control-flow steps:
// the print below happens once, in the run, and the while loop, which on the warm-up's
// zeros would never end (0 * 2 < 100), runs only on the real value. The steps after them
// (a multiply, a oneDNN product) read zeros in the warm-up and the loop's result in the run.
// %x is 3 in the run (check_warm_up.sh).
func.func @main(%x: tensor<f32>) -> tensor<4x4xf32> {
  %w = stablehlo.constant dense<[[1.0, 2.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 1.0]]> : tensor<4x4xf32>
  %hundred = stablehlo.constant dense<100.0> : tensor<f32>
  %two = stablehlo.constant dense<2.0> : tensor<f32>
  %r = stablehlo.while(%i = %x) : tensor<f32>
    cond {
      %c = stablehlo.compare LT, %i, %hundred : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
    } do {
      %n = stablehlo.multiply %i, %two : tensor<f32>
      stablehlo.return %n : tensor<f32>
    }
  "interpreter.print"(%r) : (tensor<f32>) -> ()
  %b = stablehlo.broadcast_in_dim %r, dims = [] : (tensor<f32>) -> tensor<4x4xf32>
  %s = stablehlo.multiply %w, %b : tensor<4x4xf32>
  %d = stablehlo.dot_general %s, %w, contracting_dims = [1] x [0] : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %d : tensor<4x4xf32>
}
